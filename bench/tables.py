"""Many tables on one machine: what a real night sends, open loop, against one server.

Each table (a group with its roster, `--history` finished games and the game it plays now) has
open on its phones:

- one scorekeeping page (`--pages` of them in the variant: everybody keeps the game page open).
  Every one follows other phones' saves (`/g/<token>/live?v=…` every 3 s, as the page's htmx
  poller does, with the number of a deal form open on it); the first one also enters a deal
  every `--deal-every` seconds (120 s, the fast end of a real table), starting at a random
  phase so the load is steady: the deal form (htmx brings it into the game page), one preview
  per chip tapped, 1 s apart, then the save (its answer is what the deal changed) and the
  chart, fetched as it scrolls into view; and now and then (`--stats-every`, 600 s on average)
  the table's statistics page;
- two view links polling the live view every 3 s with their ETag (`?v=` and If-None-Match, as
  htmx and the browser cache send them), fetching the fragment again when the game changed.

With `--hidden SHARE`, each page is hidden that share of the time (spells of `--hidden-spell`
seconds on average: a tab behind another, a locked phone) and, as the app does, skips its polls
while hidden and polls once the moment it is shown again: the figures say how many requests a
night saves. Before anything is measured, `--warm-up` seconds of the first mix run and are
reported apart (a fresh server's first minutes: every game read for the first time).

Requests go out at their scheduled time whatever the server's pace (open loop), over a pool of
keep-alive connections; latency counts from the scheduled time, so queueing shows. The
generator's own lag (how late its loop wakes for a 5 ms timer) is printed beside it; its garbage
collector is off while it measures (its full passes stopped it for 70-150 ms). Errors are
transport failures, timeouts, 5xx, and any status a step does not expect.

First the CPU one request costs the server, one at a time (`/proc/<pid>/stat` of the server and
its workers): the view link's poll and the game page's follow poll while nothing changed, as a
ratio of the view poll's, and the others of the mix. Then the mixes at `--tables` tables (one
scorekeeping page, then `--pages`), then (`--curve`) the capacity curve: the variant at each
number of tables, and where p99 crosses 100 ms. On SQLite; then on PostgreSQL, at
`--postgres-url` (a database of its own is created there and dropped after) or, as root with
Debian's PostgreSQL, a throw-away server on port 54330.

    python bench/tables.py                     # everything (about 12 minutes)
    python bench/tables.py --quick             # SQLite, 20 s runs, no curve
    python bench/tables.py --smoke             # SQLite, a few tables, seconds: it runs
    python bench/tables.py --curve 500,1000,1500 --seconds 30 --sqlite-only
    python bench/tables.py --postgres-url postgresql://postgres@127.0.0.1:5433/postgres
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    Results,
    form_fields,
    game_plan,
    init_db,
    log,
    make_tables,
    percentile,
    server,
    server_cpu_seconds,
    temp_instance,
)
from httpraw import Client

P99_TARGET_MS = 100.0
SAVE_P99_TARGET_MS = 150.0
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
    skipped: int = 0
    """Polls a hidden page did not send (its ticks while hidden)."""
    caught_up: int = 0
    """Polls sent the moment a hidden page was shown again."""
    lags: list[float] = field(default_factory=list)
    """How late the load generator's own loop woke for a 5 ms timer (its share of a tail)."""

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

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
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
    """One table: its links, its plan of deals, and what each open page last saw."""

    table_token: str
    token: str
    view_token: str
    plan: list[dict[str, str]]
    server: int = 0
    dealt: int = 0
    open_number: int | None = None  # a deal form open on the scorekeeper's page
    follows: list[str] = field(default_factory=list)  # each game page's `v`
    views: list[str] = field(default_factory=list)  # each view link's ETag


FOLLOW_TAG = re.compile(r'/live\?v=([^"&]+)')


