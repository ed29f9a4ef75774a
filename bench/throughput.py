"""Server throughput as a share of a bare Flask "hello" under the same server settings.

`scorekeeper serve --workers 4` (granian, 2 threads each) and `bench/hello_app.py` (the same
`scorekeeper.serving.server.run`) are loaded in turn by wrk on loopback. Every request carries
what a phone sends: the session cookie, `Accept-Encoding: gzip` (so compression is paid), htmx
headers and the CSRF token where the app wants them. Hello is measured before and after the app's
endpoints; the share is against their mean. Every figure (hello's too) is the best of three runs,
each after one unmeasured second of the same load, so each worker has compiled its templates and
filled its caches (see `best_of` for why three).

- game page: GET /g/<token> of a Trix game 10 deals in;
- preview: the deal form after the third Diamonds count (the app fills the 4th, judges, scores;
  the answer is the scores, the messages and the filled-in row);
- saving a deal: POST /g/<token>/deal from the form inside the game page, each request the next
  legal deal of one of 1,000 games in turn (so a game's previous deal is saved before its next
  is sent; checked afterwards: every request saved exactly one deal); the answer is what the
  deal changed (next step, totals, history row...), all a phone needs after saving;
- live view poll: GET /v/<view_token>/live with If-None-Match of the current ETag → 304.

    python bench/throughput.py [--quick | --smoke]
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Results,
    form_fields,
    game_plan,
    init_db,
    log,
    make_games,
    server,
    server_cpu_seconds,
    temp_instance,
)
from httpraw import Client

TARGETS: dict[str, float | None] = {
    "game page": 0.10,
    "preview": None,
    "saving a deal": None,
    "live view poll (304)": 0.60,
}
"""Share of hello's rate per endpoint; None: reported, not a target (the preview's and the save's
were retired when the package was laid out anew: clarity over a figure no phone notices)."""
THREADS = 2
CONNECTIONS = 16
RUNS = 3  # per figure, the best: see best_of
Run = tuple[float, int, int, str, float]


def lua_string(text: str) -> str:
    """A Lua string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def request_script(method: str, headers: dict[str, str], body: str | None = None) -> str:
    """A wrk script sending one fixed request."""
    lines = [f"wrk.method = {lua_string(method)}"]
    lines += [f"wrk.headers[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items()]
    if body is not None:
        lines.append(f"wrk.body = {lua_string(body)}")
    return "\n".join(lines) + "\n"


def save_script(tokens: list[str], bodies: list[str], headers: dict[str, str]) -> str:
    """A wrk script saving the next deal of game after game (each thread owns its own games)."""
    header_lines = "\n".join(f"  [{lua_string(k)}] = {lua_string(v)}," for k, v in headers.items())
    return f"""
local tokens = {{{", ".join(lua_string(t) for t in tokens)}}}
local bodies = {{{", ".join(lua_string(b) for b in bodies)}}}
local headers = {{
{header_lines}
}}
local threads = {{}}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  table.insert(threads, thread)
  next_id = next_id + 1
end
local mine, done, turn, primed = {{}}, {{}}, 0, false
function init(args)
  for i = 1, #tokens do
    if (i - 1) % {THREADS} == id then table.insert(mine, i) end
  end
end
function request()
  -- wrk makes (and drops) one request per thread before it sends any: let that be a harmless
  -- GET, not a deal whose loss would make the game's next deal a refused gap
  if not primed then
    primed = true
    return wrk.format("GET", "/")
  end
  for _ = 1, #mine do
    turn = turn % #mine + 1
    local game = mine[turn]
    local k = (done[game] or 0) + 1
    if k <= #bodies then
      done[game] = k
      return wrk.format("POST", "/g/" .. tokens[game] .. "/deal", headers, bodies[k])
    end
  end
  wrk.thread:stop()
  return wrk.format("GET", "/")
end
"""


def wrk(base: str, path: str, script: str, seconds: int, warm_up: str | None = "") -> Run:
    """Run wrk: requests per second, requests, failures (errors or 4xx/5xx), latency text, and
    the server's CPU milliseconds per request.

    First, unmeasured, one second of `warm_up` (by default the same script): every worker
    compiles its templates and fills its caches before the clock runs, as a server that has
    been up for a minute has."""
    script_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-wrk-{os.getpid()}.lua"
    if warm_up is not None:
        script_path.write_text(warm_up or script)
        subprocess.run(
            [
                "wrk",
                "-t",
                str(THREADS),
                "-c",
                str(CONNECTIONS),
                "-d",
                "1s",
                "-s",
                str(script_path),
                base + path,
            ],
            capture_output=True,
            timeout=60,
            check=True,
        )
    script_path.write_text(script)
    cpu_before = server_cpu_seconds(base)
    try:
        out = subprocess.run(
            [
                "wrk",
                "-t",
                str(THREADS),
                "-c",
                str(CONNECTIONS),
                "-d",
                f"{seconds}s",
                "--latency",
                "-s",
                str(script_path),
                base + path,
            ],
            capture_output=True,
            text=True,
            timeout=seconds + 60,
            check=True,
        ).stdout
    finally:
        script_path.unlink(missing_ok=True)
    cpu = server_cpu_seconds(base) - cpu_before
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    total = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    failed = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if errors:
        failed += sum(int(n) for n in errors.groups())
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.MULTILINE)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.MULTILINE)
    latency = f"p50 {p50.group(1) if p50 else '?'}, p99 {p99.group(1) if p99 else '?'}"
    if failed:
        latency += " (" + "; ".join(re.findall(r"(Non-2xx[^\n]*|Socket errors[^\n]*)", out)) + ")"
    return rate, total, failed, latency, cpu * 1000 / max(1, total)


