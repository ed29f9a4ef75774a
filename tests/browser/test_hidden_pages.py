"""A page nobody looks at does not poll: the game page's follow poller and the view link's live
poller wait while the page is hidden (a tab behind another, a locked phone), and ask the moment
it is shown again, so it shows what changed meanwhile at once.

Hidden and shown as the browser says it: `document.visibilityState` and a `visibilitychange`
event (headless Chromium never hides a page by itself). Counted, never timed: the polls htmx
meant to send while hidden are seen cancelled, none reaches the server, and the one sent on
showing is the `visibilitychange`'s."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Request, expect

from .driver import Player
from .test_forgiving import _player

pytestmark = pytest.mark.browser

POLLS = """() => {
  window.polls = [];
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (!event.detail.elt.hasAttribute("data-poll")) { return; }
    const trigger = event.detail.requestConfig.triggeringEvent;
    window.polls.push({sent: !event.defaultPrevented, by: trigger ? trigger.type : "timer"});
  });
}"""
SHOWN = """(hidden) => {
  window.polls = [];  // in the same task as the event: no tick can come between the two
  Object.defineProperty(document, "visibilityState",
                        {configurable: true, get: () => hidden ? "hidden" : "visible"});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
WAIT_MS = 20_000  # a poll every 3 s; generous, so that a busy machine is slow, not wrong


def _live_requests(page: Page) -> list[str]:
    sent: list[str] = []

    def seen(request: Request) -> None:
        if request.url.split("?")[0].endswith("/live"):
            sent.append(request.url)

    page.on("request", seen)
    return sent


def test_hidden_pages_do_not_poll_and_catch_up_when_shown(new_context) -> None:  # type: ignore[no-untyped-def]
    first = _player(new_context)
    game_url = first.page.url
    view_url = first.page.locator(".share .view-link").get_attribute("href")
    assert view_url
    follower = new_context(locale="en").new_page()
    viewer = new_context(locale="en").new_page()
    follower.goto(game_url)
    viewer.goto(view_url)
    pages = (follower, viewer)
    sent = {page: _live_requests(page) for page in pages}
    for page in pages:
        page.evaluate(POLLS)
        page.wait_for_function("() => window.polls.some((poll) => poll.sent)", timeout=WAIT_MS)
        page.evaluate(SHOWN, True)  # hidden
    for page in pages:  # two of its polls have come due while hidden
        page.wait_for_function("() => window.polls.length >= 2", timeout=WAIT_MS)
    # counted after those two, so that a request sent before hiding has surely been reported
    before = {page: len(sent[page]) for page in pages}
    first.choose("diamonds")
    first.enter({"contract": "diamonds", "counts": [5, 4, 3, 1]})
    first.save(1)  # while nobody looks at the other pages
    for page in pages:
        page.wait_for_function("() => window.polls.length >= 3", timeout=WAIT_MS)
        polls = page.evaluate("() => window.polls")
        assert not any(poll["sent"] for poll in polls), polls
        assert len(sent[page]) == before[page], sent[page][before[page] :]
    for page in pages:
        page.evaluate(SHOWN, False)  # shown: it asks at once, not at its next tick
        polls = page.evaluate("() => window.polls")
        assert polls[:1] == [{"sent": True, "by": "visibilitychange"}], polls
    expect(follower.locator("#play .where")).to_contain_text("Deal 2 of", timeout=WAIT_MS)
    expect(viewer.locator("#history-rows")).to_contain_text("Diamonds", timeout=WAIT_MS)
    Player(viewer, javascript=True, shots=None, prefix="en-viewer")  # (the page still works)