def follow_tag(headers: dict[str, str], body: bytes) -> str | None:
    """The `v` of the follow poller in an answer (decompressed as the browser would)."""
    encoding = headers.get("content-encoding", "")
    if encoding == "gzip":
        body = zlib.decompress(body, 16 + zlib.MAX_WBITS)
    elif encoding == "br":
        import brotli  # type: ignore[import-untyped]

        body = brotli.decompress(body)
    elif encoding:
        return None
    found = FOLLOW_TAG.search(body.decode("utf-8", "replace"))
    return unquote(found.group(1)) if found else None


@dataclass
class Visibility:
    """Whether a page is seen: hidden a `share` of the time (a tab behind another, a locked
    phone), in spells of `spell` seconds on average, shown in between."""

    share: float
    spell: float
    hidden: bool = False
    until: float = 0.0

    def start(self, now: float) -> Visibility:
        self.hidden = random.random() < self.share
        self.until = now + self.length()
        return self

    def length(self) -> float:
        mean = self.spell if self.hidden else self.spell * (1 - self.share) / self.share
        return random.expovariate(1 / mean)

    def shown_before(self, at: float) -> list[float]:
        """Move on to `at`: when the page was shown again meanwhile."""
        shown = []
        while self.until <= at:
            self.hidden = not self.hidden
            if not self.hidden:
                shown.append(self.until)
            self.until += self.length()
        return shown


