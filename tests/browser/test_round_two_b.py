"""Issue 24 at 390 × 844: a late answer is asked about before anything is said, "Same four
again" after a game outside a table, a second phone's out-of-date form, the table page's game
cards, the statistics that add up, and sharing the result."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from .driver import GAME_PAGE, Player, load_example
from .test_tables import create_table, import_into, seats_shown

pytestmark = pytest.mark.browser

TRIX = {"game": "trix", "mode": "solo", "players": ["Rami", "Lina", "Omar", "Dana"], "first": 0}
SAVE = "#deal-form button.save"
NET_ERROR = "#deal-form .net-error"
SAVE_POST = re.compile(r"/deal$")


def _player(new_context: Any, locale: str = "en", record: dict[str, Any] | None = None) -> Player:
    page = new_context(locale=locale).new_page()
    player = Player(page, javascript=True, shots=None, prefix=f"{locale}-round-two")
    player.start_game(record or TRIX)
    return player


def _hold_saves(page: Any) -> list[Route]:
    """Saves are sent but get no answer (a dead Wi-Fi, a server slower than the timeout)."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.fallback()

    page.route(SAVE_POST, hold)
    page.evaluate("() => { htmx.config.timeout = 300; }")
    return held


def _late(route: Route) -> None:
    """The held save reaches the server late: stored, its answer to a page that gave up."""
    answer = route.fetch()
    with contextlib.suppress(Exception):  # the page's request is gone; the server has the deal
        route.fulfill(response=answer)


# --- item 2: a late answer --------------------------------------------------------------------


def test_a_save_stored_after_the_timeout_is_said_saved(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    held = _hold_saves(page)
    asked: list[str] = []

    asked_bodies: list[str] = []

    def check(route: Route) -> None:  # the page asks only after its save timed out
        asked.append(route.request.url)
        asked_bodies.append(route.request.post_data or "")
        _late(held[0])  # by then the slow save has been stored
        route.continue_()

    page.route("**/deal/check", check)
    page.locator(SAVE).click()
    page.wait_for_url(GAME_PAGE, timeout=30_000)  # (two round trips to a busy server)
    expect(page.locator(".flash-success")).to_contain_text("Deal 1 is in the game.")
    expect(page.locator("#history-rows tr:not(.deal-details)")).to_have_count(1)
    expect(page.get_by_text("Not saved")).to_have_count(0)
    assert len(held) == 1 and len(asked) == 1
    assert "entry_key=" in asked_bodies[0]  # asked by the form's key


def test_not_saved_is_said_only_when_true_and_save_again_says_saved_in_arabic(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context, "ar")
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    held = _hold_saves(page)
    page.locator(SAVE).click()
    message = page.locator(NET_ERROR)
    expect(message).to_have_text("لم يُحفظ. لا رد من الخادم. حاول مرة أخرى.")
    player.check("a save that got no answer")
    _late(held[0])  # ...and then the server stores it after all
    page.unroute(SAVE_POST)
    page.locator(SAVE).click()  # the second tap is not silent: the deal is there
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".flash-success")).to_contain_text("1")
    expect(page.locator("#history-rows tr:not(.deal-details)")).to_have_count(1)


def test_when_the_question_gets_no_answer_either_not_saved_is_not_said(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    _hold_saves(page)
    page.route("**/deal/check", lambda route: route.abort())
    page.locator(SAVE).click()
    # whether it was saved is not known: only why the question failed, and to try again
    # (a save sent again is never stored twice), never "Not saved"
    expect(page.locator(NET_ERROR)).to_have_text("No connection. Try again.")


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_a_late_answer_with_the_question_slow_too_is_its_own_save(
    new_context: Any, locale: str
) -> None:
    """Issue 29: the save's answer comes after the timeout and the question after it gets no
    answer either; the page that follows other phones then finds the game moved on. It is
    this phone's own save (by its key): the game page says deal 4 is in the game — never
    "saved on another phone", never "Enter these taps as the next deal"."""
    player = _player(new_context, locale)
    page = player.page
    for number, (contract, taps) in enumerate(
        (
            ("king-of-hearts", {"taker": 1}),
            ("ltoosh", {"tricks": [4, 3, 3, 3]}),
            ("trix", {"order": [2, 0, 3, 1]}),
        ),
        start=1,
    ):
        player.choose(contract)
        player.enter(taps)
        player.save(number)
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    held = _hold_saves(page)
    page.route("**/deal/check", lambda route: route.abort())  # the question fails too
    carried: list[str] = []
    page.route("**/deal/carry", lambda route: (carried.append(route.request.url), route.abort()))
    page.locator(SAVE).click()
    expect(page.locator(NET_ERROR)).to_be_visible()
    _late(held[0])  # the server stored it after all
    page.unroute(SAVE_POST)
    page.wait_for_url(GAME_PAGE, timeout=30_000)  # the poll following other phones (3 s)
    said = {"en": "Deal 4 is in the game.", "ar": "الجولة 4 مسجّلة في اللعبة."}[locale]
    expect(page.locator(".flash-success")).to_have_text(said)
    expect(page.locator("#history-rows tr:not(.deal-details)")).to_have_count(4)
    expect(page.locator("#deal-carry")).to_have_count(0)
    expect(page.get_by_text("another phone")).to_have_count(0)
    expect(page.get_by_text("هاتف آخر")).to_have_count(0)
    assert not carried
    player.check(f"{locale}: its own late save, found by its key")


# --- item 7: the table page tells games apart; the next game has the last four seated ---------


def test_table_cards_have_date_winner_and_totals_and_the_last_four_are_seated_in_arabic(  # type: ignore[no-untyped-def]
    new_context, tmp_path
) -> None:
    record = load_example("trix-partnership-complete")
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-cards")
    table = create_table(player, "الخميس")
    import_into(player, table, [record, {**record, "deals": record["deals"][:3]}], tmp_path)
    cards = page.locator(".game-list li")
    expect(cards).to_have_count(2)
    playing, finished = cards.nth(0), cards.nth(1)
    expect(finished.locator(".won")).to_be_visible()
    expect(finished.locator(".card-totals")).to_contain_text("+250")
    expect(finished.locator(".card-totals")).to_contain_text("−250")
    expect(playing.locator(".card-totals")).to_be_visible()
    expect(finished.locator("time")).to_be_visible()
    player.check("table page with game cards")
    page.click("a.button.primary[href$='/new']")
    page.wait_for_url(re.compile(r"/new$"))
    assert seats_shown(page) == record["players"]
    player.check("the next game, the last four seated")
    page.click("form button.primary[name=start]")
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".seat-buttons button")).to_have_text(record["players"])


