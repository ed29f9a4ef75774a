"""Issue 24 at 390 × 844: a late answer is asked about before anything is said, "Same four
again" after a game outside a table, a second phone's out-of-date form, the table page's game
cards, the statistics that add up, and sharing the result."""

from __future__ import annotations

import contextlib
import re
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

    def check(route: Route) -> None:  # the page asks only after its save timed out
        asked.append(route.request.url)
        _late(held[0])  # by then the slow save has been stored
        route.continue_()

    page.route("**/deal/check", check)
    page.locator(SAVE).click()
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".flash-success")).to_contain_text("Deal 1 saved.")
    expect(page.locator("#history-rows tr:not(.deal-details)")).to_have_count(1)
    expect(page.get_by_text("Not saved")).to_have_count(0)
    assert len(held) == 1 and len(asked) == 1


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


def test_when_the_question_gets_no_answer_either_the_page_says_it_may_be_saved(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    _hold_saves(page)
    page.route("**/deal/check", lambda route: route.abort())
    page.locator(SAVE).click()
    expect(page.locator(NET_ERROR)).to_have_text(
        "No answer from the server. The deal may have been saved: tap Save again, it is never"
        " saved twice.")


# --- item 7: the table page tells games apart; the next game has the last four seated ---------

def test_table_cards_have_date_winner_and_totals_and_the_last_four_are_seated_in_arabic(  # type: ignore[no-untyped-def]
        new_context, tmp_path) -> None:
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
        new_context, tmp_path) -> None:
    record = load_example("trix-partnership-complete")
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-stats")
    table = create_table(player, "الخميس")
    import_into(player, table, [record, {**record, "deals": record["deals"][:5]}], tmp_path)
    page.goto(table + "/stats")
    player.check("statistics of one finished and one unfinished game")
    expect(page.locator(".stats-table caption")).to_have_count(1)  # one kind: one table
    notes = page.locator(".set-note")
    expect(notes).to_have_count(5)
    for index in range(4):
        expect(notes.nth(index)).to_be_visible()
    # the two partners won together: their lines meet all the way, both still seen
    lines = page.locator("svg.running-wins polyline.series")
    boxes = [lines.nth(index).bounding_box() for index in range(lines.count())]
    assert len({(round(box["y"]), round(box["height"])) for box in boxes if box}) == len(boxes)
