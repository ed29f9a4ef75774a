"""Durability: the real server (`scorekeeper serve`, several workers) killed with SIGKILL
mid-burst loses nothing it confirmed, duplicates nothing, and leaves a database that passes its
integrity check and replays cleanly through the engine. On SQLite, and on PostgreSQL when
TEST_POSTGRES_URL is set."""

from __future__ import annotations

import base64
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from tests.conftest import Page, form_fields
from tests.security.helpers import TRIX_KINGDOM

pytestmark = pytest.mark.slow

GAMES = 8
WORKERS = 3
SHARED_GAMES = 2  # games scored by two phones at once (stale forms and refusals happen)
BURSTS = 2  # the server is killed mid-burst, then restarted, this many times
CONFIRMED_PER_BURST = 10  # saves confirmed to the phones before each kill
BURST_DEADLINE_S = 120.0  # generous: a busy machine confirms them in a few seconds
DEAL_OF = {deal["contract"]: deal for deal in TRIX_KINGDOM}
ROOT = str(Path(__file__).resolve().parents[2])


class ServerGone(Exception):
    """The connection failed: the server was killed (or is restarting)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """`scorekeeper serve` in its own process group, so one SIGKILL takes every worker."""

    def __init__(self, instance: Path, database_url: str = "") -> None:
        self.instance = instance
        self.database_url = database_url  # empty: SQLite in the instance folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = instance / "server.log"

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--workers",
            str(WORKERS),
        ]

    def start(self) -> None:
        env = {
            key: value
            for key, value in os.environ.items()
            if key not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_ACCESS_CODE")
        }
        env["SCOREKEEPER_INSTANCE"] = str(self.instance)
        # this checkout's CLI (a console script would run whichever copy was installed last)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, env.get("PYTHONPATH")]))
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                self.command(),
                cwd=self.instance,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/")
                if connection.getresponse().status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        """SIGKILL the whole process group: master and workers die mid-request."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def session_flashes(cookie: str) -> list[str]:
    """The flash messages in a Flask session cookie (readable; only its signature is secret)."""
    compressed = cookie.startswith(".")
    payload = cookie.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    data = json.loads(zlib.decompress(raw) if compressed else raw)
    messages = []
    for entry in data.get("_flashes", []):
        pair = entry.get(" t", entry) if isinstance(entry, dict) else entry
        messages.append(str(pair[1]))
    return messages


class Phone:
    """One browser over real HTTP: keeps its session cookie, reads forms like a browser."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""

    def request(
        self, method: str, path: str, data: dict[str, str] | None = None
    ) -> tuple[int, http.client.HTTPMessage, str]:
        headers = {"Cookie": f"session={self.cookie}"} if self.cookie else {}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            connection.close()
        except (OSError, http.client.HTTPException) as error:
            raise ServerGone from error
        for header in response.headers.get_all("Set-Cookie") or []:
            jar: SimpleCookie = SimpleCookie(header)
            if "session" in jar:
                self.cookie = jar["session"].value
        return response.status, response.headers, text  # names in any case

    def flashes(self) -> list[str]:
        return session_flashes(self.cookie) if self.cookie else []

    def new_game(self, players: tuple[str, ...]) -> str:
        status, _, html = self.request("GET", "/new")
        assert status == 200
        data = {
            "csrf_token": Page(html).hidden("/new")["csrf_token"],
            "game": "trix",
            "mode": "solo",
            "doubled_self_take": "net",
            "doubling": "y",
            **{f"player_{seat}": name for seat, name in enumerate(players)},
        }
        status, headers, _ = self.request("POST", "/new", data)
        assert status == 303, status
        token = headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        status, _, html = self.request("GET", f"/g/{token}")
        status, _, _ = self.request(
            "POST", f"/g/{token}/first", {**Page(html).hidden("/first"), "seat": "0"}
        )
        assert status == 303
        return token


@dataclass
class Tally:
    """What the phones were told, for the checks after the kill."""

    slots: list[str]  # the game each slot's phones are scoring now (a new one once it ends)
    confirmed: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    posted: dict[str, int] = field(default_factory=dict)  # highest deal number posted per game
    games: set[str] = field(default_factory=set)
    saves: int = 0
    refused: int = 0  # answered 303 but not saved: a stale form from the other phone
    cut: int = 0  # requests the kill left without an answer
    errors: list[str] = field(default_factory=list)  # failures inside the phones' threads
    lock: threading.Lock = field(default_factory=threading.Lock)
    slot_locks: dict[int, threading.Lock] = field(default_factory=dict)


def next_deal(phone: Phone, token: str) -> tuple[dict[str, str], dict[str, Any]] | None:
    """The form for the game's next deal (None when the game is over)."""
    status, _, html = phone.request("GET", f"/g/{token}")
    assert status == 200, status
    contracts = []
    for href in Page(html).links:
        parts = urlsplit(href)
        if parts.path == f"/g/{token}/deal":
            contracts += parse_qs(parts.query).get("contract", [])
    if not contracts:
        return None
    deal = DEAL_OF[contracts[0]]
    status, _, html = phone.request("GET", f"/g/{token}/deal?contract={contracts[0]}")
    if status != 200:
        return None
    return {**Page(html).hidden("/deal"), **form_fields(deal)}, deal


def next_game(phone: Phone, tally: Tally, slot: int, finished: str) -> str:
    """The slot's game after `finished`: a new one, unless the slot's other phone made it."""
    with tally.slot_locks.setdefault(slot, threading.Lock()):
        if tally.slots[slot] == finished:
            token = phone.new_game((f"A{slot}", f"B{slot}", f"C{slot}", f"D{slot}"))
            with tally.lock:
                tally.games.add(token)
            tally.slots[slot] = token
        return tally.slots[slot]


