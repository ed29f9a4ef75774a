"""Issue 44 at 360 × 780 (and 390 × 844): the deal's scores in sight while tapping, a Complex
form a screen and a half shorter with its doubles open as in Trix, a past deal's edit form
offering only what the engine accepts, the conflict's carried form saying Save is still needed,
a game's time where it was played, and not one console error (nor a blocked inline style) in a
whole game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import block_engine, serving
from .driver import Player, check_layout, load_example, settle, tap_contract
from .test_accessibility import AXE, axe
from .test_table_polish import imported, part

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 780}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: it imports more games than one address may a session."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


def _page(browser: Any, server: str, size: dict[str, int], **more: Any) -> Page:
    context = browser.new_context(
        viewport=size,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        base_url=server,
        locale=more.pop("locale", "en"),
        **more,
    )
    context.set_default_timeout(15_000)
    block_engine(context)
    return context.new_page()


def _first_of_each(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The record's first deal of each contract, by contract."""
    found: dict[str, dict[str, Any]] = {}
    for deal in record["deals"]:
        found.setdefault(deal["contract"], deal)
    return found


# --- item 1: the deal's scores in sight -----------------------------------------------------

IN_SIGHT_JS = """
() => {
  const preview = document.querySelector('#deal-preview');
  const scores = preview.querySelector('.deal-scores');
  if (!scores) return 'no scores shown';
  const box = scores.getBoundingClientRect();
  const top = document.querySelector('.scoreboard').getBoundingClientRect().bottom;
  if (box.top < top - 0.5 || box.bottom > innerHeight + 0.5) {
    return `the scores stand at ${Math.round(box.top)}..${Math.round(box.bottom)}, `
      + `out of ${Math.round(top)}..${innerHeight}`;
  }
  for (const li of scores.querySelectorAll('li')) {  // nothing drawn over any of them
    const r = li.getBoundingClientRect();
    const over = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!over || !li.contains(over) && over !== li) {
      return `${li.innerText} is under ${over && over.outerHTML.slice(0, 60)}`;
    }
  }
  return null;
}
"""

GAMES = {
    "trix-partnership-complete": None,  # every Trix contract
    "trix-complex-solo-complete": ("complex",),
    "turkish-king-complete": None,  # every Turkish King contract
}


@pytest.mark.parametrize(
    ("size", "which"), [(NARROW, None), (PHONE, ("diamonds", "complex", "trump"))]
)
def test_the_deals_scores_stay_in_sight_after_every_contracts_last_tap(
    browser: Any, server: str, size: dict[str, int], which: tuple[str, ...] | None
) -> None:
    """At 390 × 844 the preview stood at y = 777 under the Save bar (y = 792) after the last
    chip of Diamonds, in trump and Complex forms alike."""
    page = _page(browser, server, size)
    player = Player(page, javascript=True, shots=None, prefix="in-sight")
    checked = 0
    for name, only in GAMES.items():
        record = load_example(name)
        imported(page, part(record, 0))
        game = page.url
        for contract, deal in _first_of_each(record).items():
            if (only and contract not in only) or (which and contract not in which):
                continue
            tap_contract(page, game, contract)
            player.enter(deal)
            settle(page)
            where = f"{contract} at {size['width']} × {size['height']}"
            assert page.evaluate(IN_SIGHT_JS) is None, (where, page.evaluate(IN_SIGHT_JS))
            check_layout(page, where)
            checked += 1
    assert checked == (13 if which is None else 3)


# --- item 2: the Complex form ---------------------------------------------------------------

COMPLEX_BEFORE = 2_397
"""The Complex form's height at 360 px before issue 44 with its doubles open (2,101 folded)."""


def test_the_complex_form_is_shorter_with_its_doubles_open(browser: Any, server: str) -> None:
    page = _page(browser, server, NARROW)
    imported(page, part(load_example("trix-complex-solo-complete"), 0))
    tap_contract(page, page.url, "complex")
    first = page.locator("#deal-form .deal-fields > .group").first
    expect(first).to_have_js_property("tagName", "FIELDSET")  # open, as Trix shows them
    expect(first).to_have_class("group group-optional_card_seats before-play")
    expect(page.locator("#deal-form details")).to_have_count(0)
    height = page.evaluate("document.querySelector('#deal-form').getBoundingClientRect().height")
    print(f"Complex form at 360 px: {height:.0f} px (before: {COMPLEX_BEFORE}, doubles open)")
    assert height <= 0.7 * COMPLEX_BEFORE, height
    rows = page.evaluate(ROW_HEIGHTS)
    assert len(rows) == 8 and max(rows) <= 80, rows  # a whole name and one line of chips
    narrowest = page.evaluate(NARROWEST_CHIP)
    assert narrowest >= 44, narrowest  # every count a tap wide
    check_layout(page, "the Complex form at 360")


