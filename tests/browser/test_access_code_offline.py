"""Behind an access code the phone still keeps its game for a reload with no network: the
service worker's script (a browser fetches it without the code's cookie) and the engine's files
answer without the code, and nothing else opens (issue 42 §7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from . import test_access_code
from .driver import Player
from .offline_phone import (
    CACHED,
    ENGINE_READY,
    TRIX,
    game_address,
    path_of,
    phone_context,
    wait_ready,
)
from .test_access_code import CODE, _enter

private_server = test_access_code.private_server  # (its fixture: a server with a code)

pytestmark = pytest.mark.browser


def test_the_service_worker_registers_and_keeps_the_game_behind_a_code(
    browser: Browser,
    private_server: str,
) -> None:
    context = phone_context(browser, private_server, engine=True)
    try:
        page = context.new_page()
        page.goto("/")
        assert "/access" in page.url
        _enter(page, CODE)
        player = Player(page, javascript=True, shots=None, prefix="access-offline")
        player.start_game(TRIX)
        game = game_address(page)
        wait_ready(page)  # the engine, the kit, and the page kept by the service worker
        page.wait_for_function(
            "async () => Boolean((await navigator.serviceWorker.getRegistration())?.active)",
            timeout=ENGINE_READY,
        )
        assert path_of(page, game) in page.evaluate(CACHED)["scorekeeper-pages"]
        context.set_offline(True)
        page.reload()  # with no network: the service worker's copy
        expect(page.locator("#play .contracts")).to_be_visible()
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    finally:
        context.set_offline(False)
        context.close()
