"""Polled versions kept in a process stay exact: PostgreSQL tells every process of every change,
and on SQLite every process that changes a game marks it in a file they all map.

On PostgreSQL an unchanged game's poll reads nothing; a change made anywhere (another server, a
hand-typed UPDATE, a delete) is heard, and a read that raced a change is never kept. On SQLite
a change made through the app by any process is seen at the next poll, one nobody marked (an
UPDATE typed by hand) within SQLITE_TRUSTED_FOR_S, and a read that raced a change is not kept
either.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from sqlalchemy import text

from scorekeeper.rules import HouseRules
from scorekeeper.store import versions as versions_module
from scorekeeper.store.db import db
from scorekeeper.store.games import create_game, delete_game, write
from scorekeeper.store.models import GameRow
from scorekeeper.store.roster import rename_player
from scorekeeper.store.tables import create_table, player_by_name, start_game
from scorekeeper.store.versions import Versions, marks_for, versions_for
from tests.conftest import BACKENDS, _dispose, make_app

WAIT = 30.0  # generous: a busy machine may take long to deliver; a pass never waits this long


ON_POSTGRESQL = pytest.mark.parametrize(
    "database_uri", [backend for backend in BACKENDS if backend == "postgresql"], indirect=True
)
"""PostgreSQL only (on SQLite there is no channel: see the tests of the marks)."""
ON_SQLITE = pytest.mark.parametrize("database_uri", ["sqlite"], indirect=True)
"""SQLite only: its processes share change marks."""


@pytest.fixture
def pg_app(tmp_path: Any, database_uri: str) -> Iterator[Flask]:
    app = make_app(tmp_path, database_uri)
    yield app
    _dispose(app)


def _game(app: Flask) -> tuple[int, str, str]:
    with app.app_context():
        row = create_game("trix", "solo", ["A", "B", "C", "D"], HouseRules(), None)
        return row.id, row.token, row.view_token


def _versions(app: Flask) -> Versions:
    """A fresh Versions on the app's database (this process's shared one is left alone)."""
    with app.app_context():
        versions = Versions(db.engine)
    assert versions.wait_listening(WAIT)
    return versions


def _elsewhere(app: Flask, sql: str, **values: Any) -> None:
    """A write by another server: its own connection, not this process's engine."""
    with app.app_context():
        url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(sql, values)


def _heard(versions: Versions, since: int) -> None:
    """Wait until the listener has heard something more than `since` (a confirmation)."""
    assert versions.heard_wait(since, WAIT), "no notification heard"


@ON_POSTGRESQL
def test_an_unchanged_games_version_is_read_once(pg_app: Flask) -> None:
    _, token, view_token = _game(pg_app)
    versions = _versions(pg_app)
    try:
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
        reads = versions.reads
        for _ in range(5):
            assert versions.version("token", token) == 1
            assert versions.version("view_token", view_token) == 1
        assert versions.reads == reads
    finally:
        versions.close()


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE games SET version = version + 1 WHERE id = %(id)s",
        "UPDATE games SET name = 'Friday' , version = version + 1 WHERE id = %(id)s",
    ],
)
@ON_POSTGRESQL
def test_a_change_made_by_another_server_is_heard(pg_app: Flask, change: str) -> None:
    game_id, token, view_token = _game(pg_app)
    versions = _versions(pg_app)
    try:
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
        heard = versions.heard
        _elsewhere(pg_app, change, id=game_id)
        _heard(versions, heard)
        assert versions.version("token", token) == 2
        assert versions.version("view_token", view_token) == 2
    finally:
        versions.close()


@ON_POSTGRESQL
def test_a_deleted_or_truncated_game_is_forgotten(pg_app: Flask) -> None:
    game_id, token, _ = _game(pg_app)
    _, other, _ = _game(pg_app)
    versions = _versions(pg_app)
    try:
        assert versions.version("token", token) == 1
        assert versions.version("token", other) == 1
        heard = versions.heard
        _elsewhere(pg_app, "DELETE FROM games WHERE id = %(id)s", id=game_id)
        _heard(versions, heard)
        assert versions.version("token", token) is None
        heard = versions.heard
        _elsewhere(pg_app, "TRUNCATE games CASCADE")
        _heard(versions, heard)
        assert versions.version("token", other) is None
    finally:
        versions.close()


