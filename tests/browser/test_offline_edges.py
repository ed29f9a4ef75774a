"""The offline layer's edges, by races rather than sequences (issue 42): an answer is held
(`page.route`) and the phone saves, undoes or reloads meanwhile; another phone undoes a deal
under one kept here; a reload with no network from a deal form's address; a deleted game; Cancel
in a form opened online. Nothing a person saved is lost, nothing is stored twice or moved
without the table's say, and every message is true.

Each test starts a game by taps in the module's one phone (its engine booted once)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from . import offline_phone as kit
from .driver import Player, settle
from .offline_phone import (
    BACKGROUND_SYNC_BACK,
    DEALS,
    ENGINE_READY,
    KEPT,
    LAN_NAME,
    NO_BACKGROUND_SYNC,
    TRIX,
    back_online,
    enter_here,
    enter_online,
    game_address,
    new_game,
    path_of,
    phone_context,
    plain_http,
    stored_deals,
    totals_of,
    totals_shown,
    wait_ready,
)

browser = kit.browser  # (the module's fixtures: the whole Chromium, and a ready phone)
phone = kit.phone

pytestmark = pytest.mark.browser


class Held:
    """The page's syncs of one game, held until the test answers them (the service worker's
    Background Sync is turned off meanwhile: a page's routes do not see its requests)."""

    def __init__(self, page: Page, game: str) -> None:
        self.page = page
        self.sync = path_of(page, game) + "/sync"
        self.routes: list[Route] = []
        self.stopped = False

    def __enter__(self) -> Held:
        self.page.evaluate(NO_BACKGROUND_SYNC)
        self.page.route(self._matches, self._hold)
        return self

    def _hold(self, route: Route) -> None:
        self.routes.append(route)

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Hold no more: the syncs held since go on, and so does the service worker's."""
        if self.stopped:
            return
        self.stopped = True
        self.page.unroute(self._matches)
        for route in self.routes:
            route.fallback()
        self.page.evaluate(BACKGROUND_SYNC_BACK)

    def _matches(self, url: str) -> bool:
        return url.endswith(self.sync)

    def two_kept_then_online(self, player: Player) -> Route:
        """Deals 1 and 2 kept with no network, then the network back: their sync, held."""
        self.page.context.set_offline(True)
        enter_here(player, DEALS[0])
        enter_here(player, DEALS[1])
        self.page.context.set_offline(False)
        return self.first()

    def first(self) -> Route:
        """The first sync sent (a minute at most: never a test that waits for ever)."""
        for _ in range(600):
            if self.routes:
                return self.routes.pop(0)
            self.page.wait_for_timeout(100)
        raise AssertionError("the page sent no sync")


def kept_said(page: Page) -> str:
    return page.locator("#kept").inner_text()


def test_a_deal_saved_while_a_sync_is_in_flight_is_kept_and_sent(phone: Player) -> None:
    """§1: the sync's answer is applied to what the phone keeps then, by key."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    with Held(page, game) as held:
        context.set_offline(True)
        enter_here(phone, DEALS[0])
        context.set_offline(False)
        late = held.first()  # deal 1 on its way, its answer slow
        enter_here(phone, DEALS[1])  # saved meanwhile
        expect(page.locator("#kept")).to_contain_text("2 deals on this phone are waiting")
        late.fulfill(response=late.fetch())
        held.stop()
        # the answer ("Deal 1 saved.") leaves deal 2 kept, and it goes in the next round
        expect(page.locator("#kept")).to_be_hidden(timeout=60_000)
    assert stored_deals(page, game) == DEALS[:2]
    assert totals_shown(page) == totals_of(DEALS[:2])
    expect(page.locator("#flash")).not_to_contain_text("Saved on this phone")  # §5: it left
    assert page.evaluate(KEPT)[path_of(page, game)] == []


def test_an_undo_during_a_sync_the_server_stored_first_is_said_and_undone_there(
    phone: Player,
) -> None:
    """§2: the sync carrying deal 2 reaches the server; the person undid deal 2 meanwhile."""
    page = phone.page
    game = new_game(phone)
    with Held(page, game) as held:
        late = held.two_kept_then_online(phone)
        page.locator("#undo [data-kept=undo]").click()  # "Undo deal 2", the sync in flight
        expect(page.locator("#kept")).to_contain_text("1 deal on this phone is waiting")
        late.fulfill(response=late.fetch())  # the server stored both
        held.stop()
        kept = page.locator("#kept")
        expect(kept).to_contain_text(
            "Deal 2 reached the server before your undo: it is in the game.", timeout=60_000
        )
    expect(page.locator("#flash")).not_to_contain_text("Deal 2 saved.")
    assert stored_deals(page, game) == DEALS[:2]
    page.locator("#kept [data-kept=undo-server]").click()  # "Undo deal 2 in the game"
    expect(page.locator("#kept")).to_be_hidden(timeout=60_000)
    assert stored_deals(page, game) == DEALS[:1]
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(1, timeout=30_000)
    assert totals_shown(page) == totals_of(DEALS[:1])


def test_an_undo_of_a_deal_whose_sync_was_lost_withdraws_it(phone: Player) -> None:
    """§2: the sync carrying deal 2 never reached the server; undone, it is withdrawn there
    (its key taken with nothing stored), and a late copy of it would be refused."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    with Held(page, game) as held:
        lost = held.two_kept_then_online(phone)
        body = lost.request.post_data_json
        lost.abort("connectionreset")  # never reached the server
        expect(page.locator("#undo [data-kept=undo]")).to_have_text("Undo deal 2")
        page.locator("#undo [data-kept=undo]").click()
    page.evaluate("() => dispatchEvent(new Event('online'))")
    back_online(context, page)
    assert stored_deals(page, game) == DEALS[:1]
    expect(page.locator("#flash")).not_to_contain_text("Deal 2 saved.")
    # the lost request comes after all (a late copy): deal 2's key is withdrawn, not stored
    token = page.evaluate(
        "() => JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']"
    )
    late = page.request.post(
        game + "/sync",
        data=body,
        headers={"X-CSRFToken": token, "Content-Type": "application/json"},
    )
    outcomes = [result["outcome"] for result in late.json()["results"]]
    assert outcomes[1] == "withdrawn", outcomes
    assert stored_deals(page, game) == DEALS[:1]


