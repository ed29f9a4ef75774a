"""Tables: groups that play together, their rosters, their games, and their players as people.

A table has links like a game's (a scorekeeper token and a read-only view token). Its roster
holds one row per person, matched by :func:`scorekeeper.rules.text.player_key`; each game of the
table links its four seats to roster players. The game's record keeps the names (it is the
truth the engine replays), so renaming or merging players rewrites the names in every game of
the table, in one transaction guarded by the table's version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..rules import HouseRules, Record
from ..rules.text import clean_text, player_key
from .db import db
from .games import house_rules_of, is_token, new_game_row, new_token, row_of
from .models import GameRow, PlayerRow, SeatRow, TableRow, utcnow
from .records import parse_records

T = TypeVar("T")


def find_table(token: str) -> TableRow | None:
    """The table with this scorekeeper token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(
        select(TableRow).where(TableRow.token == token)).scalar_one_or_none()


def find_table_by_view_token(token: str) -> TableRow | None:
    """The table with this read-only view token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(
        select(TableRow).where(TableRow.view_token == token)).scalar_one_or_none()


def tables_for_tokens(tokens: Sequence[str]) -> list[TableRow]:
    """The tables behind these scorekeeper links, in the links' order."""
    tokens = [token for token in tokens if is_token(token)]
    if not tokens:
        return []
    found = {row.token: row for row in db.session.execute(
        select(TableRow).where(TableRow.token.in_(tokens))).scalars()}
    return [found[token] for token in tokens if token in found]


def create_table(name: str) -> TableRow:
    """Store a new table with an empty roster."""
    now = utcnow()
    table = TableRow(token=new_token(), view_token=new_token(), name=name, version=1,
                     created_at=now, updated_at=now)
    db.session.add(table)
    db.session.commit()
    return table


def table_of(game: GameRow) -> TableRow | None:
    """The table a game belongs to, if any."""
    if game.table_id is None:
        return None
    return db.session.get(TableRow, game.table_id)


def roster(table: TableRow) -> list[PlayerRow]:
    """The table's players: who played most first, then by name."""
    played = (select(SeatRow.player_id, func.count().label("games"))
              .group_by(SeatRow.player_id).subquery())
    rows = db.session.execute(
        select(PlayerRow, func.coalesce(played.c.games, 0))
        .outerjoin(played, played.c.player_id == PlayerRow.id)
        .where(PlayerRow.table_id == table.id)).all()
    ordered = sorted(rows, key=lambda pair: (-int(pair[1]), pair[0].key, pair[0].id))
    return [player for player, _ in ordered]


def games_played(table: TableRow) -> dict[int, int]:
    """How many of the table's games each player (by id) sat in."""
    rows = db.session.execute(
        select(SeatRow.player_id, func.count()).join(PlayerRow, PlayerRow.id == SeatRow.player_id)
        .where(PlayerRow.table_id == table.id).group_by(SeatRow.player_id)).all()
    return {int(player_id): int(count) for player_id, count in rows}


def table_games(table: TableRow) -> list[GameRow]:
    """The table's games, oldest first."""
    return list(db.session.execute(
        select(GameRow).where(GameRow.table_id == table.id)
        .order_by(GameRow.created_at, GameRow.id)).scalars())


@dataclass(frozen=True)
class GameStamp:
    """Which version of a game is stored: what anything derived from its record depends on."""

    id: int
    token: str
    version: int


def game_stamps(table: TableRow) -> list[GameStamp]:
    """Each of the table's games that has a record (its first chooser known), oldest first as
    :func:`table_games` lists them, by id, token and version only: one read of the games' index
    by table, none of their deals."""
    return [GameStamp(int(game_id), token, int(version))
            for game_id, token, version in db.session.execute(
                select(GameRow.id, GameRow.token, GameRow.version)
                .where(GameRow.table_id == table.id, GameRow.first.is_not(None))
                .order_by(GameRow.created_at, GameRow.id)).all()]


