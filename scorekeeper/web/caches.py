"""What a process keeps between requests: each value a pure function of its key, so a process
may keep it as long as it likes and never serves another's stale state.

- a game's replay, by (token, version): every write bumps the version;
- a game's history table, by (game, version, language, link kind): the same for every phone;
- a game's share of its table's statistics, by (token, version), and a table's statistics by
  the (token, version) of each of its games: a saved deal makes only that game's figures
  afresh; the statistics page's content by those and the reader's language. The figures are
  also kept in the database by (game, version) (:mod:`scorekeeper.store.figures`), so a
  process that has none of them reads them there, and only the games nobody has stored at
  their version are replayed, once for every worker.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock
from typing import Any, Generic, TypeVar

from cachetools import LRUCache
from flask import get_template_attribute, request
from markupsafe import Markup

from ..rules import Replay, replay
from ..stats import (
    GameFigures,
    TableStats,
    combine,
    figures_head,
    game_figures,
    stored_figures,
)
from ..store.figures import Stored, store_figures
from ..store.figures import stored_figures as figures_in_database
from ..store.games import game_of, record_of
from ..store.models import GameRow, TableRow
from ..store.nights import night_starts
from ..store.tables import GameStamp, game_stamps, games_by_id
from .languages import current_language

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded map, least recently used first out (cachetools' LRU), safe across threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: LRUCache[K, V] = LRUCache(maxsize=limit)
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._entries.get(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


_replays: Kept[tuple[str, int], Replay] = Kept(512)
_histories: Kept[tuple[Any, ...], Markup] = Kept(1024)


def replay_of(row: GameRow) -> Replay:
    """The engine's replay of a stored game (whose first chooser is known)."""
    key = (row.token, row.version)
    found = _replays.get(key)
    if found is None:
        found = replay(game_of(row))
        _replays.put(key, found)
    return found


def keep_replay(row: GameRow, result: Replay) -> None:
    """Keep a replay made elsewhere (a save's) for the row's current version."""
    _replays.put((row.token, row.version), result)


def history_rows(
    row: GameRow, result: Replay, partnership: bool, editable: bool, language: str
) -> Markup:
    """The history table's rows (the `history_rows` macro of partials/macros.html)."""
    key = (row.token, row.version, language, editable, request.script_root)
    found = _histories.get(key)
    if found is None:
        found = Markup(
            get_template_attribute("partials/macros.html", "history_rows")(
                result, result.game.players, partnership, row, editable
            )
        )
        _histories.put(key, found)
    return found


FIGURES_KEPT = 4_000
"""Games whose statistics figures a process keeps (about 1 kB each; the database keeps them
all, so a process needs only the tables read lately)."""

_figures: Kept[tuple[str, int], GameFigures] = Kept(FIGURES_KEPT)
_statistics: Kept[bytes, TableStats] = Kept(64)


def _games_key(games: Sequence[tuple[str, int]]) -> bytes:
    """A table's games in their order, each (token, version), in a few bytes (tokens are
    unique across tables, so this says which table too)."""
    text = ",".join(f"{token}:{version}" for token, version in games)
    return hashlib.sha256(text.encode()).digest()


def _figures_of(
    table: TableRow, stamps: Sequence[GameStamp]
) -> tuple[list[tuple[str, int]], list[GameFigures]]:
    """Each game's (token, version) and figures: kept by this process, else stored in the
    database at that version, else read and replayed (and stored for every process); a game
    saved since the stamps were read: its newer version; a game deleted since: left out."""
    found: dict[int, tuple[str, int, GameFigures | None]] = {
        stamp.id: (stamp.token, stamp.version, _figures.get((stamp.token, stamp.version)))
        for stamp in stamps
    }
    players = {stamp.id: stamp.players for stamp in stamps}
    missing = [game_id for game_id, (_, _, figures) in found.items() if figures is None]
    stored = figures_in_database(missing) if missing else {}
    for game_id, held in stored.items():
        token, version, _ = found[game_id]
        kept = (
            stored_figures(held.head, held.tallies, players[game_id])
            if held.version == version
            else None
        )
        if kept is not None:
            _figures.put((token, version), kept)
            found[game_id] = (token, version, kept)
    missing = [game_id for game_id, (_, _, figures) in found.items() if figures is None]
    made_now: list[Stored] = []
    for row in games_by_id(table, missing):
        made = game_figures(record_of(row))
        _figures.put((row.token, row.version), made)
        found[row.id] = (row.token, row.version, made)
        if row.finished:  # a game in play changes with its next save: kept here only
            made_now.append(Stored(row.id, row.version, figures_head(made), made.tallies))
    store_figures(made_now, by_a_reader=True)
    games = [found[stamp.id] for stamp in stamps]
    return (
        [(token, version) for token, version, figures in games if figures is not None],
        [figures for _, _, figures in games if figures is not None],
    )


@dataclass(frozen=True)
class Evening:
    """What a table's statistics depend on besides its games: the nights started on purpose
    and the ratings setting (`key`: the same as parts of a cache key)."""

    starts: list[datetime]
    rated: bool

    @property
    def key(self) -> list[tuple[str, int]]:
        return [(moment.isoformat(), 0) for moment in self.starts] + [("rated", int(self.rated))]


def _evening(table: TableRow) -> Evening:
    return Evening(night_starts(table), table.ratings)


def table_statistics(
    table: TableRow, stamps: Sequence[GameStamp] | None = None, evening: Evening | None = None
) -> TableStats:
    """The table's statistics: kept whole while no game of it changes (nor its nights started
    on purpose, nor its ratings setting), and after a change combined from each game's kept
    figures, only the changed games read and replayed."""
    stamps = game_stamps(table) if stamps is None else stamps
    evening = _evening(table) if evening is None else evening
    found = _statistics.get(
        _games_key([(stamp.token, stamp.version) for stamp in stamps] + evening.key)
    )
    if found is None:
        games, figures = _figures_of(table, stamps)
        found = combine(figures, night_starts=evening.starts, rated=evening.rated)
        _statistics.put(_games_key(games + evening.key), found)
    return found


_contents: Kept[tuple[Any, ...], Markup] = Kept(64)


def statistics_content(
    table: TableRow, viewing: bool, render: Callable[[TableStats], str]
) -> Markup:
    """The statistics page's content (`render` of the table's statistics: all but the page
    around it, which carries the reader's own token), kept per (the games' versions, the table
    as named and linked, the kind of link, the reader's language): made once, then served as
    it is while none of them changes (nor the table's nights started on purpose, nor its
    ratings setting)."""
    stamps = game_stamps(table)
    evening = _evening(table)
    key = (
        _games_key([(stamp.token, stamp.version) for stamp in stamps] + evening.key),
        table.token,
        table.version,
        table.name,
        viewing,
        current_language(),
        request.script_root,
    )
    found = _contents.get(key)
    if found is None:
        found = Markup(render(table_statistics(table, stamps, evening)))
        _contents.put(key, found)
    return found


def forget_statistics() -> None:
    """Forget every game's figures, table's statistics and statistics page kept (tests,
    benchmarks)."""
    _figures.clear()
    _statistics.clear()
    _contents.clear()


def clear() -> None:
    """Forget everything kept (tests)."""
    _replays.clear()
    _histories.clear()
    forget_statistics()


__all__ = [
    "Kept",
    "clear",
    "forget_statistics",
    "history_rows",
    "keep_replay",
    "replay_of",
    "statistics_content",
    "table_statistics",
]


TEMPLATE_GLOBALS: dict[str, Any] = {"history_rows_kept": history_rows}
"""What templates call from this room (views.register hands each room's to Jinja once)."""
