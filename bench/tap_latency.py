"""Taps feel local: Chromium at 390 × 844 on emulated 4G (150 ms round trip) enters one deal of
each kind, timing in the page from each tap to its answer painted.

The clock starts at the tap's click event and stops one frame after htmx swapped the answer in
(`htmx:afterSwap`, then `requestAnimationFrame` and a task: the frame that shows it painted).
Three kinds of tap: choosing the contract (the form comes in), a chip (its preview), Save (the
next step). The network is Chromium's own emulation (DevTools protocol: 150 ms latency on each
request, 9 Mbit/s down, 1.5 Mbit/s up); the floor is an empty answer fetched by the page the
same way (the follow poll of an unchanged game, 204, plus a frame), so what the app adds is
each median minus the round trip, and minus that floor. Targets: preview ≤ RTT + 30 ms, save →
next step ≤ RTT + 50 ms.

    python bench/tap_latency.py [--quick | --smoke] [--rounds 3]
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Results,
    TapScript,
    init_db,
    log,
    make_games,
    server,
    tap_scripts,
    temp_instance,
)
from taps import CHROMIUM, CHROMIUM_ARGS, IDLE, chip, without_engine

RTT_MS = 150.0
DOWN_BPS = 9_000_000
UP_BPS = 1_500_000
PREVIEW_TARGET_MS = 30.0
SAVE_TARGET_MS = 50.0

TIMING = """
window.__taps = [];
window.__t0 = null;
addEventListener("click", () => { if (window.__t0 === null) window.__t0 = performance.now(); },
                 true);
