"""Polled versions kept in a process stay exact: PostgreSQL tells every process of every change.

On PostgreSQL an unchanged game's poll reads nothing; a change made anywhere (another server, a
hand-typed UPDATE, a delete) is heard, and a read that raced a change is never kept. On SQLite
every poll reads (no channel to hear changes on).
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from sqlalchemy import text

from scorekeeper.rules import HouseRules
from scorekeeper.store.db import db
from scorekeeper.store.games import create_game, delete_game, write
from scorekeeper.store.roster import rename_player
from scorekeeper.store.tables import create_table, player_by_name, start_game
from scorekeeper.store.versions import Versions, versions_for
from tests.conftest import BACKENDS, _dispose, make_app

WAIT = 30.0  # generous: a busy machine may take long to deliver; a pass never waits this long


ON_POSTGRESQL = pytest.mark.parametrize(
    "database_uri", [backend for backend in BACKENDS if backend == "postgresql"], indirect=True
)
"""PostgreSQL only (on SQLite there is no channel: see the last test)."""


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


@ON_POSTGRESQL
def test_a_read_that_raced_a_change_is_not_kept(pg_app: Flask) -> None:
    game_id, token, _ = _game(pg_app)
    with pg_app.app_context():
        versions = _Paused(db.engine)
    assert versions.wait_listening(WAIT)
    try:
        versions.pause = True
        answers: list[int | None] = []
        reader = threading.Thread(target=lambda: answers.append(versions.version("token", token)))
        reader.start()
        assert versions.read_done.wait(WAIT)  # it read version 1, and has not kept it yet
        versions.pause = False
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


@ON_POSTGRESQL
@pytest.mark.parametrize("change", ["write", "delete", "rename"])
def test_a_change_made_in_this_process_is_seen_here_at_once(
    pg_app: Flask, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """Without waiting for the database's word: the process's own next poll reads its write."""
    with pg_app.app_context():
        versions = versions_for(db.engine)
        assert versions.wait_listening(WAIT)
        monkeypatch.setattr(versions, "heard_of", lambda payload: None)  # deaf to the database
        table = create_table("Friday")
        row = start_game(table, "trix", "solo", ["A", "B", "C", "D"], HouseRules(), None)
        token, view_token = row.token, row.view_token
        assert versions.version("token", token) == 1
        assert versions.version("view_token", view_token) == 1
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


def test_sqlite_reads_every_poll(app: Flask) -> None:
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        return  # the PostgreSQL tests above
    _, token, _ = _game(app)
    before = set(threading.enumerate())
    with app.app_context():
        versions = Versions(db.engine)
        assert not versions.listens
        for expected in (1, 2):
            assert versions.version("token", token) == expected
            db.session.execute(text("UPDATE games SET version = version + 1"))
            db.session.commit()
    assert versions.reads == 2
    # and no listener: on SQLite it could only fail and warn in the log every few seconds
    assert not [t for t in set(threading.enumerate()) - before if t.name == "scorekeeper-versions"]


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
