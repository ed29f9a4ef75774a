"""Off the happy path at a real table, at 390 × 844: a Wi-Fi drop or a server that answers 500 or
429 during entry and save, an undo taken back, doubles noted before play, the reasons Save is
refused right above it, and a second phone following the first one's saves."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from .driver import GAME_PAGE, Player

pytestmark = pytest.mark.browser

TRIX = {"game": "trix", "mode": "solo", "players": ["Rami", "Lina", "Omar", "Dana"], "first": 0}
COMPLEX = {"game": "trix-complex", "mode": "solo", "players": ["سامي", "ليلى", "يوسف", "مريم"],
           "first": 0}
SAVE = "#deal-form button.save"
NET_ERROR = "#deal-form .net-error"


def _player(new_context: Any, locale: str = "en", *, javascript: bool = True,
            record: dict[str, Any] | None = None) -> Player:
    page = new_context(locale=locale, javascript=javascript).new_page()
    player = Player(page, javascript=javascript, shots=None, prefix=f"{locale}-forgiving")
    player.start_game(record or TRIX)
    return player


def _tap(player: Player, name: str, value: str) -> None:
    """Tap a chip (without waiting for its preview, which may not come back)."""
    player.chip(name, value)[1].click()


def _offline(page: Page, offline: bool) -> None:
    page.context.set_offline(offline)
    page.wait_for_function("(offline) => navigator.onLine === !offline", arg=offline)


# --- 1. a Wi-Fi drop, a 500 or a 429 is said, the entry kept, one tap to retry ----------------

def test_a_wifi_drop_during_entry_recovers_by_itself(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4]})
    _offline(page, True)
    _tap(player, "counts-2", "3")
    _tap(player, "counts-3", "1")
    message = page.locator(NET_ERROR)
    expect(message).to_be_visible()
    expect(message).to_contain_text("No connection")
    expect(page.locator(SAVE)).to_be_enabled()  # the chips are the truth: Save judges them
    for seat, count in enumerate((5, 4, 3, 1)):
        expect(player.chip(f"counts-{seat}", str(count))[0]).to_be_checked()
    player.check("a deal form after a Wi-Fi drop")
    _offline(page, False)  # back online: the preview is sent again without a tap
    expect(page.locator("#deal-preview .deal-scores")).to_be_visible()
    expect(page.locator("#deal-preview")).not_to_contain_text("left to tap")
    expect(message).to_be_hidden()
    expect(page.locator(SAVE)).to_be_enabled()
    player.save(1)


def test_a_save_without_connection_says_so_and_one_tap_retries(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context, "ar")
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4, 3, 1]})
    _offline(page, True)
    page.locator(SAVE).click()
    message = page.locator(NET_ERROR)
    expect(message).to_have_text("لم يُحفظ — لا اتصال. حاول مرة أخرى.")
    expect(page.locator("#deal-form")).to_be_visible()  # the entry is kept
    expect(player.chip("counts-0", "5")[0]).to_be_checked()
    save_box = page.locator(SAVE).bounding_box()
    message_box = message.bounding_box()
    assert save_box and message_box and 0 <= save_box["y"] - message_box["y"] - message_box[
        "height"] < 40, "the message sits right above Save"
    player.check("a save without connection")
    _offline(page, False)
    player.save(1)


@pytest.mark.parametrize(("status", "words"), [(500, "the server had a problem"),
                                               (429, "the server is busy")])
def test_a_500_or_429_on_save_is_said_and_the_retry_saves(new_context, status: int,  # type: ignore[no-untyped-def]
                                                          words: str) -> None:
    player = _player(new_context)
    page = player.page
    player.choose("ltoosh")
    player.enter({"tricks": [4, 3, 3, 3]})

    def refuse(route: Route) -> None:
        if route.request.method == "POST":
            route.fulfill(status=status, body="")
        else:
            route.fallback()

    page.route(re.compile(r"/deal$"), refuse)
    page.locator(SAVE).click()
    expect(page.locator(NET_ERROR)).to_contain_text(f"Not saved — {words}")
    expect(page.locator(SAVE)).to_be_enabled()
    page.unroute(re.compile(r"/deal$"))
    player.save(1)


def test_a_500_on_a_preview_keeps_the_taps_and_lets_save_judge_them(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    player.choose("diamonds")
    player.enter({"counts": [5, 4]})
    page.route("**/deal/preview", lambda route: route.fulfill(status=500, body=""))
    _tap(player, "counts-2", "3")
    _tap(player, "counts-3", "1")
    expect(page.locator(NET_ERROR)).to_contain_text("could not be worked out")
    expect(page.locator(SAVE)).to_be_enabled()
    page.unroute("**/deal/preview")
    _tap(player, "counts-3", "1")  # the next tap, even on a chosen chip, asks again
    expect(page.locator("#deal-preview .deal-scores")).to_be_visible()
    expect(page.locator(NET_ERROR)).to_be_hidden()
    player.save(1)


def test_requests_have_a_timeout_and_a_dead_one_is_said(new_context) -> None:  # type: ignore[no-untyped-def]
    player = _player(new_context)
    page = player.page
    timeout = page.evaluate("() => htmx.config.timeout")
    assert 0 < timeout <= 15_000, timeout
    page.evaluate("() => { htmx.config.timeout = 300; }")  # a dead Wi-Fi, sooner
    held: list[Route] = []
    page.route("**/deal?*", lambda route: held.append(route))  # never answered
    page.locator('.next a.contract[href*="contract=diamonds"]').click()
    expect(page.locator("#net-error")).to_contain_text("No answer from the server")
    page.unroute("**/deal?*")
    assert held, "the request was sent, and never answered"
    player.choose("diamonds")
    expect(page.locator("#net-error")).to_be_hidden()
