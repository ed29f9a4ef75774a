"""Tables: groups that play together, their rosters, their games, and their players as people.

A table has links like a game's (a scorekeeper token and a read-only view token). Its roster
holds one row per person, matched by :func:`scorekeeper.rules.text.player_key`; each game of the
table links its four seats to roster players. The game's record keeps the names (it is the
truth the engine replays), so renaming or merging players rewrites the names in every game of
the table, in one transaction guarded by the table's version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer

from ..rules import HouseRules, Record
from ..rules.text import clean_text, player_key
from .db import db
from .figures import MakeFigures, store_figures_of
from .games import house_rules_of, is_token, new_game_row, new_token, parse_timestamp, row_of
from .models import GameRow, NightStartRow, PlayerRow, SeatRow, TableRow, utcnow
from .records import parse_records
from .roster import Changed as Changed  # the roster's changes, where views look for them
from .roster import NameTaken as NameTaken
from .roster import PlayedTogether as PlayedTogether
from .roster import RosterOutcome as RosterOutcome
from .roster import TableStale as TableStale
from .roster import merge_players as merge_players
from .roster import rename_player as rename_player
from .roster import shared_games as shared_games

T = TypeVar("T")

BEGUN = GameRow.first_chooser.is_not(None)
"""Which of a table's games count, for its roster ("3 games") as for its statistics: those
begun, their first king or declarer chosen (a game only seated has no record yet)."""


def find_table(token: str) -> TableRow | None:
    """The table with this scorekeeper token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(select(TableRow).where(TableRow.token == token)).scalar_one_or_none()


def find_table_by_view_token(token: str) -> TableRow | None:
    """The table with this read-only view token, or None."""
    if not is_token(token):
        return None
    return db.session.execute(
        select(TableRow).where(TableRow.view_token == token)
    ).scalar_one_or_none()


def tables_for_tokens(tokens: Sequence[str]) -> list[TableRow]:
    """The tables behind these scorekeeper links, in the links' order."""
    tokens = [token for token in tokens if is_token(token)]
    if not tokens:
        return []
    found = {
        row.token: row
        for row in db.session.execute(select(TableRow).where(TableRow.token.in_(tokens))).scalars()
    }
    return [found[token] for token in tokens if token in found]


def create_table(name: str) -> TableRow:
    """Store a new table with an empty roster."""
    now = utcnow()
    table = TableRow(
        token=new_token(),
        view_token=new_token(),
        name=name,
        version=1,
        created_at=now,
        updated_at=now,
    )
    db.session.add(table)
    db.session.commit()
    return table


def table_of(game: GameRow) -> TableRow | None:
    """The table a game belongs to, if any."""
    if game.table_id is None:
        return None
    return db.session.get(TableRow, game.table_id)


def roster(table: TableRow, played: dict[int, int] | None = None) -> list[PlayerRow]:
    """The table's players: who played most first (`played`: :func:`games_played`, read
    here if not given), then by name."""
    played = games_played(table) if played is None else played
    players = db.session.execute(select(PlayerRow).where(PlayerRow.table_id == table.id)).scalars()
    return sorted(players, key=lambda player: (-played.get(player.id, 0), player.key, player.id))


def games_played(table: TableRow) -> dict[int, int]:
    """How many of the table's games each player (by id) sat in (those :data:`BEGUN`, as the
    statistics count them): every seat of the table's players (counted in the seats' index by
    player, no game read), less those of the games not begun (few: read by the games' index
    by table and first chooser), so a table of thousands of games costs little more."""
    seated = (
        select(func.count())
        .where(SeatRow.player_id == PlayerRow.id)
        .correlate(PlayerRow)
        .scalar_subquery()
    )
    counts = {
        int(player_id): int(count)
        for player_id, count in db.session.execute(
            select(PlayerRow.id, seated).where(PlayerRow.table_id == table.id)
        ).all()
    }
    for player_id, count in db.session.execute(
        select(SeatRow.player_id, func.count())
        .join(GameRow, GameRow.id == SeatRow.game_id)
        .where(GameRow.table_id == table.id, GameRow.first_chooser.is_(None))
        .group_by(SeatRow.player_id)
    ).all():
        counts[int(player_id)] = counts.get(int(player_id), 0) - int(count)
    return {player_id: count for player_id, count in counts.items() if count > 0}