# --- item 6: statistics that add up on screen -------------------------------------------------


def test_statistics_name_their_games_and_no_line_hides_another_in_arabic(  # type: ignore[no-untyped-def]
    new_context, tmp_path
) -> None:
    record = load_example("trix-partnership-complete")
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-stats")
    table = create_table(player, "الخميس")
    import_into(player, table, [record, {**record, "deals": record["deals"][:5]}], tmp_path)
    page.goto(table + "/stats")
    player.check("statistics of one finished and one unfinished game")
    standings = page.locator("section[aria-labelledby=standings-title]")
    expect(standings.locator(".stats-table caption")).to_have_count(1)  # one kind: one table
    # the notes of the game statistics (the evening's sections have their own)
    notes = page.locator("section.stats:not(#nights):not(#ratings):not([id^=rivals-]) .set-note")
    expect(notes).to_have_count(5)
    for index in range(4):
        expect(notes.nth(index)).to_be_visible()
    # the two partners won together: their lines meet all the way, both still seen
    lines = page.locator("svg.running-wins polyline.series")
    boxes = [lines.nth(index).bounding_box() for index in range(lines.count())]
    assert len({(round(box["y"]), round(box["height"])) for box in boxes if box}) == len(boxes)


# --- new: share the result --------------------------------------------------------------------

SHARE_SHEET = """
window.shared = [];
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: (data) => {
  window.shared.push({text: data.text,
                      files: (data.files || []).map((file) => [file.type, file.size])});
  return Promise.resolve();
}});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value: () => true});
"""
NO_SHARE_SHEET = """
window.copied = [];
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value: undefined});
Object.defineProperty(Navigator.prototype, "clipboard", {configurable: true, value: {
  writeText: (text) => { window.copied.push(text); return Promise.resolve(); }}});
"""


def _imported(page: Any, record: dict[str, Any]) -> None:
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


def test_the_last_deal_saved_one_tap_shares_the_standings_right_to_left(new_context) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-partnership-complete")
    context = new_context(locale="ar")
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-share")
    _imported(page, {**record, "deals": record["deals"][:-1]})
    expect(page.locator(".share-result")).to_have_count(0)  # not before the game ends
    player.choose(record["deals"][-1]["contract"])
    player.enter(record["deals"][-1])
    player.save(len(record["deals"]))
    box = page.locator(".share-result")
    expect(box).to_be_visible()
    player.check("finished game with its share button")
    page.wait_for_function("() => document.querySelector('[data-share]').picture")
    box.locator("button").click()
    page.wait_for_function("() => window.shared.length === 1")
    shared = page.evaluate("() => window.shared[0]")
    lines = shared["text"].split("\n")
    assert all(line.startswith("\u200f") for line in lines)  # each line right to left
    assert lines[0].startswith("\u200fتركس")  # the game, in the table's language
    assert "الفائز" in lines[1] and "+250" in lines[1]  # the winners first
    assert "−250" in lines[2] and "الفائز" not in lines[2]
    assert shared["files"] and shared["files"][0][0] == "image/png" and shared["files"][0][1] > 0
    assert page.locator("[data-keep-awake]").count() == 1  # still the game page, nothing sent


def test_without_a_share_sheet_the_result_is_copied(new_context) -> None:  # type: ignore[no-untyped-def]
    record = load_example("turkish-king-complete")
    context = new_context(locale="en")
    context.add_init_script(NO_SHARE_SHEET)
    page = context.new_page()
    _imported(page, record)
    page.locator(".share-result button").click()
    expect(page.locator(".share-said")).to_have_text("Copied: paste it into your chat.")
    copied = page.evaluate("() => window.copied")
    assert len(copied) == 1 and "Winner" in copied[0].split("\n")[1]
    assert "\u200f" not in copied[0]


