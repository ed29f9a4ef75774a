"""Each game's statistics figures are kept in the database by (game, version): a process that
has kept none of them (a fresh worker, another host) reads them there instead of replaying; a
missing, stale or unreadable row is made again from the record; a save invalidates by version;
two readers storing at once leave one row, of the newest version. Counted, never timed."""

from __future__ import annotations

import io
import json
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, select, update

from scorekeeper.stats import figures_head, game_figures, stored_figures
from scorekeeper.store.db import db
from scorekeeper.store.figures import Stored, store_figures
from scorekeeper.store.figures import stored_figures as in_database
from scorekeeper.store.games import find_game, record_of
from scorekeeper.store.models import FiguresRow, GameRow
from scorekeeper.web import caches
from tests.conftest import page
from tests.web.table_phone import TablePhone, record_data
from tests.web.test_table_stats import FILES
from tests.web.test_table_stats_kept import (
    QUEENS_EDITED,
    assert_page_agrees,
    counted,
    phone,
    with_games,
)

__all__ = ["phone"]


def _stats(phone: TablePhone) -> None:
    assert phone.client.get(f"{phone.table_url}/stats").status_code == 200


def _rows(app: Flask) -> dict[int, int]:
    with app.app_context():
        return {
            game_id: version
            for game_id, version in db.session.execute(
                select(FiguresRow.game_id, FiguresRow.version)
            ).all()
        }


def _game_id(phone: TablePhone, token: str) -> int:
    with phone.app.app_context():
        row = find_game(token)
        assert row is not None
        return row.id


def _forget_stored(app: Flask) -> None:
    """As before imports stored them: no game's figures in the database."""
    with app.app_context():
        db.session.execute(delete(FiguresRow))
        db.session.commit()


