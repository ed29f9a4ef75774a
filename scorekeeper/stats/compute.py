"""Statistics across a table's games, from their records replayed through the engine.

Every score is the engine's (:func:`scorekeeper.rules.replay`); this module only counts and adds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..rules.cards import SEATS, TEAMS
from ..rules.contracts import CONTRACTS
from ..rules.games import GAMES, PARTNERSHIP
from ..rules.record import Record
from ..rules.replay import Replay, replay
from .identity import player_key
from .model import (
    ContractStats,
    Item,
    Partnership,
    PlayerStats,
    RunningLine,
    RunningWins,
    TableStats,
)
from .takes import seat_takes

_OLDEST = datetime.min.replace(tzinfo=UTC)


@dataclass
class _ContractTally:
    deals: int = 0
    points: int = 0
    taken: dict[Item, int] = field(default_factory=dict)
    places: int = 0
    doubles: int = 0
    doubles_gain: int = 0

    def add(self, other: _ContractTally) -> None:
        self.deals += other.deals
        self.points += other.points
        for item, count in other.taken.items():
            self.taken[item] = self.taken.get(item, 0) + count
        self.places += other.places
        self.doubles += other.doubles
        self.doubles_gain += other.doubles_gain

    def frozen(self, contract: str) -> ContractStats:
        return ContractStats(contract, self.deals, self.points, dict(self.taken), self.places,
                             self.doubles, self.doubles_gain)


SeatContracts = tuple[dict[str, _ContractTally], ...]


def _seat_contracts(result: Replay) -> SeatContracts:
    """Per seat, per contract: the game's deals of it, what they scored and what was taken."""
    rules = result.game.house_rules
    seats: SeatContracts = tuple({} for _ in SEATS)
    for deal in result.deals:
        for seat, take in enumerate(seat_takes(deal.deal, rules, deal.scores)):
            tally = seats[seat].get(deal.contract)
            if tally is None:
                tally = seats[seat][deal.contract] = _ContractTally()
            tally.add(_ContractTally(1, deal.scores[seat], dict(take.taken), take.place,
                                     take.doubles, take.doubles_gain))
    return seats


@dataclass(frozen=True)
class _Played:
    """One record replayed, with its players' keys, when it ended and its per-seat figures."""

    position: int
    record: Record
    result: Replay
    keys: tuple[str, ...]
    time: str | None
    when: datetime | None
    contracts: SeatContracts

    @property
    def sort_key(self) -> tuple[bool, datetime, int]:
        # untimed records count as the oldest, in the order given
        return (self.when is not None, self.when or _OLDEST, self.position)

    def won(self, seat: int) -> bool:
        return self.result.winners is not None and seat in self.result.winners


def _moment(record: Record) -> tuple[str | None, datetime | None]:
    """When the game was played: created_at (a table plays one game after another, and an edit
    or a rename long after must not move it), else updated_at."""
    text = record.created_at or record.updated_at
    if text is None:
        return None, None
    moment = datetime.fromisoformat(text)  # the loader checked it parses
    return text, moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass
class _PlayerTally:
    games: int = 0
    finished: int = 0
    wins: int = 0
    points: int = 0
    contracts: dict[str, _ContractTally] = field(default_factory=dict)
    results: list[bool] = field(default_factory=list)
    """Won or not, per finished game in time order."""

    def frozen(self, key: str, name: str) -> PlayerStats:
        longest = current = 0
        for won in self.results:
            current = current + 1 if won else 0
            longest = max(longest, current)
        return PlayerStats(key, name, self.games, self.finished, self.wins, self.points,
                           {contract: self.contracts[contract].frozen(contract)
                            for contract in CONTRACTS if contract in self.contracts},
                           longest, current)


def _add_contracts(played: _Played, tallies: dict[str, _PlayerTally]) -> None:
    for seat in SEATS:
        contracts = tallies[played.keys[seat]].contracts
        for contract, figures in played.contracts[seat].items():
            contracts.setdefault(contract, _ContractTally()).add(figures)


def _standing_key(player: PlayerStats) -> tuple[int, int, str, str]:
    return (-player.wins, -player.points, player.key, player.name)


def _players(games: Iterable[_Played], names: dict[str, str]) -> tuple[PlayerStats, ...]:
    """The standings over `games` (in time order), every figure per player."""
    tallies: dict[str, _PlayerTally] = {}
    for played in games:
        for key in played.keys:
            tallies.setdefault(key, _PlayerTally())
        finished = played.result.finished
        for key in dict.fromkeys(played.keys):  # a person counts once per game
            seats = [seat for seat in SEATS if played.keys[seat] == key]
            tally = tallies[key]
            tally.games += 1
            if finished:
                won = any(played.won(seat) for seat in seats)
                tally.finished += 1
                tally.wins += won
                tally.points += sum(played.result.totals[seat] for seat in seats)
                tally.results.append(won)
        _add_contracts(played, tallies)
    return tuple(sorted((tally.frozen(key, names[key]) for key, tally in tallies.items()),
                        key=_standing_key))


def _partnerships(games: Iterable[_Played], names: dict[str, str]) -> tuple[Partnership, ...]:
    found: dict[tuple[str, str], list[int]] = {}
    for played in games:
        if played.record.game.mode != PARTNERSHIP:
            continue
        for team, seats in enumerate(TEAMS):
            first, second = sorted(played.keys[seat] for seat in seats)
            figures = found.setdefault((first, second), [0, 0, 0, 0])
            figures[0] += 1
            if played.result.finished:
                assert played.result.team_totals is not None
                figures[1] += 1
                figures[2] += played.won(seats[0])
                figures[3] += played.result.team_totals[team]
    pairs = [Partnership(keys, (names[keys[0]], names[keys[1]]), *figures)
             for keys, figures in found.items()]
    return tuple(sorted(pairs, key=lambda pair: (-pair.wins, -pair.points, pair.keys)))


def _running(games: Sequence[_Played], players: tuple[PlayerStats, ...]) -> RunningWins:
    finished = [played for played in games if played.result.finished]
    lines = []
    for player in players:
        wins, line = 0, []
        for played in finished:
            wins += any(played.won(seat) for seat in SEATS if played.keys[seat] == player.key)
            line.append(wins)
        lines.append(RunningLine(player.key, player.name, tuple(line)))
    return RunningWins(tuple(played.time for played in finished), tuple(lines))


def compute(records: Sequence[Record]) -> TableStats:
    """The statistics of a table's games: standings overall and per game kind, per contract,
    partnerships, streaks and wins over time. Each record is replayed through the engine."""
    games: list[_Played] = []
    names: dict[str, str] = {}
    for position, record in enumerate(records):
        keys = tuple(player_key(name) for name in record.game.players)
        for key, name in zip(keys, record.game.players, strict=True):
            names.setdefault(key, name.strip())
        time, when = _moment(record)
        result = replay(record.game)
        games.append(_Played(position, record, result, keys, time, when,
                             _seat_contracts(result)))
    games.sort(key=lambda played: played.sort_key)
    players = _players(games, names)
    standings = {game: _players((p for p in games if p.record.game.game == game), names)
                 for game in GAMES}
    return TableStats(
        games=len(games),
        finished=sum(1 for played in games if played.result.finished),
        players=players,
        standings=standings,
        partnerships=_partnerships(games, names),
        running=_running(games, players),
    )
