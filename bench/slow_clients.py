"""Slow clients against each candidate server: does a cheap page keep its rate, and are idle or
trickling connections closed after a bounded time?

Every candidate serves the real app (`scorekeeper:create_app`) on 127.0.0.1 with 4 processes
(waitress: one process, 8 threads) and a throw-away instance folder:

- gunicorn gthread, 4 workers x 2 threads: what `scorekeeper serve` ran before;
- gunicorn gevent, 4 workers, an async worker (one greenlet per connection);
- waitress, 8 threads (it buffers each request before a thread sees it), channel timeout 10 s;
- granian WSGI (Rust, hyper), 4 workers x 2 blocking threads, header read timeout 10 s, HTTP/1
  only (`--only granian-auto`: HTTP/1 and 2 sniffed, which never closes a silent connection);
- `scorekeeper serve --workers 4` itself, whatever it runs now.

For each: the home page is loaded by 8 clients, each request on a new connection, for a few
seconds alone (its rate and the server's CPU per request), then again while 64 connections
trickle the headers of a request that never ends, one byte every 2 s, 8 connections stay silent
and 8 go idle after one answered request. Those 80 are then watched until the server closes
them or OBSERVE_S seconds pass. Bounded: a fixed number of phases, each with a deadline;
loopback only.

    python bench/slow_clients.py [--quick | --smoke] [--only granian,serve] [--trickle-every 1]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    ROOT,
    SERVER_PIDS,
    Results,
    bench_env,
    free_port,
    init_db,
    log,
    server_cpu_seconds,
    stop,
    temp_instance,
    wait_for_port,
)

SHARE_TARGET = 0.50
CLOSE_TARGET_S = 15.0  # idle or trickling connections closed within this (the issue: bounded)
TRICKLERS = 64
SILENT = 8
IDLE_AFTER_ONE = 8
LOAD_CONNECTIONS = 8
TRICKLE_EVERY_S = 2.0
REQUEST_TIMEOUT_S = 2.0
OBSERVE_S = 30.0
PATH = "/"
APP = "scorekeeper:create_app"


def _gunicorn(worker: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        "127.0.0.1:{port}",
        "--workers",
        "4",
        *(["--threads", "2"] if worker == "gthread" else []),
        "--worker-class",
        worker,
        "--timeout",
        "30",
        "--keep-alive",
        "2",
        "--log-level",
        "warning",
        APP + "()",
    ]


def _granian(http: str) -> list[str]:
    return [
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
        "4",
        "--blocking-threads",
        "2",
        "--http",
        http,
        "--http1-header-read-timeout",
        "10000",
        "--log-level",
        "warning",
        "--no-ws",
        APP,
    ]


CANDIDATES: dict[str, tuple[str, list[str]]] = {
    "gthread": ("gunicorn gthread, 4 × 2 threads (before)", _gunicorn("gthread")),
    "gevent": ("gunicorn gevent, 4 workers", _gunicorn("gevent")),
    "waitress": (
        "waitress, 8 threads",
        [
            sys.executable,
            "-m",
            "waitress",
            "--listen=127.0.0.1:{port}",
            "--threads=8",
            "--channel-timeout=10",
            "--call",
            APP,
        ],
    ),
    "granian": ("granian WSGI, 4 × 2 threads, HTTP/1", _granian("1")),
    "granian-auto": ("granian WSGI, 4 × 2 threads, HTTP auto", _granian("auto")),
    "serve": (
        "scorekeeper serve --workers 4",
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
            "4",
        ],
    ),
}


@contextlib.contextmanager
def running(command: list[str], instance: str) -> Iterator[tuple[int, str]]:
    """Start one candidate on a free loopback port; yield (port, base URL); stop it."""
    port = free_port()
    argv = [part.replace("{port}", str(port)) for part in command]
    with open(os.path.join(instance, f"server-{port}.log"), "w") as output:
        process = subprocess.Popen(
            argv,
            env=bench_env(instance),
            cwd=str(ROOT),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for_port(port)
            time.sleep(1.0)  # every worker up
            SERVER_PIDS[base] = process.pid
            yield port, base
        finally:
            stop(process)


REQUEST = f"GET {PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\r\n".encode()
FRESH = REQUEST.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n")


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """One response (status, whether the server closes after it); the body is read and dropped."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {
        k.strip().lower(): v.strip()
        for k, _, v in (line.partition(":") for line in lines[1:] if line)
    }
    if "content-length" in headers:
        await reader.readexactly(int(headers["content-length"]))
    elif headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    return status, headers.get("connection", "").lower() == "close"


@dataclass
class Load:
    served: int = 0
    failed: int = 0


async def load(port: int, seconds: float) -> Load:
    """LOAD_CONNECTIONS loops for `seconds`, each request on a new connection (as a phone that
    comes back after a while opens one); a request unanswered in 2 s fails."""
    result = Load()
    deadline = time.monotonic() + seconds

    async def one() -> None:
        while time.monotonic() < deadline:
            writer = None
            try:
                left = max(0.05, min(REQUEST_TIMEOUT_S, deadline - time.monotonic() + 0.5))
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", port), left
                )
                writer.write(FRESH)
                status, _ = await asyncio.wait_for(read_response(reader), left)
                if time.monotonic() > deadline + 0.5:
                    break
                if status == 200:
                    result.served += 1
                else:
                    result.failed += 1
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
                result.failed += 1
            finally:
                if writer is not None:
                    writer.close()

    await asyncio.gather(*(one() for _ in range(LOAD_CONNECTIONS)))
    return result


