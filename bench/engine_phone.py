"""The engine in the phone: taps painted with no request, the runtime's bytes, its time to ready.

Chromium at 390 × 844 on emulated 4G (150 ms round trip, 9 / 1.5 Mbit/s) with the CPU slowed
4×, two ways: Chromium's own throttle (DevTools' Emulation.setCPUThrottlingRate, the issue's
unit), which slows a page's main thread only (Chromium refuses it for a worker: "Operation is
only supported for pages, not workers"), and the whole renderer process (page and worker)
running a quarter of the time (SIGSTOP / SIGCONT, 5 ms of every 20).

- bytes: the runtime's files (static/pyodide/VENDORED.json) and the bundle as the server sends
  them to a browser taking brotli (HTTPS) or gzip alone (plain HTTP), and raw; when the
  engine's first file is asked for, after the page's load event.
- ready: from the engine's start (the page idle) to the worker ready, cold (empty cache) and
  cached (the page loaded again); and from the page's navigation.
- taps: one deal of each kind (common.TAP_SCRIPTS) entered with the engine ready, each chip
  timed in the page from its click to one frame after its preview is painted, and the requests
  each tap made; then the same taps on the server's path (the engine blocked) as the baseline,
  in the same run and conditions. Targets: median ≤ 50 ms with the engine, 0 requests a tap.

    python bench/engine_phone.py [--quick | --smoke] [--rounds 2]

--quick (about 30 s): the renderer slowed only, two loads, the Diamonds deal alone; --smoke
(bench/run.py --smoke): the same, no figure judged.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import TAP_SCRIPTS, Results, TapScript, init_db, log, make_games, server, temp_instance
from taps import CHROMIUM, CHROMIUM_ARGS, chip

ROOT = Path(__file__).resolve().parent.parent
RTT_MS = 150.0
DOWN_BPS = 9_000_000
UP_BPS = 1_500_000
SLOWER = 4
TAP_TARGET_MS = 50.0
READY_TARGET_MS = 3000.0
RUNTIME_TARGET = 3.3e6
"""Issue 43: the runtime over the wire (it was 3.9 MB, brotli 5 and a compressed zip)."""
PERIOD_S = 0.020

TIMING = """
window.__engine = null;
window.__taps = [];
window.__t0 = null;
document.addEventListener("sk:engine", (event) => { window.__engine = event.detail; });
addEventListener("click", () => { if (window.__t0 === null) window.__t0 = performance.now(); },
                 true);
function painted() {
  const start = window.__t0;
  if (start === null) return;
  window.__t0 = null;
  const tap = {ms: null};
  window.__taps.push(tap);
  requestAnimationFrame(() => setTimeout(() => { tap.ms = performance.now() - start; }, 0));
}
document.addEventListener("sk:painted", painted);
document.addEventListener("htmx:afterSwap", (event) => {
  if ((event.detail.requestConfig || {}).path.endsWith("/deal/preview")) painted();
});
"""
READY = """() => {
  const start = performance.getEntriesByName("sk:engine-start")[0];
  const ready = performance.getEntriesByName("sk:engine-ready")[0];
  const load = performance.getEntriesByType("navigation")[0].loadEventEnd;
  return {fromStart: ready.startTime - start.startTime, fromNavigation: ready.startTime,
          startAfterLoad: start.startTime - load};
}"""


class RendererThrottle:
    """Run Chromium's renderer processes (pages and their workers) a quarter of the time."""

    def __init__(self, browser: Any) -> None:
        self.session = browser.new_browser_cdp_session()
        self.running = False
        self.thread: threading.Thread | None = None

    def _renderers(self) -> list[int]:
        info = self.session.send("SystemInfo.getProcessInfo")
        return [p["id"] for p in info["processInfo"] if p["type"] == "renderer"]

    @contextmanager
    def on(self) -> Iterator[None]:
        pids = self._renderers()
        self.running = True

        def cycle() -> None:
            while self.running:
                for pid in pids:
                    os.kill(pid, signal.SIGCONT)
                time.sleep(PERIOD_S / SLOWER)
                if not self.running:
                    break
                for pid in pids:
                    os.kill(pid, signal.SIGSTOP)
                time.sleep(PERIOD_S * (SLOWER - 1) / SLOWER)

        self.thread = threading.Thread(target=cycle, daemon=True)
        self.thread.start()
        try:
            yield
        finally:
            self.running = False
            self.thread.join()
            for pid in pids:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)


