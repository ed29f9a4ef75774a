"""Issue 32 at 360 × 740 (and 390 × 844): a result a chat shows cleanly (no isolate, still in
reading order) and a picture in the page's colours named after the game; the table's cards
dated in the reader's words and the server's zone; the view link a finger tall; the King's
declarations without a sideways scroll; one count of games on the roster and the statistics;
the address after a save; the new-game page a screen and a half tall; the Save bar never over
the field a keyboard reaches.

This module's server runs in the zone Asia/Kolkata (UTC+05:30): a game started at 22:30 UTC
on 1 March was started on 2 March at 04:00 there."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import serving
from .driver import check_layout, load_example, settle
from .test_round_two_b import SHARE_SHEET
from .test_table_polish import imported, part
from .test_tables import create_table, import_into

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
ZONE = "Asia/Kolkata"
STARTED = "2025-03-01T22:30:00Z"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server, in a zone five and a half hours from UTC."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = ZONE
    try:
        with serving(tmp_path_factory.mktemp("instance")) as base:
            yield base
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before


def narrow(new_context: Any, locale: str = "en", **more: Any) -> Page:
    page: Page = new_context(locale=locale, **more).new_page()
    page.set_viewport_size(NARROW)
    return page


# --- item 8: the shared text ----------------------------------------------------------------

READING_JS = """
([lines, tokens]) => {
  // each line as a chat shows plain text: its own paragraph, its direction by its first letter;
  // where each token (a start and an end in the line) is drawn
  document.body.innerHTML = '';
  return lines.map((line, index) => {
    const box = document.createElement('div');
    box.style.cssText = 'white-space: pre; unicode-bidi: plaintext; font: 16px sans-serif';
    box.textContent = line;
    document.body.appendChild(box);
    const node = box.firstChild;
    return tokens[index].map(([start, end]) => {
      const range = document.createRange();
      range.setStart(node, start); range.setEnd(node, end);
      const rects = [...range.getClientRects()];
      return [Math.min(...rects.map((r) => r.left)), Math.max(...rects.map((r) => r.right))];
    });
  });
}
"""
ISOLATES = re.compile("[\u2066-\u2069]")
MARKS = "\u200e\u200f"


def tokens_of(line: str, names: list[str]) -> list[tuple[int, int]]:
    """A line's tokens in reading (logical) order: its place, each name, each score, each word."""
    found = [(m.start(), m.end()) for m in re.finditer(r"^[\u200f]?\d+\.|[+−]\d+", line)]
    for name in names:
        found += [(m.start(), m.end()) for m in re.finditer(re.escape(name), line)]
    for word in ("Winner", "الفائز"):
        found += [(m.start(), m.end()) for m in re.finditer(word, line)]
    return sorted(found)


