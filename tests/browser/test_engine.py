"""The engine in the phone, in Chromium at 390 × 844: the worker (this app's engine under
Pyodide) answers every message of the parity conversation (scorekeeper.phone.cases:
every contract of the registry tapped in, refusals, doubles, corrections, views, blank forms)
exactly as the same engine does in-process, in each language; once it is ready a tap paints
its preview with no request, the same as the server paints it; without it (no WebAssembly, the
worker blocked) taps ask the server as before.

The runtime starts once per page (seconds): the pages are kept for the whole module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from scorekeeper.phone.cases import transcript
from scorekeeper.web.languages import LANGUAGES

from .conftest import PHONE, block_engine
from .driver import Player

pytestmark = pytest.mark.browser

TRIX = {"game": "trix", "mode": "solo", "players": ["Rami", "Lina", "Omar", "Dana"], "first": 0}
CATCH_ENGINE = """
window.__engine = null;
window.__painted = 0;
document.addEventListener("sk:engine", (event) => { window.__engine = event.detail; });
document.addEventListener("sk:painted", () => { window.__painted += 1; });
"""
IDLE_PASSED = """() => new Promise((done) => {
  const idle = () => requestIdleCallback(() => done(), {timeout: 5000});
  if (document.readyState === "complete") { idle(); } else { addEventListener("load", idle); }
})"""
ASK_ALL = """async (messages) => {
  const answers = [];
  for (const message of messages) {
    try { answers.push(await window.__engine.ask(message)); }
    catch (error) { answers.push({error: String(error)}); }
  }
  return answers;
}"""
ENGINE_READY = 120_000
"""Milliseconds a page may take to start its engine (Pyodide on a busy 2-core machine)."""
FORM_STATE = """() => {
  const form = document.querySelector("#deal-form");
  const boxes = {};
  form.querySelectorAll(".errors[id^='e-']").forEach((box) => { boxes[box.id] = box.innerHTML; });
  const chips = {};
  form.querySelectorAll("input[type=radio]:checked").forEach((radio) => {
    chips[radio.name] = radio.value + (radio.hasAttribute("data-filled") ? " (app)" : "");
  });
  return {
    preview: document.querySelector("#deal-preview").innerText.trim(),
    scores: document.querySelector("#deal-preview").innerHTML.replace(/>\\s+</g, "><").trim(),
    boxes: boxes,
    reasons: document.querySelector("#save-reasons").innerText.trim(),
    save: document.querySelector("#deal-save").disabled,
    filled: form.elements.autofilled.value,
    chips: chips,
  };
}"""


def _context(browser: Browser, base: str, locale: str = "en", engine: bool = True) -> Any:
    context = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        locale=locale,
        base_url=base,
        extra_http_headers={"Accept-Language": locale},
    )
    context.set_default_timeout(20_000)
    if not engine:
        block_engine(context)
    context.add_init_script(CATCH_ENGINE)
    return context


@pytest.fixture(scope="module")
def with_engine(browser: Browser, server: str) -> Iterator[Player]:
    """A phone whose engine has started, on a Trix game's page (kept for the module)."""
    context = _context(browser, server)
    player = Player(context.new_page(), javascript=True, shots=None, prefix="engine")
    player.start_game(TRIX)
    player.page.wait_for_function("() => window.__engine !== null", timeout=ENGINE_READY)
    yield player
    context.close()


def _game(page: Page) -> str:
    """The game page's address (wherever in the game the page is)."""
    found = re.match(r".*/g/[^/?#]+", page.url)
    assert found is not None, page.url
    return found.group(0)


def _ready(page: Page) -> None:
    page.wait_for_function("() => window.__engine !== null", timeout=ENGINE_READY)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worker_answers_as_the_engine_does_here(with_engine: Player, language: str) -> None:
    page = with_engine.page
    page.goto(_game(page) + f"?lang={language}")
    _ready(page)
    said = transcript(language)
    answers = page.evaluate(ASK_ALL, [json.loads(message) for message, _ in said])
    assert len(answers) == len(said)
    for (message, expected), answer in zip(said, answers, strict=True):
        assert answer == json.loads(expected), message
    previews = [json.loads(answer) for message, answer in said if '"op": "preview"' in message]
    assert sum(1 for answer in previews if answer.get("local")) > 300  # judged in the phone


def _open_diamonds(player: Player) -> None:
    page = player.page
    page.goto(_game(page) + "?lang=en")
    player.choose("diamonds")


TAPS = (("counts-0", "5"), ("counts-1", "4"), ("counts-2", "3"), ("counts-0", "9"))