let beforeSwap = null;
document.addEventListener("htmx:beforeSwap", () => {
  if (window.__t0 !== null && beforeSwap === null) beforeSwap = performance.now() - window.__t0;
});
document.addEventListener("htmx:afterSwap", (event) => {
  const start = window.__t0;
  if (start === null) return;
  window.__t0 = null;
  const path = (event.detail.requestConfig || {}).path || "";
  const entries = performance.getEntriesByType("resource").filter(
    (entry) => entry.name.includes(path.split("?")[0]));
  const entry = entries[entries.length - 1];
  const tap = {path: path, ms: null, settled: null, sent: entry ? entry.startTime - start : null,
               answered: entry ? entry.responseEnd - start : null, swapping: beforeSwap,
               swapped: performance.now() - start};
  beforeSwap = null;
  window.__taps.push(tap);
  requestAnimationFrame(() => setTimeout(() => { tap.ms = performance.now() - start; }, 0));
  const settled = () => {
    document.removeEventListener("htmx:afterSettle", settled);
    requestAnimationFrame(() => setTimeout(() => {
      tap.settled = performance.now() - start;
    }, 0));
  };
  document.addEventListener("htmx:afterSettle", settled);
});
"""
FLOOR = """async (url) => {
  const start = performance.now();
  await fetch(url, {headers: {"HX-Request": "true"}});
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - start;
}"""


def timed(page: Any, action: Any, parts: dict[str, list[float]]) -> float:
    """Run `action` (a tap) and return the ms from its click to its answer painted (one frame
    after htmx swapped it in); `parts` gets when the request left and its answer arrived, and
    when htmx's settling (the swapped elements' new attributes) was painted."""
    count = int(page.evaluate("() => window.__taps.length"))
    page.evaluate("() => { window.__t0 = null; }")
    action()
    page.wait_for_function(
        "(count) => window.__taps.length > count && window.__taps[count].ms !== null", arg=count
    )
    page.wait_for_function(IDLE)
    page.wait_for_timeout(50)  # settling's frame, if it comes
    tap = page.evaluate("(count) => window.__taps[count]", count)
    for part in ("sent", "answered", "swapping", "swapped", "settled"):
        if tap[part] is not None:
            parts.setdefault(part, []).append(float(tap[part]))
    return float(tap["ms"])


def enter_deal(
    page: Any,
    base: str,
    token: str,
    script: TapScript,
    times: dict[str, list[float]],
    parts: dict[str, dict[str, list[float]]],
) -> None:
    """One deal by taps, each timed."""
    page.goto(f"{base}/g/{token}")
    page.wait_for_load_state("networkidle")
    follow = page.locator("#follow").get_attribute("hx-get")
    times["floor"].append(float(page.evaluate(FLOOR, follow)))
    times["contract → form"].append(
        timed(
            page,
            lambda: page.locator(f'a.contract[href*="contract={script.contract}"]').tap(),
            parts["contract → form"],
        )
    )
    page.locator("form#deal-form").wait_for()
    for name, value in script.taps:
        times["chip → preview"].append(
            timed(page, lambda n=name, v=value: chip(page, n, v).tap(), parts["chip → preview"])
        )
    save = page.locator("form#deal-form button.save, form button.save").first
    times["save → next step"].append(timed(page, lambda: save.tap(), parts["save → next step"]))
    page.locator("#play").wait_for()


def _median(parts: dict[str, list[float]], part: str) -> str:
    values = parts.get(part)
    return f"{statistics.median(values):.0f}" if values else "?"


def run(quick: bool = False, rounds: int | None = None, smoke: bool = False) -> Results:
    """Enter each kind of deal `rounds` times on emulated 4G; medians against the targets
    (smoke: one deal of each game, once)."""
    from playwright.sync_api import sync_playwright

    rounds = rounds or (1 if quick or smoke else 3)
    scripts = tap_scripts(smoke)
    results = Results()
    times: dict[str, list[float]] = {
        "floor": [],
        "contract → form": [],
        "chip → preview": [],
        "save → next step": [],
    }
    parts: dict[str, dict[str, list[float]]] = {kind: {} for kind in times}
    with temp_instance() as instance:
        init_db(instance)
        needed: dict[str, int] = {}
        for script in scripts:
            needed[script.game] = needed.get(script.game, 0) + rounds
        fresh = {
            game: [t for t, _ in make_games(instance, count, game)]
            for game, count in needed.items()
        }
        with server(instance, workers=2) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                locale="en-GB",
            )
            context.add_init_script(TIMING)
            without_engine(context)  # the server's round trip (engine_phone.py: the phone's)
            page = context.new_page()
            network = context.new_cdp_session(page)
            network.send("Network.enable")
            network.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": RTT_MS,
                    "downloadThroughput": DOWN_BPS / 8,
                    "uploadThroughput": UP_BPS / 8,
                },
            )
            for round_number in range(rounds):
                for script in scripts:
                    log(f"tap latency: {script.label} ({round_number + 1}/{rounds})")
                    enter_deal(page, base, fresh[script.game].pop(), script, times, parts)
            browser.close()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    floor = statistics.median(times["floor"])
    for kind, target in (
        ("chip → preview", PREVIEW_TARGET_MS),
        ("save → next step", SAVE_TARGET_MS),
        ("contract → form", None),
    ):
        median = statistics.median(times[kind])
        results.add(
            f"tap latency: {kind}, median on 4G ({RTT_MS:.0f} ms RTT)",
            f"RTT + {median - RTT_MS:.0f} ms",
            "–" if target is None else f"≤ RTT + {target:.0f} ms",
            None if target is None else median - RTT_MS <= target,
            f"{median:.0f} ms median of {len(times[kind])} (p90 "
            f"{sorted(times[kind])[int(0.9 * (len(times[kind]) - 1))]:.0f} ms); "
            f"{median - floor:+.0f} ms over the floor (an empty answer plus a frame, "
            f"{floor:.0f} ms); medians from the click: request sent "
            f"{_median(parts[kind], 'sent')}, answer received "
            f"{_median(parts[kind], 'answered')}, htmx swapping "
            f"{_median(parts[kind], 'swapping')}, swapped "
            f"{_median(parts[kind], 'swapped')}, settled and painted "
            f"{_median(parts[kind], 'settled')} ms; load average {load}",
        )
    return results


if __name__ == "__main__":
    import argparse

    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--smoke", action="store_true", help="one deal of each game, once")
    options = parser.parse_args()
    print_table(run(options.quick, options.rounds, options.smoke))
