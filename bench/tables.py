"""Many tables on one machine: 1,000 games at once against one server, open loop.

Each table is one game with a scorekeeper and three viewers:

- the scorekeeper enters a deal every `--deal-every` seconds (120 s: the fast end of a real
  table, so time is not compressed further), starting at a random phase so the load is steady:
  the deal form (htmx brings it into the game page), one preview per chip tapped, 1 s apart,
  then the save (its answer is what the deal changed) and the chart, fetched as it scrolls
  into view;
- each viewer polls the live view every 3 s (the app's own interval) with the current ETag,
  as htmx and the browser cache do, and fetches the fragment again when the game changed.

Requests go out at their scheduled time whatever the server's pace (open loop), over a pool of
keep-alive connections; latency counts from the scheduled time, so queueing shows. Errors are
transport failures, timeouts, 5xx, and any status a step does not expect.

Then the same on PostgreSQL with several app processes, when a local PostgreSQL can be started
(Debian's postgresql, as .ci/run does; port 54330).

    python bench/tables.py [--quick] [--tables 1000] [--seconds 60] [--postgres-only]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
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
    percentile,
    server,
    server_cpu_seconds,
    temp_instance,
)
from httpraw import Client

P99_TARGET_MS = 100.0
POLL_SECONDS = 3.0
MAX_CONNECTIONS = 200
TIMEOUT = 10.0
KEEPALIVE = 1.5  # reuse a kept-alive connection only soon after its last answer
PG_PORT = 54330


@dataclass
class Stats:
    """What the load generator saw."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    started: float = 0.0
    finished: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0

    def record(self, kind: str, latency: float) -> None:
        self.latencies.setdefault(kind, []).append(latency)

    def all(self) -> list[float]:
        return [v for values in self.latencies.values() for v in values]


class Pool:
    """Keep-alive HTTP/1.1 connections to one server, reused across requests."""

    def __init__(self, host: str, port: int, size: int) -> None:
        self.host, self.port = host, port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []
        self.slots = asyncio.Semaphore(size)

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        """Send one request, return status, headers (lower-case) and the raw body."""
        async with self.slots:
            now = asyncio.get_running_loop().time()
            while self.idle and now - self.idle[-1][2] > KEEPALIVE:
                self.idle.pop()[1].close()  # the server has closed it by now, or is about to
            for attempt in range(2):
                fresh = attempt > 0 or not self.idle
                if fresh:
                    reader, writer = await asyncio.open_connection(self.host, self.port)
                else:
                    reader, writer, _ = self.idle.pop()
                try:
                    head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                    head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
                    if body or method == "POST":
                        head += f"Content-Length: {len(body)}\r\n"
                    writer.write(head.encode("latin-1") + b"\r\n" + body)
                    status, reply_headers, reply_body = await self._read(reader)
                except (ConnectionError, asyncio.IncompleteReadError):
                    writer.close()
                    if fresh:  # a kept-alive connection the server closed: retry once, afresh
                        raise
                    continue
                if reply_headers.get("connection", "").lower() == "close":
                    writer.close()
                else:
                    self.idle.append((reader, writer, asyncio.get_running_loop().time()))
                return status, reply_headers, reply_body
            raise ConnectionError("unreachable")

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
        raw = await reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                body += await reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            body = b""
        return status, headers, body

    def close(self) -> None:
        for _, writer, _ in self.idle:
            writer.close()


@dataclass
class Table:
    """One game: its links, its plan of deals, and what the viewers last saw."""

    token: str
    view_token: str
    plan: list[dict[str, str]]
    server: int = 0
    dealt: int = 0
    tags: list[str] = field(default_factory=lambda: ["", "", ""])


