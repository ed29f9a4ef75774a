"""A game's card, as a table's page lists it and a night counts it: what the engine derived of
the game (its totals, the teams' totals, who won) as the game's row keeps it (`GameRow.card`,
rewritten with every save), joined with the row's names and time: no replay.

A game stored before cards were kept has none: the first page showing it replays it (once,
kept per version like every replay) and keeps its card in the row for every later reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..rules.text import player_key
from ..store.figures import store_cards
from ..store.games import card_values, format_timestamp
from ..store.models import GameRow
from .caches import replay_of


@dataclass(frozen=True, slots=True)
class Card:
    """One begun game's result as its row keeps it: what a card shows and what a night reads
    (:class:`scorekeeper.stats.nights.Played`)."""

    game: str
    names: tuple[str, ...]
    keys: tuple[str, ...]
    time: str | None
    when: datetime | None
    finished: bool
    totals: tuple[int, ...]
    team_totals: tuple[int, int] | None
    winners: tuple[int, ...] | None
    """The winning seats; None before the game is finished."""
    winning_teams: tuple[int, ...] | None
    """Partnership, once finished: the winning teams."""

    def won(self, seat: int) -> bool:
        """Whether `seat` is among the winners (never before the game is finished)."""
        return self.winners is not None and seat in self.winners


def _card(row: GameRow, values: dict[str, Any]) -> Card:
    time = format_timestamp(row.created_at)
    teams = values["team_totals"]
    return Card(
        game=row.game,
        names=tuple(row.players),
        keys=tuple(player_key(name) for name in row.players),
        time=time,
        when=None if time is None else datetime.fromisoformat(time),
        finished=row.finished,
        totals=tuple(values["totals"]),
        team_totals=None if teams is None else (teams[0], teams[1]),
        winners=None if values["winners"] is None else tuple(values["winners"]),
        winning_teams=(None if values["winning_teams"] is None else tuple(values["winning_teams"])),
    )


def cards_of(rows: Sequence[GameRow]) -> dict[int, Card]:
    """By game id, the card of each begun game of `rows` (a game whose first chooser is not
    known yet has none): read from the rows; a row stored before cards were kept is replayed
    and its card kept in the database."""
    made: list[tuple[int, int, dict[str, Any]]] = []
    cards = {}
    for row in rows:
        if row.first_chooser is None:
            continue
        values = row.card
        if values is None:
            values = card_values(replay_of(row))
            made.append((row.id, row.version, values))
        cards[row.id] = _card(row, values)
    store_cards(made)
    return cards
