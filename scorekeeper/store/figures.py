"""Each game's share of its table's statistics, kept in the database by game and version.

A cache every worker and host shares: an import stores the figures of the games it stores (it
replays them anyway), and the first reader of a table's statistics makes those of the games
nobody stored at their current version (the engine's replay) and stores them; every later
reader, in any process, reads them back instead of replaying. A save bumps
the game's version, so the stored figures of the version before are stale and made again by
the next reader; a deleted game takes its figures with it (the foreign key cascades).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from ..rules import Record
from ..settings import SQLITE_BUSY_TIMEOUT_MS
from .db import db
from .games import record_of
from .models import FiguresRow, GameRow

_IDS_AT_ONCE = 500
"""Ids per query (within every database's limit of bound parameters)."""
_ROWS_AT_ONCE = 200
"""Rows per INSERT (four parameters each)."""


MakeFigures = Callable[[Record], tuple[str, bytes]]
"""What the database keeps of a record's figures (their head and packed tallies), made by the
caller: the store knows no statistics (`scorekeeper.stats.stored_form`)."""


@dataclass(frozen=True)
class Stored:
    """A game's figures as stored: the version they were made from, their head and tallies
    (`scorekeeper.stats.figures_head`, `GameFigures.tallies`)."""

    game_id: int
    version: int
    head: str
    tallies: bytes


def stored_figures(game_ids: Sequence[int]) -> dict[int, Stored]:
    """The stored figures of these games (any version), by game id."""
    found: dict[int, Stored] = {}
    for start in range(0, len(game_ids), _IDS_AT_ONCE):
        for game_id, version, head, tallies in db.session.execute(
            select(
                FiguresRow.game_id, FiguresRow.version, FiguresRow.head, FiguresRow.tallies
            ).where(FiguresRow.game_id.in_(game_ids[start : start + _IDS_AT_ONCE]))
        ):
            found[int(game_id)] = Stored(int(game_id), int(version), head, bytes(tallies))
    return found


CACHE_WRITE_WAIT_MS = 50
"""On SQLite, how long a reader's cache write waits for the one writer's lock: a save holding
it is not waited for (the figures are stored by a later reader)."""


def store_figures(made: Sequence[Stored], *, by_a_reader: bool = False) -> bool:
    """Store figures made from the records, each replacing what its game had stored unless
    that is of a newer version (so two readers storing at once, of the same version or of two,
    leave one row with the newest). In a transaction of its own, apart from the request's; a
    failure (a game deleted meanwhile, a database that cannot be written) leaves the cache as
    it was: returns whether they were stored.

    `by_a_reader` (a page being read, on SQLite): a cache write never keeps a request or a
    save waiting: it waits CACHE_WRITE_WAIT_MS at most for the writer's lock, else gives up,
    and is not flushed to the disk at its commit (synchronous=NORMAL: a power cut may lose it,
    and the next reader makes it again), so the lock is held for no fsync."""
    if not made:
        return True
    insert = postgresql.insert if db.engine.dialect.name == "postgresql" else sqlite.insert
    return _cache_write(lambda connection: _upsert(connection, insert, made), by_a_reader)


def store_cards(made: Sequence[tuple[int, int, dict[str, Any]]]) -> bool:
    """Keep the cards a page made for games stored before cards were kept (game id, the version
    they were made from, the card), each only if its game is still at that version: a cache
    written by a reader, as :func:`store_figures` with `by_a_reader`."""
    if not made:
        return True
    statement = (
        update(GameRow)
        .where(GameRow.id == bindparam("game_id"), GameRow.version == bindparam("made_from"))
        .values(card=bindparam("card_made"))
        .execution_options(synchronize_session=False)
    )
    rows = [
        {"game_id": game_id, "made_from": version, "card_made": card}
        for game_id, version, card in made
    ]
    return _cache_write(lambda connection: connection.execute(statement, rows), True)


def _cache_write(work: Callable[[Any], object], by_a_reader: bool) -> bool:
    """`work` on a connection of its own, in a transaction of its own (see
    :func:`store_figures`): whether it was done."""
    engine = db.engine
    quick = by_a_reader and engine.dialect.name == "sqlite"
    try:
        with engine.connect() as connection:
            if quick:
                _pragmas(connection, CACHE_WRITE_WAIT_MS, "NORMAL")
            try:
                with connection.begin():
                    work(connection)
            finally:
                if quick:
                    _pragmas(connection, SQLITE_BUSY_TIMEOUT_MS, "FULL")
    except SQLAlchemyError:
        return False
    return True


def _pragmas(connection: Any, busy_timeout: int, synchronous: str) -> None:
    """A SQLite connection's wait for the writer's lock and its flushing at commit."""
    connection.exec_driver_sql(f"PRAGMA busy_timeout={int(busy_timeout)}")
    connection.exec_driver_sql(f"PRAGMA synchronous={synchronous}")
    connection.commit()


def _upsert(connection: Any, insert: Any, made: Sequence[Stored]) -> None:
    """Each game's figures in, replacing those of an older version of it."""
    for start in range(0, len(made), _ROWS_AT_ONCE):
        statement = insert(FiguresRow).values(
            [
                {
                    "game_id": item.game_id,
                    "version": item.version,
                    "head": item.head,
                    "tallies": item.tallies,
                }
                for item in made[start : start + _ROWS_AT_ONCE]
            ]
        )
        connection.execute(
            statement.on_conflict_do_update(
                index_elements=[FiguresRow.game_id],
                set_={
                    "version": statement.excluded.version,
                    "head": statement.excluded.head,
                    "tallies": statement.excluded.tallies,
                },
                where=FiguresRow.version <= statement.excluded.version,
            )
        )


def store_figures_of(rows: Sequence[GameRow], make: MakeFigures | None) -> None:
    """New games, committed: their figures made from their records as stored (names, stamps)
    and stored, in a transaction of their own (a cache: should it fail, the table's first
    reader makes them)."""
    if make is not None and rows:
        store_figures([Stored(row.id, row.version, *make(record_of(row))) for row in rows])