LISTED = (defer(GameRow.deals), defer(GameRow.house_rules), defer(GameRow.notes))
"""What a list of games leaves unread (read only if asked for): each card is its row's."""


def latest_games(table: TableRow, skip: int, count: int) -> list[GameRow]:
    """`count` of the table's games, newest first, after the `skip` newest (a page of them),
    their deals unread."""
    return list(
        db.session.execute(
            select(GameRow)
            .options(*LISTED)
            .where(GameRow.table_id == table.id)
            .order_by(GameRow.created_at.desc(), GameRow.id.desc())
            .offset(skip)
            .limit(count)
        ).scalars()
    )


def table_games(table: TableRow) -> list[GameRow]:
    """The table's games, oldest first."""
    return list(each_table_game(table))


def each_table_game(table: TableRow, batch: int = 200) -> Iterator[GameRow]:
    """The table's games, oldest first, read `batch` rows at a time (an export of a table of
    thousands holds no more than that); read when first asked for (a streamed answer asks
    after its view has returned)."""
    table_id = table.id
    yield from db.session.execute(
        select(GameRow)
        .where(GameRow.table_id == table_id)
        .order_by(GameRow.created_at, GameRow.id)
        .execution_options(yield_per=batch)
    ).scalars()


@dataclass(frozen=True)
class GameStamp:
    """Which version of a game is stored: what anything derived from its record depends on."""

    id: int
    token: str
    version: int
    players: list[str]
    """The names in its seats now (what its stored figures are read with)."""


def game_stamps(table: TableRow) -> list[GameStamp]:
    """Each of the table's games that has a record (its first chooser known), oldest first as
    :func:`table_games` lists them, by id, token, version and names only: one read of the
    games' index by table, none of their deals."""
    return [
        GameStamp(int(game_id), token, int(version), list(players))
        for game_id, token, version, players in db.session.execute(
            select(GameRow.id, GameRow.token, GameRow.version, GameRow.players)
            .where(GameRow.table_id == table.id, BEGUN)
            .order_by(GameRow.created_at, GameRow.id)
        ).all()
    ]


_IDS_AT_ONCE = 500
"""Ids per query (within every database's limit of bound parameters)."""


def games_by_id(table: TableRow, ids: Sequence[int], *, listed: bool = False) -> list[GameRow]:
    """Those of the table's games with these ids (another table's are left out), any order
    (`listed`: their deals unread, as :data:`LISTED`)."""
    rows: list[GameRow] = []
    for start in range(0, len(ids), _IDS_AT_ONCE):
        rows.extend(
            db.session.execute(
                select(GameRow)
                .options(*(LISTED if listed else ()))
                .where(
                    GameRow.table_id == table.id, GameRow.id.in_(ids[start : start + _IDS_AT_ONCE])
                )
            ).scalars()
        )
    return rows