_IDS_AT_ONCE = 500
"""Ids per query (within every database's limit of bound parameters)."""


def games_by_id(table: TableRow, ids: Sequence[int]) -> list[GameRow]:
    """Those of the table's games with these ids (another table's are left out), any order."""
    rows: list[GameRow] = []
    for start in range(0, len(ids), _IDS_AT_ONCE):
        rows.extend(db.session.execute(
            select(GameRow).where(GameRow.table_id == table.id,
                                  GameRow.id.in_(ids[start:start + _IDS_AT_ONCE]))).scalars())
    return rows


def last_game(table: TableRow) -> GameRow | None:
    """The table's newest game, or None."""
    return db.session.execute(
        select(GameRow).where(GameRow.table_id == table.id)
        .order_by(GameRow.created_at.desc(), GameRow.id.desc()).limit(1)).scalar_one_or_none()


def player_of(table: TableRow, player_id: int) -> PlayerRow | None:
    """A player of this table's roster by id (None if the id is another table's)."""
    player = db.session.get(PlayerRow, player_id)
    return player if player is not None and player.table_id == table.id else None


def player_gone(player_id: int) -> bool:
    """Whether no roster has this player any more (a merge is the only way one leaves)."""
    return db.session.get(PlayerRow, player_id) is None


def _players_for(table: TableRow, names: Iterable[str]) -> list[PlayerRow]:
    """The roster entries for these names, added (not committed) for names new to the table."""
    cleaned = [clean_text(name) or "" for name in names]
    keys = [player_key(name) for name in cleaned]
    known = {player.key: player for player in db.session.execute(
        select(PlayerRow).where(PlayerRow.table_id == table.id,
                                PlayerRow.key.in_(set(keys)))).scalars()}
    players = []
    for name, key in zip(cleaned, keys, strict=True):
        if key not in known:
            known[key] = PlayerRow(table_id=table.id, name=name, key=key, created_at=utcnow())
            db.session.add(known[key])
        players.append(known[key])
    db.session.flush()
    return players


def _seat(game: GameRow, players: Sequence[PlayerRow]) -> None:
    """Link the game's seats to roster players (the game is flushed, not committed)."""
    db.session.flush()
    for seat, player in enumerate(players):
        db.session.add(SeatRow(game_id=game.id, seat=seat, player_id=player.id))


def _in_one_transaction(work: Callable[[], T]) -> T:
    """Run `work` and commit, all or nothing. A newcomer another phone added to the roster at
    the same moment breaks the roster's unique key: then once more, finding them there."""
    for attempt in (1, 2):
        try:
            done = work()
            db.session.commit()
            return done
        except IntegrityError:
            db.session.rollback()
            if attempt == 2:
                raise
        except Exception:
            db.session.rollback()
            raise
    raise AssertionError("unreachable")


def start_game(table: TableRow, game: str, mode: str, names: list[str],
               house_rules: HouseRules, name: str | None) -> GameRow:
    """A new game of the table (names checked by the engine: one person sits once); newcomers
    join the roster. One transaction."""
    def work() -> GameRow:
        players = _players_for(table, names)
        # the roster's spelling: "rami " typed again is Rami, as everywhere else at the table
        row = new_game_row(game, mode, [player.name for player in players], house_rules, name)
        row.table_id = table.id
        db.session.add(row)
        _seat(row, players)
        return row

    return _in_one_transaction(work)


def rematch(game: GameRow) -> GameRow | None:
    """The next game of the same table: same players, seats, game, mode and house rules."""
    table = table_of(game)
    if table is None:
        return None
    return start_game(table, game.game, game.mode, list(game.players), house_rules_of(game),
                      None)


def seat_players(game: GameRow) -> list[int]:
    """The roster ids of a table game's four seats, in seat order."""
    return list(db.session.execute(
        select(SeatRow.player_id).where(SeatRow.game_id == game.id)
        .order_by(SeatRow.seat)).scalars())


