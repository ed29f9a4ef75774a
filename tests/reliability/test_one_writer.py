"""SQLite's writers queue in the app and are handed the lock at once (`store.writer`), rather
than sleeping in SQLite's busy handler (which is not woken when the lock frees: a save waited
up to seconds with four writers, `bench/write_lock.py`)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from flask import Flask
from sqlalchemy import text

from scorekeeper.rules import HouseRules
from scorekeeper.store.db import db
from scorekeeper.store.games import create_game, find_game, write
from tests.conftest import _dispose, make_app

WAIT = 30.0  # generous: a pass never waits this long


def _sqlite_app(tmp_path: Path) -> Flask:
    return make_app(tmp_path, "sqlite:///" + str(tmp_path / "scorekeeper.sqlite"))


def _games(app: Flask, count: int) -> list[str]:
    with app.app_context():
        tokens = [
            create_game("trix", "solo", ["A", "B", "C", "D"], HouseRules(), None).token
            for _ in range(count)
        ]
        db.session.remove()
    return tokens


def _until(condition: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_second_writer_waits_in_the_apps_queue_until_the_first_commits(
    tmp_path: Path,
) -> None:
    from scorekeeper.store.writer import writer_of

    app = _sqlite_app(tmp_path)
    first, second = _games(app, 2)
    writer = writer_of(str(tmp_path / "scorekeeper.sqlite"))
    holding, release = threading.Event(), threading.Event()
    saved: list[str] = []

    def hold() -> None:
        with app.app_context():
            db.session.execute(
                text("UPDATE games SET name = 'held' WHERE token = :t"), {"t": first}
            )
            holding.set()
            release.wait(WAIT)
            db.session.commit()
            db.session.remove()

    def save() -> None:
        with app.app_context():
            row = find_game(second)
            assert row is not None
            write(row, row.version, name="saved")
            saved.append(second)
            db.session.remove()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(WAIT)
        assert writer.threads.locked()  # the first write of a transaction took the queue
        saver = threading.Thread(target=save)
        saver.start()
        _until(lambda: writer.waiting == 1, "the second save does not wait in the queue")
        assert saved == []
    finally:
        release.set()
        holder.join()
    saver.join()
    assert saved == [second]
    assert not writer.threads.locked()  # given back with the connection, after the commit
    with app.app_context():
        names = dict(db.session.execute(text("SELECT token, name FROM games")).all())
        db.session.remove()
    assert names == {first: "held", second: "saved"}
    _dispose(app)


def test_a_rolled_back_write_gives_the_queue_back(tmp_path: Path) -> None:
    from scorekeeper.store.writer import writer_of

    app = _sqlite_app(tmp_path)
    (token,) = _games(app, 1)
    writer = writer_of(str(tmp_path / "scorekeeper.sqlite"))
    with app.app_context():
        db.session.execute(text("UPDATE games SET name = 'x' WHERE token = :t"), {"t": token})
        assert writer.threads.locked()
        db.session.rollback()
        assert not writer.threads.locked()
        db.session.remove()
    _dispose(app)


def test_saves_at_the_same_moment_all_land(app: Flask) -> None:
    """Threads with a barrier, each saving its own game (on SQLite through the queue; on
    PostgreSQL the queue is not used): every save is stored, none waits for ever."""
    count = 8
    tokens = _games(app, count)
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def save(token: str) -> None:
        with app.app_context():
            try:
                row = find_game(token)
                assert row is not None
                barrier.wait()
                for number in range(3):
                    write(row, row.version, name=f"save {number}")
            except BaseException as error:
                errors.append(error)
            finally:
                db.session.remove()

    threads = [threading.Thread(target=save, args=(token,)) for token in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with app.app_context():
        versions = db.session.execute(text("SELECT version FROM games")).scalars().all()
        db.session.remove()
    assert sorted(versions) == [4] * count