class _Paused(Versions):
    """Versions whose next read stops after reading, until released (a read racing a save)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.read_done = threading.Event()
        self.release = threading.Event()
        self.pause = False

    def read(self, kind: str, token: str) -> int | None:
        found = super().read(kind, token)
        if self.pause:
            self.read_done.set()
            assert self.release.wait(WAIT)
        return found

    def reader_paused(self, token: str) -> tuple[threading.Thread, list[int | None]]:
        """A poll of `token` in a thread of its own, stopped once it has read the version (not
        kept yet): the thread and, once released, its answer."""
        self.pause = True
        answers: list[int | None] = []
        reader = threading.Thread(target=lambda: answers.append(self.version("token", token)))
        reader.start()
        assert self.read_done.wait(WAIT)  # it read the version, and has not kept it yet
        self.pause = False
        return reader, answers


@ON_POSTGRESQL
def test_a_read_that_raced_a_change_is_not_kept(pg_app: Flask) -> None:
    game_id, token, _ = _game(pg_app)
    with pg_app.app_context():
        versions = _Paused(db.engine)
    assert versions.wait_listening(WAIT)
    try:
        reader, answers = versions.reader_paused(token)  # it read version 1
        heard = versions.heard
        _elsewhere(pg_app, "UPDATE games SET version = 2 WHERE id = %(id)s", id=game_id)
        _heard(versions, heard)
        versions.release.set()
        reader.join(WAIT)
        assert answers == [1]  # what it read, the version of the moment it asked
        assert versions.version("token", token) == 2  # but not kept: read again
    finally:
        versions.close()


@ON_POSTGRESQL
def test_a_lost_listener_keeps_nothing_from_before_it_listens_again(pg_app: Flask) -> None:
    game_id, token, _ = _game(pg_app)
    versions = _versions(pg_app)
    try:
        assert versions.version("token", token) == 1
        first = versions.listener_pid
        assert first is not None
        _elsewhere(pg_app, "SELECT pg_terminate_backend(%(pid)s)", pid=first)
        # a change while nobody may be listening: its notification can be lost
        _elsewhere(pg_app, "UPDATE games SET version = 2 WHERE id = %(id)s", id=game_id)
        assert versions.relistened_wait(first, WAIT), "the listener did not come back"
        assert versions.version("token", token) == 2
        heard = versions.heard
        _elsewhere(pg_app, "UPDATE games SET version = 3 WHERE id = %(id)s", id=game_id)
        _heard(versions, heard)  # the new listener hears
        assert versions.version("token", token) == 3
    finally:
        versions.close()


@ON_POSTGRESQL
def test_the_listeners_connection_gives_up_on_a_silent_peer(pg_app: Flask) -> None:
    """TCP keepalives and a TCP user timeout (the operating system ends a connection whose peer
    went away), and a statement timeout (the server ends a statement that runs too long)."""
    with pg_app.app_context():
        versions = Versions(db.engine)
    connection = versions.listener_connection()
    try:
        given = connection.info.get_parameters()
        assert given["keepalives"] == "1"
        silent_for = int(given["keepalives_idle"]) + int(given["keepalives_interval"]) * int(
            given["keepalives_count"]
        )
        assert silent_for <= 10  # seconds of silence before the operating system gives up
        assert int(given["tcp_user_timeout"]) <= 10_000
        assert connection.execute("SHOW statement_timeout").fetchone() == ("3s",)
    finally:
        connection.close()


@ON_POSTGRESQL
@pytest.mark.slow
def test_a_listener_whose_server_stopped_answering_is_dropped(pg_app: Flask) -> None:
    """Its backend stopped (SIGSTOP: a half-open connection, as a hung server or a lost host
    looks): what it kept is trusted no more and it is replaced, so a poll sees another server's
    save; before, the heartbeat's SELECT 1 waited for ever and every poll said "unchanged"."""
    game_id, token, view_token = _game(pg_app)
    versions = _versions(pg_app)
    stopped = versions.listener_pid
    assert stopped is not None
    try:
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
        reads = versions.reads
        assert versions.version("token", token) == 1  # kept: not read again
        assert versions.reads == reads
        os.kill(stopped, signal.SIGSTOP)
        # another server's save: its notification never reaches the stopped listener
        _elsewhere(pg_app, "UPDATE games SET version = 2 WHERE id = %(id)s", id=game_id)
        deadline = time.monotonic() + WAIT
        while versions.version("token", token) != 2:
            assert time.monotonic() < deadline, "the poll still answers the version from before"
            time.sleep(0.2)
        assert versions.version("view_token", view_token) == 2
        assert versions.relistened_wait(stopped, WAIT), "the stopped listener was not replaced"
        heard = versions.heard
        _elsewhere(pg_app, "UPDATE games SET version = 3 WHERE id = %(id)s", id=game_id)
        _heard(versions, heard)  # the new listener hears
        assert versions.version("token", token) == 3
    finally:
        os.kill(stopped, signal.SIGCONT)
        _elsewhere(pg_app, "SELECT pg_terminate_backend(%(pid)s)", pid=stopped)
        versions.close()