def last_game(table: TableRow) -> GameRow | None:
    """The table's newest game, or None."""
    return db.session.execute(
        select(GameRow)
        .where(GameRow.table_id == table.id)
        .order_by(GameRow.created_at.desc(), GameRow.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def player_of(table: TableRow, player_id: int) -> PlayerRow | None:
    """A player of this table's roster by id (None if the id is another table's)."""
    player = db.session.get(PlayerRow, player_id)
    return player if player is not None and player.table_id == table.id else None


def player_gone(player_id: int) -> bool:
    """Whether no roster has this player any more (a merge is the only way one leaves)."""
    return db.session.get(PlayerRow, player_id) is None


class RosterMoved(Exception):
    """Nothing written: the roster changed on another phone while the seats were picked.

    `joined`: a newcomer's name that a roster player has now (someone else added or renamed
    them a moment ago: pick them from the roster); else a picked player left the roster
    (merged into another)."""

    def __init__(self, joined: str | None = None) -> None:
        self.joined = joined
        super().__init__(f"{joined} joined the table" if joined else "a player left the table")


Seat = int | str
"""A seat as asked for: a roster player's id, or a name (a roster player's by the roster's
rule, or someone new to the table)."""


def _lock(table: TableRow) -> None:
    """Hold the table until the transaction ends: every change to its roster or seats (a new
    game, an import, a rename, a merge) starts here, so they happen one after the other and
    each reads what the one before wrote (a row lock on PostgreSQL; SQLite's write lock)."""
    db.session.execute(
        update(TableRow)
        .where(TableRow.id == table.id)
        .values(version=TableRow.version)
        .execution_options(synchronize_session=False)
    )


def _players_for(
    table: TableRow, seats: Iterable[Seat], newcomers: bool = False
) -> list[PlayerRow]:
    """The roster entries for these seats, added (not committed) for names new to the table;
    the table is locked first. RosterMoved: a picked id is no longer on the roster, or (with
    `newcomers`) a name is on it already, or two seats are one person."""
    _lock(table)
    seats = list(seats)
    ids = {seat for seat in seats if isinstance(seat, int)}
    by_id = (
        {
            player.id: player
            for player in db.session.execute(
                select(PlayerRow).where(PlayerRow.table_id == table.id, PlayerRow.id.in_(ids))
            ).scalars()
        }
        if ids
        else {}
    )
    if len(by_id) < len(ids):
        raise RosterMoved()
    cleaned = {
        index: clean_text(seat) or "" for index, seat in enumerate(seats) if isinstance(seat, str)
    }
    keys = {index: player_key(name) for index, name in cleaned.items()}
    known = {
        player.key: player
        for player in db.session.execute(
            select(PlayerRow).where(
                PlayerRow.table_id == table.id, PlayerRow.key.in_(set(keys.values()))
            )
        ).scalars()
    }
    players = []
    for index, seat in enumerate(seats):
        if isinstance(seat, int):
            players.append(by_id[seat])
            continue
        key = keys[index]
        if key not in known:
            known[key] = PlayerRow(
                table_id=table.id, name=cleaned[index], key=key, created_at=utcnow()
            )
            db.session.add(known[key])
        elif newcomers:
            raise RosterMoved(joined=known[key].name)
        players.append(known[key])
    if len({id(player) for player in players}) < len(players):
        # a picked player renamed to a newcomer's name, say
        raise RosterMoved(
            joined=next(
                player.name for index, player in enumerate(players) if player in players[:index]
            )
        )
    db.session.flush()
    return players


def player_by_name(table: TableRow, name: str) -> PlayerRow | None:
    """The roster player this name is (by the roster's rule), if any."""
    return db.session.execute(
        select(PlayerRow).where(
            PlayerRow.table_id == table.id, PlayerRow.key == player_key(clean_text(name) or "")
        )
    ).scalar_one_or_none()


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
        except BaseException:
            db.session.rollback()
            raise
    raise AssertionError("unreachable")


def start_game(
    table: TableRow,
    game: str,
    mode: str,
    seats: Sequence[Seat],
    house_rules: HouseRules,
    name: str | None,
    *,
    newcomers: bool = False,
    utc_offset: int | None = None,
) -> GameRow:
    """A new game of the table, its seats in order of play: roster players by id, or names
    (checked by the engine: one person sits once), which join the roster unless it has them
    already. One
    transaction, with the table held (RosterMoved: nothing written, see `_players_for`;
    `newcomers`: the names were typed as people new to the table; `utc_offset`: where it is
    played, minutes east of UTC)."""
    return _in_one_transaction(
        lambda: _new_table_game(
            table, game, mode, seats, house_rules, name, newcomers, utc_offset=utc_offset
        )
    )


def _new_table_game(
    table: TableRow,
    game: str,
    mode: str,
    seats: Sequence[Seat],
    house_rules: HouseRules,
    name: str | None,
    newcomers: bool,
    continues: int | None = None,
    utc_offset: int | None = None,
) -> GameRow:
    players = _players_for(table, seats, newcomers)
    # the roster's spelling: "rami " typed again is Rami, as everywhere else at the table
    names = [player.name for player in players]
    row = new_game_row(game, mode, names, house_rules, name, utc_offset)
    row.table_id = table.id
    row.continues_id = continues
    db.session.add(row)
    _seat(row, players)
    return row


@dataclass(frozen=True)
class Rematch:
    """The game that continues a game: `started` by this call, or already there (a double tap,
    another phone)."""

    row: GameRow
    started: bool


def continuation(game: GameRow) -> GameRow | None:
    """The game that continues this one (its rematch), if any."""
    return db.session.execute(
        select(GameRow).where(GameRow.continues_id == game.id)
    ).scalar_one_or_none()


def rematch(game: GameRow, utc_offset: int | None = None) -> Rematch:
    """The next game after `game`: same players (people, at a table), seats, game, mode and
    house rules; a table's game stays at its table; played `utc_offset` minutes east of UTC
    (None: where `game` was). Each game is continued once, however many taps ask at once (the
    unique key on what a game continues): a repeat gets the game the first one started."""
    offset = game.utc_offset if utc_offset is None else utc_offset

    def work() -> Rematch:
        table = table_of(game)
        if table is not None:
            _lock(table)
        existing = continuation(game)
        if existing is not None:
            return Rematch(existing, started=False)
        rules = house_rules_of(game)
        if table is not None:
            row = _new_table_game(
                table,
                game.game,
                game.mode,
                seat_players(game),
                rules,
                None,
                False,
                continues=game.id,
                utc_offset=offset,
            )
        else:
            row = new_game_row(game.game, game.mode, list(game.players), rules, None, offset)
            row.continues_id = game.id
            db.session.add(row)
        return Rematch(row, started=True)

    return _in_one_transaction(work)


def seat_players(game: GameRow) -> list[int]:
    """The roster ids of a table game's four seats, in seat order."""
    return list(
        db.session.execute(
            select(SeatRow.player_id).where(SeatRow.game_id == game.id).order_by(SeatRow.seat)
        ).scalars()
    )


# --- records in and out ----------------------------------------------------------------------


def store_table_records(
    table: TableRow, records: Iterable[Record], figures: MakeFigures | None = None
) -> list[GameRow]:
    """Checked records (each seats one person once: the engine's check) as new games of the
    table, their players on its roster, and the nights their records say the table started
    after them (`night_started_at`); all or none; then, with `figures`, each game's
    statistics figures (the table's first reader replays none)."""
    records = list(records)

    def work() -> list[GameRow]:
        rows = []
        for record in records:
            players = _players_for(table, record.game.players)  # (holds the table)
            row = row_of(record)
            row.players = [player.name for player in players]
            row.table_id = table.id
            db.session.add(row)
            _seat(row, players)
            started = parse_timestamp(record.night_started_at)
            if started is not None:  # (the game is flushed: its id is known)
                db.session.add(
                    NightStartRow(table_id=table.id, after_game_id=row.id, started_at=started)
                )
            rows.append(row)
        return rows

    rows = _in_one_transaction(work)
    store_figures_of(rows, figures)
    return rows


def import_into_table(
    table: TableRow, data: str | bytes, figures: MakeFigures | None = None
) -> list[GameRow]:
    """Check every record of the file, then store them as the table's games (with their
    figures, made by `figures`); RecordsRefused."""
    return store_table_records(table, parse_records(data), figures)
