"""The game goes on offline: a repeat visit on Slow 3G, the bytes of a first load.

Chromium at 390 × 844 against `scorekeeper serve` on 127.0.0.1 (a secure context, so the
service worker runs), a Trix game 10 deals in:

- repeat visit: the game page visited again on emulated Slow 3G (DevTools' Network
  emulation: 400 ms latency, 400 kbit/s down and up, 50,000 B/s), time from the navigation to
  the load event, median of several rounds, once the service worker holds the page (the phone
  opened it and can go on offline: `html[data-offline-ready]`), against the same visit with no
  service worker (the page is `no-store`: a round trip every visit; its files come from the
  HTTP cache) in the same run. Target ≤ 190 ms. What the page fetched before its load event
  in each, and from where, is in the notes.
- first load: every response until the page's load event, with an empty cache and gzip
  offered (not brotli), body bytes as sent. Target ≤ 25 KB; the engine's runtime and the
  offline scripts must not be part of it (the bench fails if one is).

The engine's time to ready from the cache with the CPU slowed 4× is bench/engine_phone.py's.

    python bench/offline_phone.py [--quick | --smoke] [--rounds 7]
"""

from __future__ import annotations

import os
import re
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, init_db, log, make_games, server, temp_instance
from taps import CHROMIUM, CHROMIUM_ARGS

LATENCY_MS = 400.0
THROUGHPUT_BPS = 50_000  # bytes a second: 400 kbit/s
VISIT_TARGET_MS = 190.0
FIRST_LOAD_TARGET = 25 * 1024
READY_TIMEOUT_MS = 300_000
NOT_IN_FIRST_LOAD = re.compile(r"/engine/|/static/js/(engine|offline|sync)|/sw\.js|/offline$")
ENGINE_READY = '() => performance.getEntriesByName("sk:engine-ready").length > 0'
TIMING = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const before = performance.getEntriesByType("resource").filter(
    (entry) => entry.startTime < nav.loadEventStart);
  return {load: nav.loadEventStart, response: nav.responseEnd, dom: nav.domContentLoadedEventEnd,
          worker: nav.workerStart > 0, fetched: before.map((entry) => ({
            name: entry.name.split("?")[0].split("/").pop(), ms: entry.duration,
            worker: entry.workerStart > 0, bytes: entry.transferSize}))};
}"""


def _context(browser: Any, base: str, worker: bool) -> Any:
    return browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        base_url=base,
        service_workers="allow" if worker else "block",
        extra_http_headers={"Accept-Encoding": "gzip"},
    )


def slow_3g(context: Any, page: Any) -> None:
    """The page's network as DevTools' Slow 3G (the page's own requests; the service worker's
    are its own target's)."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": LATENCY_MS,
            "downloadThroughput": THROUGHPUT_BPS,
            "uploadThroughput": THROUGHPUT_BPS,
        },
    )


def repeat_visits(
    browser: Any, base: str, token: str, worker: bool, rounds: int
) -> list[dict[str, Any]]:
    """The page visited once at full speed (with the service worker: until it holds the page),
    then `rounds` times more on Slow 3G; each visit's timing."""
    context = _context(browser, base, worker)
    page = context.new_page()
    page.goto(f"/g/{token}")
    if worker:
        page.wait_for_selector(
            "html[data-offline-ready]", state="attached", timeout=READY_TIMEOUT_MS
        )
        assert page.evaluate("() => !!navigator.serviceWorker.controller"), "no service worker"
    else:  # the engine's files in the HTTP cache too: the visits ask nothing more
        page.wait_for_function(ENGINE_READY, timeout=READY_TIMEOUT_MS)
    page.wait_for_load_state("networkidle")
    slow_3g(context, page)
    found = []
    for _ in range(rounds):
        page.goto(f"/g/{token}")
        found.append(page.evaluate(TIMING))
        page.wait_for_load_state("networkidle")  # the page's own work done before the next
    context.close()
    return found


