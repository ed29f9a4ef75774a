"""Moving games in and out of the store as game records (import, export, backup).

The import page and the ``scorekeeper import`` command share these functions: every record is
replayed through the rules engine before anything is written, and a file holding several records
is stored in one transaction, so it goes in whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..rules import Record
from ..rules.record import dump_record, load_records
from ..rules.text import repaired
from . import limits
from .db import db
from .figures import MakeFigures, store_figures_of
from .games import format_timestamp, record_of, row_of
from .models import GameRow


@dataclass(frozen=True)
class ImportCaps:
    """The most one import may hold: records, and deals in all of them (the web's; the
    operator's command has none)."""

    records: int
    deals: int


class ImportLimited(ValueError):
    """An import refused whole for its size or for how much its address imported lately.

    `what` is "records" or "deals" (the file holds `count`, more than `maximum`), "requests"
    (the address made `maximum` imports this hour) or "games" (the file's `count` games would
    take the address past `maximum` games this hour).
    """

    def __init__(self, what: str, count: int, maximum: int) -> None:
        self.what, self.count, self.maximum = what, count, maximum
        super().__init__(f"{what}: {count} (at most {maximum})")


def _deal_count(item: Any) -> int:
    deals = item.get("deals") if isinstance(item, dict) else None
    return len(deals) if isinstance(deals, list) else 0


def parse_records(data: str | bytes, caps: ImportCaps | None = None) -> list[Record]:
    """One record or a JSON array of records (not an empty one), each replayed by the engine's
    one loader; RecordsRefused if not, ImportLimited (before any replay) if the file holds more
    than `caps` allow."""

    def within_caps(items: list[Any]) -> None:
        if caps is None:
            return
        if len(items) > caps.records:
            raise ImportLimited("records", len(items), caps.records)
        deals = sum(_deal_count(item) for item in items)
        if deals > caps.deals:
            raise ImportLimited("deals", deals, caps.deals)

    return load_records(data, empty=False, before_replay=within_caps)


def store_records(records: Iterable[Record], figures: MakeFigures | None = None) -> list[GameRow]:
    """Store checked records as new games in one transaction: all of them or none; then, with
    `figures`, each game's statistics figures (its table's first reader replays none)."""
    rows = [row_of(record) for record in records]
    try:
        db.session.add_all(rows)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    store_figures_of(rows, figures)
    return rows


def import_records(data: str | bytes, figures: MakeFigures | None = None) -> list[GameRow]:
    """Check every record of the file, then store them all (with their figures, made by
    `figures`); RecordsRefused (nothing stored)."""
    return store_records(parse_records(data), figures)


def import_from(
    address: str,
    data: str | bytes,
    caps: ImportCaps,
    store: Callable[[list[Record]], list[GameRow]] = store_records,
) -> list[GameRow]:
    """An import page's import: at most `caps` at once, and at most a few imports and
    :data:`~.limits.IMPORTED_GAMES_PER_HOUR` games an hour from one address (counted for
    every worker and host), each reserved before the work it allows (so imports sent at once
    cannot slip past the allowance together); ImportLimited or RecordsRefused, nothing stored.
    `store` keeps the checked records (as a table's games, say)."""
    ticket = limits.reserve_import(address)
    if ticket is None:
        raise ImportLimited(
            "requests", limits.IMPORT_REQUESTS.per_address, limits.IMPORT_REQUESTS.per_address
        )
    records = parse_records(data, caps)  # (the request counts, refused or not)
    if not limits.reserve_games(ticket, address, len(records)):
        raise ImportLimited("games", len(records), limits.IMPORTED_GAMES_PER_HOUR)
    try:
        return store(records)
    except BaseException:
        limits.release_games(ticket)
        raise


EXPORT_BATCH = 200
"""Games an export reads from the database at once: it holds no more rows than this, however
many games it writes."""


@dataclass
class Exported:
    """What an export has written so far: records, and games left out (not started yet: no
    record describes them; damaged: their stored deals no longer replay)."""

    games: int = 0
    not_started: int = 0
    damaged: int = 0


def records_text(
    rows: Iterable[GameRow],
    exported: Exported | None = None,
    night_starts: Mapping[int, datetime] | None = None,
) -> Iterator[str]:
    """Games as a JSON array of records with the engine's derived values (a backup), a record at
    a time: "[", each record, "]" and a newline; with `night_starts` (game id → moment), each
    game's `night_started_at`. Always encodable (a lone surrogate stored before text was
    checked reads U+FFFD); a game that cannot be replayed is left out and counted in
    `exported`, never the end of the export. Lazy: each row is read, turned into its record
    and let go before the next."""
    exported = exported if exported is not None else Exported()
    night_starts = night_starts or {}
    yield "["
    for row in rows:
        if row.first_chooser is None:
            exported.not_started += 1
            continue
        try:
            kept = record_of(row)
            if row.id in night_starts:
                kept = replace(kept, night_started_at=format_timestamp(night_starts[row.id]))
            record = dump_record(kept, derived=True)
        except (ValueError, KeyError, TypeError, IndexError):
            exported.damaged += 1
            continue
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        yield ("," if exported.games else "") + repaired(text)
        exported.games += 1
    yield "]\n"


def records_json(rows: Iterable[GameRow]) -> str:
    """Games as a JSON array of records with the engine's derived values (a backup)."""
    return "".join(records_text(rows))
