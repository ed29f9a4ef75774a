"""Renaming and merging a table's players: each decided in one transaction that holds the
table (its version claimed first), so a new game, an import, a rename or a merge of the same
table at the same moment comes wholly before or wholly after it.

The game's record keeps the names (it is the truth the engine replays), so renaming or merging
players rewrites the names in every game of the table they sat in; the games' stored statistics
figures hold no names, so they stay, moved on to the games' new versions.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select, update

from ..rules.text import player_key
from .db import db
from .models import FiguresRow, GameRow, PlayerRow, SeatRow, TableRow, utcnow
from .versions import changed_here


@dataclass(frozen=True)
class Changed:
    """Written: `games` of the table's games now carry the new name."""

    games: int


@dataclass(frozen=True)
class NameTaken:
    """Nothing written: another player of the roster already has this name (merge them)."""

    other: PlayerRow


@dataclass(frozen=True)
class PlayedTogether:
    """Nothing written: the two players sat at the same game, so they are two people."""

    games: int


@dataclass(frozen=True)
class TableStale:
    """Nothing written: the roster changed on another phone since the form was made."""


RosterOutcome = Changed | NameTaken | PlayedTogether | TableStale


def _claim(table: TableRow, expected_version: int) -> bool:
    """Bump the table's version if nobody else has since (the start of a roster change)."""
    result = db.session.execute(
        update(TableRow)
        .where(TableRow.id == table.id, TableRow.version == expected_version)
        .values(version=expected_version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _rename_seats(player: PlayerRow, name: str) -> list[str]:
    """Write `name` into every game's record where `player` sits; bump each game's version
    (caches and the live view key on it). Returns the changed games' tokens (both of each)."""
    seats = db.session.execute(
        select(SeatRow.game_id, SeatRow.seat).where(SeatRow.player_id == player.id)
    ).all()
    by_game: dict[int, list[int]] = {}
    tokens: list[str] = []
    for game_id, seat in seats:
        by_game.setdefault(int(game_id), []).append(int(seat))
    _carry_figures(list(by_game))
    for game in db.session.execute(select(GameRow).where(GameRow.id.in_(by_game))).scalars():
        names = list(game.players)
        for seat in by_game[game.id]:
            names[seat] = name
        tokens += (game.token, game.view_token)
        db.session.execute(
            update(GameRow)
            .where(GameRow.id == game.id)
            .values(players=names, version=GameRow.version + 1)
            .execution_options(synchronize_session=False)
        )
    return tokens


_IDS_AT_ONCE = 500
"""Ids per statement (within every database's limit of bound parameters)."""


def _carry_figures(game_ids: list[int]) -> None:
    """The figures stored of these games at their current version hold no names (they are
    joined when read): still true after the rename, they move on to the version it makes, so
    the next statistics page replays none of the games (before the games' versions move)."""
    current = select(GameRow.version).where(GameRow.id == FiguresRow.game_id).scalar_subquery()
    for start in range(0, len(game_ids), _IDS_AT_ONCE):
        db.session.execute(
            update(FiguresRow)
            .where(
                FiguresRow.game_id.in_(game_ids[start : start + _IDS_AT_ONCE]),
                FiguresRow.version == current,
            )
            .values(version=FiguresRow.version + 1)
            .execution_options(synchronize_session=False)
        )


def _finish(tokens: list[str]) -> None:
    db.session.commit()
    changed_here(db.engine, *tokens)
    db.session.expire_all()  # the games' rows were written behind the session's back


def rename_player(
    table: TableRow, player: PlayerRow, name: str, expected_version: int
) -> RosterOutcome:
    """Rename a player (a checked name) here and in every game of the table they played.
    Whether another player has the name is decided with the table held, so a newcomer seated
    at the same moment either is that other player, or takes the name after the rename."""
    key = player_key(name)
    try:
        if not _claim(table, expected_version):
            db.session.rollback()
            return TableStale()
        other = db.session.execute(
            select(PlayerRow).where(
                PlayerRow.table_id == table.id, PlayerRow.key == key, PlayerRow.id != player.id
            )
        ).scalar_one_or_none()
        if other is not None:
            db.session.rollback()
            return NameTaken(other)
        db.session.execute(
            update(PlayerRow)
            .where(PlayerRow.id == player.id)
            .values(name=name, key=key)
            .execution_options(synchronize_session=False)
        )
        changed = _rename_seats(player, name)
        _finish(changed)
    except BaseException:
        db.session.rollback()
        raise
    return Changed(len(changed) // 2)


def shared_games(first: PlayerRow, second: PlayerRow) -> int:
    """How many games both players sat in."""
    theirs = select(SeatRow.game_id).where(SeatRow.player_id == second.id)
    return int(
        db.session.execute(
            select(func.count())
            .select_from(SeatRow)
            .where(SeatRow.player_id == first.id, SeatRow.game_id.in_(theirs))
        ).scalar_one()
    )


def merge_players(
    table: TableRow, source: PlayerRow, target: PlayerRow, expected_version: int
) -> RosterOutcome:
    """`source` is the same person as `target`: their games take `target`'s name and seat
    links, and `source` leaves the roster. Whether they played together is decided with the
    table held, so a game seating both that starts at the same moment either comes first (and
    the merge is refused) or after (and seats the merged person, or is refused itself)."""
    try:
        if not _claim(table, expected_version):
            db.session.rollback()
            return TableStale()
        together = shared_games(source, target)
        if together:
            db.session.rollback()
            return PlayedTogether(together)
        changed = _rename_seats(source, target.name)
        db.session.execute(
            update(SeatRow)
            .where(SeatRow.player_id == source.id)
            .values(player_id=target.id)
            .execution_options(synchronize_session=False)
        )
        db.session.execute(
            delete(PlayerRow)
            .where(PlayerRow.id == source.id)
            .execution_options(synchronize_session=False)
        )
        _finish(changed)
    except BaseException:
        db.session.rollback()
        raise
    return Changed(len(changed) // 2)