class Simulation:
    """Drive every table's pages until the deadline."""

    def __init__(
        self,
        pools: list[Pool],
        tables: list[Table],
        cookie: str,
        csrf: str,
        seconds: float,
        deal_every: float,
        stats_every: float,
        hidden: float = 0.0,
        hidden_spell: float = 60.0,
    ) -> None:
        self.pools, self.tables, self.seconds = pools, tables, seconds
        self.deal_every, self.stats_every = deal_every, stats_every
        self.hidden, self.hidden_spell = hidden, hidden_spell
        self.base_headers = {"Accept-Encoding": "gzip, br", "Cookie": cookie}
        self.csrf = csrf
        self.stats = Stats()
        self.deadline = 0.0

    async def call(
        self,
        table: Table,
        kind: str,
        at: float,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes = b"",
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, dict[str, str], bytes] | None:
        """One request scheduled at `at` (loop time); latency and errors go to the stats."""
        loop = asyncio.get_running_loop()
        delay = at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            pool = self.pools[table.server]
            reply = await asyncio.wait_for(pool.request(method, path, headers, body), TIMEOUT)
        except (
            TimeoutError,
            OSError,
            ConnectionError,
            asyncio.IncompleteReadError,
            ValueError,
        ) as error:
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
            table.open_number = number
            await self.call(
                table,
                "deal form",
                at,
                "GET",
                f"/g/{table.token}/deal?contract={fields['contract']}",
                htmx | {"HX-Target": "play"},
            )
            base = {
                "contract": fields["contract"],
                "number": str(number),
                "version": str(version),
                "entry_key": str(uuid.uuid4()),  # (every form has one: its save is stored once)
            }
            chips = [(k, v) for k, v in fields.items() if k != "contract"]
            entered: dict[str, str] = {}
            for name, value in chips:
                at += 1.0
                entered[name] = value
                await self.call(
                    table,
                    "preview",
                    at,
                    "POST",
                    f"/g/{table.token}/deal/preview",
                    htmx | form_type | {"HX-Target": "deal-preview"},
                    urlencode(base | entered).encode(),
                )
            at += 1.0
            saved = await self.call(
                table,
                "save",
                at,
                "POST",
                f"/g/{table.token}/deal",
                htmx | form_type | {"HX-Target": "deal-form"},
                urlencode(base | entered).encode(),
                expect=(200,),
            )
            table.open_number = None
            if saved and saved[0] == 200:
                tag = follow_tag(saved[1], saved[2])  # the save's answer carries the poller
                if tag and table.follows:
                    table.follows[0] = tag
                await self.call(table, "chart", loop.time(), "GET", f"/g/{table.token}/chart", htmx)
            table.dealt += 1
            at += self.deal_every - (len(chips) + 1)

    async def statistics(self, table: Table) -> None:
        """Someone at the table opens its statistics now and then (a whole page)."""
        loop = asyncio.get_running_loop()
        at = loop.time() + random.expovariate(1 / self.stats_every)
        while at < self.deadline:
            await self.call(
                table, "statistics", at, "GET", f"/t/{table.table_token}/stats", self.base_headers
            )
            at += random.expovariate(1 / self.stats_every)

    async def ticks(self, first: float, poll: Any) -> None:
        """A page's poller: `poll(at)` every POLL_SECONDS from `first`; a page hidden a share
        of the time (`--hidden`) skips its ticks while hidden and polls the moment it is
        shown again (as app.js and htmx's visibilitychange trigger do)."""
        seen = None
        if self.hidden > 0:
            seen = Visibility(self.hidden, self.hidden_spell).start(first)
        at = first
        while at < self.deadline:
            if seen is not None:
                for shown in seen.shown_before(at):
                    self.stats.caught_up += 1
                    await poll(shown)
                if seen.hidden:
                    self.stats.skipped += 1
                    at += POLL_SECONDS
                    continue
            await poll(at)
            at += POLL_SECONDS

    async def follower(self, table: Table, page: int) -> None:
        """A scorekeeping page's poller: `v` as the page holds it, 204 while nothing changed."""
        loop = asyncio.get_running_loop()
        headers = self.base_headers | {"HX-Request": "true"}

        async def poll(at: float) -> None:
            query = {"v": table.follows[page]}
            if page == 0 and table.open_number is not None:
                query["number"] = str(table.open_number)
            reply = await self.call(
                table,
                "follow poll",
                at,
                "GET",
                f"/g/{table.token}/live?{urlencode(query)}",
                headers,
                expect=(200, 204),
            )
            if reply and reply[0] == 200:
                tag = follow_tag(reply[1], reply[2])
                if tag:
                    table.follows[page] = tag

        await self.ticks(loop.time() + random.uniform(0, POLL_SECONDS), poll)

    async def viewer(self, table: Table, seat: int) -> None:
        loop = asyncio.get_running_loop()
        headers = self.base_headers | {"HX-Request": "true"}

        async def poll(at: float) -> None:
            tag = table.views[seat]
            path = f"/v/{table.view_token}/live"
            sent = headers
            if tag:
                # as htmx sends it: the bare tag, URL-encoded (a raw quote is no valid URL)
                path += "?" + urlencode({"v": tag.removeprefix("W/").strip(chr(34))})
                sent = headers | {"If-None-Match": tag}
            reply = await self.call(
                table, "view poll", at, "GET", path, sent, expect=(200, 204, 304)
            )
            if reply and reply[0] == 200:
                table.views[seat] = reply[1].get("etag", "")

        await self.ticks(loop.time() + random.uniform(0, POLL_SECONDS), poll)

    async def run(self) -> Stats:
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + self.seconds
        self.stats.started = time.monotonic()
        tasks = [self.scorekeeper(t) for t in self.tables]
        tasks += [self.statistics(t) for t in self.tables]
        tasks += [self.follower(t, page) for t in self.tables for page in range(len(t.follows))]
        tasks += [self.viewer(t, seat) for t in self.tables for seat in range(len(t.views))]
        await asyncio.gather(*tasks)
        self.stats.finished = time.monotonic()
        for pool in self.pools:
            pool.close()
        return self.stats


@dataclass
class Session:
    """A browser's session cookie and CSRF token, and the tags of a fresh game."""

    cookie: str
    csrf: str
    view_tag: str
    follow_tag: str


def open_session(base: str, first: Table) -> Session:
    """One browser session (its cookie and CSRF token), shared by every simulated phone."""
    client = Client(base)
    page = client.request("GET", f"/g/{first.token}")
    follow = FOLLOW_TAG.search(page.text)
    assert follow, f"no follow poller on the game page ({page.status})"
    form = client.request("GET", f"/g/{first.token}/deal?contract={first.plan[0]['contract']}")
    match = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form.text)
    assert match, f"no CSRF token on the deal form ({form.status})"
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    # viewers arrive from the view page, so they already hold the game's ETag (every game is
    # fresh, at the same version)
    live = client.request("GET", f"/v/{first.view_token}/live")
    client.close()
    return Session(cookie, match.group(1), live.headers.get("ETag", ""), unquote(follow.group(1)))