def score(phone: Phone, slot: int, tally: Tally, stop: threading.Event) -> None:
    """Enter deals until the server dies, starting a new game when one ends; double-tap every
    third save."""
    taps = 0
    token = tally.slots[slot]
    try:
        while not stop.is_set():
            found = next_deal(phone, token)
            if found is None:
                token = next_game(phone, tally, slot, token)
                continue
            data, deal = found
            number = int(data["number"])
            with tally.lock:
                tally.posted[token] = max(tally.posted.get(token, 0), number)
            taps += 1
            for _ in range(2 if taps % 3 == 0 else 1):
                status, _, _ = phone.request("POST", f"/g/{token}/deal", data)
                assert status == 303, status
                with tally.lock:
                    tally.saves += 1
                    if f"Deal {number} saved." in phone.flashes():
                        tally.confirmed[(token, number)] = deal
                    else:
                        tally.refused += 1
    except ServerGone:
        with tally.lock:
            tally.cut += 1
    except Exception as error:  # an assertion in a thread must fail the test
        with tally.lock:
            tally.errors.append(repr(error))


def burst(port: int, tally: Tally, kill: Any) -> None:
    """Phones score every slot's game at once (two phones on the shared ones); kill mid-burst,
    once CONFIRMED_PER_BURST more saves have been confirmed (however fast the machine is)."""
    with tally.lock:
        wanted = len(tally.confirmed) + CONFIRMED_PER_BURST
    stop = threading.Event()
    threads = []
    for slot in range(len(tally.slots)):
        for _ in range(2 if slot < SHARED_GAMES else 1):
            threads.append(threading.Thread(target=score, args=(Phone(port), slot, tally, stop)))
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + BURST_DEADLINE_S
    while len(tally.confirmed) < wanted and not tally.errors and time.monotonic() < deadline:
        time.sleep(0.05)  # watching a count, not timing the server
    reached = len(tally.confirmed) >= wanted
    kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive()
    assert not tally.errors, tally.errors
    assert reached, f"{len(tally.confirmed)} of {wanted} saves confirmed in {BURST_DEADLINE_S} s"


def check_database(server: Server, tally: Tally) -> dict[str, int]:
    """Integrity, every confirmed deal exactly once, and a clean replay of every game."""
    from scorekeeper import create_app
    from scorekeeper.rules import replay
    from scorekeeper.store.db import db
    from scorekeeper.store.games import game_of
    from scorekeeper.store.models import GameRow

    path = server.instance / "scorekeeper.sqlite"
    if server.database_url:
        uri = "postgresql+psycopg://" + server.database_url.split("://", 1)[1]
    else:
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        uri = f"sqlite:///{path}"
    app = create_app(
        {"TESTING": True, "INSTANCE_PATH": str(server.instance), "SQLALCHEMY_DATABASE_URI": uri}
    )
    deals = 0
    with app.app_context():
        rows = {row.token: row for row in db.session.query(GameRow)}
        for (token, number), deal in tally.confirmed.items():
            row = rows[token]
            assert number <= len(row.deals), (token, number)
            assert row.deals[number - 1] == deal, (token, number)
        for token, row in rows.items():
            assert row.deal_count == len(row.deals)
            assert len(row.deals) <= tally.posted.get(token, 0)  # nothing beyond what was sent
            if row.first_chooser is None:  # the kill came between creating it and choosing the seat
                assert row.deals == []
                continue
            result = replay(game_of(row))  # raises if a stored deal breaks a rule
            assert result.finished == row.finished
            deals += len(row.deals)
        db.session.remove()
        db.engine.dispose()
    return {"games": len(rows), "deals": deals}


POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "").strip()


@pytest.fixture(params=["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """The real server on SQLite, or on a fresh PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        running = Server(tmp_path)
        try:
            yield running
        finally:
            running.stop()
        return
    import secrets

    import psycopg

    name = "scorekeeper_durability_" + secrets.token_hex(6)
    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    running = Server(tmp_path, urlsplit(POSTGRES_URL)._replace(path="/" + name).geturl())
    try:
        yield running
    finally:
        running.stop()
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_sigkill_mid_burst_loses_nothing(server: Server) -> None:
    server.start()
    organiser = Phone(server.port)
    tokens = [organiser.new_game((f"A{n}", f"B{n}", f"C{n}", f"D{n}")) for n in range(GAMES)]
    tally = Tally(slots=list(tokens), games=set(tokens))
    kills = 0
    for _ in range(BURSTS):
        cut_before = tally.cut
        burst(server.port, tally, server.kill)
        kills += 1
        assert tally.cut > cut_before  # the kill really happened mid-burst
        check_database(server, tally)
        server.start()  # the restarted server opens the database the kill left behind
    totals = check_database(server, tally)
    phone = Phone(server.port)
    for token in tally.games:  # and every game still works over HTTP
        status, _, _ = phone.request("GET", f"/g/{token}")
        assert status == 200
    assert totals["games"] >= len(tally.games) >= GAMES
    assert len(tally.confirmed) >= BURSTS * CONFIRMED_PER_BURST  # waited for, not raced
    assert totals["deals"] >= len(tally.confirmed)
    backend = "postgresql" if server.database_url else "sqlite"
    print(
        f"\ndurability ({backend}): {kills} SIGKILLs survived, {tally.saves} save requests "
        f"answered ({tally.refused} stale forms refused), {tally.cut} requests cut by the "
        f"kills, {len(tally.confirmed)} deals confirmed and all present once; "
        f"{totals['deals']} deals stored in {totals['games']} games"
    )
