"""Moving games in and out of the store as game records (import, export, backup).

The import page and the ``scorekeeper import`` command share these functions: every record is
replayed through the rules engine before anything is written, and a file holding several records
is stored in one transaction, so it goes in whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from .extensions import db
from .models import GameRow, utcnow
from .rules import NotARecordError, Problem, Record, RuleError, dump_deal, replay
from .rules.record import dump_house_rules, dump_record, parse_json, record_from_json
from .store import game_of, new_token
from .text import clean_text

MAX_NAME_LENGTH = 80  # the games.name column


class ImportRefused(ValueError):
    """A file the import refuses; nothing of it was stored.

    `record` is the 1-based position of the bad record in an array (None for a lone record),
    `count` how many records the file holds, `error` the engine's reason (a RuleError or a
    NotARecordError) and `players` the bad record's player names when they could be read.
    """

    def __init__(self, error: RuleError | NotARecordError, *, record: int | None = None,
                 count: int = 1, players: Sequence[str] | None = None) -> None:
        self.error = error
        self.record = record
        self.count = count
        self.players = tuple(players) if players else None
        super().__init__(self.headline())

    def headline(self) -> str:
        """One English line, as the command prints it: "record 2: deal 3 (diamonds): ..."."""
        reason = self.error.headline() if isinstance(self.error, RuleError) else str(self.error)
        return reason if self.record is None else f"record {self.record}: {reason}"


def _players_of(data: Any) -> list[str] | None:
    players = data.get("players") if isinstance(data, dict) else None
    if isinstance(players, list) and len(players) == 4 and all(
            isinstance(name, str) for name in players):
        return players
    return None


def _check_text(record: Record) -> None:
    """The store's limits on the table's own text (the engine accepts any string)."""
    if record.name is not None and len(clean_text(record.name) or "") > MAX_NAME_LENGTH:
        raise RuleError([Problem("name", "long_name", {"maximum": MAX_NAME_LENGTH})])


def parse_records(data: str | bytes) -> list[Record]:
    """One record or a JSON array of records, each replayed by the engine; ImportRefused if not."""
    try:
        parsed = parse_json(data)
    except NotARecordError as error:
        raise ImportRefused(error) from None
    several = isinstance(parsed, list)
    items = parsed if several else [parsed]
    if several and not items:
        raise ImportRefused(NotARecordError("not a game record: the array is empty"), count=0)
    records = []
    for position, item in enumerate(items, start=1):
        try:
            record = record_from_json(item)
            _check_text(record)
        except (RuleError, NotARecordError) as error:
            raise ImportRefused(error, record=position if several else None, count=len(items),
                                players=_players_of(item)) from None
        records.append(record)
    return records


def parse_timestamp(value: str | None) -> datetime | None:
    """An ISO 8601 stamp as an aware datetime (a stamp without offset is taken as UTC)."""
    if value is None:
        return None
    stamp = datetime.fromisoformat(value)
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


def format_timestamp(value: datetime | None) -> str | None:
    """A stored stamp in the record's form, always in UTC (SQLite forgets the offset)."""
    if value is None:
        return None
    stamp = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return stamp.isoformat()


def row_from_record(record: Record) -> GameRow:
    """A new row (fresh links) for a checked record; the caller adds and commits it."""
    game = record.game
    result = replay(game)
    now = utcnow()
    created = parse_timestamp(record.created_at) or now
    return GameRow(
        token=new_token(), view_token=new_token(), game=game.game, mode=game.mode,
        players=list(game.players), first=game.first, house_rules=dump_house_rules(game),
        deals=[dump_deal(deal) for deal in game.deals], deal_count=len(game.deals),
        finished=result.finished, name=clean_text(record.name) or None,
        notes=clean_text(record.notes, multiline=True) or None, version=1,
        created_at=created, updated_at=parse_timestamp(record.updated_at) or created,
    )


def store_records(records: Iterable[Record]) -> list[GameRow]:
    """Store checked records as new games in one transaction: all of them or none."""
    rows = [row_from_record(record) for record in records]
    try:
        db.session.add_all(rows)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return rows


def import_records(data: str | bytes) -> list[GameRow]:
    """Check every record of the file, then store them all; ImportRefused (nothing stored)."""
    return store_records(parse_records(data))


def record_of_row(row: GameRow) -> Record:
    """A stored game (first chooser known) as its record, with name, notes and stamps."""
    return Record(game_of(row), name=row.name, notes=row.notes,
                  created_at=format_timestamp(row.created_at),
                  updated_at=format_timestamp(row.updated_at))


def exportable(rows: Iterable[GameRow]) -> list[GameRow]:
    """The rows a record can describe: a game whose first chooser is not known yet has none."""
    return [row for row in rows if row.first is not None]


def records_json(rows: Iterable[GameRow]) -> str:
    """Games as a JSON array of records with the engine's derived values (a backup)."""
    records = [dump_record(record_of_row(row), derived=True) for row in exportable(rows)]
    return json.dumps(records, ensure_ascii=False, separators=(",", ":")) + "\n"


def all_rows() -> list[GameRow]:
    """Every game in the database, oldest first."""
    return list(db.session.execute(
        select(GameRow).order_by(GameRow.created_at, GameRow.id)).scalars())


def rows_for_tokens(tokens: Sequence[str]) -> list[GameRow]:
    """The games behind these scorekeeper links, in the links' order."""
    if not tokens:
        return []
    found = {row.token: row for row in db.session.execute(
        select(GameRow).where(GameRow.token.in_(list(tokens)))).scalars()}
    return [found[token] for token in tokens if token in found]