class Simulation:
    """Drive every table's scorekeeper and viewers until the deadline."""

    def __init__(self, pools: list[Pool], tables: list[Table], cookie: str, csrf: str,
                 seconds: float, deal_every: float) -> None:
        self.pools, self.tables, self.seconds = pools, tables, seconds
        self.deal_every = deal_every
        self.base_headers = {"Accept-Encoding": "gzip, br", "Cookie": cookie}
        self.csrf = csrf
        self.stats = Stats()
        self.deadline = 0.0

    async def call(self, table: Table, kind: str, at: float, method: str, path: str,
                   headers: dict[str, str], body: bytes = b"",
                   expect: tuple[int, ...] = (200,)) -> tuple[int, dict[str, str], bytes] | None:
        """One request scheduled at `at` (loop time); latency and errors go to the stats."""
        loop = asyncio.get_running_loop()
        delay = at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            pool = self.pools[table.server]
            reply = await asyncio.wait_for(pool.request(method, path, headers, body), TIMEOUT)
        except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError,
                ValueError) as error:
            self.stats.errors[f"{kind}: {type(error).__name__}"] += 1
            return None
        self.stats.record(kind, (loop.time() - at) * 1000)
        self.stats.statuses[f"{kind} {reply[0]}"] += 1
        if reply[0] not in expect:
            self.stats.errors[f"{kind}: HTTP {reply[0]}"] += 1
        return reply

    async def scorekeeper(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        at = loop.time() + random.uniform(0, self.deal_every)
        htmx = self.base_headers | {"HX-Request": "true", "X-CSRFToken": self.csrf}
        form_type = {"Content-Type": "application/x-www-form-urlencoded"}
        while at < self.deadline and table.dealt < len(table.plan):
            fields = table.plan[table.dealt]
            number, version = table.dealt + 1, table.dealt + 2
            await self.call(table, "deal form", at, "GET",
                            f"/g/{table.token}/deal?contract={fields['contract']}",
                            htmx | {"HX-Target": "play"})
            base = {"contract": fields["contract"], "number": str(number),
                    "version": str(version)}
            chips = [(k, v) for k, v in fields.items() if k != "contract"]
            entered: dict[str, str] = {}
            for name, value in chips:
                at += 1.0
                entered[name] = value
                await self.call(table, "preview", at, "POST", f"/g/{table.token}/deal/preview",
                                htmx | form_type | {"HX-Target": "deal-preview"},
                                urlencode(base | entered).encode())
            at += 1.0
            saved = await self.call(table, "save", at, "POST", f"/g/{table.token}/deal",
                                    htmx | form_type | {"HX-Target": "deal-form"},
                                    urlencode(base | entered).encode(), expect=(200,))
            if saved and saved[0] == 200:
                await self.call(table, "chart", loop.time(), "GET", f"/g/{table.token}/chart",
                                htmx)
            table.dealt += 1
            at += self.deal_every - (len(chips) + 1)

    async def viewer(self, table: Table, seat: int) -> None:
        loop = asyncio.get_running_loop()
        at = loop.time() + random.uniform(0, POLL_SECONDS)
        headers = self.base_headers | {"HX-Request": "true"}
        while at < self.deadline:
            tag = table.tags[seat]
            path = f"/v/{table.view_token}/live"
            sent = headers
            if tag:
                # as htmx sends it: the bare tag, URL-encoded (a raw quote is no valid URL)
                path += "?" + urlencode({"v": tag.removeprefix("W/").strip(chr(34))})
                sent = headers | {"If-None-Match": tag}
            reply = await self.call(table, "live poll", at, "GET", path, sent,
                                    expect=(200, 204, 304))
            if reply and reply[0] == 200:
                table.tags[seat] = reply[1].get("etag", "")
            at += POLL_SECONDS

    async def run(self) -> Stats:
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.seconds
        self.stats.started = time.monotonic()
        tasks = [self.scorekeeper(t) for t in self.tables]
        tasks += [self.viewer(t, seat) for t in self.tables for seat in range(3)]
        await asyncio.gather(*tasks)
        self.stats.finished = time.monotonic()
        for pool in self.pools:
            pool.close()
        return self.stats


def warm_up(bases: list[str], tables: list[Table], cookie: str, csrf: str) -> None:
    """Have every worker render every page once (Jinja compiles templates on first use)."""
    for base in bases:
        for _ in range(3):
            for table in tables:
                client = Client(base)
                client.cookies.update(dict(c.split("=", 1) for c in cookie.split("; ")))
                contract = table.plan[0]["contract"]
                client.request("GET", f"/g/{table.token}/deal?contract={contract}")
                fields = {"csrf_token": csrf, "number": "1", "version": "2", **table.plan[0]}
                client.request("POST", f"/g/{table.token}/deal/preview", form=fields,
                               headers={"HX-Request": "true"})
                client.request("GET", f"/g/{table.token}")
                client.request("GET", f"/g/{table.token}/chart", headers={"HX-Request": "true"})
                client.request("GET", f"/v/{table.view_token}/live")
                client.close()


def simulate(bases: list[str], tables: list[Table], seconds: float, deal_every: float
             ) -> Stats:
    """Run the simulation; table i talks to server i mod len(bases) (same database)."""
    client = Client(bases[0])
    first = tables[0]
    page = client.request("GET", f"/g/{first.token}/deal?contract={first.plan[0]['contract']}")
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page.text)
    assert match, f"no CSRF token on the deal form ({page.status})"
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    # viewers arrive from the view page, so they already hold the game's ETag (every game is
    # fresh, at the same version)
    live = client.request("GET", f"/v/{first.view_token}/live")
    client.close()
    warm_up(bases, tables[-8:], cookie, match.group(1))
    for table in tables:
        table.tags = [live.headers.get("ETag", "")] * 3
    random.seed(7)
    for index, table in enumerate(tables):
        table.server = index % len(bases)

    async def main() -> Stats:
        server_before = sum(server_cpu_seconds(base) for base in bases)
        client_before = time.process_time()
        pools = []
        for base in bases:
            host, port = base.removeprefix("http://").split(":")
            pools.append(Pool(host, int(port), MAX_CONNECTIONS // len(bases)))
        stats = await Simulation(pools, tables, cookie, match.group(1), seconds,
                                 deal_every).run()
        stats.server_cpu = sum(server_cpu_seconds(base) for base in bases) - server_before
        stats.client_cpu = time.process_time() - client_before
        return stats

    return asyncio.run(main())


def summarise(results: Results, label: str, stats: Stats, tables: int) -> None:
    """Figures of one simulation."""
    latencies = stats.all()
    elapsed = stats.finished - stats.started
    errors = sum(stats.errors.values())
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    per_request = stats.server_cpu * 1000 / max(1, len(latencies))
    results.add(f"{label}: requests per second", f"{len(latencies) / elapsed:.0f} req/s",
                "–", None, f"{len(latencies)} requests in {elapsed:.0f} s, {tables} tables; "
                f"app CPU {per_request:.2f} ms a request (so 2 free cores carry about "
                f"{2000 / per_request:.0f} req/s of this mix); load generator CPU "
                f"{stats.client_cpu:.0f} s; machine load average {os.getloadavg()[0]:.1f}")
    results.add(f"{label}: latency p50 / p99", f"{p50:.1f} / {p99:.1f} ms",
                f"p99 < {P99_TARGET_MS:.0f} ms", p99 < P99_TARGET_MS,
                "; ".join(f"{kind} p50 {percentile(v, .5):.1f} p99 {percentile(v, .99):.1f} ms "
                          f"({len(v)})" for kind, v in sorted(stats.latencies.items())))
    results.add(f"{label}: errors", str(errors), "0", errors == 0,
                ", ".join(f"{k} ×{n}" for k, n in stats.errors.most_common(6)))


def tables_for(tokens: list[tuple[str, str]]) -> list[Table]:
    """Tables with their plan of deals as form fields (with the contract)."""
    plan = [form_fields(raw) for raw in game_plan("trix")]
    return [Table(token, view, plan) for token, view in tokens]


@contextlib.contextmanager
def postgres() -> Iterator[str | None]:
    """A throw-away local PostgreSQL on port 54330 (as .ci/run starts one), or None."""
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not binaries or os.geteuid() != 0 or shutil.which("su") is None:
        yield None
        return
    pg_bin = binaries[-1]
    data = tempfile.mkdtemp(prefix="scorekeeper-bench-pg-")
    shutil.chown(data, "postgres")

    def as_postgres(command: str) -> None:
        subprocess.run(["su", "postgres", "-s", "/bin/sh", "-c", command], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    started = False
    try:
        as_postgres(f"{pg_bin}/initdb -D {data} -A trust -U postgres")
        as_postgres(f"{pg_bin}/pg_ctl -D {data} -o '-p {PG_PORT} -k /tmp "
                    f"-c listen_addresses=127.0.0.1 -c max_connections=300 "
                    f"-c synchronous_commit=on' -l {data}/log -w start")
        started = True
        yield f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres"
    finally:
        if started:
            with contextlib.suppress(subprocess.SubprocessError):
                as_postgres(f"{pg_bin}/pg_ctl -D {data} -m fast stop")
        shutil.rmtree(data, ignore_errors=True)


def run(quick: bool = False, *, count: int = 1000, seconds: float | None = None,
        deal_every: float = 120.0, sqlite: bool = True, with_postgres: bool | None = None
        ) -> Results:
    """SQLite with the default workers, then (full runs) PostgreSQL with more processes."""
    results = Results()
    seconds = seconds or (20.0 if quick else 60.0)
    with_postgres = (not quick) if with_postgres is None else with_postgres
    if sqlite:
        with temp_instance() as instance:
            init_db(instance)
            log(f"tables: storing {count} games (SQLite)")
            tables = tables_for(make_games(instance, count, "trix"))
            with server(instance) as base:
                log(f"tables: {count} tables for {seconds:.0f} s on SQLite, 4 workers")
                summarise(results, "SQLite, 4 workers", simulate([base], tables, seconds,
                                                                 deal_every), count)
    if with_postgres:
        with postgres() as url, temp_instance() as instance:
            if url is None:
                results.notes.append("PostgreSQL: no local server could be started; skipped")
                return results
            init_db(instance, url)
            log(f"tables: storing {count} games (PostgreSQL)")
            tables = tables_for(make_games(instance, count, "trix", database_url=url))
            with server(instance, database_url=url, workers=2) as first, \
                    server(instance, database_url=url, workers=2) as second:
                # two app processes (2 workers each), as two hosts would be: half the tables each
                log(f"tables: {count} tables for {seconds:.0f} s on PostgreSQL, 2 servers")
                summarise(results, "PostgreSQL, 2 servers × 2 workers",
                          simulate([first, second], tables, seconds, deal_every), count)
    return results


if __name__ == "__main__":
    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float)
    parser.add_argument("--deal-every", type=float, default=120.0)
    parser.add_argument("--postgres-only", action="store_true")
    parser.add_argument("--postgres", action="store_true")
    options = parser.parse_args()
    print_table(run(options.quick, count=options.tables, seconds=options.seconds,
                    deal_every=options.deal_every, sqlite=not options.postgres_only,
                    with_postgres=options.postgres or options.postgres_only or None))