def test_a_reload_with_no_network_from_a_deal_forms_address_shows_the_game(
    phone: Player,
) -> None:
    """§3: after a save the address bar holds the game's address; any address of the game
    the phone had open (a deal form's) reloads from the kept copy with no network."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    enter_online(phone, DEALS[0], 1)
    assert page.url == game
    page.locator(f'.next a.contract[href*="contract={DEALS[1]["contract"]}"]').click()
    page.locator("form#deal-form[data-engine=on]").wait_for(timeout=ENGINE_READY)
    assert "/deal?" in page.url  # the server's form, at its own address
    context.set_offline(True)
    try:
        kit.tap_deal(phone, DEALS[1])
        page.locator("#deal-save").click()
        expect(page.locator("#flash")).to_contain_text("Saved on this phone")
        assert page.url == game  # not the form's address any more
        page.goto(game + "/deal?contract=diamonds")  # an old address, with no network
        expect(page.locator("#kept")).to_contain_text("1 deal on this phone is waiting")
        assert game_address(page) == game
        expect(page.locator("#history-rows th[scope=row]")).to_have_count(2)
    finally:
        back_online(context, page)
    assert stored_deals(page, game) == DEALS[:2]


def test_an_offline_reload_paints_the_kept_deals_first_and_a_tap_waits_for_the_engine(
    phone: Player,
) -> None:
    """§4: the page the service worker answers is the one the phone painted (the kept deals,
    the next step); a contract tapped before the engine is ready opens once it is, and the
    page never says "No connection" for it."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    context.set_offline(True)
    try:
        enter_here(phone, DEALS[0])
        enter_here(phone, DEALS[1])
        shown = totals_shown(page)
        page.wait_for_function(  # the painted page reached the service worker
            """async (path) => {
              const kept = await (await caches.open("scorekeeper-pages")).match(path);
              return Boolean(kept) && (await kept.text()).includes("2 deals on this phone are");
            }""",
            arg=path_of(page, game),
        )
        response = page.reload(wait_until="commit")
        assert response is not None
        first = response.text()  # what is painted before any script runs
        assert "2 deals on this phone are waiting" in first
        assert re.findall(r'class="total"[^>]*>([^<]+)<', first)[:4] == shown
        assert "Deal 3 of 20" in first
        page.locator(f'#play a.contract[href*="contract={DEALS[2]["contract"]}"]').click()
        page.locator("form#deal-form[data-local]").wait_for(timeout=ENGINE_READY)
        expect(page.locator("#net-error")).to_be_hidden()
        page.locator("form#deal-form a.button").click()  # Cancel: the next step again
    finally:
        back_online(context, page)
    assert stored_deals(page, game) == DEALS[:2]


