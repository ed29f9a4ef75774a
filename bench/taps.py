"""Taps per deal: Chromium at 390 × 844 enters one deal of each kind, counting every tap.

The count starts on the game page and ends when the game page shows the next step again:
choosing the contract (the form comes in its place), one tap per chip the table has to tell the
app (the app fills in a last count or the 4th place itself), and saving. Taps are counted in the
page (pointerdown events: a tap on a chip's label also clicks its radio, so click events would
count it twice), kept in sessionStorage so a navigation would not reset them.

    python bench/taps.py
"""

from __future__ import annotations

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

from tests.browser.driver import chip_label  # (the browser tests' phones: one owner)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
COUNT_TAPS = """
addEventListener("pointerdown", (event) => {
  if (!event.isPrimary) return;
  sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
}, true);
"""
IDLE = """() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')"""


def without_engine(context: Any) -> None:
    """Taps ask the server (the engine in the phone never starts: its config is not fetched);
    bench/engine_phone.py measures the engine's path against this one."""
    context.route("**/engine/*.json*", lambda route: route.abort())


def chip(page: Any, name: str, value: str) -> Any:
    """The tap target (label.chip) of one radio chip, shown first if it waits behind its row's
    "6–13" chip (that tap is counted as the page counts any)."""
    return chip_label(page, name, value)


def enter_deal(page: Any, base: str, token: str, script: TapScript) -> tuple[int, str]:
    """Enter one deal through the UI; the taps counted in the page, and what happened."""
    page.goto(f"{base}/g/{token}")
    page.wait_for_load_state("networkidle")
    page.evaluate("sessionStorage.setItem('taps', '0')")
    with page.expect_response(lambda r: f"/deal?contract={script.contract}" in r.url):
        page.locator(f'a.contract[href*="contract={script.contract}"]').tap()
    page.wait_for_function(IDLE)
    page.locator("form#deal-form").wait_for()
    for name, value in script.taps:
        with page.expect_response(lambda r: "/deal/preview" in r.url):
            chip(page, name, value).tap()
        page.wait_for_function(IDLE)
    save = page.locator("form#deal-form button.save, form button.save").first
    if save.is_disabled():
        errors = " / ".join(page.locator(".error").all_inner_texts())
        return int(
            page.evaluate("Number(sessionStorage.getItem('taps'))")
        ), f"save still disabled after the taps: {errors or 'values left'}"
    with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.rstrip("/").endswith("/deal")
    ):
        save.tap()
    page.wait_for_function(IDLE)
    page.locator("#play").wait_for()
    taps = int(page.evaluate("Number(sessionStorage.getItem('taps'))"))
    saved = page.locator(".flash").all_inner_texts()
    outcome = "saved" if any("saved" in text.lower() for text in saved) else f"not saved: {saved}"
    return taps, outcome


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Enter one deal of each kind in Chromium and compare the taps with the targets (smoke: one
    deal of each game, and a deal it cannot enter is an error)."""
    from playwright.sync_api import sync_playwright

    results = Results()
    scripts = tap_scripts(smoke)
    with temp_instance() as instance:
        init_db(instance)
        needed: dict[str, int] = {}
        for script in scripts:
            needed[script.game] = needed.get(script.game, 0) + 1
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
            context.add_init_script(COUNT_TAPS)
            without_engine(context)
            page = context.new_page()
            for script in scripts:
                token = fresh[script.game].pop()
                log(f"taps: {script.label}")
                try:
                    taps, outcome = enter_deal(page, base, token, script)
                except Exception as error:  # a changed page must show as a miss, not a crash
                    if smoke:
                        raise  # …but a smoke run is there to say the bench no longer works
                    taps, outcome = -1, f"failed: {type(error).__name__}: {error}"[:300]
                target = f"≤ {script.target}" if script.at_most else str(script.target)
                ok = outcome == "saved" and (
                    taps <= script.target if script.at_most else taps == script.target
                )
                results.add(
                    f"taps: {script.label}",
                    str(taps) if taps >= 0 else "–",
                    target,
                    ok,
                    "" if outcome == "saved" else outcome,
                )
            browser.close()
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run(smoke="--smoke" in sys.argv))