def test_no_share_button_without_javascript(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="en", javascript=False).new_page()
    _imported(page, load_example("turkish-king-complete"))
    expect(page.locator(".share-result")).to_be_hidden()  # it could do nothing


# --- item 8: a second phone's out-of-date form ---------------------------------------------


def test_an_out_of_date_form_says_so_and_moves_its_taps_to_the_next_deal(new_context) -> None:  # type: ignore[no-untyped-def]
    first = _player(new_context)
    second_page = new_context(locale="en").new_page()
    second = Player(second_page, javascript=True, shots=None, prefix="en-carry")
    second_page.goto(first.page.url)
    second.choose("ltoosh")  # the second phone starts deal 1 as Ltoosh ...
    for seat, tricks in enumerate((4, 3, 3, 3)):
        second.tap_choice(f"tricks-{seat}", str(tricks))
    second.settle()
    first.choose("diamonds")  # ... while the first saves deal 1 as Diamonds
    first.enter({"contract": "diamonds", "counts": [5, 4, 3, 1]})
    first.save(1)
    save = second_page.locator(SAVE)
    expect(save).to_be_disabled(timeout=6000)  # told by the poll: no longer saveable
    expect(save).not_to_have_class(re.compile(r"\bprimary\b"))
    expect(second_page.locator("#deal-form .deal-head .error")).to_contain_text(
        "Deal 1 was saved on another phone"
    )
    carry = second_page.locator("#deal-carry")
    expect(carry).to_be_visible()
    second.check("an out-of-date form")
    carry.click()  # one tap: the same taps, as deal 2
    expect(second_page.locator("#deal-form .where")).to_contain_text("Deal 2")
    for seat, tricks in enumerate((4, 3, 3, 3)):
        expect(second.chip(f"tricks-{seat}", str(tricks))[0]).to_be_checked()
    expect(second_page.locator("#deal-carry")).to_have_count(0)
    second.save(2)
    expect(second_page.locator("#history-rows tr:not(.deal-details)")).to_have_count(2)


# --- item 9: the statistics files ---------------------------------------------------------


def test_each_statistics_table_downloads_as_its_own_file_named_in_turkish(  # type: ignore[no-untyped-def]
    new_context, tmp_path
) -> None:
    record = load_example("trix-partnership-complete")
    page = new_context(locale="tr").new_page()
    player = Player(page, javascript=True, shots=None, prefix="tr-csv")
    table = create_table(player, "Perşembe")
    import_into(player, table, [record], tmp_path)
    page.goto(table + "/stats")
    player.check("statistics with one file per table")
    links = page.locator(".export-links a[href$='.csv']")
    # the game statistics, then the evening's (nights, rivals, who takes what; ratings are off)
    expect(links).to_have_count(6)
    names = []
    for index in range(6):
        with page.expect_download() as download:
            links.nth(index).click()
        names.append(download.value.suggested_filename)
        rows = list(
            csv.reader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8-sig")))
        )
        assert rows and all(len(row) == len(rows[0]) for row in rows)  # one table
        if index < 3:  # (one game: no rival yet, a column the evening's files leave empty)
            assert all(any(row[i] for row in rows[1:]) for i in range(len(rows[0])))
        assert "" not in rows[0]
    assert [name.rsplit("-", 3)[0] for name in names] == [
        "Perşembe-Sıralama",
        "Perşembe-Oyunlar",
        "Perşembe-Eşler",
        "Perşembe-Geceler",
        "Perşembe-Rakipler",
        "Perşembe-Kim-ne-alıyor",
    ]


def test_an_unnamed_king_games_export_is_named_in_turkish(new_context) -> None:  # type: ignore[no-untyped-def]
    record = {**load_example("turkish-king-complete"), "name": None}
    page = new_context(locale="tr").new_page()
    _imported(page, record)
    page.locator(".share summary").click()
    with page.expect_download() as download:
        page.locator(".share a[href$='export.csv']").click()
    name = download.value.suggested_filename
    assert name.startswith("king-") and "turkish" not in name, name


# --- item 5: the same four again, outside a table ----------------------------------------


def test_a_finished_game_offers_the_same_four_again_in_one_tap_in_arabic(new_context) -> None:  # type: ignore[no-untyped-def]
    record = load_example("turkish-king-complete")
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-again")
    _imported(page, record)
    finished = page.url
    again = page.locator("form.rematch button")
    expect(again).to_be_visible()
    player.check("a finished game with its next step")
    again.dblclick()  # a double tap makes one game
    page.wait_for_url(lambda url: url != finished and GAME_PAGE.search(url) is not None)
    expect(page.locator(".seat-buttons button")).to_have_text(record["players"])  # who is first
    player.check("the same four again: who declares first")
    page.goto("/")
    expect(page.locator(".game-list li")).to_have_count(2)  # the finished game and one more
