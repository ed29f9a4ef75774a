"""The nights, rivals and ratings of a table as frozen values (what :mod:`.nights`,
:mod:`.rivals` and :mod:`.ratings` derive from the games' figures; nothing here is stored)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from ..rules.contracts import Item

NIGHT_GAP_HOURS: Final = 6
NIGHT_GAP: Final = timedelta(hours=NIGHT_GAP_HOURS)
"""The longest pause between two games' beginnings within one night."""
RATED_AFTER: Final = 5
"""Rated games before a player's rating is shown."""
SCALE: Final = 20.0
BASE: Final = 1000.0
"""A rating as shown: BASE + SCALE × the model's ordinal (openskill's `ordinal(alpha, target)`):
everyone starts at 1000."""


@dataclass(frozen=True)
class NightPlayer:
    """One player's night: games sat in, finished games won, and night points."""

    key: str
    name: str
    games: int
    finished: int
    wins: int
    """Finished games of the night the player won (the engine's winners, shared wins too)."""
    halves: int
    """Night points, doubled (whole numbers: a tie shares half points)."""

    @property
    def points(self) -> float:
        """Night points: one for each player finished ahead of, a half for each tie."""
        return self.halves / 2


@dataclass(frozen=True)
class Night:
    """One sitting of a table: its games and their standings."""

    number: int
    """1 for the table's first night."""
    positions: tuple[int, ...]
    """Where its games are among the games given, in time order."""
    games: int
    finished: int
    kinds: tuple[str, ...]
    """The game ids played, each once, in the order first played."""
    first: str | None
    """When its first game was begun (the record's own text)."""
    last: str | None
    """When its last game was begun."""
    last_when: datetime | None
    standings: tuple[NightPlayer, ...]
    """Night points, then wins (both highest first), then fewer games, then key."""

    @property
    def day(self) -> str | None:
        """The date the night began on (as the stamps write it)."""
        return self.first[:10] if self.first else None

    def open_at(self, now: datetime) -> bool:
        """Whether a game begun at `now` would still join this night (by the pause alone)."""
        return self.last_when is not None and now - self.last_when <= NIGHT_GAP


@dataclass(frozen=True)
class Rival:
    """Another player as one player met them: finished games together (as opponents in
    partnership games), and how often the player finished ahead of, behind or level with
    them."""

    key: str
    name: str
    together: int
    ahead: int
    behind: int

    @property
    def level(self) -> int:
        """Games finished level (equal totals): neither ahead nor behind."""
        return self.together - self.ahead - self.behind


@dataclass(frozen=True)
class Partner:
    """A partner in finished partnership games: how often together, how often they won."""

    key: str
    name: str
    together: int
    wins: int


@dataclass(frozen=True)
class PlayerRivals:
    """One player's rivals and partners in one mode: each may be empty (nobody met often
    enough, or nobody more often one way than the other)."""

    key: str
    name: str
    beats: tuple[Rival, ...]
    """The ones they finish ahead of most often (by share of games together, then count, then
    fewer behind), each finished ahead of more often than behind; all who share the most, by
    key (their figures are equal)."""
    beaten_by: tuple[Rival, ...]
    """The ones they finish behind most often, likewise (more often behind than ahead): the
    ones to beat. Never one of `beats`."""
    partner: tuple[Partner, ...]
    """Partnership games: the partners they win with most often (by share, then count), all
    who share the most, by key (their figures are equal)."""


@dataclass(frozen=True)
class ContractLeader:
    """Who takes an item of a contract most per deal (or, Trix's order, places best)."""

    contract: str
    item: Item | None
    """The item taken; None for the finishing order (best average place)."""
    key: str
    name: str
    deals: int
    amount: int
    """Items taken over those deals (the sum of places for the finishing order)."""

    @property
    def average(self) -> float:
        """Per deal."""
        return self.amount / self.deals


@dataclass(frozen=True)
class ModeRivals:
    """Rivals, partners and contract leaders over the games of one mode."""

    mode: str
    games: int
    """Games of this mode (finished or not)."""
    players: tuple[PlayerRivals, ...]
    """Everyone who finished a game of this mode, by key."""
    leaders: tuple[ContractLeader, ...]
    """Per contract played in this mode (the engine's order), per item it counts."""


@dataclass(frozen=True)
class Rating:
    """One player's rating after the table's finished games."""

    key: str
    name: str
    games: int
    """Rated games (finished games the player sat in)."""
    mu: float
    sigma: float
    scaled: float
    """BASE + SCALE × (mu − 3·sigma), unrounded."""

    @property
    def shown(self) -> bool:
        """Whether there are enough games to show the rating."""
        return self.games >= RATED_AFTER

    @property
    def value(self) -> int | None:
        """The rating as shown (a whole number), or None while it is hidden."""
        return round(self.scaled) if self.shown else None