def test_a_kept_deal_under_another_phones_undo_waits_for_the_tables_say(
    phone: Player, browser: Browser, server: str
) -> None:
    """§6: another phone undid deal 2 while this one kept deal 3: nothing is moved until the
    person chooses; "Enter mine as the next deal" stores it as deal 2."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    enter_online(phone, DEALS[0], 1)
    enter_online(phone, DEALS[1], 2)
    context.set_offline(True)
    enter_here(phone, DEALS[2])
    other_context = phone_context(browser, server, engine=False)
    try:
        other = other_context.new_page()
        other.goto(game)
        other.locator("#undo button[type=submit]").click()
        expect(other.locator("#undo")).to_contain_text("Deal 2 was removed")
    finally:
        other_context.close()
    context.set_offline(False)
    kept = page.locator("#kept")
    expect(kept).to_contain_text("The game changed on another phone", timeout=60_000)
    expect(kept.locator("ul.kept-deals li")).to_contain_text("Deal 3:")
    assert stored_deals(page, game) == DEALS[:1]  # nothing moved without a say
    page.locator("#kept [data-kept=next]").click()
    expect(kept).to_be_hidden(timeout=60_000)
    assert stored_deals(page, game) == [DEALS[0], DEALS[2]]


def test_a_deleted_games_page_is_not_shown_again(
    phone: Player, browser: Browser, server: str
) -> None:
    """§8: online, a navigation asks the network first; a 404 drops the kept copy."""
    page = phone.page
    game = new_game(phone)
    enter_online(phone, DEALS[0], 1)
    assert path_of(page, game) in page.evaluate(kit.CACHED)["scorekeeper-pages"]
    other_context = phone_context(browser, server, engine=False)
    try:
        other = other_context.new_page()
        other.goto(game + "/delete")
        other.locator("form button[type=submit].danger, form button[type=submit]").last.click()
        other.wait_for_url(re.compile(r"/$"))
    finally:
        other_context.close()
    response = page.goto(game)
    assert response is not None and response.status == 404
    page.wait_for_timeout(300)  # (the worker drops the copy as it answers)
    assert path_of(page, game) not in page.evaluate(kit.CACHED)["scorekeeper-pages"]
    page.goto("/")


def test_cancel_in_a_form_opened_online_returns_to_one_game_page(phone: Player) -> None:
    """§9: the form's hx-target="this" is not inherited by its boosted Cancel link."""
    page = phone.page
    new_game(phone)
    for _ in range(2):
        settle(page)
        page.locator(f'.next a.contract[href*="contract={DEALS[0]["contract"]}"]').click()
        expect(page.locator("form#deal-form")).to_be_visible()
        settle(page)
        page.locator("form#deal-form a.button").last.click()
        expect(page.locator("form#deal-form")).to_have_count(0, timeout=15_000)
        expect(page.locator(".next .contracts")).to_be_visible()
    expect(page.locator("header.top")).to_have_count(1)
    expect(page.locator("h1.game-title")).to_have_count(1)
    expect(page.locator("#scoreboard")).to_have_count(1)


def test_with_no_network_cancel_and_drop_show_the_game_as_it_stands(phone: Player) -> None:
    """Cancel in a form the phone opened with no network shows the next step again (the
    worker paints it: the server is not there to), and once the only deal kept here is
    dropped, the game is painted as the server has it: its history, its undo."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    enter_online(phone, DEALS[0], 1)
    context.set_offline(True)
    try:
        page.locator(f'#play a.contract[href*="contract={DEALS[1]["contract"]}"]').click()
        page.locator("form#deal-form[data-local]").wait_for(timeout=ENGINE_READY)
        expect(page.locator("#deal-preview")).to_contain_text("left to tap")  # the worker's
        page.locator("form#deal-form a.button").click()  # Cancel
        expect(page.locator("#play .contracts a.contract").first).to_be_visible()
        expect(page.locator("#play .where")).to_contain_text("Deal 2 of 20")
        enter_here(phone, DEALS[1])
        expect(page.locator("#history-rows th[scope=row]")).to_have_count(2)
        page.locator("#undo [data-kept=undo]").click()  # "Undo deal 2": dropped here
        expect(page.locator("#kept")).to_be_hidden()
        expect(page.locator("#history-rows th[scope=row]")).to_have_count(1)
        expect(page.locator("#history-rows")).not_to_contain_text("On this phone")
        expect(page.locator("#undo button")).to_have_text("Undo deal 1")  # the server's form
        expect(page.locator("#undo form")).to_have_count(1)
    finally:
        back_online(context, page)
    assert stored_deals(page, game) == DEALS[:1]


def test_over_plain_http_two_senders_and_a_save_in_flight_lose_nothing(
    browser: Browser, server: str
) -> None:
    """§1 where there are no Web Locks and no service worker (plain HTTP on a LAN): the page's
    senders take turns (a second try while the first sync is held waits for it), and a deal
    saved meanwhile is kept and sent."""
    with plain_http(browser) as lan:
        context = phone_context(lan, server.replace("127.0.0.1", LAN_NAME))
        player = Player(context.new_page(), javascript=True, shots=None, prefix="plain-race")
        page = player.page
        player.start_game(TRIX)
        game = game_address(page)
        wait_ready(page)
        assert page.evaluate("() => window.isSecureContext || Boolean(navigator.locks)") is False
        with Held(page, game) as held:
            context.set_offline(True)
            enter_here(player, DEALS[0])
            context.set_offline(False)
            late = held.first()
            page.evaluate("() => dispatchEvent(new Event('online'))")  # a second sender
            enter_here(player, DEALS[1])
            page.wait_for_timeout(1000)
            assert not held.routes, "a second sync went out while the first was in flight"
            # (fetched by Playwright, which knows nothing of Chromium's host name rule)
            to = late.request.url.replace(LAN_NAME, "127.0.0.1")
            late.fulfill(response=late.fetch(url=to))
            held.stop()
            expect(page.locator("#kept")).to_be_hidden(timeout=60_000)
        assert stored_deals(page, game.replace(LAN_NAME, "127.0.0.1")) == DEALS[:2]
