"""Slow request bodies against the server: is a cheap page still served at its rate, is a
trickling body cut off (408) in bounded time, and what does a request cost the server?

Each candidate serves the real app on 127.0.0.1 with 2 processes × 2 threads and a throw-away
instance folder:

- `before`: granian's WSGI interface as `scorekeeper serve` ran it up to now (a thread is handed
  the request once its head has arrived, and waits for the body);
- `serve`: `scorekeeper serve --workers 2 --threads 2` as it is now.

First both run at once, and the server's CPU per request is read from /proc for each, one
request at a time on a kept-alive connection (the home page, the view link's poll and the game
page's follow poll, both unchanged), in alternating rounds so that the machine's moments fall on
both alike: the median of the rounds, and the ratio. Then each alone: the home page loaded by 8
clients on new connections for a few seconds, then beside 16 and beside 32 connections that send
the head of `POST /new` with `Content-Length: 100000` and then one body byte every 2 s; when each
of those is answered, with what, and when it is closed. Bounded: a fixed number of phases, each
with a deadline; loopback only.

    python bench/slow_bodies.py [--quick | --smoke] [--only serve]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, init_db, log, make_games, server_cpu_seconds, temp_instance
from slow_clients import load, read_response, running

SHARE_TARGET = 0.50
CUT_OFF_TARGET_S = 30.0
TRICKLERS = (16, 32)
TRICKLE_EVERY_S = 2.0
OBSERVE_S = 40.0
CPU_REQUESTS = 400  # a round, per request kind and candidate
CPU_ROUNDS = 7
WORKERS = "2"
THREADS = "2"
APP = "scorekeeper:create_app"

CANDIDATES: dict[str, tuple[str, list[str]]] = {
    "before": (
        "granian WSGI, 2 × 2 threads (before)",
        [
            sys.executable,
            "-m",
            "granian",
            "--interface",
            "wsgi",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            "{port}",
            "--workers",
            WORKERS,
            "--blocking-threads",
            THREADS,
            "--http",
            "1",
            "--http1-header-read-timeout",
            "10000",
            "--log-level",
            "warning",
            "--no-ws",
            APP,
        ],
    ),
    "serve": (
        "scorekeeper serve, 2 × 2 threads",
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "{port}",
            "--workers",
            WORKERS,
            "--threads",
            THREADS,
        ],
    ),
}

SLOW_HEAD = (
    b"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 100000\r\n\r\n"
)


async def cpu_per_request(
    port: int, base: str, path: str, headers: str = "", count: int = CPU_REQUESTS
) -> float:
    """Server CPU (ms) per request of `path`, asked one at a time on one kept-alive connection."""
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}\r\n").encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for _ in range(20):  # warm up: templates compiled, headers recorded
            writer.write(request)
            await read_response(reader)
        before = server_cpu_seconds(base)
        for _ in range(count):
            writer.write(request)
            await read_response(reader)
        return (server_cpu_seconds(base) - before) * 1000 / count
    finally:
        writer.close()


async def cpu_rounds(
    servers: dict[str, tuple[int, str]],
    requests: dict[str, tuple[str, str]],
    rounds: int = CPU_ROUNDS,
    count: int = CPU_REQUESTS,
) -> dict[str, dict[str, float]]:
    """Median CPU per request of each kind on each server, measured in alternating rounds."""
    seen: dict[str, dict[str, list[float]]] = {
        name: {what: [] for what in requests} for name in servers
    }
    for _ in range(rounds):
        for what, (path, headers) in requests.items():
            for name, (port, base) in servers.items():
                seen[name][what].append(await cpu_per_request(port, base, path, headers, count))
    return {
        name: {what: statistics.median(values) for what, values in kinds.items()}
        for name, kinds in seen.items()
    }


@dataclass
class Trickled:
    """What became of one trickling body: seconds from its head to the answer and to the close,
    and the answer's status (None: never, within the watch)."""

    answered: float | None = None
    status: int | None = None
    closed: float | None = None


async def trickle(port: int, until: float) -> Trickled:
    """Send a slow POST body, a byte every TRICKLE_EVERY_S, until answered, closed or `until`."""
    outcome = Trickled()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return Trickled(0.0, None, 0.0)
    started = time.monotonic()
    try:
        writer.write(SLOW_HEAD)
        answer = asyncio.ensure_future(read_response(reader))
        while time.monotonic() < until:
            done, _ = await asyncio.wait({answer}, timeout=TRICKLE_EVERY_S)
            if done:
                break
            writer.write(b"a")
            await writer.drain()
        if answer.done() and answer.exception() is None:
            outcome.answered = time.monotonic() - started
            outcome.status = answer.result()[0]
            rest = await asyncio.wait_for(reader.read(65536), max(0.1, until - time.monotonic()))
            while rest:
                rest = await asyncio.wait_for(
                    reader.read(65536), max(0.1, until - time.monotonic())
                )
            outcome.closed = time.monotonic() - started
        elif answer.done():  # closed without an answer
            outcome.closed = time.monotonic() - started
        else:
            answer.cancel()
    except (TimeoutError, OSError, asyncio.IncompleteReadError):
        outcome.closed = outcome.closed or time.monotonic() - started
    finally:
        writer.close()
    return outcome


@dataclass
class Outcome:
    rate_alone: float
    rates: dict[int, float]
    trickled: dict[int, list[Trickled]]