def warm_up(bases: list[str], tables: list[Table], session: Session) -> None:
    """Have every worker render every page once (Jinja compiles templates on first use), and
    see a 204 and a 304 of each poll (the shortcut learns Flask's headers from them)."""
    for base in bases:
        for _ in range(4):
            for table in tables:
                client = Client(base)
                client.cookies.update(dict(c.split("=", 1) for c in session.cookie.split("; ")))
                contract = table.plan[0]["contract"]
                htmx = {"HX-Request": "true"}
                client.request("GET", f"/g/{table.token}/deal?contract={contract}")
                fields = {
                    "csrf_token": session.csrf,
                    "number": "1",
                    "version": "2",
                    "entry_key": str(uuid.uuid4()),
                    **table.plan[0],
                }
                client.request("POST", f"/g/{table.token}/deal/preview", form=fields, headers=htmx)
                client.request("GET", f"/g/{table.token}")
                client.request("GET", f"/g/{table.token}/chart", headers=htmx)
                client.request("GET", f"/t/{table.table_token}/stats")
                client.request("GET", f"/v/{table.view_token}/live")
                client.request(
                    "GET",
                    f"/v/{table.view_token}/live",
                    headers={"If-None-Match": session.view_tag},
                )
                client.request(
                    "GET",
                    f"/v/{table.view_token}/live?" + urlencode({"v": session.view_tag[3:-1]}),
                    headers=htmx,
                )
                client.request(
                    "GET",
                    f"/g/{table.token}/live?" + urlencode({"v": session.follow_tag}),
                    headers=htmx,
                )
                client.close()