@pytest.mark.parametrize(
    ("locale", "players"),
    [
        ("ar", ["Rami", "Lina", "Omar", "Dana"]),
        ("ar", ["رامي", "Lina", "عمر", "دانة"]),
        ("en", ["رامي", "لينا", "عمر", "Dana"]),
    ],
)
def test_the_shared_text_is_plain_and_reads_in_order(
    new_context: Any, locale: str, players: list[str]
) -> None:
    """A chat received U+2066/2068/2069 around every name and number (boxes in several apps);
    now only RLM/LRM where needed, and every token still comes in reading order."""
    page = narrow(new_context, locale)
    imported(page, {**load_example("trix-partnership-complete"), "players": players})
    text = page.locator("[data-share]").get_attribute("data-share") or ""
    assert not ISOLATES.search(text), repr(text)
    lines = text.split("\n")
    tokens = [tokens_of(line, players) for line in lines]
    drawn = page.evaluate(READING_JS, [lines, tokens])
    for line, boxes in zip(lines[1:], drawn[1:], strict=True):
        assert len(boxes) >= 3, (line, boxes)
        for before, after in itertools.pairwise(boxes):  # each next token further along
            if locale == "ar":
                assert after[1] <= before[0] + 1, f"out of order right to left: {line!r} {boxes}"
            else:
                assert after[0] >= before[1] - 1, f"out of order left to right: {line!r} {boxes}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_shared_picture_follows_the_theme_and_is_named_after_the_game(
    new_context: Any, scheme: str
) -> None:
    context = new_context(locale="en")
    context.add_init_script(
        SHARE_SHEET.replace("file.size]", "file.size, file.name]")
        + "window.pictures = []; const keep = Navigator.prototype.share;"
        " Object.defineProperty(Navigator.prototype, 'share', {configurable: true,"
        " value: (data) => { window.pictures.push(...(data.files || [])); return keep(data); }});"
    )
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    imported(page, {**load_example("trix-partnership-complete"), "name": "Thursday night"})
    page.wait_for_function("() => document.querySelector('[data-share]').picture")
    page.locator(".share-result button").click()
    page.wait_for_function("() => window.pictures.length === 1")
    name = page.evaluate("() => window.pictures[0].name")
    assert re.fullmatch(r"Thursday-night-\d{4}-\d\d-\d\d\.png", name), name
    corner, page_colour = page.evaluate(
        """async () => {
          const bitmap = await createImageBitmap(window.pictures[0]);
          const canvas = document.createElement('canvas');
          canvas.width = bitmap.width; canvas.height = bitmap.height;
          const pen = canvas.getContext('2d'); pen.drawImage(bitmap, 0, 0);
          return [[...pen.getImageData(2, 2, 1, 1).data].slice(0, 3),
                  getComputedStyle(document.body).backgroundColor]; }"""
    )
    expected = [int(n) for n in re.findall(r"\d+", page_colour)[:3]]
    assert all(abs(a - b) <= 2 for a, b in zip(corner, expected, strict=True)), (corner, expected)
    assert (sum(corner) < 200) == (scheme == "dark"), corner


# --- item 12: the cards' dates --------------------------------------------------------------

DATES = {
    "en": ("Mar 2, 2025", "4:00"),
    "ru": ("2 мар. 2025", "04:00"),
    "ar": ("2 مارس 2025", "4:00"),
    "hi": ("2 मार्च 2025", "4:00"),
}


def test_table_cards_say_when_in_the_readers_words_and_the_servers_zone(
    new_context: Any, tmp_path: Any
) -> None:
    from .driver import Player

    page = narrow(new_context, "en")
    player = Player(page, javascript=True, shots=None, prefix="dates")
    table = create_table(player, "Thursday")
    record = {**load_example("trix-partnership-complete"), "created_at": STARTED}
    import_into(player, table, [record], tmp_path)
    for locale, (day, time) in DATES.items():
        reader = narrow(new_context, locale)
        reader.goto(table)
        stamp = reader.locator(".game-list time")
        expect(stamp).to_have_count(1)
        shown = stamp.inner_text()
        assert day in shown and time in shown, (locale, shown)
        assert "2025-03-01" not in shown
        assert stamp.get_attribute("datetime") == "2025-03-02T04:00+05:30"
    page.goto(table)
    page.locator(".game-list a").first.click()
    share = page.locator("[data-share]").get_attribute("data-share") or ""
    assert share.split("\n")[0].endswith("Mar 2, 2025"), share


# --- item 7: the view link ------------------------------------------------------------------


def test_the_view_link_is_a_finger_tall(new_context: Any) -> None:
    page = narrow(new_context, "en")
    imported(page, part(load_example("trix-partnership-complete"), 3))
    page.locator(".share summary").click()
    box = page.locator(".share .view-link").bounding_box()
    assert box and box["height"] >= 44, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
    check_layout(page, "the game page's Share open")


# --- item 2: one count of games -------------------------------------------------------------


