"""A table's nights and ratings setting: the two writes the statistics' evening adds, each
decided by the database however many phones send it at once.

- Starting a night on purpose stores the moment, keyed by the table's latest game (a unique
  key): a second tap, or another phone, finds the night already started.
- Turning ratings on or off writes the setting only if the table is at the version the phone
  saw and the setting differs (one UPDATE): of several phones at once one changes it, the
  others are told it is already so, or that the table changed meanwhile.

The games a night holds are read here for the pages (a table's games by time, the games a
rematch chain links); the nights themselves are derived by :mod:`scorekeeper.stats.nights`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from .db import db
from .models import GameRow, NightStartRow, TableRow, utcnow
from .tables import last_game

CHAIN_LIMIT = 200
"""The most games of a rematch chain read either side of a game (far more than one night)."""


@dataclass(frozen=True)
class NightStarted:
    """Written: the table's next game begins a new night."""


@dataclass(frozen=True)
class NightAlreadyStarted:
    """Nothing written: a new night was started after the same game (another tap, another
    phone)."""


@dataclass(frozen=True)
class NoGameYet:
    """Nothing written: the table has no game; its first game begins its first night."""


NightOutcome = NightStarted | NightAlreadyStarted | NoGameYet


def start_night(table: TableRow) -> NightOutcome:
    """Start a new night at the table: its next game begins one. Once per latest game, by the
    unique key (a concurrent twin finds it there)."""
    latest = last_game(table)
    if latest is None:
        return NoGameYet()
    db.session.add(NightStartRow(table_id=table.id, after_game_id=latest.id, started_at=utcnow()))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return NightAlreadyStarted()
    return NightStarted()


def night_starts(table: TableRow) -> list[datetime]:
    """The moments a night was started on purpose at the table, oldest first."""
    return [
        aware(moment)
        for moment in db.session.execute(
            select(NightStartRow.started_at)
            .where(NightStartRow.table_id == table.id)
            .order_by(NightStartRow.started_at)
        ).scalars()
    ]


def night_starts_by_game(table: TableRow | None = None) -> dict[int, datetime]:
    """The nights started on purpose (at one table, or at every table), each by the game an
    export writes it on: the game it was started after, or, when that game has no record (not
    begun, or gone), the table's latest game with one begun before the moment; the earliest
    moment per game (a later one splits no other games). One query, and one more per start
    whose game has no record: a list as long as the nights, never as the games."""
    query = (
        select(
            NightStartRow.table_id,
            NightStartRow.after_game_id,
            NightStartRow.started_at,
            GameRow.first_chooser,
        )
        .outerjoin(
            GameRow,
            (GameRow.id == NightStartRow.after_game_id)
            & (GameRow.table_id == NightStartRow.table_id),
        )
        .order_by(NightStartRow.started_at, NightStartRow.id)
    )
    if table is not None:
        query = query.where(NightStartRow.table_id == table.id)
    found: dict[int, datetime] = {}
    for table_id, after, moment, first in db.session.execute(query).all():
        game_id: int | None = after if first is not None else None
        if game_id is None:
            game_id = db.session.execute(
                select(GameRow.id)
                .where(
                    GameRow.table_id == table_id,
                    GameRow.first_chooser.is_not(None),
                    GameRow.created_at <= moment,
                )
                .order_by(GameRow.created_at.desc(), GameRow.id.desc())
                .limit(1)
            ).scalar_one_or_none()
        if game_id is not None:
            found.setdefault(game_id, aware(moment))
    return found


def started_after(table: TableRow, game: GameRow) -> bool:
    """Whether a new night was started after this game (the next game begins it)."""
    return (
        db.session.execute(
            select(NightStartRow.id).where(
                NightStartRow.table_id == table.id, NightStartRow.after_game_id == game.id
            )
        ).first()
        is not None
    )


@dataclass(frozen=True)
class RatingsChanged:
    """Written: the table's ratings are now `on` (its version one higher)."""

    on: bool


@dataclass(frozen=True)
class RatingsAlreadySo:
    """Nothing written: the setting already is what was asked (another phone, a double tap)."""

    on: bool


@dataclass(frozen=True)
class RatingsStale:
    """Nothing written: the table changed on another phone since the form was made."""

    on: bool


RatingsOutcome = RatingsChanged | RatingsAlreadySo | RatingsStale


def set_ratings(table: TableRow, on: bool, seen_version: int) -> RatingsOutcome:
    """Turn the table's ratings on or off, if the table is still at `seen_version` and the
    setting differs: one UPDATE decides among phones sending it at once."""
    result = db.session.execute(
        update(TableRow)
        .where(
            TableRow.id == table.id,
            TableRow.version == seen_version,
            TableRow.ratings != on,
        )
        .values(ratings=on, version=TableRow.version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    if result.rowcount == 1:  # type: ignore[attr-defined]
        db.session.refresh(table)
        return RatingsChanged(on)
    db.session.refresh(table)
    return RatingsAlreadySo(on) if table.ratings == on else RatingsStale(table.ratings)


def aware(moment: datetime) -> datetime:
    """A stored moment, timezone-aware (SQLite gives back naive UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def table_moments(table: TableRow) -> list[tuple[int, datetime]]:
    """Each of the table's games that has a record (its first chooser known), by id, with
    when it was begun, oldest first (as its statistics order them): no deals read."""
    return [
        (int(game_id), aware(created_at))
        for game_id, created_at in db.session.execute(
            select(GameRow.id, GameRow.created_at)
            .where(GameRow.table_id == table.id, GameRow.first_chooser.is_not(None))
            .order_by(GameRow.created_at, GameRow.id)
        ).all()
    ]


def latest_moments(table: TableRow, count: int) -> list[tuple[int, datetime]]:
    """As :func:`table_moments`, only the table's latest `count` games (still oldest first):
    what its latest night is read from, however many games the table has."""
    latest = db.session.execute(
        select(GameRow.id, GameRow.created_at)
        .where(GameRow.table_id == table.id, GameRow.first_chooser.is_not(None))
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
        .limit(count)
    ).all()
    return [(int(game_id), aware(created_at)) for game_id, created_at in reversed(latest)]


def chain_around(game: GameRow, within: timedelta) -> list[GameRow]:
    """The games a rematch chain links to `game` ("same four again", one after the other),
    `game` among them, oldest first, as far as each begun `within` of the one before it (a
    night needs no more): what a game outside a table counts as its night."""
    earlier: list[GameRow] = []
    current = game
    while current.continues_id is not None and len(earlier) < CHAIN_LIMIT:
        found = db.session.get(GameRow, current.continues_id)
        if found is None or aware(current.created_at) - aware(found.created_at) > within:
            break
        earlier.append(found)
        current = found
    later: list[GameRow] = []
    current = game
    while len(later) < CHAIN_LIMIT:
        following = db.session.execute(
            select(GameRow).where(GameRow.continues_id == current.id)
        ).scalar_one_or_none()
        if following is None or aware(following.created_at) - aware(current.created_at) > within:
            break
        later.append(following)
        current = following
    return [*reversed(earlier), game, *later]
