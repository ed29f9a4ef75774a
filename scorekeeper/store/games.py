"""Games in the database: find, create and write them; a row to its record and back.

A row holds the game record (setup and entered deals); everything else is derived by the rules
engine. Every write is one UPDATE guarded by the row's version, so two phones never overwrite
each other: the loser gets :class:`StaleStateError`. A keyed write (an entry made with a key,
`store.entries`) adds its key in the same transaction; a key the game holds already refuses the
whole write (:class:`KeyTakenError`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from ..rules import GAMES, Game, HouseRules, Record, Replay, dump_deal, parse_deal, replay
from ..rules.record import dump_house_rules
from ..rules.record import parse_timestamp as record_timestamp
from .db import db
from .entries import Keyed, entry_values
from .models import EntryRow, GameRow, utcnow
from .versions import VERSION_BY_TOKEN, VERSION_BY_VIEW_TOKEN, changed_here

TOKEN_BYTES = 16  # 128 bits from secrets: links cannot be guessed
TOKEN_PATTERN = r"[A-Za-z0-9_-]{1,64}"
"""What `secrets.token_urlsafe` makes; anything else (a NUL byte, say) is never looked up."""
_TOKEN_SHAPE = re.compile(TOKEN_PATTERN)


class StaleStateError(Exception):
    """Another phone changed the game since this form was made."""


class KeyTakenError(StaleStateError):
    """The game already holds an entry with this key: nothing was written (the database's
    unique key refused it, whatever the version said)."""


def new_token() -> str:
    """An unguessable URL token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(text: str) -> bool:
    """Whether `text` could be a token."""
    return _TOKEN_SHAPE.fullmatch(text) is not None


def find_game(token: str) -> GameRow | None:
    """The game with this scorekeeper token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(select(GameRow).where(GameRow.token == token)).scalar_one_or_none()


def find_game_by_view_token(token: str) -> GameRow | None:
    """The game with this read-only view token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(
        select(GameRow).where(GameRow.view_token == token)
    ).scalar_one_or_none()


def version_by_view_token(token: str) -> int | None:
    """The version of the game behind a view link, or None."""
    if not is_token(token):
        return None
    version = db.session.execute(VERSION_BY_VIEW_TOKEN, {"token": token}).scalar_one_or_none()
    return None if version is None else int(version)


def version_by_token(token: str) -> int | None:
    """The version of the game behind a scorekeeper link, or None (another phone's poll)."""
    if not is_token(token):
        return None
    version = db.session.execute(VERSION_BY_TOKEN, {"token": token}).scalar_one_or_none()
    return None if version is None else int(version)


def games_for_tokens(tokens: list[str]) -> list[GameRow]:
    """The games behind these scorekeeper links, in the links' order."""
    tokens = [token for token in tokens if is_token(token)]
    if not tokens:
        return []
    found = {
        row.token: row
        for row in db.session.execute(select(GameRow).where(GameRow.token.in_(tokens))).scalars()
    }
    return [found[token] for token in tokens if token in found]


def each_game(batch: int) -> Iterator[GameRow]:
    """Every game in the database, oldest first, read `batch` rows at a time (a caller that
    lets each go holds no more than that), when first asked for."""
    yield from db.session.execute(
        select(GameRow).order_by(GameRow.created_at, GameRow.id).execution_options(yield_per=batch)
    ).scalars()


def house_rules_of(row: GameRow) -> HouseRules:
    """The row's house rules as the engine's value."""
    return HouseRules(**row.house_rules)


def game_of(row: GameRow) -> Game:
    """The engine's Game for a row whose first chooser is known."""
    assert row.first_chooser is not None
    definition = GAMES[row.game]
    deals = []
    rules = house_rules_of(row)
    for raw in row.deals:
        deal, problems = parse_deal(definition, raw, rules)
        if deal is None:  # stored deals were checked on save; this is a damaged row
            raise ValueError(f"stored deal is invalid: {problems[0].message}")
        deals.append(deal)
    return Game(row.game, row.mode, tuple(row.players), row.first_chooser, rules, tuple(deals))


def parse_timestamp(value: str | None) -> datetime | None:
    """A checked record's ISO 8601 stamp as an aware datetime in UTC (None when absent)."""
    return None if value is None else record_timestamp(value)


def format_timestamp(value: datetime | None, offset: int | None = None) -> str | None:
    """A stored stamp in the record's form: at the game's UTC offset (minutes east) where it
    is known, else in UTC (SQLite forgets the offset)."""
    if value is None:
        return None
    stamp = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    if offset:
        stamp = stamp.astimezone(timezone(timedelta(minutes=offset)))
    return stamp.isoformat()


def stamp_offset(value: str | None) -> int | None:
    """The UTC offset, in minutes east, a checked record's `created_at` was written at: where
    the game was played. None without an offset, or at +00:00: what this app wrote for every
    game before it knew their zones (UTC, not a place)."""
    if value is None:
        return None
    offset = datetime.fromisoformat(value).utcoffset()
    return None if offset is None or not offset else int(offset.total_seconds()) // 60


def record_of(row: GameRow) -> Record:
    """A stored game (first chooser known) as its record, with name, notes and stamps (at the
    offset where it was played, when known)."""
    return Record(
        game_of(row),
        name=row.name,
        notes=row.notes,
        created_at=format_timestamp(row.created_at, row.utc_offset),
        updated_at=format_timestamp(row.updated_at, row.utc_offset),
    )