def simulate(
    bases: list[str],
    tables: list[Table],
    session: Session,
    seconds: float,
    *,
    pages: int,
    deal_every: float,
    stats_every: float,
    hidden: float = 0.0,
    hidden_spell: float = 60.0,
) -> Stats:
    """Run the simulation; table i talks to server i mod len(bases) (same database)."""
    for index, table in enumerate(tables):
        table.server = index % len(bases)
        if not table.follows:  # a fresh table: every page shows the game as stored
            table.follows = [session.follow_tag] * pages
            table.views = [session.view_tag] * VIEW_LINKS
        table.follows = (table.follows + [table.follows[-1]] * pages)[:pages]

    async def main() -> Stats:
        server_before = sum(server_cpu_seconds(base) for base in bases)
        client_before = time.process_time()
        pools = []
        for base in bases:
            host, port = base.removeprefix("http://").split(":")
            pools.append(Pool(host, int(port), MAX_CONNECTIONS // len(bases)))
        lags: list[float] = []
        watch = asyncio.create_task(watch_lag(lags))
        # The generator's own full collections (its thousands of pages' coroutines) stopped it
        # for 70-150 ms, every request it was to send meanwhile counted late: its collector is
        # off while it measures (what it leaves is collected after), its lag reported.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            stats = await Simulation(
                pools,
                tables,
                session.cookie,
                session.csrf,
                seconds,
                deal_every,
                stats_every,
                hidden,
                hidden_spell,
            ).run()
        finally:
            gc.enable()
            gc.unfreeze()
            watch.cancel()
        stats.lags = lags
        stats.server_cpu = sum(server_cpu_seconds(base) for base in bases) - server_before
        stats.client_cpu = time.process_time() - client_before
        return stats

    return asyncio.run(main())


async def watch_lag(lags: list[float], every: float = 0.005) -> None:
    """Record how late the loop wakes for a timer of `every` seconds, until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        lags.append((loop.time() - asked - every) * 1000)


def settle(bases: list[str], table: Table, session: Session, within: float = 60.0) -> None:
    """Wait until each server answers a poll at once again (an overloaded run leaves a queue
    behind it, which must not be counted against the next)."""
    for base in bases:
        client = Client(base)
        quick, deadline = 0, time.monotonic() + within
        while quick < 5 and time.monotonic() < deadline:
            started = time.monotonic()
            try:
                client.request(
                    "GET",
                    f"/v/{table.view_token}/live",
                    headers={"If-None-Match": session.view_tag},
                )
            except OSError:
                client.close()
                client = Client(base)
                continue
            quick = quick + 1 if time.monotonic() - started < 0.02 else 0
            time.sleep(0.05)
        client.close()


def load_average() -> str:
    """The machine's load averages (1, 5, 15 minutes), as `uptime` prints them."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


POLL_COST_REQUESTS = 1500


def poll_costs(
    results: Results,
    label: str,
    base: str,
    table: Table,
    session: Session,
    requests: int = POLL_COST_REQUESTS,
) -> None:
    """Server CPU of one request of each kind, one at a time on one kept-alive connection;
    the follow poll as a ratio of the view poll, measured right after it."""
    client = Client(base)
    client.cookies.update(dict(c.split("=", 1) for c in session.cookie.split("; ")))
    htmx = {"HX-Request": "true"}
    bare_view = session.view_tag.removeprefix("W/").strip(chr(34))
    kinds: list[tuple[str, str, dict[str, str], int]] = [
        (
            "view poll, unchanged",
            f"/v/{table.view_token}/live?" + urlencode({"v": bare_view}),
            htmx | {"If-None-Match": session.view_tag},
            requests,
        ),
        (
            "follow poll, unchanged",
            f"/g/{table.token}/live?" + urlencode({"v": session.follow_tag}),
            htmx,
            requests,
        ),
        ("404 page", "/g/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {}, requests // 5),
        ("game page", f"/g/{table.token}", {}, requests // 10),
        ("statistics page", f"/t/{table.table_token}/stats", {}, requests // 10),
    ]
    costs: dict[str, float] = {}
    for kind, path, headers, count in kinds:
        for _ in range(20):
            client.request("GET", path, headers=headers)
        before = server_cpu_seconds(base)
        statuses: Counter[int] = Counter()
        for _ in range(count):
            statuses[client.request("GET", path, headers=headers).status] += 1
        costs[kind] = (server_cpu_seconds(base) - before) * 1000 / count
        results.notes.append(
            f"{label}: {kind}: {costs[kind]:.2f} ms of server CPU a request "
            f"({count} requests, answers {dict(statuses)}); "
            f"load average {load_average()}"
        )
    client.close()
    view, follow = costs["view poll, unchanged"], costs["follow poll, unchanged"]
    results.add(
        f"{label}: follow poll CPU, unchanged (vs the view poll, same run)",
        f"{follow / view:.2f}× ({follow:.2f} / {view:.2f} ms)",
        "≤ 1.5×",
        follow / view <= 1.5,
        f"load average {load_average()}; "
        + ", ".join(f"{kind} {cost:.2f} ms" for kind, cost in costs.items()),
    )


NIGHT_HOURS = 4


def summarise(
    results: Results, label: str, stats: Stats, tables: int, hidden: float = 0.0
) -> float:
    """Figures of one simulation; returns its p99 (ms)."""
    latencies = stats.all()
    elapsed = stats.finished - stats.started
    if hidden > 0:
        polls = sum(len(v) for kind, v in stats.latencies.items() if kind.endswith("poll"))
        saved = stats.skipped - stats.caught_up
        every = polls + saved  # the polls of the same pages, none of them ever hidden
        results.add(
            f"{label}: requests saved by hidden pages not polling",
            f"{saved / elapsed:.0f} req/s ({100 * saved / max(1, len(latencies) + saved):.0f} % "
            f"of the night's requests)",
            "–",
            None,
            f"each page hidden {100 * hidden:.0f} % of the time: {stats.skipped} polls not "
            f"sent, {stats.caught_up} sent on being shown again, {polls} sent of {every}; "
            f"a {NIGHT_HOURS}-hour night at {tables} tables: about "
            f"{saved / elapsed * 3600 * NIGHT_HOURS:,.0f} requests fewer",
        )
    errors = sum(stats.errors.values())
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    per_request = stats.server_cpu * 1000 / max(1, len(latencies))
    results.add(
        f"{label}: requests per second",
        f"{len(latencies) / elapsed:.0f} req/s",
        "–",
        None,
        f"{len(latencies)} requests in {elapsed:.0f} s, {tables} tables; "
        f"app CPU {per_request:.2f} ms a request (so 2 free cores carry about "
        f"{2000 / per_request:.0f} req/s of this mix); load generator CPU "
        f"{stats.client_cpu:.0f} s, its loop late p99 {percentile(stats.lags, 0.99):.1f} ms, "
        f"at most {max(stats.lags, default=0.0):.0f} ms; load average {load_average()}",
    )
    results.add(
        f"{label}: latency p50 / p99",
        f"{p50:.1f} / {p99:.1f} ms",
        f"p99 < {P99_TARGET_MS:.0f} ms",
        p99 < P99_TARGET_MS,
        "; ".join(
            f"{kind} p50 {percentile(v, 0.5):.1f} p99 {percentile(v, 0.99):.1f} ms ({len(v)})"
            for kind, v in sorted(stats.latencies.items())
        ),
    )
    saves = stats.latencies.get("save", [])
    if saves:
        results.add(
            f"{label}: saves p99",
            f"{percentile(saves, 0.99):.1f} ms",
            f"< {SAVE_P99_TARGET_MS:.0f} ms",
            percentile(saves, 0.99) < SAVE_P99_TARGET_MS,
            f"{len(saves)} saves, p50 {percentile(saves, 0.5):.1f} ms",
        )
    results.add(
        f"{label}: errors",
        str(errors),
        "0",
        errors == 0,
        ", ".join(f"{k} ×{n}" for k, n in stats.errors.most_common(6)),
    )
    log(
        f"tables: {label}: {len(latencies) / elapsed:.0f} req/s, p50 {p50:.1f} ms, "
        f"p99 {p99:.1f} ms, {errors} errors, {per_request:.2f} ms CPU a request; "
        f"load {load_average()}"
    )
    return p99


def tables_for(made: list[tuple[str, str, str]]) -> list[Table]:
    """Tables with their plan of deals as form fields (with the contract)."""
    plan = [form_fields(raw) for raw in game_plan("trix")]
    return [Table(table, token, view, plan) for table, token, view in made]


@contextlib.contextmanager
def postgres(existing: str | None = None) -> Iterator[str | None]:
    """A database of its own on an existing PostgreSQL server (dropped after), else a
    throw-away local PostgreSQL on port 54330 (as .ci/run starts one), else None."""
    if existing:
        with own_database(existing) as url:
            yield url
        return
    binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    if not binaries or os.geteuid() != 0 or shutil.which("su") is None:
        yield None
        return
    pg_bin = binaries[-1]
    data = tempfile.mkdtemp(prefix="scorekeeper-bench-pg-")
    shutil.chown(data, "postgres")

    def as_postgres(command: str) -> None:
        subprocess.run(
            ["su", "postgres", "-s", "/bin/sh", "-c", command],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )

    started = False
    try:
        as_postgres(f"{pg_bin}/initdb -D {data} -A trust -U postgres")
        as_postgres(
            f"{pg_bin}/pg_ctl -D {data} -o '-p {PG_PORT} -k /tmp "
            f"-c listen_addresses=127.0.0.1 -c max_connections=300 "
            f"-c synchronous_commit=on' -l {data}/log -w start"
        )
        started = True
        yield f"postgresql://postgres@127.0.0.1:{PG_PORT}/postgres"
    finally:
        if started:
            with contextlib.suppress(subprocess.SubprocessError):
                as_postgres(f"{pg_bin}/pg_ctl -D {data} -m fast stop")
        shutil.rmtree(data, ignore_errors=True)


VIEW_LINKS = 2


@dataclass
class Options:
    """What to run (the command line's options)."""

    quick: bool = False
    count: int = 1000
    seconds: float | None = None
    deal_every: float = 120.0
    stats_every: float = 600.0
    pages: int = 4
    history: int = 2
    curve: tuple[int, ...] = ()
    curve_seconds: float = 20.0
    workers: int = 0  # as `scorekeeper serve` sizes itself to the machine
    hidden: float = 0.0  # the share of the time each page is hidden (it does not poll then)
    hidden_spell: float = 60.0  # seconds a page stays hidden, on average
    warm_up: float = 15.0  # seconds of the first mix run before anything is measured
    sqlite: bool = True
    postgres: bool | None = None
    postgres_url: str | None = None


def _measure(
    results: Results,
    label: str,
    bases: list[str],
    made: list[tuple[str, str, str]],
    options: Options,
    seconds: float,
) -> None:
    """The poll costs, the two mixes at `count` tables, then the capacity curve."""
    tables = tables_for(made)
    random.seed(7)
    session = open_session(bases[0], tables[0])
    warm_up(bases, tables[-8:], session)
    poll_costs(results, label, bases[0], tables[-1], session)
    count = options.count
    if options.warm_up > 0:
        # the server's first minutes of a night: every table's game read for the first time,
        # every worker's caches filling; reported apart, never mixed into the figures
        log(f"tables: warm-up, {count} tables × 1 game page, {options.warm_up:.0f} s")
        warm = simulate(
            bases,
            tables[:count],
            session,
            options.warm_up,
            pages=1,
            deal_every=options.deal_every,
            stats_every=options.stats_every,
        )
        latencies = warm.all()
        results.notes.append(
            f"{label}: warm-up ({options.warm_up:.0f} s of {count} tables × 1 game page, not "
            f"counted): p50 {percentile(latencies, 0.5):.1f} p99 "
            f"{percentile(latencies, 0.99):.1f} ms, {sum(warm.errors.values())} errors; "
            + "; ".join(
                f"{kind} p99 {percentile(v, 0.99):.1f} ms ({len(v)})"
                for kind, v in sorted(warm.latencies.items())
            )
        )
        settle(bases, tables[0], session)
    for pages in dict.fromkeys((1, options.pages)):
        name = (
            f"{label}, {count} tables × {pages} game page{'s' if pages > 1 else ''} + "
            f"{VIEW_LINKS} view links"
        )
        log(f"tables: {name}, {seconds:.0f} s")
        summarise(
            results,
            name,
            simulate(
                bases,
                tables[:count],
                session,
                seconds,
                pages=pages,
                deal_every=options.deal_every,
                stats_every=options.stats_every,
                hidden=options.hidden,
                hidden_spell=options.hidden_spell,
            ),
            count,
            options.hidden,
        )
        settle(bases, tables[0], session)
    crossed: int | None = None
    held: int | None = None
    settle(bases, tables[0], session)
    for step in options.curve:
        name = (
            f"{label}, curve: {step} tables × {options.pages} game pages + {VIEW_LINKS} view links"
        )
        log(f"tables: {name}, {options.curve_seconds:.0f} s")
        p99 = summarise(
            results,
            name,
            simulate(
                bases,
                tables[:step],
                session,
                options.curve_seconds,
                pages=options.pages,
                deal_every=options.deal_every,
                stats_every=options.stats_every,
            ),
            step,
        )
        settle(bases, tables[0], session)
        if p99 >= P99_TARGET_MS:
            crossed = step
            break  # further steps only queue more
        held = step
    if options.curve:
        measured = (
            f"between {held or 0} and {crossed} tables"
            if crossed
            else f"not up to {options.curve[-1]} tables"
        )
        results.add(
            f"{label}: capacity, p99 crosses {P99_TARGET_MS:.0f} ms "
            f"({options.pages} game pages + {VIEW_LINKS} view links a table)",
            measured,
            "> 1000 tables",
            (held or 0) >= 1000,
            f"steps {', '.join(map(str, options.curve))} of "
            f"{options.curve_seconds:.0f} s; load average {load_average()}",
        )


@contextlib.contextmanager
def own_database(server_url: str) -> Iterator[str]:
    """A fresh database on the PostgreSQL server at `server_url`, dropped afterwards."""
    import psycopg

    name = f"scorekeeper_bench_{os.getpid()}_{int(time.time())}"
    admin = server_url.replace("postgresql://", "postgresql+psycopg://", 1)
    plain = admin.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield plain.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(plain, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _workers(options: Options) -> str:
    return f"{options.workers} workers" if options.workers else "serve's own workers"


SMOKE = Options(
    quick=True,
    count=2,
    seconds=2.0,
    deal_every=1.0,
    stats_every=2.0,
    history=1,
    curve=(3,),
    curve_seconds=1.0,
)
"""A smoke run: every step on SQLite, a few tables for a second or two (the figures mean
nothing; the code runs)."""


def run(quick: bool = False, options: Options | None = None, *, smoke: bool = False) -> Results:
    """SQLite with the default workers, then (full runs) PostgreSQL with as many."""
    options = options or (SMOKE if smoke else Options(quick=quick))
    if options.quick and options.postgres is None:
        options.postgres = False
    results = Results()
    seconds = options.seconds or (20.0 if options.quick else 60.0)
    if not options.quick and not options.curve:
        options.curve = (500, 1000, 1500, 2000)
    largest = max((options.count, *options.curve))
    results.notes.append(f"machine load average at the start {load_average()}")
    if options.sqlite:
        with temp_instance() as instance:
            init_db(instance)
            log(f"tables: storing {largest} tables (SQLite)")
            made = make_tables(instance, largest, history=options.history)
            with server(instance, workers=options.workers) as base:
                _measure(results, f"SQLite, {_workers(options)}", [base], made, options, seconds)
    if options.postgres is not False:
        with postgres(options.postgres_url) as url, temp_instance() as instance:
            if url is None:
                results.notes.append(
                    "PostgreSQL: no --postgres-url and no local server could be started; skipped"
                )
                return results
            init_db(instance, url)
            log(f"tables: storing {largest} tables (PostgreSQL)")
            made = make_tables(instance, largest, history=options.history, database_url=url)
            with server(instance, database_url=url, workers=options.workers) as base:
                _measure(
                    results, f"PostgreSQL, {_workers(options)}", [base], made, options, seconds
                )
    return results


if __name__ == "__main__":
    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="SQLite, 20 s runs, no curve")
    parser.add_argument("--smoke", action="store_true", help="SQLite, a few tables, seconds")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, help="each mix's run (60 s; quick 20 s)")
    parser.add_argument(
        "--pages", type=int, default=4, help="scorekeeping pages a table in the variant (4)"
    )
    parser.add_argument(
        "--history", type=int, default=2, help="finished games each table has played before (2)"
    )
    parser.add_argument("--deal-every", type=float, default=120.0)
    parser.add_argument("--stats-every", type=float, default=600.0)
    parser.add_argument(
        "--curve",
        default="",
        help="tables at each step of the capacity curve (full run: 500,1000,1500,2000)",
    )
    parser.add_argument("--curve-seconds", type=float, default=20.0)
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="server processes (default: as `scorekeeper serve` chooses)",
    )
    parser.add_argument(
        "--hidden",
        type=float,
        default=0.0,
        help="the share of the time each page is hidden, not polling (0: always seen)",
    )
    parser.add_argument(
        "--hidden-spell", type=float, default=60.0, help="seconds a page stays hidden (60)"
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=15.0,
        help="seconds of the first mix run and reported apart before the figures (15)",
    )
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--postgres-only", action="store_true")
    parser.add_argument(
        "--postgres-url",
        help="an existing PostgreSQL server: the bench "
        "creates its own database there and drops it after",
    )
    args = parser.parse_args()
    chosen = Options(
        quick=args.quick,
        count=args.tables,
        seconds=args.seconds,
        deal_every=args.deal_every,
        stats_every=args.stats_every,
        pages=args.pages,
        history=args.history,
        curve=tuple(int(n) for n in args.curve.split(",") if n.strip()),
        curve_seconds=args.curve_seconds,
        workers=args.workers,
        hidden=args.hidden,
        hidden_spell=args.hidden_spell,
        warm_up=args.warm_up,
        sqlite=not args.postgres_only,
        postgres=False
        if args.sqlite_only
        else (True if args.postgres_only or args.postgres_url else None),
        postgres_url=args.postgres_url,
    )
    print_table(run(options=SMOKE) if args.smoke else run(args.quick, chosen))