ROW_HEIGHTS = """() => [...document.querySelectorAll('.group-counts .chip-row')]
    .map((row) => Math.round(row.getBoundingClientRect().height))"""
NARROWEST_CHIP = """() => Math.min(...[...document.querySelectorAll('.group-counts .chip')]
    .filter((chip) => chip.checkVisibility()).map((chip) => chip.getBoundingClientRect().width))"""
SHOWN = """(row) => [...document.querySelectorAll(`#${row} .chip`)]
    .filter((chip) => chip.checkVisibility()).map((chip) => chip.textContent)"""


def test_a_count_above_five_is_one_tap_away_and_shown_once_chosen(
    browser: Any, server: str
) -> None:
    """At 360 px a count row shows 0…5 and "6–13"; that chip shows the rest and asks nothing of
    the server or the engine; a count above 5 (tapped, or filled in by the app) keeps its row
    open; from 544 px (34rem), where 0…13 fit one line, the row is whole."""
    page = _page(browser, server, NARROW)
    imported(page, part(load_example("trix-complex-solo-complete"), 0))
    tap_contract(page, page.url, "complex")
    row = page.locator("#deal-form .group-counts .chip-row").first
    name = row.get_attribute("id").removeprefix("r-")  # type: ignore[union-attr]
    group = name.rsplit("-", 1)[0]
    shown = ["0", "1", "2", "3", "4", "5", "6–13"]
    assert page.evaluate(SHOWN, f"r-{name}") == shown
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    row.locator(".chip.more").click()
    assert page.evaluate(SHOWN, f"r-{name}") == [str(n) for n in range(14)]  # 0…6 over 7…13
    assert max(page.evaluate(ROW_HEIGHTS)) <= 125
    page.wait_for_timeout(300)
    assert not [url for url in asked if "/preview" in url], asked  # no field changed
    assert page.evaluate(NARROWEST_CHIP) >= 44
    player = Player(page, javascript=True, shots=None, prefix="more")
    # 1 + 1 + 1: the app fills in 10 for the fourth, whose row then shows 6…13 by itself
    for seat in range(3):
        player.chip(f"{group}-{seat}", "1")[1].click()
        settle(page)
    fourth = page.locator(f'input[name="{group}-3"][value="10"]')
    expect(fourth).to_be_checked()
    expect(page.locator(f"#r-{group}-3 label.chip", has=fourth)).to_be_visible()
    expect(page.locator(f"#r-{group}-3 .chip.more")).to_be_hidden()
    # a tapped 9 (one tap on "6–13" first, as a person makes it) stays in view
    field, label = player.chip(f"{group}-1", "9")
    label.click()
    settle(page)
    expect(field).to_be_checked()
    expect(label).to_be_visible()
    expect(page.locator(f"#r-{group}-1 .chip.more")).to_be_hidden()
    check_layout(page, "a Complex form with counts above five at 360")
    page.set_viewport_size({"width": 600, "height": 900})  # wide enough: 0…13 in one line
    page.reload()
    settle(page)
    assert page.evaluate(SHOWN, f"r-{name}") == [str(n) for n in range(14)]
    page.context.close()


# --- the new states, with axe ---------------------------------------------------------------


def test_the_new_states_have_no_axe_violations(browser: Any, server: str) -> None:
    """The Complex form with its scores in the bar, a past deal's edit form with a contract it
    cannot become, in English and Arabic."""
    for locale in ("en", "ar"):
        page = _page(browser, server, NARROW, locale=locale, bypass_csp=True)
        page.context.add_init_script(path=AXE)
        record = load_example("trix-partnership-complete")
        imported(page, part(record, 2))  # queens then Trix, in the first kingdom
        game = page.url
        tap_contract(page, game, "diamonds")
        Player(page, javascript=True, shots=None, prefix="axe").enter(
            _first_of_each(record)["diamonds"]
        )
        settle(page)
        assert not axe(page), (locale, "a filled-in form", axe(page))
        page.goto(game + "/deal/1/edit")
        closed = page.locator(".change-contract .closed")
        expect(closed).to_have_count(1)  # Trix: deal 2's
        assert not axe(page), (locale, "an edit form", axe(page))
        check_layout(page, f"{locale} an edit form with a closed contract")
        page.context.close()


