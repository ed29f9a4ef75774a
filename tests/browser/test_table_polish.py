"""What a real table notices at 390 × 844 (issue 15): teams first in partnership results, help
with counts and orders, long names, right-to-left details, red suits, tap sizes, the modes a
game allows."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import record_from_json, replay

from .driver import GAME_PAGE, check_layout, chip_label, load_example, settle

pytestmark = pytest.mark.browser


def imported(page: Page, record: dict[str, Any]) -> None:
    """Load a game record through the import page (this browser then remembers the game)."""
    page.goto("/import")
    page.set_input_files(
        'input[type="file"]',
        files=[
            {
                "name": "game.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode("utf-8"),
            }
        ],
    )
    page.click("form button[type=submit]")
    page.wait_for_url(GAME_PAGE)


def part(record: dict[str, Any], deals: int, **changes: Any) -> dict[str, Any]:
    """The record's first `deals` deals, with other players or a name."""
    return {**record, "deals": record["deals"][:deals], **changes}


SIGN_FIRST_JS = """
(selector) => {
  // every "−15" in the chosen elements: its minus drawn before (left of) its digits
  const found = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/−(\\d+)/g)) {
        const range = document.createRange();
        range.setStart(node, match.index); range.setEnd(node, match.index + 1);
        const sign = range.getBoundingClientRect();
        range.setStart(node, match.index + 1); range.setEnd(node, match.index + match[0].length);
        const digits = range.getBoundingClientRect();
        found.push({text: match[0], first: sign.right <= digits.left + 1});
      }
    }
  }
  return found;
}
"""


# --- item 9: polish -----------------------------------------------------------------------------