async def measure(
    port: int,
    seconds: float,
    tricklers: tuple[int, ...] = TRICKLERS,
    observe: float = OBSERVE_S,
) -> Outcome:
    """The rate alone, then beside each number of trickling bodies (watched `observe` s)."""
    await load(port, 1.0)
    alone = await load(port, seconds)
    rates: dict[int, float] = {}
    trickled: dict[int, list[Trickled]] = {}
    for count in tricklers:
        until = time.monotonic() + observe
        slow = [asyncio.ensure_future(trickle(port, until)) for _ in range(count)]
        await asyncio.sleep(1.0)  # every slow head has reached a worker
        rates[count] = (await load(port, seconds)).served / seconds
        trickled[count] = list(await asyncio.gather(*slow))
    return Outcome(alone.served / seconds, rates, trickled)


def describe(outcomes: list[Trickled]) -> tuple[str, bool]:
    """'32/32 answered 408 after 20.0–20.1 s, closed after …' and whether all were cut off
    in time."""
    answered = [o.answered for o in outcomes if o.answered is not None]
    closed = [o.closed for o in outcomes if o.closed is not None]
    statuses = sorted({o.status for o in outcomes if o.status is not None})
    text = f"{len(answered)}/{len(outcomes)} answered"
    if answered:
        text += f" {'/'.join(map(str, statuses))} after {min(answered):.1f}–{max(answered):.1f} s"
    text += f", {len(closed)} closed"
    if closed:
        text += f" after {min(closed):.1f}–{max(closed):.1f} s"
    ok = len(closed) == len(outcomes) and max(closed, default=0.0) <= CUT_OFF_TARGET_S
    return text, ok


def run(quick: bool = False, only: list[str] | None = None, smoke: bool = False) -> Results:
    """Each candidate in turn (quick: only `scorekeeper serve`); targets apply to serve (smoke:
    serve, one round of CPU, 2 trickling bodies watched for 3 s: the code runs, the figures
    mean nothing)."""
    results = Results()
    chosen = only or (["serve"] if quick or smoke else list(CANDIDATES))
    seconds = 1.0 if smoke else 3.0 if quick else 5.0
    tricklers = (2,) if smoke and TRICKLERS else TRICKLERS
    observe = 3.0 if smoke else OBSERVE_S
    rounds, count = (1, 5) if smoke else (CPU_ROUNDS, CPU_REQUESTS)
    with temp_instance() as instance:
        init_db(instance)
        [(token, view_token)] = make_games(instance, 1)
        tag = "2-en"  # a started game's version, the reader's language
        requests = {
            "home page": ("/", ""),
            "view link's poll, unchanged (204)": (f"/v/{view_token}/live?v={tag}", ""),
            "game page's follow poll, unchanged (204)": (
                f"/g/{token}/live?v={tag}",
                "HX-Request: true\r\n",
            ),
        }
        log(
            f"CPU per request: {', '.join(CANDIDATES[name][0] for name in chosen)}, "
            f"{rounds} alternating rounds"
        )
        with contextlib.ExitStack() as stack:
            servers = {
                name: stack.enter_context(running(CANDIDATES[name][1], instance)) for name in chosen
            }
            cpu = asyncio.run(cpu_rounds(servers, requests, rounds, count))
        for what in requests:
            for name in chosen:
                ratio = ""
                if name != "before" and "before" in cpu:
                    ratio = f" ({cpu[name][what] / cpu['before'][what]:.2f}× before)"
                results.add(
                    f"{CANDIDATES[name][0]}: CPU per request, {what}",
                    f"{cpu[name][what]:.2f} ms{ratio}",
                    "–",
                    None,
                    f"median of {rounds} alternating rounds of {count} "
                    f"requests, one at a time, kept alive; machine load average "
                    f"{os.getloadavg()[0]:.1f}",
                )
        for name in chosen if tricklers else ():
            label, command = CANDIDATES[name]
            log(f"slow bodies: {label}")
            with running(command, instance) as (port, _):
                outcome = asyncio.run(measure(port, seconds, tricklers, observe))
            target = name == "serve"
            for count in tricklers:
                share = outcome.rates[count] / max(1e-9, outcome.rate_alone)
                results.add(
                    f"{label}: home page beside {count} trickling bodies",
                    f"{share:.0%} of its rate",
                    f"≥ {SHARE_TARGET:.0%}",
                    share >= SHARE_TARGET if target else None,
                    f"{outcome.rate_alone:.0f} req/s alone, "
                    f"{outcome.rates[count]:.0f} beside them; machine load average "
                    f"{os.getloadavg()[0]:.1f}",
                )
                text, ok = describe(outcome.trickled[count])
                results.add(
                    f"{label}: {count} trickling bodies cut off",
                    text,
                    f"all, within {CUT_OFF_TARGET_S:.0f} s",
                    ok if target else None,
                    f"watched for {observe:.0f} s",
                )
    return results


if __name__ == "__main__":
    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="serve only, seconds: it runs")
    parser.add_argument("--only", help=f"comma-separated subset of {','.join(CANDIDATES)}")
    parser.add_argument(
        "--cpu-only", action="store_true", help="only the CPU per request (no slow bodies)"
    )
    options = parser.parse_args()
    if options.cpu_only:
        TRICKLERS = ()
    print_table(
        run(options.quick, options.only.split(",") if options.only else None, options.smoke)
    )
