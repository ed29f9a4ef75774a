"""Bytes on the phone's connection: the first load of a game page, then every tap's response.

Requests ask for gzip only (the issue's unit; browsers that take brotli or zstd get less).
"First load" is the game page's HTML (a Trix game 10 deals in) plus every file Chromium fetches
for it with an empty cache (or, without Chromium, every stylesheet, script and icon it links).
A tap is what the browser sends as the player enters one deal of each kind on the game page:
choosing the contract (htmx brings the form alone in place of the next step), one preview per
chip (the deal's scores, messages and the rows the app filled in), and saving (only what the
deal changed, out of band). The chart is then fetched on its own when it scrolls into view.

    python bench/bytes_bench.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Results,
    init_db,
    log,
    make_games,
    server,
    tap_scripts,
    temp_instance,
)
from httpraw import Client, Reply, assets_of

FIRST_LOAD_TARGET = 25 * 1024
TAP_TARGET = 1536
FRAGMENT = {"HX-Request": "true"}
CHOOSE = FRAGMENT | {"HX-Target": "play"}
PREVIEW = FRAGMENT | {"HX-Target": "deal-preview"}
SAVE = FRAGMENT | {"HX-Target": "deal-form"}
CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
HIDDEN_RE = re.compile(r'<input[^>]*type="hidden"[^>]*>')
ENGINE_FILE = re.compile(r"/engine/|/static/js/engine")


def hidden_fields(html: str) -> dict[str, str]:
    """The deal form's hidden inputs (csrf_token, contract, number, version, editing)."""
    fields = {}
    for tag in HIDDEN_RE.findall(html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


def checked_fields(html: str) -> dict[str, str]:
    """Chips shown checked: in the form ("nobody"), or in a preview's filled-in rows."""
    fields = {}
    for tag in re.findall(r'<input[^>]*type="radio"[^>]*>', html):
        if " checked" in tag:
            name = re.search(r'name="([^"]+)"', tag)
            value = re.search(r'value="([^"]*)"', tag)
            if name and value:
                fields[name.group(1)] = value.group(1)
    return fields


def fetched_by_chromium(base: str, token: str) -> list[str] | None:
    """Same-origin URLs Chromium fetches on a first visit of the page (None without it)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    from taps import CHROMIUM, CHROMIUM_ARGS

    if not Path(CHROMIUM).exists():
        return None
    urls: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        ).new_page()
        page.on("request", lambda r: urls.append(r.url) if r.url.startswith(base) else None)
        page.goto(f"{base}/g/{token}")  # until the load event
        loaded = len(urls)
        page.wait_for_load_state("networkidle")
        browser.close()
    # the engine in the phone is fetched once the page is idle, after its load event: its
    # bytes are bench/engine_phone.py's, once per phone and version; the first load is what
    # the page asked before it (the follow poll, 3 s on, is not)
    assert not [url for url in urls[:loaded] if ENGINE_FILE.search(url)], "engine in first load"
    engine = next((i for i, url in enumerate(urls) if ENGINE_FILE.search(url)), len(urls))
    return sorted({url.removeprefix(base) for url in urls[:engine]} - {f"/g/{token}"})


def first_load(base: str, token: str) -> tuple[int, int, list[str]]:
    """Compressed bytes of the page and everything it links; header bytes; the parts."""
    fetched = fetched_by_chromium(base, token)
    client = Client(base)
    page = client.request("GET", f"/g/{token}")
    assert page.status == 200, page.status
    replies: list[tuple[str, Reply]] = [("page", page)]
    missing: list[str] = []
    linked = assets_of(page.text)
    if fetched is not None:
        missing += [
            f"{url.split('?')[0].rsplit('/', 1)[-1]} linked, not fetched by Chromium"
            for url in linked
            if url not in fetched
        ]
    for url in linked if fetched is None else fetched:
        reply = client.request("GET", url)
        name = url.split("?")[0].rsplit("/", 1)[-1]
        if reply.status != 200:
            missing.append(f"{name} answered {reply.status}")
            continue
        replies.append((name, reply))
    client.close()
    body = sum(len(r.raw) for _, r in replies)
    headers = sum(r.header_bytes for _, r in replies)
    parts = [
        f"{name} {len(r.raw)} B ({r.headers.get('Content-Encoding', 'identity')})"
        for name, r in replies
    ]
    return body, headers, parts + missing


def static_headers(base: str, token: str) -> list[str]:
    """Cache-Control of each static file the page links (must be long-lived). The view link's
    QR image is the game's, not a static file: like every capability, it is never stored."""
    client = Client(base)
    page = client.request("GET", f"/g/{token}")
    found = []
    for url in assets_of(page.text):
        if not url.startswith(("/static/", "/manifest/")):
            continue
        reply = client.request("GET", url)
        found.append(f"{url}: {reply.headers.get('Cache-Control')}")
    client.close()
    return found


def deal_taps(base: str, token: str, script: object) -> list[tuple[str, int, int]]:
    """(what, compressed body bytes, status) of every response while entering one deal."""
    from common import TapScript

    assert isinstance(script, TapScript)
    client = Client(base)
    game = client.request("GET", f"/g/{token}")  # the session that opened the game
    token_header = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', game.text)
    assert token_header, "no CSRF token in the game page's hx-headers"
    sizes: list[tuple[str, int, int]] = []
    page = client.request("GET", f"/g/{token}/deal?contract={script.contract}", headers=CHOOSE)
    assert page.status == 200 and "<html" not in page.text, page.status
    sizes.append(("choose contract (form)", len(page.raw), page.status))
    form = hidden_fields(page.text) | checked_fields(page.text)
    csrf = {"X-CSRFToken": token_header.group(1)}  # htmx sends <body hx-headers>
    for name, value in script.taps:
        form[name] = value
        reply = client.request(
            "POST", f"/g/{token}/deal/preview", form=form, headers=PREVIEW | csrf
        )
        assert reply.status == 200, reply.status
        sizes.append((f"tap {name}={value} (preview)", len(reply.raw), reply.status))
        form |= checked_fields(reply.text)  # the rows the app filled in
    saved = client.request("POST", f"/g/{token}/deal", form=form, headers=SAVE | csrf)
    assert saved.status == 200 and "hx-swap-oob" in saved.text, (saved.status, saved.text[:500])
    sizes.append(("save: the changes", len(saved.raw), saved.status))
    chart = client.request("GET", f"/g/{token}/chart", headers=FRAGMENT)
    assert chart.status == 200 and "<svg" in chart.text, chart.status
    sizes.append(("chart: when scrolled into view", len(chart.raw), chart.status))
    client.close()
    return sizes


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Measure and return the figures (smoke: one deal of each game)."""
    results = Results()
    scripts = tap_scripts(smoke)
    with temp_instance() as instance:
        init_db(instance)
        page_game = make_games(instance, 1, "trix", deals=10)[0][0]
        needed = {s.game: sum(1 for t in scripts if t.game == s.game) for s in scripts}
        fresh = {
            game: [t for t, _ in make_games(instance, count, game)]
            for game, count in needed.items()
        }
        with server(instance) as base:
            log("bytes: first load")
            body, headers, parts = first_load(base, page_game)
            results.add(
                "first load of a game page, gzip (HTML+CSS+JS+icons)",
                f"{body / 1024:.1f} KB",
                "≤ 25 KB",
                body <= FIRST_LOAD_TARGET,
                "; ".join(parts) + f"; headers {headers} B more",
            )
            cache = static_headers(base, page_game)
            long_lived = all("max-age=31536000" in c and "immutable" in c for c in cache)
            results.add(
                "static files: content hash in URL, long-lived cache",
                "yes" if long_lived else "no",
                "yes",
                long_lived,
                "; ".join(cache),
            )
            worst: dict[tuple[str, bool], tuple[int, str]] = {}
            used: dict[str, int] = {}
            for script in scripts:
                token = fresh[script.game][used.get(script.game, 0)]
                used[script.game] = used.get(script.game, 0) + 1
                log(f"bytes: {script.label}")
                complex_form = script.contract == "complex"
                for what, size, _ in deal_taps(base, token, script):
                    kind = what.split(" (")[0].split(":")[0]
                    kind = "tap" if what.startswith("tap ") else kind
                    if size > worst.get((kind, complex_form), (0, ""))[0]:
                        worst[(kind, complex_form)] = (size, f"{script.label}: {what}")
            for kind, label in (
                ("choose contract", "choosing the contract (the form)"),
                ("tap", "each chip tap (preview)"),
                ("save", "saving (what the deal changed)"),
                ("chart", "the chart, fetched when scrolled into view"),
            ):
                for complex_form, which in (
                    (False, "every contract but Complex"),
                    (True, "Complex (the largest form)"),
                ):
                    if kind in ("save", "chart") and complex_form:
                        continue
                    size, where = worst[(kind, complex_form)]
                    if kind in ("save", "chart"):
                        size = max(size, worst[(kind, True)][0])
                        which = "every contract"
                    results.add(
                        f"largest response, {label}, {which}; gzip",
                        f"{size} B",
                        "≤ 1536 B",
                        size <= TAP_TARGET,
                        where,
                    )
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run(smoke="--smoke" in sys.argv))