def _throttled(context: Any, page: Any, mode: str, throttle: RendererThrottle) -> Any:
    """The page on emulated 4G, its CPU slowed by `mode` (the renderer's is started by the
    caller, after the page exists)."""
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": RTT_MS,
            "downloadThroughput": DOWN_BPS / 8,
            "uploadThroughput": UP_BPS / 8,
        },
    )
    if mode == "page":
        session.send("Emulation.setCPUThrottlingRate", {"rate": SLOWER})
    return session


def _slowed(mode: str, throttle: RendererThrottle) -> Any:
    return throttle.on() if mode == "renderer" else _nothing()


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _new_context(browser: Any, base: str, engine: bool) -> Any:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        base_url=base,
    )
    context.add_init_script(TIMING)
    if not engine:
        context.route("**/engine/*.json*", lambda route: route.abort())
    return context


def time_to_ready(
    browser: Any, base: str, token: str, mode: str, loads: int
) -> list[dict[str, float]]:
    """The engine's start to ready: the first load with an empty cache, then `loads - 1` more."""
    context = _new_context(browser, base, engine=True)
    page = context.new_page()
    throttle = RendererThrottle(browser)
    _throttled(context, page, mode, throttle)
    found = []
    with _slowed(mode, throttle):
        for _ in range(loads):
            page.goto(f"/g/{token}")
            page.wait_for_function("() => window.__engine !== null", timeout=300_000)
            found.append(page.evaluate(READY))
    context.close()
    return found


def enter(page: Any, token: str, script: TapScript, engine: bool) -> tuple[list[float], list[str]]:
    """One deal's chips, each timed from its click to its preview painted; the requests the
    taps made (the follow poll aside)."""
    page.goto(f"/g/{token}")
    if engine:
        page.wait_for_function("() => window.__engine !== null", timeout=300_000)
    page.locator(f'a.contract[href*="contract={script.contract}"]').tap()
    page.locator("form#deal-form").wait_for()
    if engine:
        page.locator("form#deal-form[data-engine=on]").wait_for(timeout=60_000)
    sent: list[str] = []

    def listen(request: Any) -> None:
        # what the page asks (htmx, scripts): not the browser's own icon; the follow poll
        # (every 3 s) is not a tap's
        if request.resource_type in ("xhr", "fetch", "document") and "/live" not in request.url:
            sent.append(request.url)

    page.on("request", listen)
    times = []
    for name, value in script.taps:
        count = int(page.evaluate("() => window.__taps.length"))
        page.evaluate("() => { window.__t0 = null; }")
        target = chip(page, name, value)
        target.tap()
        page.wait_for_function(
            "(count) => window.__taps.length > count && window.__taps[count].ms !== null",
            arg=count,
            timeout=60_000,
        )
        times.append(float(page.evaluate("(count) => window.__taps[count].ms", count)))
    page.remove_listener("request", listen)
    return times, [url.split("/")[-1].split("?")[0] for url in sent]


def taps(
    browser: Any,
    base: str,
    tokens: dict[str, list[str]],
    scripts: list[TapScript],
    mode: str,
    engine: bool,
) -> tuple[list[float], list[str], int]:
    context = _new_context(browser, base, engine)
    page = context.new_page()
    throttle = RendererThrottle(browser)
    _throttled(context, page, mode, throttle)
    times: list[float] = []
    requests: list[str] = []
    with _slowed(mode, throttle):
        for script in scripts:
            log(f"engine taps ({mode}, {'engine' if engine else 'server'}): {script.label}")
            found, sent = enter(page, tokens[script.game].pop(), script, engine)
            times += found
            requests += sent
    context.close()
    return times, requests, len(times)


def _sent(url: str, encoding: str) -> int:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
    with urllib.request.urlopen(request) as response:
        return len(response.read())


