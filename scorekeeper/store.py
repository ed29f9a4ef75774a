"""Reading and writing games: rows in, engine records out, saves guarded by a version."""

from __future__ import annotations

import re
import secrets
from dataclasses import replace
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.orm.attributes import set_committed_value

from .extensions import db
from .models import GameRow, utcnow
from .rules import Deal, Game, HouseRules, Record, Replay, dump_deal, replay
from .rules.record import dump_house_rules

TOKEN_BYTES = 16  # 128 bits from secrets: links cannot be guessed
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what token_urlsafe makes


class StaleStateError(Exception):
    """Another phone changed the game since this form was made."""


def new_token() -> str:
    """An unguessable URL token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(text: str) -> bool:
    """Whether `text` could be a token; anything else (a NUL byte, say) is never looked up."""
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
        select(GameRow).where(GameRow.view_token == token)).scalar_one_or_none()


def house_rules_of(row: GameRow) -> HouseRules:
    """The row's house rules as the engine's value."""
    return HouseRules(**row.house_rules)


def game_of(row: GameRow) -> Game:
    """The engine's Game for a row whose first chooser is known."""
    from .rules import GAMES, parse_deal

    assert row.first is not None
    definition = GAMES[row.game]
    deals = []
    for raw in row.deals:
        deal, problems = parse_deal(definition, raw)
        if deal is None:  # stored deals were checked on save; this is a damaged row
            raise ValueError(f"stored deal is invalid: {problems[0].message}")
        deals.append(deal)
    return Game(row.game, row.mode, tuple(row.players), row.first, house_rules_of(row),
                tuple(deals))


def record_of(row: GameRow) -> Record:
    """The row as a game record (for export)."""
    return Record(game_of(row), name=row.name, notes=row.notes,
                  created_at=row.created_at.isoformat() if row.created_at else None,
                  updated_at=row.updated_at.isoformat() if row.updated_at else None)


def create_game(game: str, mode: str, players: list[str], house_rules: HouseRules,
                name: str | None) -> GameRow:
    """Store a new game (first chooser not yet known) and return its row."""
    probe = Game(game, mode, tuple(players), 0, house_rules)
    row = GameRow(
        token=new_token(), view_token=new_token(), game=game, mode=mode, players=players,
        first=None, house_rules=dump_house_rules(probe), deals=[], deal_count=0, finished=False,
        name=name or None, version=1, created_at=utcnow(), updated_at=utcnow(),
    )
    db.session.add(row)
    db.session.commit()
    return row


def _write(row: GameRow, expected_version: int, **values: Any) -> None:
    """Update the row only if nobody else has since; StaleStateError otherwise."""
    values.setdefault("updated_at", utcnow())
    result = db.session.execute(_update_statement(tuple(sorted(values))),
                                {"row_id": row.id, "expected": expected_version,
                                 "new_version": expected_version + 1, **values})
    if result.rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()  # (expires the row: whoever looks again reads what won)
        raise StaleStateError
    db.session.commit()
    for key, value in {"version": expected_version + 1, **values}.items():
        set_committed_value(row, key, value)  # what the row now holds, without reading it


@lru_cache(maxsize=16)
def _update_statement(columns: tuple[str, ...]) -> Any:
    """The guarded UPDATE of these columns, built once with bound parameters (building it with
    the values each time cost a tenth of a save, mostly coercing the deals' JSON)."""
    return (update(GameRow)
            .where(GameRow.id == bindparam("row_id"), GameRow.version == bindparam("expected"))
            .values(version=bindparam("new_version"),
                    **{column: bindparam(column) for column in columns})
            .execution_options(synchronize_session=False))


def set_first(row: GameRow, seat: int, expected_version: int) -> None:
    """Record who was dealt the 7♥ (or declares first)."""
    _write(row, expected_version, first=seat)


def save_deals(row: GameRow, game: Game, expected_version: int) -> Replay:
    """Store the game's deals (already judged by the engine) and the caches derived from them."""
    result = replay(game)
    _write(row, expected_version, deals=[dump_deal(deal) for deal in game.deals],
           deal_count=len(game.deals), finished=result.finished)
    return result


def save_text(row: GameRow, name: str | None, notes: str | None, expected_version: int) -> None:
    """Store the game's name and notes."""
    _write(row, expected_version, name=name or None, notes=notes or None)


def delete_game(row: GameRow) -> None:
    """Remove a game for good."""
    db.session.delete(row)
    db.session.commit()


def with_deals(game: Game, deals: tuple[Deal, ...]) -> Game:
    """The game with another list of deals."""
    return replace(game, deals=deals)
