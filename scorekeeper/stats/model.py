"""The statistics of a table as frozen values: what :func:`scorekeeper.stats.compute` returns.

Nothing here is stored: every figure is derived from game records replayed through the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..rules.contracts import Item
from .evening_model import ModeRivals, Night, Rating


@dataclass(frozen=True)
class ContractStats:
    """One player's deals of one contract: how many, what they scored, what they took."""

    contract: str
    deals: int = 0
    points: int = 0
    """The sum of the player's own scores in these deals (the engine's)."""
    taken: Mapping[Item, int] = field(default_factory=dict)
    """Per item the contract counts, the total the player took over these deals."""
    places: int = 0
    """Trix: the sum of the player's finishing places (1 = first out); 0 for other contracts."""
    doubles: int = 0
    """Doubles the player made (each doubled card once)."""
    doubles_gain: int = 0
    """What the player's doubles gained (negative: cost), the engine's score with each double
    against the same deal without it."""

    def average(self, item: Item) -> float | None:
        """The item taken per deal of this contract (None when the contract counts no such item
        or there are no deals)."""
        if not self.deals or item not in self.taken:
            return None
        return self.taken[item] / self.deals

    @property
    def average_place(self) -> float | None:
        """Trix: the average finishing place (1 to 4); None for other contracts."""
        if not self.deals or not self.places:
            return None
        return self.places / self.deals

    @property
    def average_points(self) -> float | None:
        """Points per deal."""
        return self.points / self.deals if self.deals else None


def add_contract_stats(first: ContractStats | None, second: ContractStats) -> ContractStats:
    """One contract's figures over two sets of deals (the trix contract is in two game kinds)."""
    if first is None:
        return second
    return ContractStats(
        first.contract,
        first.deals + second.deals,
        first.points + second.points,
        {
            item: first.taken.get(item, 0) + second.taken.get(item, 0)
            for item in {**first.taken, **second.taken}
        },
        first.places + second.places,
        first.doubles + second.doubles,
        first.doubles_gain + second.doubles_gain,
    )


@dataclass(frozen=True)
class PlayerStats:
    """One person over a set of games: the standings' row and the contracts' figures."""

    key: str
    """:func:`scorekeeper.rules.text.player_key` of the name."""
    name: str
    """The first spelling met."""
    games: int
    """Records the player sits in."""
    finished: int
    wins: int
    """Finished games whose `winners` include the player's seat (shared wins count for each)."""
    points: int | None
    """The player's own final totals summed over finished games; None in the standings of
    every game kind together when those mix games whose points are never added (Trix games and
    Turkish King: :data:`~.compute.SCALES`)."""
    contracts: Mapping[str, ContractStats] = field(default_factory=dict)
    """Per contract id the player played (every deal of every record, finished or not), in the
    engine's order of contracts (Trix's first, then Complex, then Turkish King's)."""
    longest_streak: int = 0
    """The most finished games won in a row (in time order)."""
    current_streak: int = 0
    """Finished games won in a row up to the player's latest one."""

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game (0 to 1); None before a finished game."""
        return self.wins / self.finished if self.finished else None


@dataclass(frozen=True)
class Partnership:
    """Two people who played as a team (partners opposite each other) in partnership games."""

    keys: tuple[str, str]
    """The two player keys, sorted."""
    names: tuple[str, str]
    """Their first spellings, in the order of `keys`."""
    games: int
    finished: int
    wins: int
    points: int
    """The team's final totals summed over finished games."""

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game; None before a finished game."""
        return self.wins / self.finished if self.finished else None


@dataclass(frozen=True)
class RunningLine:
    """One player's cumulative wins after each finished game of the table (in time order)."""

    key: str
    name: str
    wins: tuple[int, ...]
    """wins[i]: the player's wins after the table's (i + 1)-th finished game."""


@dataclass(frozen=True)
class RunningWins:
    """Cumulative wins over time, for a chart: one line per player, one point per finished
    game."""

    times: tuple[str | None, ...]
    """When each finished game was played (the record's created_at, else updated_at), or
    None."""
    lines: tuple[RunningLine, ...]
    """In the standings' order."""


@dataclass(frozen=True)
class TableStats:
    """Everything :func:`scorekeeper.stats.compute` derives from a table's records."""

    games: int
    finished: int
    players: tuple[PlayerStats, ...]
    """Every game kind together, sorted by wins, then points (both descending), then name;
    without points (None) when the games mix Trix games and Turkish King."""
    standings: Mapping[str, tuple[PlayerStats, ...]]
    """Per game id (trix, trix-complex, turkish-king), the same figures over that kind only;
    every game id is present (an empty tuple when the table never played it)."""
    partnerships: tuple[Partnership, ...]
    """Sorted like the players: wins, points, then names."""
    running: RunningWins
    nights: tuple[Night, ...] = ()
    """The table's sittings, oldest first, each with its standings (:mod:`.nights`)."""
    rivals: tuple[ModeRivals, ...] = ()
    """Per mode played (solo first): rivals, partners, contract leaders (:mod:`.rivals`)."""
    ratings: tuple[Rating, ...] | None = None
    """Everyone's rating over the finished games (:mod:`.ratings`); None when not asked for."""

    def player(self, key: str) -> PlayerStats | None:
        """The player with this key (every game kind together), or None."""
        return next((player for player in self.players if player.key == key), None)