def _bytes(base: str) -> tuple[dict[str, Any], list[str]]:
    """The runtime's and the bundle's sizes as the server sends them: with brotli (HTTPS),
    with gzip alone (plain HTTP), as they are."""
    vendored = json.loads((ROOT / "static" / "pyodide" / "VENDORED.json").read_text())
    with urllib.request.urlopen(f"{base}/engine/en.json") as response:
        config = json.loads(response.read())
    sizes = {"br": 0, "gzip": 0, "raw": 0}
    parts = []
    for name in vendored["files"]:
        url = base + config["runtime"] + name
        sent = {encoding: _sent(url, encoding) for encoding in ("br", "gzip")}
        sizes["br"] += sent["br"]
        sizes["gzip"] += sent["gzip"]
        sizes["raw"] += vendored["files"][name]["bytes"]
        parts.append(f"{name} {sent['br'] / 1e3:.0f} KB")
    bundle = {encoding: _sent(base + config["bundle"], encoding) for encoding in ("br", "gzip")}
    return {
        "version": vendored["version"],
        **sizes,
        "bundle": _sent(base + config["bundle"], "identity"),
        "bundle_br": bundle["br"],
        "bundle_gzip": bundle["gzip"],
    }, parts


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def run(quick: bool = False, rounds: int | None = None, smoke: bool = False) -> Results:
    """Measure and return the figures (smoke: as quick; the code runs)."""
    from playwright.sync_api import sync_playwright

    quick = quick or smoke
    rounds = rounds or 1
    scripts = list(TAP_SCRIPTS[3:4] if quick else TAP_SCRIPTS)  # quick: Diamonds alone
    modes = ["renderer"] if quick else ["page", "renderer"]
    loads = 2 if quick else 3
    results = Results()
    with temp_instance() as instance:
        init_db(instance)
        needed: dict[str, int] = {}
        for script in scripts:
            needed[script.game] = needed.get(script.game, 0) + 2 * rounds * len(modes)
        tokens = {game: [t for t, _ in make_games(instance, n, game)] for game, n in needed.items()}
        ready_game = make_games(instance, 1, "trix", deals=10)[0][0]
        with server(instance, workers=2) as base, sync_playwright() as playwright:
            size, parts = _bytes(base)
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            ready: dict[str, list[dict[str, float]]] = {}
            tapped: dict[tuple[str, bool], tuple[list[float], list[str], int]] = {}
            for mode in modes:
                log(f"engine: time to ready ({mode})")
                ready[mode] = time_to_ready(browser, base, ready_game, mode, loads)
                for _ in range(rounds):
                    for engine in (True, False):
                        times, sent, count = taps(browser, base, tokens, scripts, mode, engine)
                        before = tapped.get((mode, engine), ([], [], 0))
                        tapped[(mode, engine)] = (
                            before[0] + times,
                            before[1] + sent,
                            before[2] + count,
                        )
            browser.close()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    results.add(
        f"engine runtime (Pyodide {size['version']}) over the wire, brotli (HTTPS)",
        f"{size['br'] / 1e6:.2f} MB",
        f"≤ {RUNTIME_TARGET / 1e6:.1f} MB",
        size["br"] <= RUNTIME_TARGET,
        f"{'; '.join(parts)}; gzip alone (plain HTTP) {size['gzip'] / 1e6:.2f} MB; raw "
        f"{size['raw'] / 1e6:.2f} MB; the bundle (engine + one catalogue) "
        f"{size['bundle'] / 1e3:.0f} KB, sent {size['bundle_br'] / 1e3:.0f} KB brotli, "
        f"{size['bundle_gzip'] / 1e3:.0f} KB gzip",
    )
    names = {"page": "CDP 4× (page thread)", "renderer": "renderer 4× (page and worker)"}
    for mode in modes:
        cold, *cached = ready[mode]
        cached_ms = _median([r["fromStart"] for r in cached])
        results.add(
            f"engine ready, cached, {names[mode]}, 4G",
            f"{cached_ms:.0f} ms",
            "≤ 3000 ms",
            cached_ms <= READY_TARGET_MS,
            f"cold (empty cache) {cold['fromStart']:.0f} ms; from the page's navigation: cold "
            f"{cold['fromNavigation']:.0f} ms, cached "
            f"{_median([r['fromNavigation'] for r in cached]):.0f} ms; the engine started "
            f"{cold['startAfterLoad']:.0f} ms after the load event; load average {load}",
        )
        local, sent, count = tapped[(mode, True)]
        remote, remote_sent, remote_count = tapped[(mode, False)]
        median = _median(local)
        results.add(
            f"tap → preview painted, engine ready, {names[mode]}, 4G ({RTT_MS:.0f} ms RTT)",
            f"{median:.0f} ms, {len(sent) / max(count, 1):.1f} requests a tap",
            f"≤ {TAP_TARGET_MS:.0f} ms, 0 requests",
            median <= TAP_TARGET_MS and not sent,
            f"{count} taps, p90 {sorted(local)[int(0.9 * (len(local) - 1))]:.0f} ms"
            f"{'; asked: ' + ', '.join(sorted(set(sent))) if sent else ''}; the server's "
            f"path in the same run (engine blocked): median {_median(remote):.0f} ms, "
            f"{len(remote_sent) / max(remote_count, 1):.1f} requests a tap "
            f"({', '.join(sorted(set(remote_sent)))}; {_median(remote) / median:.1f}× the "
            f"engine's time); load average {load}",
        )
    return results


if __name__ == "__main__":
    import argparse

    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="as --quick: the code runs")
    parser.add_argument("--rounds", type=int)
    options = parser.parse_args()
    print_table(run(options.quick, options.rounds, options.smoke), "phone")