def card_values(result: Replay) -> dict[str, Any]:
    """What a game's card shows, as the row keeps it (`GameRow.card`): the engine's totals per
    seat, the teams' totals (a partnership), the winning seats and teams (a finished game)."""
    return {
        "totals": list(result.totals),
        "team_totals": None if result.team_totals is None else list(result.team_totals),
        "winners": None if result.winners is None else list(result.winners),
        "winning_teams": None if result.winning_teams is None else list(result.winning_teams),
    }


def row_of(record: Record) -> GameRow:
    """A new row (fresh links) for a checked record; the caller adds and commits it."""
    game = record.game
    result = replay(game)
    now = utcnow()
    created = parse_timestamp(record.created_at) or now
    return GameRow(
        token=new_token(),
        view_token=new_token(),
        game=game.kind,
        mode=game.mode,
        players=list(game.players),
        first_chooser=game.first,
        house_rules=dump_house_rules(game),
        deals=[dump_deal(deal) for deal in game.deals],
        deal_count=len(game.deals),
        finished=result.finished,
        card=card_values(result),
        name=record.name,
        notes=record.notes,
        version=1,
        created_at=created,
        updated_at=parse_timestamp(record.updated_at) or created,
        utc_offset=stamp_offset(record.created_at),
    )


def new_game_row(
    game: str,
    mode: str,
    players: list[str],
    house_rules: HouseRules,
    name: str | None,
    utc_offset: int | None = None,
) -> GameRow:
    """A new game's row (first chooser not yet known), fresh links, played `utc_offset`
    minutes east of UTC (None: unknown); the caller adds it."""
    probe = Game(game, mode, tuple(players), 0, house_rules)
    return GameRow(
        token=new_token(),
        view_token=new_token(),
        game=game,
        mode=mode,
        players=players,
        first_chooser=None,
        house_rules=dump_house_rules(probe),
        deals=[],
        deal_count=0,
        finished=False,
        name=name or None,
        version=1,
        created_at=utcnow(),
        updated_at=utcnow(),
        utc_offset=utc_offset,
    )


def create_game(
    game: str,
    mode: str,
    players: list[str],
    house_rules: HouseRules,
    name: str | None,
    utc_offset: int | None = None,
) -> GameRow:
    """Store a new game (first chooser not yet known) and return its row."""
    row = new_game_row(game, mode, players, house_rules, name, utc_offset)
    db.session.add(row)
    db.session.commit()
    return row


def write(
    row: GameRow, expected_version: int, *, keyed: Keyed | None = None, **values: Any
) -> None:
    """Update the row only if nobody else has since; StaleStateError otherwise. A `keyed`
    write stores its key in the same transaction, or nothing (KeyTakenError)."""
    values.setdefault("updated_at", utcnow())
    result = db.session.execute(
        _update_statement(tuple(sorted(values))),
        {
            "row_id": row.id,
            "expected": expected_version,
            "new_version": expected_version + 1,
            **values,
        },
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()  # (expires the row: whoever looks again reads what won)
        raise StaleStateError
    if keyed is not None:
        try:
            db.session.execute(
                insert(EntryRow),
                entry_values(row, keyed, expected_version + 1, values["updated_at"]),
            )
        except IntegrityError:  # the key is the game's already: the UPDATE is undone too
            db.session.rollback()
            raise KeyTakenError from None
    db.session.commit()
    changed_here(db.engine, row.token, row.view_token)
    for key, value in {"version": expected_version + 1, **values}.items():
        set_committed_value(row, key, value)  # what the row now holds, without reading it


@lru_cache(maxsize=16)
def _update_statement(columns: tuple[str, ...]) -> Any:
    """The guarded UPDATE of these columns, built once with bound parameters."""
    return (
        update(GameRow)
        .where(GameRow.id == bindparam("row_id"), GameRow.version == bindparam("expected"))
        .values(
            version=bindparam("new_version"), **{column: bindparam(column) for column in columns}
        )
        .execution_options(synchronize_session=False)
    )


def set_first(row: GameRow, seat: int, expected_version: int) -> None:
    """Record who was dealt the 7♥ (or declares first): the game begins, its card with it."""
    game = Game(row.game, row.mode, tuple(row.players), seat, house_rules_of(row))
    write(row, expected_version, first_chooser=seat, card=card_values(replay(game)))


def write_deals(
    row: GameRow, result: Replay, expected_version: int, keyed: Keyed | None = None
) -> None:
    """Store the deals of a game the engine has replayed, and the caches derived from them
    (with the key of the entry that made them, when it has one)."""
    game = result.game
    write(
        row,
        expected_version,
        keyed=keyed,
        deals=[dump_deal(deal) for deal in game.deals],
        deal_count=len(game.deals),
        finished=result.finished,
        card=card_values(result),
    )


def save_text(row: GameRow, name: str | None, notes: str | None, expected_version: int) -> None:
    """Store the game's name and notes."""
    write(row, expected_version, name=name or None, notes=notes or None)


def delete_game(row: GameRow) -> None:
    """Remove a game for good."""
    db.session.delete(row)
    db.session.commit()
    changed_here(db.engine, row.token, row.view_token)