def first_load(browser: Any, base: str, token: str) -> tuple[int, list[str], list[str], float]:
    """Body bytes (gzip) of every response until the load event with an empty cache; the parts;
    what the page asked for before its load event that a first load must not hold; the time to
    its load event on Slow 3G."""
    context = _context(browser, base, worker=True)
    page = context.new_page()
    slow_3g(context, page)
    finished: list[Any] = []
    failed: list[str] = []
    asked: list[str] = []
    loaded = {"done": False}

    def request(r: Any) -> None:
        if not loaded["done"]:
            asked.append(r.url)

    page.on("request", request)
    page.on("requestfinished", lambda r: finished.append(r) if r.url in asked else None)
    page.on("requestfailed", lambda r: failed.append(r.url) if r.url in asked else None)
    page.on("load", lambda _: loaded.update(done=True))
    page.goto(f"/g/{token}")
    took = float(page.evaluate(TIMING)["load"])
    # every response the page asked for before its load event, to its end (not networkidle:
    # the engine's runtime comes after the load event, a minute on Slow 3G)
    while len(finished) + len(failed) < len(asked):
        page.wait_for_timeout(50)
    total, parts = 0, []
    for r in finished:
        if not r.url.startswith(base):
            continue
        size = int(r.sizes()["responseBodySize"])
        response = r.response()
        encoding = response.headers.get("content-encoding", "identity") if response else "?"
        total += size
        parts.append(f"{r.url.removeprefix(base).split('?')[0]} {size} B ({encoding})")
    context.close()
    return total, parts, [url for url in asked if NOT_IN_FIRST_LOAD.search(url)], took


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _fetched(visits: list[dict[str, Any]]) -> str:
    """What the last visit fetched before its load event, and from where."""
    entries = visits[-1]["fetched"]
    return ", ".join(
        f"{e['name']} {e['ms']:.0f} ms ({'worker' if e['worker'] else 'net/HTTP cache'})"
        for e in entries
    )


def run(quick: bool = False, smoke: bool = False, rounds: int | None = None) -> Results:
    """Measure and return the figures."""
    from playwright.sync_api import sync_playwright

    rounds = rounds or (2 if smoke else 5 if quick else 9)
    results = Results()
    with temp_instance() as instance:
        init_db(instance)
        (visited, _), (fresh, _) = make_games(instance, 2, "trix", deals=10)
        with server(instance, workers=2) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            log("offline: first load")
            size, parts, leaked, first_ms = first_load(browser, base, fresh)
            log("offline: repeat visits, no service worker")
            plain = repeat_visits(browser, base, visited, False, rounds)
            log("offline: repeat visits, the service worker holding the page")
            kept = repeat_visits(browser, base, visited, True, rounds)
            browser.close()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    assert all(v["worker"] for v in kept), "a visit not answered by the service worker"
    assert not any(v["worker"] for v in plain), "a service worker in the baseline"
    with_worker = _median([v["load"] for v in kept])
    without = _median([v["load"] for v in plain])
    each = ", ".join(f"{v['load']:.0f}" for v in kept)
    results.add(
        f"repeat visit of a game page, Slow 3G ({LATENCY_MS:.0f} ms, 400 kbit/s), to the load "
        "event, the service worker holding the page",
        f"{with_worker:.0f} ms",
        f"≤ {VISIT_TARGET_MS:.0f} ms",
        with_worker <= VISIT_TARGET_MS,
        f"median of {len(kept)} visits (each: {each}); "
        f"page answered {_median([v['response'] for v in kept]):.0f} ms; no service worker in "
        f"the same run (the baseline): {without:.0f} ms, page answered "
        f"{_median([v['response'] for v in plain]):.0f} ms ({without / with_worker:.1f}× the "
        f"service worker's time); a first visit (empty cache) {first_ms:.0f} ms; fetched "
        "before the load event with the worker: "
        f"{_fetched(kept)}; without: {_fetched(plain)}; load average {load}",
    )
    results.add(
        "first load of a game page (gzip, every response until the load event)",
        f"{size / 1024:.1f} KB",
        f"≤ {FIRST_LOAD_TARGET // 1024} KB, no engine or offline script",
        size <= FIRST_LOAD_TARGET and not leaked,
        ("; ".join(parts))
        + (f"; **asked before the load event: {', '.join(leaked)}**" if leaked else ""),
    )
    return results


if __name__ == "__main__":
    import argparse

    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 rounds")
    parser.add_argument("--smoke", action="store_true", help="2 rounds: the code runs")
    parser.add_argument("--rounds", type=int)
    options = parser.parse_args()
    print_table(run(options.quick, options.smoke, options.rounds), "offline")