def test_the_roster_and_the_statistics_count_the_same_games(
    new_context: Any, tmp_path: Any
) -> None:
    """A game seated but not begun (nobody chosen first) made the roster say "Dana 3 games"
    beside the statistics' "2 games · 2 finished"."""
    from .driver import Player

    page = narrow(new_context, "en")
    player = Player(page, javascript=True, shots=None, prefix="counts")
    table = create_table(player, "Thursday")
    record = load_example("trix-partnership-complete")
    import_into(
        player, table, [record, {**record, "players": ["Rami", "Lina", "Omar", "Dana"]}], tmp_path
    )
    page.goto(table + "/new")  # the last four seated: start, and leave it before the first king
    page.click("form button.primary[name=start]")
    expect(page.locator(".seat-buttons button")).to_have_count(4)
    page.goto(table + "/stats")
    expect(page.locator("main h1 + p")).to_have_text("2 games · 2 finished")
    for where in (table + "/players", table):
        page.goto(where)
        dana = page.locator(".roster-edit li, .roster li", has_text="Dana").first
        expect(dana).to_contain_text("2 games")
    page.goto(table)
    page.locator(".game-list a").first.click()  # the game seated: the first king chosen now
    page.locator(".seat-buttons button").first.click()
    expect(page.locator(".next .contracts")).to_be_visible()  # saved before the page is left
    page.goto(table + "/stats")
    expect(page.locator("main h1 + p")).to_have_text("3 games · 2 finished")
    page.goto(table + "/players")
    expect(page.locator(".roster-edit li", has_text="Dana").first).to_contain_text("3 games")


# --- item 11: the King's declarations -------------------------------------------------------

LONG_RUSSIAN = ["Константинопольская", "Преображенский", "Александра Петрова", "Мария"]
FORTY = [
    "Muhammed Ali Karakaya Abdurrahmanoğlu Xy",
    "عبد الرحمن بن محمد الحسيني القرشي الهاشم",
    "Александра Константинопольская-Петровна",
    "राजेश्वरी कुमारी श्रीवास्तव शर्मा वर्मा",
]


@pytest.mark.parametrize("players", [LONG_RUSSIAN, FORTY], ids=["russian", "forty"])
@pytest.mark.parametrize("locale", ["ru", "hi"])
def test_the_declarations_fit_360_px(new_context: Any, locale: str, players: list[str]) -> None:
    """The quota table scrolled sideways at 360 in Russian and Hindi."""
    from .test_names import SHOWN_JS

    page = narrow(new_context, locale)
    imported(page, part(load_example("turkish-king-complete"), 6, players=players))
    settle(page)
    table = page.locator("#quotas .table-scroll")
    table.scroll_into_view_if_needed()
    width, room = table.evaluate("(el) => [el.scrollWidth, el.clientWidth]")
    assert width <= room, f"the declarations are {width} px wide in {room} px"
    shown = page.evaluate(SHOWN_JS, "#quotas tbody th")
    assert len(shown) == 4 and not [place for place in shown if place["cut"]], shown
    check_layout(page, f"{locale} declarations at 360")


# --- item 10: the address after a save --------------------------------------------------------

GAME = re.compile(r"/g/[^/?#]+$")


def test_a_save_leaves_the_game_page_in_the_address_bar(new_context: Any) -> None:
    """A chip tapped while the save was out sent a preview that cut the save's answer off: the
    page stayed on the form, the address on /deal?contract=…&doubled_by=…"""
    page = narrow(new_context, "en")
    imported(page, part(load_example("trix-partnership-complete"), 0))
    page.locator("#play a.contract[href*='contract=king-of-hearts']").click()
    settle(page)
    page.locator("#r-doubled_by label.chip").nth(2).click()
    settle(page)
    page.locator("#r-taker label.chip").nth(1).click()
    settle(page)
    assert "/deal?contract=king-of-hearts" in page.url
    expect(page.locator("#deal-save")).to_be_enabled()
    page.evaluate(
        """() => { document.querySelector('#deal-save').click();
                   setTimeout(() => document.querySelectorAll('#r-doubled_by label.chip')[3]
                     .click(), 5); }"""
    )
    expect(page.locator(".flash-success")).to_contain_text("Deal 1 saved")
    settle(page)
    assert GAME.search(page.url), page.url
    expect(page.locator("#play h2")).to_be_focused()


