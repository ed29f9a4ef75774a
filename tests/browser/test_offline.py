"""The game goes on with no network, in Chromium at 390 × 844 (Playwright's offline emulation,
`context.set_offline`, which the service worker's own requests obey too).

A phone whose engine is ready plays five deals offline across a kingdom's end (the page counts
the deals it keeps), reloads the page with no network (served by the service worker, painted by
the engine), and sends them when the network is back: the server holds each deal exactly once,
in order, with the totals the phone showed. A deal kept here is undone before it is sent; a
save whose answer is lost is kept with its own key and never stored twice; a sync whose answer
comes late or is lost stores nothing twice and says nothing untrue; another phone's deal in the
place of one of ours is shown beside it, with both choices. Followers and view links show stored
deals only. Without the engine the page says "No connection" as before and keeps the taps.

The runtime starts once per page (seconds on a busy machine): one phone is kept for the module,
and a game is started for each test by taps in the same page (no reload, no restart).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Response, Route, expect

from . import offline_phone as kit
from .driver import Player, chip_taps
from .offline_phone import (
    BACKGROUND_SYNC_BACK,
    CACHED,
    DEALS,
    ENGINE_READY,
    KEPT,
    LAN_NAME,
    NO_BACKGROUND_SYNC,
    OTHER_LTOOSH,
    OTHER_TRIX,
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
    tap_deal,
    totals_of,
    totals_shown,
    wait_ready,
)

browser = kit.browser  # (the module's fixtures: the whole Chromium, and a ready phone)
phone = kit.phone

pytestmark = pytest.mark.browser


def test_five_deals_offline_across_a_kingdom_a_reload_then_each_stored_once(phone: Player) -> None:
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    for number, raw in enumerate(DEALS[:3], start=1):
        enter_online(phone, raw, number)
    context.set_offline(True)
    for count, raw in enumerate(DEALS[3:8], start=1):  # deals 4 to 8: kingdom 2 from deal 6
        enter_here(phone, raw)
        waiting = "1 deal on this phone is" if count == 1 else f"{count} deals on this phone are"
        expect(page.locator("#kept")).to_contain_text(f"{waiting} waiting for the server")
    expect(page.locator("#play .where")).to_contain_text("Kingdom 2 of 4 · Deal 9 of 20")
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(8)
    shown = totals_shown(page)
    assert shown == totals_of(DEALS[:8])
    assert len(page.evaluate(KEPT)[path_of(page, game)]) == 5

    page.reload()  # with no network: the service worker's copy, painted by the engine
    kept = page.locator("#kept")
    expect(kept).to_contain_text("5 deals on this phone are waiting", timeout=ENGINE_READY)
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(8)
    # before its engine is ready, the page never said another count than the deals kept
    said = page.evaluate("() => window.__keptSaid")
    assert said and all("5 deals on this phone are waiting" in text for text in said), said
    assert totals_shown(page) == shown
    expect(page.locator("#play .where")).to_contain_text("Deal 9 of 20")

    back_online(context, page)
    assert stored_deals(page, game) == DEALS[:8]  # each once, in order
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(8)
    assert totals_shown(page) == shown
    expect(page.locator("#history .edit")).to_have_count(8)  # the server's rows again
    assert page.evaluate(KEPT)[path_of(page, game)] == []


def test_content_named_files_come_from_the_http_cache_and_the_kept_copies_with_no_network(
    phone: Player,
) -> None:
    """Online, the service worker leaves the files whose address names their content to the
    browser's HTTP cache (a kept copy answers slower); with no network and that cache emptied,
    its kept copies answer: the page is styled and the engine starts."""
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    answered: list[tuple[str, bool]] = []

    def seen(response: Response) -> None:
        if "v=" in response.url or "/engine/" in response.url:
            answered.append((response.url, response.from_service_worker))

    context.on("response", seen)
    try:
        visit = context.new_page()  # (a reload may reuse what the page's memory holds)
        visit.goto(game)
        wait_ready(visit)
        visit.close()
        assert answered and not [url for url, by_worker in answered if by_worker], answered
        answered.clear()
        context.new_cdp_session(page).send("Network.clearBrowserCache")
        context.set_offline(True)
        page.reload()
        page.wait_for_function(
            "() => performance.getEntriesByName('sk:engine-ready').length > 0",
            timeout=ENGINE_READY,
        )
        kept = {url.split("?")[0].rsplit("/", 1)[-1] for url, by_worker in answered if by_worker}
        assert {"app.css", "engine.js", "pyodide.asm.wasm", "python_stdlib.zip"} <= kept, kept
        assert page.evaluate("() => getComputedStyle(document.body).margin") == "0px"
    finally:
        context.remove_listener("response", seen)
        context.set_offline(False)


def test_a_deal_kept_here_is_undone_before_it_is_sent(phone: Player) -> None:
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    context.set_offline(True)
    enter_here(phone, DEALS[0])
    enter_here(phone, DEALS[1])
    expect(page.locator("#kept")).to_contain_text("2 deals on this phone are waiting")
    undo = page.locator("#undo [data-kept=undo]")
    expect(undo).to_have_text("Undo deal 2")
    undo.click()
    expect(page.locator("#kept")).to_contain_text("1 deal on this phone is waiting")
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(1)
    expect(page.locator("#undo [data-kept=undo]")).to_have_text("Undo deal 1")
    enter_here(phone, DEALS[2])  # another deal 2 in its place
    back_online(context, page)
    assert stored_deals(page, game) == [DEALS[0], DEALS[2]]


def test_a_save_whose_answer_is_lost_is_kept_with_its_key_and_stored_once(phone: Player) -> None:
    page = phone.page
    game = new_game(phone)
    save = path_of(page, game) + "/deal"
    lost: list[str] = []

    def answer_lost(route: Route) -> None:  # the server stores it; the answer never comes
        if route.request.method != "POST" or lost:
            route.fallback()
            return
        lost.append(route.request.url)
        route.fetch()
        route.abort("connectionreset")

    page.route(lambda url: url.endswith(save), answer_lost)
    try:
        page.locator('.next a.contract[href*="contract=king-of-hearts"]').click()
        page.locator("form#deal-form[data-engine=on]").wait_for(timeout=ENGINE_READY)
        tap_deal(phone, DEALS[0])
        page.locator("#deal-save").click()
        # kept here with its own key (it may be stored: no undo here), then sent again: the
        # server answers from the key, and says so
        expect(page.locator("#flash")).to_contain_text("Deal 1 is in the game.", timeout=60_000)
    finally:
        page.unroute(lambda url: url.endswith(save))
    assert lost, "the save went to the server"
    expect(page.locator("#kept")).to_be_hidden()
    assert stored_deals(page, game) == [DEALS[0]]
    expect(page.locator("#history-rows th[scope=row]")).to_have_count(1)
    expect(page.locator("#history .edit")).to_have_count(1)


def test_a_late_and_a_lost_sync_answer_store_nothing_twice(phone: Player) -> None:
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    sync = path_of(page, game) + "/sync"
    held: list[Route] = []

    def answer_late(route: Route) -> None:  # answered when the test says
        held.append(route)

    page.route(lambda url: url.endswith(sync), answer_late)
    # the page's own sync is the one held here: the service worker's Background Sync would race
    # it for the same lock, and a page's routes do not see a service worker's requests
    page.evaluate(NO_BACKGROUND_SYNC)
    try:
        context.set_offline(True)
        enter_here(phone, DEALS[0])
        enter_here(phone, DEALS[1])
        context.set_offline(False)  # the first sync goes out; its answer is late
        for _ in range(600):  # (a minute at most: never a test that waits for ever)
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the page sent no sync when the network came back"
        page.evaluate("() => dispatchEvent(new Event('online'))")  # and a second try meanwhile
        expect(page.locator("#kept")).to_contain_text("2 deals on this phone are waiting")
        late = held.pop()
        late.fulfill(response=late.fetch())
        expect(page.locator("#kept")).to_be_hidden(timeout=60_000)
        expect(page.locator("#flash")).to_contain_text("Deal 2 saved.")
        assert not held or all(route.request.post_data_json is None for route in held)
    finally:
        page.unroute(lambda url: url.endswith(sync))
        page.evaluate(BACKGROUND_SYNC_BACK)
    assert stored_deals(page, game) == DEALS[:2]

    lost: list[str] = []

    def answer_lost(route: Route) -> None:
        if lost:
            route.fallback()
            return
        lost.append(route.request.url)
        route.fetch()  # stored by the server; the phone never hears it
        route.abort("connectionreset")

    page.route(lambda url: url.endswith(sync), answer_lost)
    try:
        context.set_offline(True)
        enter_here(phone, DEALS[2])
        enter_here(phone, DEALS[3])
        context.set_offline(False)
        expect(page.locator("#kept")).to_be_hidden(timeout=60_000)  # sent again: from the keys
        expect(page.locator("#flash")).to_contain_text("Deal 4 is in the game.")
    finally:
        page.unroute(lambda url: url.endswith(sync))
    assert lost
    assert stored_deals(page, game) == DEALS[:4]
    assert totals_shown(page) == totals_of(DEALS[:4])


def test_two_phones_offline_the_first_deal_stands_and_the_other_chooses(
    phone: Player, browser: Browser, server: str
) -> None:
    page, context = phone.page, phone.page.context
    game = new_game(phone)
    enter_online(phone, DEALS[0], 1)
    context.set_offline(True)
    enter_here(phone, DEALS[1])  # this phone's deal 2 (Queens) and 3 (Diamonds)
    enter_here(phone, DEALS[2])
    other_context = phone_context(browser, server, engine=False)
    try:
        other = Player(other_context.new_page(), javascript=True, shots=None, prefix="other")
        other.page.goto(game)
        other.choose("ltoosh")  # the other phone's deal 2 reaches the server first
        other.enter(OTHER_LTOOSH)
        other.save(2)
        # followers and view links show stored deals only
        expect(other.page.locator("#history-rows th[scope=row]")).to_have_count(2)
        view = other.page.locator("a.view-link").get_attribute("href")
        assert view is not None
        other.page.goto(view)
        expect(other.page.locator("#history-rows th[scope=row]")).to_have_count(2)

        context.set_offline(False)
        kept = page.locator("#kept")
        expect(kept).to_contain_text(
            "Another phone saved deal 2 first; yours was not saved.", timeout=60_000
        )
        # every deal waiting here, with its number; what a drop drops
        expect(kept.locator("ul.kept-deals li")).to_have_count(2)
        expect(kept.locator("ul.kept-deals li").nth(0)).to_contain_text("Deal 2: Queens")
        expect(kept.locator("ul.kept-deals li").nth(1)).to_contain_text("Deal 3: Diamonds")
        expect(kept).to_contain_text("In the game: Ltoosh")
        expect(kept.locator("[data-kept=drop]")).to_have_text("Drop my deal 2")
        expect(kept).to_contain_text("2 deals on this phone are waiting")
        expect(page.locator("#history-rows th[scope=row]")).to_have_count(2)  # the stored deal 2
        assert stored_deals(page, game) == [DEALS[0], OTHER_LTOOSH]
        # a tap on a panel painted for another deal (a sync's answer moved it on meanwhile)
        # drops nothing: the panel as it is now is shown again
        blocked = kept.locator("[data-kept=drop]").get_attribute("data-key")
        kept.locator("[data-kept=drop]").evaluate("(b) => b.setAttribute('data-key', 'x')")
        kept.locator("[data-kept=drop]").click()
        expect(kept.locator("[data-kept=drop]")).to_have_attribute("data-key", blocked or "?")
        expect(kept.locator("ul.kept-deals li")).to_have_count(2)
        page.locator("#kept [data-kept=next]").click()  # mine as deal 3, Diamonds as deal 4
        expect(kept).to_be_hidden(timeout=60_000)
        assert stored_deals(page, game) == [DEALS[0], OTHER_LTOOSH, DEALS[1], DEALS[2]]
        wait_ready(page)

        context.set_offline(True)  # both enter deal 5 (Trix), the other phone first
        enter_here(phone, DEALS[4])
        other.page.goto(game)
        other.choose("trix")
        other.enter(OTHER_TRIX)
        other.save(5)
    finally:
        other_context.close()
    context.set_offline(False)
    kept = page.locator("#kept")
    expect(kept).to_contain_text("Another phone saved deal 5 first", timeout=60_000)
    expect(kept.locator("[data-kept=drop]")).to_have_text("Drop my deal 5")
    page.locator("#kept [data-kept=drop]").click()
    expect(page.locator("#kept")).to_be_hidden()
    expect(page.locator("#history .edit")).to_have_count(5, timeout=30_000)  # the server's page
    played = [DEALS[0], OTHER_LTOOSH, DEALS[1], DEALS[2], OTHER_TRIX]
    assert stored_deals(page, game) == played
    assert totals_shown(page) == totals_of(played)
    cached = page.evaluate(CACHED)
    assert not [path for paths in cached.values() for path in paths if "/v/" in path]
    assert path_of(page, game) in cached["scorekeeper-pages"]


def test_without_the_engine_no_connection_as_before(browser: Browser, server: str) -> None:
    """No engine (not downloaded yet, blocked): a save with no network is not kept and not
    judged here; the page says so as before and keeps the taps."""
    context = phone_context(browser, server, engine=False)
    try:
        player = Player(context.new_page(), javascript=True, shots=None, prefix="no-engine")
        player.start_game(TRIX)
        page = player.page
        player.choose("diamonds")
        player.enter(DEALS[2])
        context.set_offline(True)
        page.locator("#deal-save").click()
        expect(page.locator("#deal-form .net-error")).to_have_text(
            "No connection. Try again.", timeout=30_000
        )
        for name, value in chip_taps(DEALS[2]):
            expect(player.chip(name, value)[0]).to_be_checked()
        expect(page.locator("#kept")).to_be_hidden()
        assert page.evaluate("() => navigator.serviceWorker.controller") is None
    finally:
        context.close()


def test_over_plain_http_kept_deals_outlive_the_page_and_the_page_says_so(
    browser: Browser, server: str
) -> None:
    """An address that is not a secure context (plain HTTP on a LAN: here a name Chromium
    resolves to the test server) has no service worker, so a reload with no network fails;
    the page says to keep it open, and a deal kept here (IndexedDB, which needs no secure
    context) outlives the page: sent when the page is opened again with the network."""
    with plain_http(browser) as lan:
        context = phone_context(lan, server.replace("127.0.0.1", LAN_NAME))
        player = Player(context.new_page(), javascript=True, shots=None, prefix="plain-http")
        page = player.page
        player.start_game(TRIX)
        game = game_address(page)
        wait_ready(page)
        assert page.evaluate("() => window.isSecureContext") is False
        context.set_offline(True)
        enter_here(player, DEALS[0])
        expect(page.locator("#kept")).to_contain_text(
            "keep this page open, as it cannot be reloaded with no connection. "
            "The deals stay on this phone."
        )
        page.close()  # (a reload here: the browser's own "no internet" page)
        context.set_offline(False)
        page = context.new_page()
        page.goto(game)
        expect(page.locator("#flash")).to_contain_text("Deal 1 saved", timeout=ENGINE_READY)
        assert stored_deals(page, game.replace(LAN_NAME, "127.0.0.1")) == [DEALS[0]]