# --- item 11: the time where the game was played --------------------------------------------


def test_a_game_is_listed_at_the_phones_time(browser: Any, server: str) -> None:
    """The phone in Riyadh (+03:00): the game's time on the list is its time there, whatever
    the server's zone."""
    page = _page(browser, server, NARROW, timezone_id="Asia/Riyadh")
    Player(page, javascript=True, shots=None, prefix="zone").start_game(
        load_example("trix-complex-solo-complete")
    )
    page.goto("/")
    stamp = page.locator(".game-list time").first.get_attribute("datetime")
    assert stamp and stamp.endswith("+03:00"), stamp


# --- item 12: not one console error in a whole game -----------------------------------------

LISTEN_JS = """
document.addEventListener('securitypolicyviolation', (e) => console.error(
  `CSP: ${e.violatedDirective} blocked at ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
"""


def test_a_whole_game_logs_nothing(new_context: Any) -> None:
    """~8 blocked inline styles a game were reported (CSP): no page may log an error. A whole
    Complex game with the engine in the phone, then its pages; every CSP violation and console
    error of every page counted."""
    context = new_context(locale="ar", engine=True)
    context.add_init_script(LISTEN_JS)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(  # which address a "Failed to load resource" was
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    record = load_example("trix-complex-solo-complete")
    player = Player(page, javascript=True, shots=None, prefix="quiet")
    player.start_game(record)
    for number, deal in enumerate(record["deals"], start=1):
        player.choose(deal["contract"])
        player.enter(deal)
        player.save(number)
    game = page.url
    for address in ("/", "/new", "/rules/trix-complex", game, game + "/deal/1/edit"):
        page.goto(address)
        settle(page)
    assert not problems, problems


# --- item 6: the carried form says Save is still needed --------------------------------------


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_carried_form_says_it_is_not_saved_yet(browser: Any, server: str, locale: str) -> None:
    """ "Enter these taps as the next deal" reopened the form with nothing said: it reads as
    if saved. Now the form says so at its head, in sight, and axe finds nothing there."""
    first = _page(browser, server, NARROW)
    record = load_example("trix-partnership-complete")
    imported(first, part(record, 0))
    game = first.url
    second = _page(browser, server, NARROW, locale=locale, bypass_csp=True)
    second.context.add_init_script(path=AXE)
    tap_contract(second, game, "ltoosh")  # the second phone starts deal 1 as Ltoosh ...
    other = Player(second, javascript=True, shots=None, prefix=f"{locale}-carried")
    other.enter({"tricks": [4, 3, 3, 3]})
    tap_contract(first, game, "diamonds")  # ... while the first saves deal 1 as Diamonds
    mine = Player(first, javascript=True, shots=None, prefix="en-first")
    mine.enter({"counts": [5, 4, 3, 1]})
    mine.save(1)
    carry = second.locator("#deal-carry")
    expect(carry).to_be_visible(timeout=10_000)  # told by the poll
    carry.click()
    settle(second)
    note = second.locator("#deal-form .deal-head .carried")
    expect(note).to_be_visible()
    expect(note).to_have_attribute("role", "status")
    said = {
        "en": "Not saved yet: your taps are now deal 2. Check them, then tap “Save deal”.",
        "ar": "لم تُحفظ بعد: اختياراتك الآن للجولة 2. راجعها ثم انقر «حفظ الجولة».",
    }[locale]
    expect(note).to_have_text(said)
    box = note.bounding_box()
    top = second.evaluate("document.querySelector('.scoreboard').getBoundingClientRect().bottom")
    assert box and top - 0.5 <= box["y"] and box["y"] + box["height"] <= NARROW["height"], box
    check_layout(second, f"{locale} the carried form")
    assert not axe(second), axe(second)
    expect(second.locator("#deal-save")).to_be_enabled()