# --- item 6: the Save bar -------------------------------------------------------------------

HINDI = ["राजेश्वरी शर्मा", "अनुराधा श्रीवास्तव", "मोहनलाल", "सुरेश कुमार"]
UNDER_BAR_JS = """
() => {
  const chip = document.activeElement.closest('label.chip');
  if (!chip) return null;
  const box = chip.getBoundingClientRect();
  const bar = document.querySelector('#deal-form .actions').getBoundingClientRect();
  const top = document.querySelector('.scoreboard').getBoundingClientRect().bottom;
  return {chip: [box.top, box.bottom], bar: bar.top, top: top,
          name: chip.closest('.chip-row').id};
}
"""


def test_the_save_bar_never_covers_the_field_a_keyboard_reaches(new_context: Any) -> None:
    """Hindi at 360: the next field slid under the sticky Save bar."""
    page = narrow(new_context, "hi")
    imported(page, part(load_example("trix-partnership-complete"), 0, players=HINDI))
    page.locator("#play a.contract[href*='contract=king-of-hearts']").click()
    settle(page)
    bar = page.locator("#deal-form .actions").bounding_box()
    assert bar is not None
    for row in page.locator("#deal-form .chip-row").all():  # the whole form in one screen
        box = row.bounding_box()
        assert box and box["y"] + box["height"] <= bar["y"] + 0.5, (box, bar)
    page.goto(page.url.split("/deal")[0])
    page.locator("#play a.contract[href*='contract=queens']").click()
    settle(page)
    page.locator("#play h1").focus()
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        where = page.evaluate(UNDER_BAR_JS)
        if where is None:
            continue
        seen.add(where["name"])
        top, bottom = where["chip"]
        assert bottom <= where["bar"] + 0.5, f"{where['name']} under the Save bar: {where}"
        assert top >= where["top"] - 0.5, f"{where['name']} under the totals: {where}"
    assert len(seen) == 8, seen  # every row of the queens' form reached


# --- item 9: the new-game page --------------------------------------------------------------

PHONE = {"width": 390, "height": 844}
RULES_OF = {  # which house rules each game shows (the engine's GameDef.house_rules)
    "trix": {"doubling", "doubled_self_take", "swap_diamonds_ltoosh"},
    "trix-complex": {
        "doubling",
        "doubled_self_take",
        "doubled_queen_of_diamonds",
        "complex_tricks",
    },
    "turkish-king": {"winners"},
}


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("locale", ["en", "ar", "ru", "hi"])
def test_the_new_game_shows_the_chosen_games_rules_in_a_screen_and_a_half(
    new_context: Any, locale: str, javascript: bool
) -> None:
    """2,517 px at 390 with the house rules of all three games after Turkish King was
    chosen; a choice shows its own rules by CSS (no JavaScript needed)."""
    from scorekeeper.rules import GAMES

    assert {game: set(GAMES[game].house_rules) for game in RULES_OF} == RULES_OF
    page = new_context(locale=locale, javascript=javascript).new_page()
    page.set_viewport_size(PHONE)
    page.goto("/new")
    every = set().union(*RULES_OF.values())
    for game, shown in RULES_OF.items():
        page.locator(f"input[name='game'][value='{game}'] + label").click()
        for rule in every:
            field = page.locator(f"[name='{rule}']").first
            if rule in shown:
                expect(
                    field.locator("xpath=ancestor::*[contains(@class, 'for-game')][1]")
                ).to_be_visible()
            else:
                expect(field).to_be_hidden()
        check_layout(page, f"{locale} new game, {game} chosen")
    height = page.evaluate("document.documentElement.scrollHeight")  # Turkish King chosen
    assert height <= 1.5 * PHONE["height"], f"{height} px: more than a screen and a half"