async def watch(port: int, kind: str, until: float) -> float | None:
    """Open one connection of `kind`; seconds until the server closed it (None: still open)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return 0.0
    opened = time.monotonic()
    try:
        if kind == "idle-after-one":
            writer.write(REQUEST)
            try:
                await asyncio.wait_for(read_response(reader), until - opened)
            except TimeoutError:
                return None  # never answered: a starved server, not a closed connection
            opened = time.monotonic()
        elif kind == "trickle":
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        reading = asyncio.ensure_future(reader.read(65536))
        while time.monotonic() < until:
            done, _ = await asyncio.wait({reading}, timeout=TRICKLE_EVERY_S)
            if done:
                if not reading.result():  # end of stream: closed by the server
                    return time.monotonic() - opened
                reading = asyncio.ensure_future(reader.read(65536))  # e.g. a 408, then close
                continue
            if kind == "trickle":
                writer.write(b"a")
                await writer.drain()
        reading.cancel()
        return None
    except (TimeoutError, OSError, asyncio.IncompleteReadError):
        return time.monotonic() - opened
    finally:
        writer.close()


@dataclass
class Outcome:
    alone: Load
    slowed: Load
    seconds: float
    cpu_ms: float
    closes: dict[str, list[float | None]] = field(default_factory=dict)


async def measure(
    port: int,
    base: str,
    seconds: float,
    observe: float = OBSERVE_S,
    slow: tuple[int, int, int] = (TRICKLERS, SILENT, IDLE_AFTER_ONE),
) -> Outcome:
    """Warm up, load alone, then load beside the slow connections (`slow`: trickling, silent,
    idle after one request), then watch them close for `observe` seconds."""
    await load(port, 1.0)
    cpu = server_cpu_seconds(base)
    alone = await load(port, seconds)
    cpu_ms = (server_cpu_seconds(base) - cpu) * 1000 / max(1, alone.served)
    until = time.monotonic() + observe
    kinds = ["trickle"] * slow[0] + ["silent"] * slow[1] + ["idle-after-one"] * slow[2]
    watchers = [asyncio.ensure_future(watch(port, kind, until)) for kind in kinds]
    await asyncio.sleep(1.0)
    slowed = await load(port, seconds)
    times = await asyncio.gather(*watchers)
    closes: dict[str, list[float | None]] = {}
    for kind, took in zip(kinds, times, strict=True):
        closes.setdefault(kind, []).append(took)
    return Outcome(alone, slowed, seconds, cpu_ms, closes)


def describe(times: list[float | None]) -> tuple[str, bool]:
    """'64/64 closed, after 10.0–10.1 s' and whether all closed within the bound."""
    closed = [t for t in times if t is not None]
    text = f"{len(closed)}/{len(times)} closed"
    if closed:
        text += f" after {min(closed):.1f}–{max(closed):.1f} s"
    return text, len(closed) == len(times) and max(closed, default=0) <= CLOSE_TARGET_S


def run(quick: bool = False, only: list[str] | None = None, smoke: bool = False) -> Results:
    """Each candidate in turn (quick: only `scorekeeper serve`); targets apply to serve (smoke:
    serve, a few slow connections watched for 3 s: the code runs, the figures mean nothing)."""
    results = Results()
    chosen = only or (
        ["serve"] if quick or smoke else [name for name in CANDIDATES if name != "granian-auto"]
    )
    seconds = 1.0 if smoke else 3.0 if quick else 5.0
    observe = 3.0 if smoke else OBSERVE_S
    slow = (4, 2, 2) if smoke else (TRICKLERS, SILENT, IDLE_AFTER_ONE)
    with temp_instance() as instance:
        init_db(instance)
        for name in chosen:
            label, command = CANDIDATES[name]
            log(f"slow clients: {label}")
            with running(command, instance) as (port, base):
                outcome = asyncio.run(measure(port, base, seconds, observe, slow))
            target = name == "serve"
            rate = outcome.alone.served / seconds
            share = outcome.slowed.served / max(1, outcome.alone.served)
            results.add(
                f"{label}: home page with {slow[0]} trickling connections",
                f"{share:.0%} of its rate",
                f"≥ {SHARE_TARGET:.0%}",
                share >= SHARE_TARGET if target else None,
                f"{rate:.0f} req/s alone ({outcome.alone.failed} failed), "
                f"{outcome.slowed.served / seconds:.0f} req/s beside them "
                f"({outcome.slowed.failed} failed); server CPU {outcome.cpu_ms:.2f} ms "
                f"a request; machine load average {os.getloadavg()[0]:.1f}",
            )
            texts, bounded = [], True
            for kind in ("trickle", "silent", "idle-after-one"):
                text, ok = describe(outcome.closes[kind])
                texts.append(f"{kind} {text}")
                bounded = bounded and ok
            results.add(
                f"{label}: slow and idle connections closed",
                "; ".join(texts),
                f"all, within {CLOSE_TARGET_S:.0f} s",
                bounded if target else None,
                f"watched for {observe:.0f} s",
            )
            results.add(
                f"{label}: CPU per request (home page)", f"{outcome.cpu_ms:.2f} ms", "–", None
            )
    return results


if __name__ == "__main__":
    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--smoke", action="store_true", help="serve only, seconds: it runs")
    parser.add_argument("--only", help=f"comma-separated subset of {','.join(CANDIDATES)}")
    parser.add_argument(
        "--trickle-every",
        type=float,
        default=TRICKLE_EVERY_S,
        help="seconds between two bytes of a trickling connection",
    )
    options = parser.parse_args()
    TRICKLE_EVERY_S = options.trickle_every
    print_table(
        run(options.quick, options.only.split(",") if options.only else None, options.smoke)
    )