def test_an_imported_tables_first_reader_replays_nothing(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The import replays every record anyway: each game's figures are stored with it, so the
    first statistics page (in any process) reads them instead of replaying the games."""
    with_games(phone, 12)
    stored = _rows(phone.app)
    assert len(stored) == 12 and set(stored.values()) == {1}
    caches.forget_statistics()
    with counted(monkeypatch) as first:
        _stats(phone)
    assert (first.rows, first.replayed) == ([], 0)
    caches.forget_statistics()
    assert_page_agrees(phone)
    with phone.app.app_context():  # exactly the figures the record makes
        for game_id, head, tallies in db.session.execute(
            select(FiguresRow.game_id, FiguresRow.head, FiguresRow.tallies)
        ):
            row = db.session.get(GameRow, game_id)
            assert row is not None
            made = game_figures(record_of(row))
            assert (head, bytes(tallies)) == (figures_head(made), made.tallies)


def test_the_import_page_stores_the_figures_of_games_at_no_table(
    app: Flask, client: FlaskClient
) -> None:
    """A backup imported on /import: its games' figures too (a table may take them later)."""
    records = [record_data(name) for name in FILES]
    form = page(client.get("/import"))
    answer = client.post(
        "/import",
        data={
            "csrf_token": form.hidden("/import")["csrf_token"],
            "file": (io.BytesIO(json.dumps(records).encode()), "games.json"),
        },
        content_type="multipart/form-data",
    )
    assert answer.status_code == 303
    assert len(_rows(app)) == len(records)


def test_a_fresh_process_reads_the_stored_figures_and_replays_nothing(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_games(phone, 12)
    _forget_stored(phone.app)
    with counted(monkeypatch) as first:
        _stats(phone)
    assert (len(first.rows), first.replayed) == (12, 12)
    assert len(_rows(phone.app)) == 12
    caches.forget_statistics()  # what a new worker holds
    with counted(monkeypatch) as fresh:
        _stats(phone)
    assert (fresh.rows, fresh.replayed) == ([], 0)
    caches.forget_statistics()
    assert_page_agrees(phone)


def test_a_save_invalidates_by_version_and_only_that_game_is_made_again(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_games(phone, 6)
    _stats(phone)
    phone.token = phone.game_tokens()[0]
    saved = _game_id(phone, phone.token)
    before = _rows(phone.app)
    phone.edit(1, QUEENS_EDITED)
    caches.forget_statistics()  # another worker reads the table after the save
    with counted(monkeypatch) as after_save:
        _stats(phone)
    assert (after_save.rows, after_save.replayed) == ([saved], 1)
    after = _rows(phone.app)
    assert after[saved] > before[saved]
    assert {k: v for k, v in after.items() if k != saved} == {
        k: v for k, v in before.items() if k != saved
    }
    caches.forget_statistics()
    assert_page_agrees(phone)


@pytest.mark.parametrize("damage", ["missing", "stale", "other format", "short tallies"])
def test_a_missing_stale_or_unreadable_row_is_made_again(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    with_games(phone, 4)
    _stats(phone)
    game_id = _game_id(phone, phone.game_tokens()[1])
    with phone.app.app_context():
        where = FiguresRow.game_id == game_id
        if damage == "missing":
            db.session.execute(delete(FiguresRow).where(where))
        elif damage == "stale":
            db.session.execute(
                update(FiguresRow).where(where).values(version=FiguresRow.version - 1)
            )
        elif damage == "other format":
            db.session.execute(update(FiguresRow).where(where).values(head='[0,"trix"]'))
        else:
            db.session.execute(update(FiguresRow).where(where).values(tallies=b"\0" * 8))
        db.session.commit()
    caches.forget_statistics()
    with counted(monkeypatch) as reread:
        _stats(phone)
    assert (reread.rows, reread.replayed) == ([game_id], 1)
    with phone.app.app_context():
        row = db.session.get(FiguresRow, game_id)
        game = find_game(phone.game_tokens()[1])
        assert row is not None and game is not None and row.version == game.version
        assert stored_figures(row.head, row.tallies, game.players) == game_figures(record_of(game))
    caches.forget_statistics()
    assert_page_agrees(phone)


def test_stored_figures_read_back_equal(phone: TablePhone) -> None:
    with_games(phone, 4)  # the three kinds, solo and partnership
    with phone.app.app_context():
        for token in phone.game_tokens():
            game = find_game(token)
            assert game is not None
            made = game_figures(record_of(game))
            assert stored_figures(figures_head(made), made.tallies, game.players) == made


def test_a_deleted_game_takes_its_figures_with_it(phone: TablePhone) -> None:
    with_games(phone, 3)
    _stats(phone)
    game_id = _game_id(phone, phone.game_tokens()[0])
    with phone.app.app_context():
        from scorekeeper.store.games import delete_game

        game = find_game(phone.game_tokens()[0])
        assert game is not None
        delete_game(game)
    assert game_id not in _rows(phone.app) and len(_rows(phone.app)) == 2


def test_readers_storing_at_once_leave_one_row_of_the_newest_version(phone: TablePhone) -> None:
    with_games(phone, 1)
    app: Any = phone.app
    with app.app_context():
        game = find_game(phone.game_tokens()[0])
        assert game is not None
        made = game_figures(record_of(game))
        game_id, version = game.id, game.version
    versions = [version + step % 4 for step in range(8)]  # two of each, newest version + 3
    barrier = threading.Barrier(len(versions))
    outcomes: list[bool] = []

    def store(at: int) -> None:
        with app.app_context():
            barrier.wait()
            outcomes.append(store_figures([Stored(game_id, at, figures_head(made), made.tallies)]))
            db.session.remove()

    threads = [threading.Thread(target=store, args=(at,)) for at in versions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(outcomes) == len(versions)
    with app.app_context():
        rows = in_database([game_id])
    assert list(rows) == [game_id] and rows[game_id].version == max(versions)


def _writes_to_figures(app: Flask) -> Any:
    """A list that collects every statement that writes game_figures (while listened to)."""
    from sqlalchemy import event

    written: list[str] = []

    def seen(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "game_figures" in statement and not statement.lstrip().upper().startswith("SELECT"):
            written.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    return written, lambda: event.remove(engine, "before_cursor_execute", seen)


def test_a_game_in_play_is_not_stored_so_reading_after_a_save_writes_nothing(
    phone: TablePhone,
) -> None:
    """Its figures change with its next save: kept by the process that made them, never
    written, so the statistics read after each save of a busy night is a read (it used to write
    the game's figures, on SQLite taking the one writer's lock and a flush to disk beside the
    saves)."""
    with_games(phone, 4)
    phone.pick(["Rami", "Lina", "Omar", "Dana"], game="trix", mode="solo")
    record = record_data("trix-solo-complete.json")
    phone.choose_first(record["first"])
    phone.enter(record["deals"][0])
    in_play = _game_id(phone, phone.token)
    written, stop = _writes_to_figures(phone.app)
    try:
        for deal in record["deals"][1:3]:
            phone.enter(deal)
            caches.forget_statistics()  # each read by a worker that has not seen the game
            _stats(phone)
    finally:
        stop()
    assert written == []
    assert in_play not in _rows(phone.app)  # the finished games' are, from the import
    assert len(_rows(phone.app)) == 4
    caches.forget_statistics()
    assert_page_agrees(phone)


def test_a_readers_cache_write_gives_way_to_a_save_and_leaves_the_connection_as_it_was(
    phone: TablePhone,
) -> None:
    """On SQLite, while a save holds the one writer's lock, a reader's figures are not stored
    (a later reader stores them) and its connection goes back to the pool waiting as long and
    flushing as surely as before (a save on it stays durable)."""
    if not phone.app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return  # PostgreSQL: no one writer's lock
    import sqlite3

    with_games(phone, 2)
    game_id = _game_id(phone, phone.game_tokens()[0])
    made = Stored(game_id, 99, "head", b"")
    database = phone.app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    saving = sqlite3.connect(database, isolation_level=None)
    try:
        saving.execute("BEGIN IMMEDIATE")  # a save in progress
        with phone.app.app_context():
            assert store_figures([made], by_a_reader=True) is False
    finally:
        saving.execute("ROLLBACK")
        saving.close()
    with phone.app.app_context():
        with db.engine.connect() as connection:  # the pool's connection, as a save gets it
            assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10_000
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert store_figures([made], by_a_reader=True) is True  # nobody writing: stored
    assert _rows(phone.app)[game_id] == 99