# --- renaming and merging --------------------------------------------------------------------


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
        update(TableRow).where(TableRow.id == table.id, TableRow.version == expected_version)
        .values(version=expected_version + 1, updated_at=utcnow())
        .execution_options(synchronize_session=False))
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _rename_seats(player: PlayerRow, name: str) -> int:
    """Write `name` into every game's record where `player` sits; bump each game's version
    (caches and the live view key on it). Returns how many games changed."""
    seats = db.session.execute(
        select(SeatRow.game_id, SeatRow.seat).where(SeatRow.player_id == player.id)).all()
    by_game: dict[int, list[int]] = {}
    for game_id, seat in seats:
        by_game.setdefault(int(game_id), []).append(int(seat))
    for game in db.session.execute(
            select(GameRow).where(GameRow.id.in_(by_game))).scalars():
        names = list(game.players)
        for seat in by_game[game.id]:
            names[seat] = name
        db.session.execute(
            update(GameRow).where(GameRow.id == game.id)
            .values(players=names, version=GameRow.version + 1)
            .execution_options(synchronize_session=False))
    return len(by_game)


def _finish() -> None:
    db.session.commit()
    db.session.expire_all()  # the games' rows were written behind the session's back


def rename_player(table: TableRow, player: PlayerRow, name: str,
                  expected_version: int) -> RosterOutcome:
    """Rename a player (a checked name) here and in every game of the table they played."""
    key = player_key(name)
    other = db.session.execute(
        select(PlayerRow).where(PlayerRow.table_id == table.id, PlayerRow.key == key,
                                PlayerRow.id != player.id)).scalar_one_or_none()
    if other is not None:
        return NameTaken(other)
    try:
        if not _claim(table, expected_version):
            db.session.rollback()
            return TableStale()
        db.session.execute(update(PlayerRow).where(PlayerRow.id == player.id)
                           .values(name=name, key=key)
                           .execution_options(synchronize_session=False))
        changed = _rename_seats(player, name)
        _finish()
    except Exception:
        db.session.rollback()
        raise
    return Changed(changed)


def shared_games(first: PlayerRow, second: PlayerRow) -> int:
    """How many games both players sat in."""
    theirs = select(SeatRow.game_id).where(SeatRow.player_id == second.id)
    return int(db.session.execute(
        select(func.count()).select_from(SeatRow)
        .where(SeatRow.player_id == first.id, SeatRow.game_id.in_(theirs))).scalar_one())


def merge_players(table: TableRow, source: PlayerRow, target: PlayerRow,
                  expected_version: int) -> RosterOutcome:
    """`source` is the same person as `target`: their games take `target`'s name and seat
    links, and `source` leaves the roster."""
    together = shared_games(source, target)
    if together:
        return PlayedTogether(together)
    try:
        if not _claim(table, expected_version):
            db.session.rollback()
            return TableStale()
        changed = _rename_seats(source, target.name)
        db.session.execute(update(SeatRow).where(SeatRow.player_id == source.id)
                           .values(player_id=target.id)
                           .execution_options(synchronize_session=False))
        db.session.execute(delete(PlayerRow).where(PlayerRow.id == source.id)
                           .execution_options(synchronize_session=False))
        _finish()
    except Exception:
        db.session.rollback()
        raise
    return Changed(changed)


# --- records in and out ----------------------------------------------------------------------


def store_table_records(table: TableRow, records: Iterable[Record]) -> list[GameRow]:
    """Checked records (each seats one person once: the engine's check) as new games of the
    table, their players on its roster; all or none."""
    records = list(records)

    def work() -> list[GameRow]:
        rows = []
        for record in records:
            players = _players_for(table, record.game.players)
            row = row_of(record)
            row.players = [player.name for player in players]
            row.table_id = table.id
            db.session.add(row)
            _seat(row, players)
            rows.append(row)
        return rows

    return _in_one_transaction(work)


def import_into_table(table: TableRow, data: str | bytes) -> list[GameRow]:
    """Check every record of the file, then store them as the table's games; RecordsRefused."""
    return store_table_records(table, parse_records(data))