@pytest.mark.parametrize("change", ["write", "delete", "rename"])
def test_a_change_made_in_this_process_is_seen_here_at_once(
    app: Flask, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """Without waiting for the database's word: the process's own next poll reads its write
    (SQLite: its mark is written with it)."""
    with app.app_context():
        versions = versions_for(db.engine)
        if versions.listens:
            assert versions.wait_listening(WAIT)
            monkeypatch.setattr(versions, "heard_of", lambda payload: None)  # deaf to the database
        else:
            assert versions.marks is not None
        table = create_table("Friday")
        row = start_game(table, "trix", "solo", ["A", "B", "C", "D"], HouseRules(), None)
        token, view_token = row.token, row.view_token
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
        reads = versions.reads
        assert versions.version("token", token) == 1  # kept
        assert versions.reads == reads
        if change == "write":
            write(row, 1, name="Friday's game")
            expected: int | None = 2
        elif change == "delete":
            delete_game(row)
            expected = None
        else:
            player = player_by_name(table, "A")
            assert player is not None
            rename_player(table, player, "Zed", table.version)
            expected = 2
        assert versions.version("token", token) == expected
        assert versions.version("view_token", view_token) == expected  # the live view's poll


@ON_POSTGRESQL
def test_the_first_poll_starts_listening(pg_app: Flask) -> None:
    """Nothing but a poll starts the listener in a server (no one waits for it there)."""
    _, token, _ = _game(pg_app)
    with pg_app.app_context():
        versions = Versions(db.engine)
    try:
        assert versions.version("token", token) == 1
        assert versions.relistened_wait(0, WAIT)  # listening, and started by the poll alone
    finally:
        versions.close()


def test_the_process_shares_one_listener_a_database(app: Flask) -> None:
    with app.app_context():
        assert versions_for(db.engine) is versions_for(db.engine)


@ON_SQLITE
def test_sqlite_keeps_a_version_while_its_mark_is_unchanged(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unchanged game's poll reads nothing; an UPDATE nobody marked (typed by hand) is read
    within SQLITE_TRUSTED_FOR_S; and no listener runs (it could only fail and warn)."""
    _, token, view_token = _game(app)
    before = set(threading.enumerate())
    with app.app_context():
        versions = Versions(db.engine)
        assert not versions.listens and versions.marks is not None
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
        for _ in range(5):
            assert versions.version("token", token) == 1
            assert versions.known("view_token", view_token) == 1
        assert versions.reads == 2
        db.session.execute(text("UPDATE games SET version = version + 1"))
        db.session.commit()
        assert versions.version("token", token) == 1  # unmarked: kept a while longer
        monkeypatch.setattr(versions_module, "SQLITE_TRUSTED_FOR_S", 0.0)
        assert versions.known("token", token) is None  # the event loop's lookup gives way
        assert versions.version("token", token) == 2
        assert versions.reads == 3
    assert not [t for t in set(threading.enumerate()) - before if t.name == "scorekeeper-versions"]


_ELSEWHERE = """
import sys
from scorekeeper import create_app
from scorekeeper.store.db import db
from scorekeeper.store.games import delete_game, write
from scorekeeper.store.models import GameRow

instance, uri, token, change = sys.argv[1:]
app = create_app({"INSTANCE_PATH": instance, "SQLALCHEMY_DATABASE_URI": uri,
                  "SECRET_KEY": "x" * 64})
with app.app_context():
    row = db.session.query(GameRow).filter_by(token=token).one()
    if change == "write":
        write(row, row.version, name="Friday")
    else:
        delete_game(row)
"""


@ON_SQLITE
@pytest.mark.parametrize("change", ["write", "delete"])
def test_a_change_made_by_another_process_on_sqlite_is_seen_at_the_next_poll(
    app: Flask, tmp_path: Any, change: str
) -> None:
    """Another app server (a process of its own, through the app's store) on the same file:
    its change marks the game's two tokens, and this process reads the game again."""
    _, token, view_token = _game(app)
    with app.app_context():
        versions = Versions(db.engine)
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            _ELSEWHERE,
            str(tmp_path / "elsewhere"),
            app.config["SQLALCHEMY_DATABASE_URI"],
            token,
            change,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    expected = 2 if change == "write" else None
    assert versions.known("token", token) is None
    assert versions.version("token", token) == expected
    assert versions.version("view_token", view_token) == expected


@ON_SQLITE
def test_a_read_that_raced_a_change_on_sqlite_is_not_kept(app: Flask) -> None:
    """The mark is read before the version: a change committed after the read marks after it,
    so what was read is not used again."""
    game_id, token, _ = _game(app)
    with app.app_context():
        versions = _Paused(db.engine)
        row = db.session.get(GameRow, game_id)
        assert row is not None
        reader, answers = versions.reader_paused(token)  # it read version 1
        write(row, 1, name="Friday")  # committed, then marked
        versions.release.set()
        reader.join(WAIT)
        assert answers == [1]  # what it read, the version of the moment it asked
        assert versions.known("token", token) is None
        assert versions.version("token", token) == 2  # not kept: read again


@ON_SQLITE
def test_polls_racing_saves_on_sqlite_never_see_a_version_older_than_a_save_they_followed(
    app: Flask,
) -> None:
    """A barrier of threads: one saves 60 times through the store while three poll as fast as
    they can; a poll that began after a save had returned never answers an older version."""
    game_id, token, _ = _game(app)
    with app.app_context():
        versions = Versions(db.engine)
    saved = [1]  # the version the last save that returned wrote
    stale: list[tuple[int, int | None]] = []
    barrier = threading.Barrier(4)
    done = threading.Event()

    def saver() -> None:
        with app.app_context():
            barrier.wait()
            for version in range(1, 61):
                row = db.session.get(GameRow, game_id)
                assert row is not None
                write(row, version, name=f"deal {version}")
                saved[0] = version + 1
            done.set()

    def poller() -> None:
        barrier.wait()
        while not done.is_set():
            floor = saved[0]
            found = versions.version("token", token)
            if found is None or found < floor:
                stale.append((floor, found))

    threads = [threading.Thread(target=saver)] + [threading.Thread(target=poller) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert done.is_set() and not stale
    assert versions.version("token", token) == 61


@ON_SQLITE
def test_without_marks_every_poll_on_sqlite_reads(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No marks beside the database (a folder that cannot take the file): nothing is kept."""
    _, token, _ = _game(app)

    def refused(path: str) -> None:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(versions_module, "_marks", {})
    monkeypatch.setattr(versions_module, "ChangeMarks", refused)
    with app.app_context():
        assert marks_for(db.engine) is None
        versions = Versions(db.engine)
        for _ in range(3):
            assert versions.version("token", token) == 1
        assert versions.known("token", token) is None
        assert versions.reads == 3


@pytest.mark.parametrize("setting", ["config", "environment", "default"])
def test_an_operator_can_turn_listening_off(
    tmp_path: Any, database_uri: str, monkeypatch: pytest.MonkeyPatch, setting: str
) -> None:
    """For a connection pooler that cannot hold a LISTEN: every poll reads, as on SQLite."""
    extra: dict[str, Any] = {}
    if setting == "config":
        extra["LISTEN_FOR_CHANGES"] = False
    elif setting == "environment":
        monkeypatch.setenv("SCOREKEEPER_LISTEN", "0")
    app = make_app(tmp_path, database_uri, **extra)
    try:
        _, token, _ = _game(app)
        app.test_client().get(f"/g/{token}/live?v=old", headers={"HX-Request": "true"})
        versions = app.wsgi_app.versions  # type: ignore[attr-defined]  # the poll's
        assert versions is not None
        on_postgresql = database_uri.startswith("postgresql")
        assert versions.listens is (setting == "default" and on_postgresql)
    finally:
        _dispose(app)


def test_a_polls_read_on_sqlite_is_one_statement(app: Flask) -> None:
    """No connection test before it (pool_pre_ping): a SQLite file's connection cannot have
    died idle, and the test was a statement more on every poll's read and every request; a
    server's connection (PostgreSQL) is still tried first."""
    from sqlalchemy import event

    _, token, _ = _game(app)
    with app.app_context():
        engine = db.engine
        versions = Versions(engine, listen=False)
        if engine.dialect.name != "sqlite":
            assert app.config["SQLALCHEMY_ENGINE_OPTIONS"]["pool_pre_ping"] is True
            return
        statements: list[str] = []

        def traced(dbapi_connection: Any, record: Any) -> None:
            dbapi_connection.set_trace_callback(statements.append)

        engine.dispose()  # new connections, traced from their first statement
        event.listen(engine, "connect", traced)
        try:
            assert versions.read("token", token) == 1
            statements.clear()
            for _ in range(3):
                assert versions.read("token", token) == 1
        finally:
            event.remove(engine, "connect", traced)
            engine.dispose()
    assert [s for s in statements if s.upper().startswith("SELECT")] == [
        s for s in statements if "games.version" in s
    ]
    assert len([s for s in statements if "games.version" in s]) == 3


def test_the_listeners_reconnect_logs_one_line(
    app: Flask, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A lost listener is told in one line of the log (what happened), not a whole traceback:
    a restarted database server writes it once a worker, and it is expected."""
    with app.app_context():
        versions = Versions(db.engine)
    failures: list[int] = []

    def lost() -> None:
        failures.append(1)
        if len(failures) == 2:
            versions.close()
        raise psycopg.OperationalError(
            "consuming input failed: server closed the connection unexpectedly\n"
            "\tThis probably means the server terminated abnormally"
        )

    monkeypatch.setattr(versions, "_listen_once", lost)
    monkeypatch.setattr("scorekeeper.store.versions.RETRY_SECONDS", (0.0,))
    # Alembic's logging setup (the migrations of the test's database) disables loggers it
    # did not name
    monkeypatch.setattr(logging.getLogger("scorekeeper.store.versions"), "disabled", False)
    with caplog.at_level("WARNING", logger="scorekeeper.store.versions"):
        versions._listen()  # in this thread: until it is closed
    lines = [r for r in caplog.records if r.name == "scorekeeper.store.versions"]
    assert len(lines) == 2
    for record in lines:
        assert record.exc_info is None and record.exc_text is None
        message = record.getMessage()
        assert "\n" not in message
        assert "OperationalError: consuming input failed" in message
