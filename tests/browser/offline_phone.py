"""A phone that plays with no network, for the browser tests of the offline layer: its
context (390 × 844, the service worker allowed, the paints counted), a game started by taps in
the same page (the engine booted once a module), deals entered here or through the server, and
what the server and the phone keep. The module's fixtures (`browser`: the whole Chromium, for
Background Sync; `phone`: a phone whose engine is ready) are imported by the test modules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.rules import record_from_json, replay
from scorekeeper.words.labels import signed
from tests.conftest import CHROMIUM_ARGS, WHOLE_CHROMIUM
from tests.rules.builders import FULL_GAME

from .conftest import PHONE, block_engine
from .driver import GAME_PAGE, Player, chip_taps, settle

ENGINE_READY = 180_000
"""Milliseconds a page may take to start its engine (Pyodide on a busy 2-core machine)."""
TRIX = {"game": "trix", "mode": "solo", "players": ["Rami", "Lina", "Omar", "Dana"], "first": 0}
DEALS = FULL_GAME["trix"]
COUNT_PAINTS = """
window.__painted = 0;
document.addEventListener("sk:painted", () => { window.__painted += 1; });
window.__keptSaid = [];  /* every text the page said of the deals kept here, in turn */
new MutationObserver(() => {
  const box = document.getElementById("kept"), said = box ? box.textContent : null;
  if (said && said !== window.__keptSaid[window.__keptSaid.length - 1]) {
    window.__keptSaid.push(said);
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""
KEPT = """() => new Promise((done) => {
  const opening = indexedDB.open("scorekeeper-offline", 1);
  opening.onsuccess = () => {
    const asked = opening.result.transaction("games").objectStore("games").getAll();
    asked.onsuccess = () => done(Object.fromEntries(
      asked.result.map((state) => [state.game, state.pending])));
  };
})"""
CACHED = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    kept[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
  }
  return kept;
}"""


def phone_context(browser: Browser, base: str, *, engine: bool = True) -> BrowserContext:
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale="en",
        base_url=base,
        extra_http_headers={"Accept-Language": "en"},
        service_workers="allow",
    )
    context.set_default_timeout(30_000)
    if not engine:
        block_engine(context)
    context.add_init_script(COUNT_PAINTS)
    return context


@pytest.fixture(scope="session")
def browser(whole_browser: Browser) -> Browser:
    """This module's phones run the whole Chromium: its service worker has Background Sync,
    which sends the deals kept on a phone when the network is back (the headless shell the
    other browser tests use has none: tests/conftest.py)."""
    return whole_browser


@pytest.fixture(scope="module")
def phone(browser: Browser, server: str) -> Iterator[Player]:
    """A phone whose engine has started and whose service worker controls its pages."""
    context = phone_context(browser, server)
    player = Player(context.new_page(), javascript=True, shots=None, prefix="offline")
    player.start_game(TRIX)
    wait_ready(player.page)
    yield player
    context.set_offline(False)
    context.close()


def wait_ready(page: Page) -> None:
    """The phone can go on here with no network: the engine holds the game, the kit and the
    page are kept (static/js/offline.js marks the page)."""
    page.wait_for_selector("html[data-offline-ready]", state="attached", timeout=ENGINE_READY)


def path_of(page: Page, game: str) -> str:
    """A game's address without its origin (as the phone keeps it)."""
    found = re.match(r"https?://[^/]+", page.url)
    assert found is not None
    return game.removeprefix(found.group(0))


def game_address(page: Page) -> str:
    found = re.match(r".*/g/[^/?#]+", page.url)
    assert found is not None, page.url
    return found.group(0)


def new_game(player: Player) -> str:
    """A new Trix game started by taps from the page the phone shows (the document, its engine
    and its service worker stay); its address."""
    page = player.page
    home = re.compile(r"^https?://[^/]+/$")
    if not home.match(page.url):
        # (from "/" itself a tap on the brand would load the page again, under the next tap)
        page.locator("header a.brand").click()
        page.wait_for_url(home)
    settle(page)
    page.locator("a.button.primary[href$='/new']").click()
    page.wait_for_url(re.compile(r"/new$"))
    player.tap_choice("game", "trix")
    player.tap_choice("mode", "solo")
    for seat, name in enumerate(TRIX["players"]):
        page.fill(f'input[name="player_{seat}"]', name)
    player.tap("form button[type=submit].primary")
    page.wait_for_url(GAME_PAGE)
    player.tap('.seat-buttons button[value="0"]')
    expect(page.locator(".next .contracts")).to_be_visible()
    wait_ready(page)
    return game_address(page)


def tap_deal(player: Player, raw: dict[str, Any]) -> None:
    """Tap a deal's chips, each preview painted by the engine before the next tap."""
    page = player.page
    for name, value in chip_taps(raw):
        field, label = player.chip(name, value)
        if field.is_checked():
            continue  # filled in by the app already
        count = page.evaluate("() => window.__painted")
        label.click()
        page.wait_for_function("(count) => window.__painted > count", arg=count)
    expect(page.locator("#deal-save")).to_be_enabled()


def enter_here(player: Player, raw: dict[str, Any]) -> None:
    """Enter a deal with no network: its form from the kit, saved on this phone."""
    page = player.page
    page.locator(f'#play a.contract[href*="contract={raw["contract"]}"]').click()
    page.locator("form#deal-form[data-local]").wait_for(timeout=ENGINE_READY)  # the engine answers
    tap_deal(player, raw)
    page.locator("#deal-save").click()
    expect(page.locator("form#deal-form")).to_have_count(0)
    expect(page.locator("#flash")).to_contain_text("Saved on this phone")


def enter_online(player: Player, raw: dict[str, Any], number: int) -> None:
    """Enter a deal with the network: the server's form, saved by the server."""
    page = player.page
    page.locator(f'.next a.contract[href*="contract={raw["contract"]}"]').click()
    page.locator("form#deal-form[data-engine=on]").wait_for(timeout=ENGINE_READY)
    tap_deal(player, raw)
    page.locator("#deal-save").click()
    expect(page.locator("#flash .flash-success")).to_contain_text(f"Deal {number} saved")
    wait_ready(page)  # the engine holds the game with it: the phone can go on here offline


def stored_deals(page: Page, game: str) -> list[dict[str, Any]]:
    """The deals the server holds (its export, asked beside the page)."""
    answer = page.request.get(game + "/export.json")
    assert answer.ok, answer.status
    derived = ("number", "chooser", "kingdom", "scores")
    deals: list[dict[str, Any]] = [
        {key: value for key, value in deal.items() if key not in derived}
        for deal in answer.json()["deals"]
    ]
    return deals


def totals_shown(page: Page) -> list[str]:
    return [text.strip() for text in page.locator("#scoreboard .totals .total").all_inner_texts()]


def totals_of(deals: list[dict[str, Any]]) -> list[str]:
    record = {"format": "scorekeeper-game/1", **{k: v for k, v in TRIX.items()}, "deals": deals}
    return [signed(total) for total in replay(record_from_json(record).game).totals]


def back_online(context: BrowserContext, page: Page) -> None:
    context.set_offline(False)
    expect(page.locator("#kept")).to_be_hidden(timeout=60_000)


NO_BACKGROUND_SYNC = """() => {
  if (!self.ServiceWorkerRegistration) { return; }  /* (not a secure context: none) */
  const kept = Object.getOwnPropertyDescriptor(ServiceWorkerRegistration.prototype, "sync");
  window.__backgroundSync = kept;
  Object.defineProperty(ServiceWorkerRegistration.prototype, "sync", {
    configurable: true, get: () => undefined});
}"""
BACKGROUND_SYNC_BACK = """() => self.ServiceWorkerRegistration && Object.defineProperty(
  ServiceWorkerRegistration.prototype, "sync", window.__backgroundSync)"""

OTHER_LTOOSH = {"contract": "ltoosh", "tricks": [1, 4, 4, 4]}
OTHER_TRIX = {"contract": "trix", "order": [1, 2, 3, 0]}


LAN_NAME = "scorekeeper.lan.test"
"""A host name that is not a secure context (plain HTTP on a LAN), resolved to the test server."""


@contextmanager
def plain_http(browser: Browser) -> Iterator[Browser]:
    """A Chromium that reaches the test server as http://LAN_NAME:port: no service worker, no
    Web Locks (not a secure context)."""
    lan = browser.browser_type.launch(
        executable_path=WHOLE_CHROMIUM[0],
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"],
    )
    try:
        yield lan
    finally:
        lan.close()