def test_a_tap_is_painted_with_no_request(
    with_engine: Player, browser: Browser, server: str
) -> None:
    page = with_engine.page
    _open_diamonds(with_engine)
    _ready(page)
    expect(page.locator("form#deal-form[data-engine=on]")).to_have_count(1, timeout=60_000)
    # (the phone has followed the game in the background: its record, its offline kit)
    page.wait_for_selector("html[data-offline-ready]", state="attached", timeout=ENGINE_READY)
    sent: list[str] = []
    page.on(
        "request",
        lambda request: (
            sent.append(request.url)
            if request.resource_type in ("xhr", "fetch", "document")
            else None
        ),
    )
    painted = []
    for name, value in TAPS:
        count = page.evaluate("() => window.__painted")
        with_engine.chip(name, value)[1].click()
        page.wait_for_function("(count) => window.__painted > count", arg=count)
        painted.append(page.evaluate(FORM_STATE))
    # no request from the page but the follow poll's (every 3 s, not a tap's)
    assert [url for url in sent if "/live" not in url] == []
    assert painted[2]["chips"]["counts-3"] == "1 (app)"  # the last count, filled in
    assert not painted[2]["save"] and painted[3]["save"]  # 9/4/3/… adds up to more than 13
    # the server paints the same taps the same way (a phone whose engine is not there)
    context = _context(browser, server, engine=False)
    try:
        other = Player(context.new_page(), javascript=True, shots=None, prefix="no-engine")
        other.page.goto(_game(page))
        other.choose("diamonds")
        for (name, value), local in zip(TAPS, painted, strict=True):
            with other.page.expect_response(lambda r: r.url.endswith("/deal/preview")):
                other.chip(name, value)[1].click()
            other.settle()
            assert other.page.evaluate(FORM_STATE) == local, (name, value)
    finally:
        context.close()
    count = page.evaluate("() => window.__painted")
    with_engine.chip("counts-0", "5")[1].click()  # back to a deal that adds up: saved by the server
    page.wait_for_function("(count) => window.__painted > count", arg=count)
    with_engine.save(1)
    expect(page.locator(".history")).to_contain_text("−50")


@pytest.mark.parametrize("without", ["WebAssembly", "worker", "config"])
def test_without_the_engine_taps_ask_the_server(
    browser: Browser, server: str, with_engine: Player, without: str
) -> None:
    context = _context(browser, server, engine=without != "config")
    if without == "WebAssembly":  # an old phone
        context.add_init_script("delete window.WebAssembly;")
    elif without == "worker":  # the worker failed to load
        context.route("**/engine-worker.js*", lambda route: route.abort())
    try:
        player = Player(context.new_page(), javascript=True, shots=None, prefix="no-engine")
        page = player.page
        asked: list[tuple[str, str]] = []
        page.on("request", lambda request: asked.append((request.url, request.resource_type)))
        if without != "WebAssembly":  # (the config's address unreachable: no connection)
            failed = "engine-worker" if without == "worker" else "/engine/"
            with page.expect_event("requestfailed", lambda r: failed in r.url):
                page.goto(_game(with_engine.page))
        else:
            page.goto(_game(with_engine.page))
            page.evaluate(IDLE_PASSED)  # the moment the engine would have started
            assert not [url for url, _ in asked if "/engine/" in url]
        player.choose("ltoosh")  # (the Diamonds of this kingdom were played above)
        asked.clear()
        for name, value in (("tricks-0", "5"), ("tricks-1", "4"), ("tricks-2", "3")):
            player.chip(name, value)[1].click()
            player.settle()
        # what the page's scripts asked (the follow poll's aside; not the browser's own icon)
        tapped = [url for url, kind in asked if kind in ("xhr", "fetch") and "/live" not in url]
        assert [url.rsplit("/", 1)[-1] for url in tapped] == ["preview"] * 3  # and nothing else
        expect(page.locator("#e-tricks .sum")).to_have_text("13 / 13")
        expect(page.locator("#deal-save")).to_be_enabled()
        assert page.evaluate("() => window.__engine") is None
    finally:
        context.close()


def test_a_form_the_game_moved_on_under_asks_the_server(
    with_engine: Player, browser: Browser, server: str
) -> None:
    """Another phone saved while this phone's form was open: the follow poll says so (Save
    off, the taps one tap from the next deal), and the next tap is the server's to judge."""
    page = with_engine.page
    page.goto(_game(page))
    with_engine.choose("king-of-hearts")
    expect(page.locator("form#deal-form[data-engine=on]")).to_have_count(1, timeout=60_000)
    context = _context(browser, server, engine=False)
    try:
        other = Player(context.new_page(), javascript=True, shots=None, prefix="other-phone")
        other.page.goto(_game(page))
        other.choose("trix")
        other.enter({"order": [1, 2, 3, 0]})
        other.save(int(other.page.locator("#deal-form [name=number]").input_value()))
    finally:
        context.close()
    expect(page.locator("#save-reasons #deal-carry")).to_be_visible(timeout=30_000)
    with page.expect_response(lambda response: response.url.endswith("/deal/preview")):
        with_engine.chip("taker", "1")[1].click()
    with_engine.settle()
    expect(page.locator("#save-reasons #deal-carry")).to_be_visible()
    expect(page.locator("#deal-save")).to_be_disabled()
