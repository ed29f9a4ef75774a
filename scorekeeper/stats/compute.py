"""Statistics across a table's games, from their records replayed through the engine.

Every score is the engine's (:func:`scorekeeper.rules.replay`); this module only counts and adds.
:func:`compute` is :func:`combine` over each record's :func:`~.figures.game_figures`, so a
caller that keeps each game's figures recomputes only the games that changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from operator import add
from typing import Final

from ..rules.cards import TEAMS
from ..rules.contracts import CONTRACTS
from ..rules.games import GAMES, TRIX, TRIX_COMPLEX, TURKISH_KING
from ..rules.record import Record, parse_timestamp
from .figures import LAYOUTS, GameFigures, game_figures
from .model import (
    ContractStats,
    Partnership,
    PlayerStats,
    RunningLine,
    RunningWins,
    TableStats,
    add_contract_stats,
)
from .nights import nights
from .ratings import ratings
from .rivals import rivals

SCALES: Final = {TRIX: TRIX, TRIX_COMPLEX: TRIX, TURKISH_KING: TURKISH_KING}
"""The points each game's totals are counted in. Trix and Trix Complex score the same cards the
same way (the trix contract is in both, Complex's deal is Trix's four negatives at once);
Turkish King's totals are on another scale and are never added to theirs (as a night ranks
each game rather than add totals): points across games of two scales are not summed."""


@dataclass
class _PlayerTally:
    games: int = 0
    finished: int = 0
    wins: int = 0
    points: int = 0
    results: list[bool] = field(default_factory=list)
    """Won or not, per finished game in time order."""
    tallies: dict[str, list[int]] = field(default_factory=dict)
    """Per game kind, the sum of the player's seats' tallies (laid out by LAYOUTS)."""

    def count(self, finished: bool, won: bool, points: int) -> None:
        """One more game: if finished, whether the player won it and their points."""
        self.games += 1
        if finished:
            self.finished += 1
            self.wins += won
            self.points += points
            self.results.append(won)

    def add_tally(self, game: str, tally: Sequence[int]) -> None:
        kept = self.tallies.get(game)
        self.tallies[game] = list(tally) if kept is None else list(map(add, kept, tally))

    def frozen(self, key: str, name: str) -> PlayerStats:
        longest = current = 0
        for won in self.results:
            current = current + 1 if won else 0
            longest = max(longest, current)
        contracts: dict[str, ContractStats] = {}
        for game, tally in self.tallies.items():
            for stats in LAYOUTS[game].contract_stats(tally):
                contracts[stats.contract] = add_contract_stats(contracts.get(stats.contract), stats)
        return PlayerStats(
            key,
            name,
            self.games,
            self.finished,
            self.wins,
            self.points,
            {contract: contracts[contract] for contract in CONTRACTS if contract in contracts},
            longest,
            current,
        )


def _standing_key(player: PlayerStats) -> tuple[int, int, str, str]:
    return (-player.wins, -(player.points or 0), player.key, player.name)


def _standings(tallies: dict[str, _PlayerTally], names: dict[str, str]) -> tuple[PlayerStats, ...]:
    return tuple(
        sorted((tally.frozen(key, names[key]) for key, tally in tallies.items()), key=_standing_key)
    )


def _players(
    games: Iterable[GameFigures], names: dict[str, str]
) -> tuple[tuple[PlayerStats, ...], dict[str, tuple[PlayerStats, ...]]]:
    """The standings over `games` (in time order), every figure per player: every game kind
    together, and per game kind."""
    overall: dict[str, _PlayerTally] = {}
    by_game: dict[str, dict[str, _PlayerTally]] = {game: {} for game in GAMES}
    for played in games:
        kind = by_game[played.game]
        finished = played.finished
        seats_of: dict[str, list[int]] = {}  # a person counts once per game
        for seat, key in enumerate(played.keys):
            seats_of.setdefault(key, []).append(seat)
        for key, seats in seats_of.items():
            won = finished and any(seat in played.winners for seat in seats)
            points = sum(played.totals[seat] for seat in seats) if finished else 0
            overall.setdefault(key, _PlayerTally()).count(finished, won, points)
            player = kind.setdefault(key, _PlayerTally())
            player.count(finished, won, points)
            for seat in seats:
                player.add_tally(played.game, played.tally(seat))
    for kind in by_game.values():  # every game kind together: each kind's sums
        for key, player in kind.items():
            overall[key].tallies.update(player.tallies)
    together = _standings(overall, names)
    if len({SCALES[game] for game, kind in by_game.items() if kind}) > 1:
        # Trix and King points are never added: each kind's standings keep their own
        together = tuple(replace(player, points=None) for player in together)
        together = tuple(sorted(together, key=_standing_key))
    return (
        together,
        {game: _standings(kind, names) for game, kind in by_game.items()},
    )


def _partnerships(games: Iterable[GameFigures], names: dict[str, str]) -> tuple[Partnership, ...]:
    found: dict[tuple[str, str], list[int]] = {}
    for played in games:
        if not played.partnership:
            continue
        for team, seats in enumerate(TEAMS):
            first, second = sorted(played.keys[seat] for seat in seats)
            figures = found.setdefault((first, second), [0, 0, 0, 0])
            figures[0] += 1
            if played.finished:
                assert played.team_totals is not None
                figures[1] += 1
                figures[2] += played.won(seats[0])
                figures[3] += played.team_totals[team]
    pairs = [
        Partnership(keys, (names[keys[0]], names[keys[1]]), *figures)
        for keys, figures in found.items()
    ]
    return tuple(sorted(pairs, key=lambda pair: (-pair.wins, -pair.points, pair.keys)))


def _running(games: Sequence[GameFigures], players: tuple[PlayerStats, ...]) -> RunningWins:
    finished = [played for played in games if played.finished]
    winners = [{played.keys[seat] for seat in played.winners} for played in finished]
    lines = []
    for player in players:
        wins, line = 0, []
        for won_by in winners:
            wins += player.key in won_by
            line.append(wins)
        lines.append(RunningLine(player.key, player.name, tuple(line)))
    return RunningWins(tuple(played.time for played in finished), tuple(lines))


def combine(
    figures: Sequence[GameFigures],
    *,
    night_starts: Iterable[datetime] = (),
    rated: bool = False,
) -> TableStats:
    """The statistics of a table's games from each game's figures (in the order the records
    are given: the first spelling of a name met wins, untimed games keep that order): standings
    overall and per game kind, per contract, partnerships, streaks and wins over time, nights
    (with the moments a night was started on purpose), rivals, and ratings if `rated`. Only
    adds and ranks; no replay."""
    names: dict[str, str] = {}
    for played in figures:
        for key, name in zip(played.keys, played.names, strict=True):
            names.setdefault(key, name)
    games = sorted(figures, key=lambda played: played.time_order)  # stable: given order kept
    players, standings = _players(games, names)
    return TableStats(
        games=len(games),
        finished=sum(1 for played in games if played.finished),
        players=players,
        standings=standings,
        partnerships=_partnerships(games, names),
        running=_running(games, players),
        nights=nights(games, night_starts),
        rivals=rivals(games, names),
        ratings=ratings(games, names) if rated else None,
    )


def compute(records: Sequence[Record], *, rated: bool = False) -> TableStats:
    """The statistics of a table's games: standings overall and per game kind, per contract,
    partnerships, streaks and wins over time, nights (the new nights the records say the
    table started, too) and rivals (and ratings if `rated`). Each record is replayed through
    the engine."""
    starts = [parse_timestamp(record.night_started_at or "") for record in records]
    return combine(
        [game_figures(record) for record in records],
        night_starts=[moment for moment in starts if moment is not None],
        rated=rated,
    )