def best_of(runs: list[Run]) -> Run:
    """The run with the best rate, with every run's requests, failures and CPU counted.

    A burst of new connections goes to whichever worker processes wake first: one run's 16
    keep-alive connections may mostly land in one worker, which then uses one core of two.
    Each run connects anew; the best run is the one whose connections were spread, for hello
    and endpoints alike (the other runs' rates are in the note)."""
    rate, _, _, latency, _ = max(runs, key=lambda run: run[0])
    total = sum(run[1] for run in runs)
    cpu = sum(run[4] * run[1] for run in runs) / max(1, total)
    rates = ", ".join(f"{run[0]:.0f}" for run in runs)
    return rate, total, sum(run[2] for run in runs), f"{latency}; runs {rates} req/s", cpu


def stored_deals(instance: str, tokens: list[str]) -> int:
    """Deals stored in these games (SQLite in the instance)."""
    import sqlite3

    with sqlite3.connect(os.path.join(instance, "scorekeeper.sqlite")) as connection:
        marks = ",".join("?" * len(tokens))
        return int(
            connection.execute(
                f"SELECT COALESCE(SUM(deal_count), 0) FROM games WHERE token IN ({marks})", tokens
            ).fetchone()[0]
        )


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Measure every endpoint and hello; figures are shares of hello (smoke: one 1-second run
    of each, on fewer games: the code runs, the figures mean nothing)."""
    results = Results()
    if shutil.which("wrk") is None:
        if smoke:
            raise RuntimeError("wrk is not installed: apt-get install wrk")
        results.add("throughput", "wrk not installed", "apt-get install wrk", None)
        return results
    seconds = 1 if smoke else 3 if quick else 6
    runs = 1 if smoke else RUNS
    save_count, warm_count = (100, 30) if smoke else (1000, 300)
    with temp_instance() as instance:
        init_db(instance)
        page_token, view_token = make_games(instance, 1, "trix", deals=10)[0]
        preview_token = make_games(instance, 1, "trix")[0][0]
        save_games = [
            [t for t, _ in make_games(instance, save_count, "turkish-king")] for _ in range(runs)
        ]
        warm_games = [
            [t for t, _ in make_games(instance, warm_count, "turkish-king")] for _ in range(runs)
        ]
        plan = game_plan("turkish-king")
        rates: dict[str, Run] = {}
        with server(instance, hello=True) as base:
            log("throughput: hello")
            rates["hello before"] = best_of(
                [
                    wrk(base, "/", request_script("GET", {"Accept-Encoding": "gzip"}), seconds)
                    for _ in range(runs)
                ]
            )
        with server(instance) as base:
            client = Client(base)
            client.request("GET", f"/g/{page_token}")
            game_page = client.request("GET", f"/g/{preview_token}").text
            csrf = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', game_page)
            assert csrf, "no CSRF token in the game page's hx-headers"
            token = csrf.group(1)
            cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            live = client.request("GET", f"/v/{view_token}/live")
            etag = live.headers.get("ETag", "")
            client.close()
            common = {"Accept-Encoding": "gzip", "Cookie": cookie}
            htmx = common | {
                "HX-Request": "true",
                "X-CSRFToken": token,
                "Content-Type": "application/x-www-form-urlencoded",
            }
            preview_body = urlencode(
                {
                    "contract": "diamonds",
                    "number": "1",
                    "version": "2",
                    "entry_key": str(uuid.uuid4()),  # (every form has one)
                    "counts-0": "5",
                    "counts-1": "4",
                    "counts-2": "3",
                }
            )
            log("throughput: game page")
            rates["game page"] = best_of(
                [
                    wrk(base, f"/g/{page_token}", request_script("GET", common), seconds)
                    for _ in range(runs)
                ]
            )
            log("throughput: preview")
            rates["preview"] = best_of(
                [
                    wrk(
                        base,
                        f"/g/{preview_token}/deal/preview",
                        request_script("POST", htmx | {"HX-Target": "deal-preview"}, preview_body),
                        seconds,
                    )
                    for _ in range(runs)
                ]
            )
            if live.status == 200 and etag:
                log("throughput: live view poll")
                rates["live view poll (304)"] = best_of(
                    [
                        wrk(
                            base,
                            f"/v/{view_token}/live",
                            request_script("GET", common | {"If-None-Match": etag}),
                            seconds,
                        )
                        for _ in range(runs)
                    ]
                )
            else:
                results.notes.append(
                    f"live view poll: /v/<view_token>/live answered "
                    f"{live.status} without an ETag; not measured"
                )
            log("throughput: saving deals")
            bodies = [
                urlencode(
                    {
                        "number": str(k + 1),
                        "version": str(k + 2),
                        "entry_key": str(uuid.uuid4()),  # (one a deal; each game stores it once)
                        **form_fields(raw),
                    }
                )
                for k, raw in enumerate(plan)
            ]
            inline = htmx | {"HX-Target": "deal-form"}
            rates["saving a deal"] = best_of(
                [
                    wrk(
                        base,
                        "/",
                        save_script(games, bodies, inline),
                        seconds,
                        save_script(warm, bodies, inline),
                    )
                    for games, warm in zip(save_games, warm_games, strict=True)
                ]
            )
        saved = sum(stored_deals(instance, games) for games in save_games)
        with server(instance, hello=True) as base:
            log("throughput: hello again")
            rates["hello after"] = best_of(
                [
                    wrk(base, "/", request_script("GET", {"Accept-Encoding": "gzip"}), seconds)
                    for _ in range(runs)
                ]
            )
    hello = (rates["hello before"][0] + rates["hello after"][0]) / 2
    hello_cpu = (rates["hello before"][4] + rates["hello after"][4]) / 2
    results.add(
        "hello baseline (same server settings)",
        f"{hello:.0f} req/s",
        "–",
        None,
        f"before {rates['hello before'][0]:.0f}, after {rates['hello after'][0]:.0f} "
        f"req/s; server CPU {hello_cpu:.2f} ms a request; wrk -t{THREADS} "
        f"-c{CONNECTIONS} -d{seconds}s, best of {runs} runs, 4 workers × 2 threads; "
        f"machine load average "
        f"{os.getloadavg()[0]:.1f}",
    )
    for name, target in TARGETS.items():
        if name not in rates:
            results.add(
                f"throughput: {name}",
                "not measured",
                "–" if target is None else f"≥ {target:.0%} of hello",
                None,
            )
            continue
        rate, total, failed, latency, cpu = rates[name]
        # the CPU clock ticks every 10 ms: a short run's few requests may read as none
        share_by_cpu = f"{hello_cpu / cpu:.0%}" if cpu > 0 else "?"
        note = (
            f"{rate:.0f} req/s, {total} requests, {failed} failed, {latency}; server CPU "
            f"{cpu:.2f} ms a request, {share_by_cpu} of hello's share by CPU cost"
        )
        ok: bool | None = failed == 0 and (target is None or rate / hello >= target)
        if name == "saving a deal":
            made = total - failed
            note += f"; deals stored {saved} (requests {made})"
            ok = ok and saved >= made - runs * CONNECTIONS  # wrk may count some in flight
        if target is None and ok:
            ok = None  # reported only: nothing to meet
        results.add(
            f"throughput: {name}",
            f"{rate / hello:.0%} of hello",
            "–" if target is None else f"≥ {target:.0%}",
            ok,
            note,
        )
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv, smoke="--smoke" in sys.argv))