def test_arabic_new_game_labels_keep_the_minus_before_the_digits(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    page.goto("/new")
    found = page.evaluate(SIGN_FIRST_JS, "form label")
    assert {item["text"] for item in found} >= {"−75", "−25", "−150", "−50", "−15", "−10"}
    assert all(item["first"] for item in found), found


def test_arabic_trix_order_points_the_way_arabic_reads(new_context) -> None:  # type: ignore[no-untyped-def]
    record = part(
        load_example("trix-partnership-complete"), 2, players=["سامي", "ليلى", "عمر", "دانة"]
    )
    assert record["deals"][1] == {"contract": "trix", "order": [0, 1, 2, 3]}
    page = new_context(locale="ar").new_page()
    imported(page, record)
    takes = page.locator("#history .takes").filter(has_text="دانة", has_not_text="♠").first
    text = takes.inner_text()
    # an arrow no font mirrors, pointing left: the way Arabic reads, from 1st to 4th
    assert "›" not in text and "‹" not in text
    assert text.count("←") == 3
    boxes = page.evaluate(
        """(el) => ['سامي', 'ليلى'].map((name) => {
             const node = el.firstChild, at = node.data.indexOf(name);
             const range = document.createRange();
             range.setStart(node, at); range.setEnd(node, at + name.length);
             return range.getBoundingClientRect().left; })""",
        takes.element_handle(),
    )
    assert boxes[0] > boxes[1]  # 1st place at the right, where an Arabic line starts


def test_arabic_chart_caption_uses_the_arabic_comma(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    imported(page, part(load_example("trix-partnership-complete"), 3))
    caption = page.locator(".chart-figure figcaption").inner_text()
    assert caption.count("،") == 1 and "," not in caption  # between the two teams


def _colour(page: Page, selector: str) -> tuple[int, ...]:
    value = page.eval_on_selector(selector, "(el) => getComputedStyle(el).color")
    return tuple(int(n) for n in re.findall(r"\d+", value)[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hearts_and_diamonds_are_red(new_context, scheme: str) -> None:  # type: ignore[no-untyped-def]
    page = new_context().new_page()
    page.emulate_media(color_scheme=scheme)
    imported(page, part(load_example("trix-partnership-complete"), 0))
    page.goto(page.url + "/deal?contract=queens")
    for suit in ("H", "D"):
        red, green, blue = _colour(page, f"#r-takers-{suit} .caption .red")
        assert red > 150 and red > green + 60 and red > blue + 60, (scheme, suit)
    for suit in ("S", "C"):
        expect(page.locator(f"#r-takers-{suit} .red")).to_have_count(0)
    # the page's background: the red stays readable on it
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert ("rgb(18, 18, 20)" in background) == (scheme == "dark")


def test_the_edit_link_is_a_finger_wide(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context().new_page()
    imported(page, part(load_example("trix-partnership-complete"), 2))
    for link in page.locator("#history a.edit").all():
        box = link.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box


@pytest.mark.parametrize("javascript", [True, False])
def test_turkish_king_offers_no_partnership(new_context, javascript: bool) -> None:  # type: ignore[no-untyped-def]
    page = new_context(javascript=javascript).new_page()
    page.goto("/new")
    partnership = page.locator('label[for="mode-1"]')
    note = page.locator(".solo-only")
    expect(partnership).to_be_visible()  # Trix allows both
    page.click('label[for="game-2"]')  # Turkish King
    expect(partnership).to_be_hidden()
    expect(note).to_be_hidden()
    page.click('label[for="game-0"]')  # back to Trix, partnership chosen, then Turkish King
    page.click('label[for="mode-1"]')
    page.click('label[for="game-2"]')
    # chosen before the game was: the page says what to do, and offers it (a plain page: the
    # same with JavaScript and without)
    expect(note).to_be_visible()
    expect(partnership).to_be_visible()
    page.click('label[for="mode-0"]')
    expect(partnership).to_be_hidden()
    expect(note).to_be_hidden()
    check_layout(page, "new game, Turkish King")
    for seat, name in enumerate(("Rami", "Lina", "Omar", "Dana")):
        page.fill(f'input[name="player_{seat}"]', name)
    page.click("form button[type=submit].primary")
    page.wait_for_url(GAME_PAGE)
    if javascript:
        settle(page)


# --- item 5: a partnership's result ranks the teams -----------------------------------------


def _above(page: Page, upper: str, lower: str) -> bool:
    return bool(
        page.evaluate(
            "([a, b]) => document.querySelector(a).getBoundingClientRect().bottom"
            " <= document.querySelector(b).getBoundingClientRect().top + 1",
            [upper, lower],
        )
    )


def _font_size(page: Page, selector: str) -> float:
    return float(
        page.eval_on_selector(selector, "(el) => parseFloat(getComputedStyle(el).fontSize)")
    )


def _check_teams_first(page: Page, where: str, finished: bool) -> None:
    assert _above(page, ".scoreboard .teams", ".scoreboard .totals"), where
    assert _font_size(page, ".scoreboard .teams .total") > _font_size(
        page, ".scoreboard .totals .total"
    ), where
    if not finished:
        return
    # the winning team carries the badge, and only it: Rami & Omar +250 against −250
    badges = page.locator(".badge")
    expect(badges).to_have_count(1)
    winner = page.locator(".team-standings li.winner")
    expect(winner).to_have_count(1)
    expect(winner).to_contain_text("Rami")
    expect(winner).to_contain_text("Omar")
    expect(winner.locator(".badge")).to_have_count(1)
    expect(page.locator(".scoreboard .teams li.winner")).to_contain_text("Rami")
    expect(page.locator(".scoreboard .totals li.winner")).to_have_count(0)
    assert _above(page, ".team-standings", ".standings"), where
    assert _font_size(page, ".team-standings li") > _font_size(page, ".standings li"), where
    check_layout(page, where)


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_partnership_results_rank_the_teams(new_context, locale: str) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-partnership-complete")
    # the players' own order differs from the teams': 1st and 3rd player are not one team
    result = replay(record_from_json(record).game)
    assert result.finished and result.team_totals == (250, -250)
    ranked = sorted(range(4), key=lambda seat: -result.totals[seat])
    assert {ranked[0], ranked[1]} != {0, 2}
    page = new_context(locale=locale).new_page()
    imported(page, record)
    _check_teams_first(page, f"{locale}: finished game page", True)
    view = page.locator("a.view-link, .share a[href*='/v/']").first.get_attribute("href")
    assert view is not None
    page.goto(view)
    _check_teams_first(page, f"{locale}: view link", True)
    page.goto("/")
    card = page.locator(".game-list li").first
    expect(card.locator(".won")).to_contain_text("Rami")
    expect(card.locator(".won")).to_contain_text("Omar")
    expect(card.locator(".won")).not_to_contain_text("Lina")
    check_layout(page, f"{locale}: home")


def test_a_game_in_progress_shows_the_teams_first(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context().new_page()
    imported(page, part(load_example("trix-partnership-complete"), 4))
    _check_teams_first(page, "game page", False)
    page.goto("/")
    expect(page.locator(".game-list li .won")).to_have_count(0)


# --- item 6: counts and orders help correct mistakes ------------------------------------------


def _tap(page: Page, name: str, value: str) -> None:
    chip_label(page, name, value).click()
    settle(page)


def test_a_filled_count_is_marked_and_refilled(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context().new_page()
    imported(page, part(load_example("trix-partnership-complete"), 0))
    page.click('.next a.contract[href*="contract=diamonds"]')
    expect(page.locator("#deal-form")).to_be_visible()
    settle(page)
    running = page.locator("#e-counts .sum")
    expect(running).to_have_count(0)
    _tap(page, "counts-0", "5")
    expect(running).to_have_text("5 / 13")
    for seat, count in enumerate((4, 3), start=1):
        _tap(page, f"counts-{seat}", str(count))
    expect(running).to_have_text("13 / 13")
    filled = page.locator('input[name="counts-3"][value="1"]')
    expect(filled).to_be_checked()
    border = "(el) => getComputedStyle(el).borderStyle"
    tapped_style = page.eval_on_selector('label:has(> input[name="counts-0"][value="5"])', border)
    filled_style = page.eval_on_selector('label:has(> input[name="counts-3"][value="1"])', border)
    assert filled_style == "dashed" and tapped_style != "dashed"
    _tap(page, "counts-0", "6")  # a correction: the app's 1 becomes 0
    expect(page.locator('input[name="counts-3"][value="0"]')).to_be_checked()
    expect(running).to_have_text("13 / 13")
    expect(page.locator("#e-counts .error")).to_have_count(0)
    expect(page.locator("#deal-save")).to_be_enabled()
    check_layout(page, "diamonds, refilled")
    _tap(page, "counts-3", "2")  # the player's own tap stands, and the sum says it is over
    expect(page.locator('input[name="counts-3"][value="2"]')).to_be_checked()
    expect(running).to_have_text("15 / 13")
    expect(page.locator("#e-counts .error")).to_contain_text("15")
    expect(page.locator("#deal-save")).to_be_disabled()


def test_a_player_placed_twice_is_named_at_once(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    record = part(
        load_example("trix-partnership-complete"), 0, players=["سامي", "Lina", "عمر", "دانة"]
    )
    imported(page, record)
    page.click('.next a.contract[href*="contract=trix"]')
    expect(page.locator("#deal-form")).to_be_visible()
    settle(page)
    _tap(page, "order-0", "1")
    _tap(page, "order-1", "1")
    message = page.locator("#e-order .error")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Lina")
    box = message.bounding_box()
    assert box is not None and 0 <= box["y"] < 844  # said where the player is looking
    _tap(page, "order-1", "2")
    expect(page.locator("#e-order .error")).to_have_count(0)


# --- item 7: long names keep the chip rows one line -------------------------------------------

LONG_NAMES = [  # 40 characters each, the first one a single long first name
    "Muhammed Ali Karakaya Abdurrahmanoğlu Xy",
    "Ayşe Nur Yılmaz-Demirtaş Öztürkoğlu Abcd",
    "عبد الرحمن بن محمد الحسيني القرشي الهاشم",
    "Александра Константинопольская Ивановнаа",
]

ROWS_JS = """
() => {
  const problems = [];
  for (const row of document.querySelectorAll('.group:not(.group-counts) .chip-row')) {
    const chips = [...row.querySelectorAll('.chip')];
    const tops = new Set(chips.map((chip) => Math.round(chip.getBoundingClientRect().top)));
    if (tops.size !== 1) problems.push(`${row.id}: ${tops.size} lines`);
    const box = row.getBoundingClientRect();
    for (const chip of chips) {
      const r = chip.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) problems.push(`${row.id}: outside`);
      if (chip.scrollWidth > chip.clientWidth + 1) problems.push(`${row.id}: ${chip.innerText}`);
    }
  }
  return problems;
}
"""

START_JS = """
(el) => {
  // the first letter of the name is drawn inside its box (not cut away at its start)
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node && !node.data.trim()) node = walker.nextNode();
  const at = node.data.search(/\\S/);
  const range = document.createRange();
  range.setStart(node, at); range.setEnd(node, at + 1);
  const letter = range.getBoundingClientRect(), box = el.getBoundingClientRect();
  return letter.left >= box.left - 1 && letter.right <= box.right + 1
    && letter.top >= box.top - 1 && letter.bottom <= box.bottom + 1;
}
"""


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_forty_character_names_keep_rows_one_line(new_context, locale: str) -> None:  # type: ignore[no-untyped-def]
    assert all(len(name) == 40 for name in LONG_NAMES)
    context = new_context(locale=locale)
    page = context.new_page()
    page.set_viewport_size({"width": 360, "height": 844})
    record = part(load_example("trix-partnership-complete"), 0, players=LONG_NAMES)
    imported(page, record)
    for contract in ("queens", "trix", "king-of-hearts"):
        page.goto(re.sub(r"/deal.*$", "", page.url) + f"/deal?contract={contract}")
        expect(page.locator("#deal-form")).to_be_visible()
        assert page.evaluate(ROWS_JS) == [], (locale, contract)
        check_layout(page, f"{locale}: {contract} at 360 px")
        chips = page.locator(".group:not(.group-counts) .chip-row").first.locator(".chip")
        shown = [text.strip() for text in chips.all_inner_texts() if text.strip()]
        names = shown[-4:]
        for short, full in zip(names, LONG_NAMES, strict=True):  # short forms of the names
            assert full.startswith(short.partition("…")[0]), short  # spelt as written
        assert len(set(names)) == 4
    # the score cards: each name's start (whole where it fits), none cut at its start
    for seat, name in enumerate(page.locator(".scoreboard .totals .name").all()):
        assert LONG_NAMES[seat].startswith(name.inner_text().strip().partition("…")[0])
        assert page.evaluate(START_JS, name.element_handle())


def test_a_latin_name_keeps_together_beside_its_score_in_arabic(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    record = part(load_example("trix-partnership-complete"), 0, players=LONG_NAMES)
    imported(page, record)
    page.click('.next a.contract[href*="contract=diamonds"]')
    settle(page)
    for seat, count in enumerate((5, 4, 3)):
        _tap(page, f"counts-{seat}", str(count))
    expect(page.locator(".deal-scores li")).to_have_count(4)
    for item in page.locator(".deal-scores li").all():
        # one box for the name: the score is never drawn between two parts of it
        parts = page.evaluate(
            "(li) => li.querySelector('bdi').getClientRects().length", item.element_handle()
        )
        assert parts == 1, item.inner_text()


def test_a_count_rows_caption_shows_the_whole_name_in_arabic(new_context) -> None:  # type: ignore[no-untyped-def]
    """A count row's caption sits above its chips with the row's width: a 40-character name
    has the whole row there, not a chip's width (cut, if at all, at its end)."""
    page = new_context(locale="ar").new_page()
    imported(page, part(load_example("trix-partnership-complete"), 0, players=LONG_NAMES))
    page.click('.next a.contract[href*="contract=diamonds"]')
    settle(page)
    captions = page.locator(".group-counts .chip-row .caption")
    expect(captions).to_have_count(4)
    for caption, name in zip(captions.all(), LONG_NAMES, strict=True):
        assert caption.inner_text().strip() == name
        box = caption.bounding_box()  # the row's width, not a chip's (4.5em, ~65 px)
        assert box is not None and box["width"] > 200, name
