"""A night at the table: the games played in one sitting, and their standings added up.

Trix totals and Turkish King totals are on different scales, so a night never sums points:
each finished game ranks its four (a solo game by the players' totals, a partnership game by
their teams' totals) and every player earns one point for each player they finished ahead of
and half a point for each they finished level with: 3, 2, 1, 0 by place, ties shared (a
partnership's winners 2½ each, its losers ½). Kept as half points (integers) so sums are exact.

A sitting is read from the games' own time stamps (when each was begun, the record's
created_at): a game begun more than :data:`NIGHT_GAP` after the one before starts a new night,
and so does a table's "new night" (a moment: the first game begun after it starts one). No
clock is read here: whether the latest night is still open is the caller's question, with its
own "now".
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol

from ..rules.cards import TEAMS
from .evening_model import NIGHT_GAP, Night, NightPlayer
from .figures import GameFigures


class Played(Protocol):
    """What a night reads of a game: :class:`GameFigures`, or a game's card as a page has it
    (the same result without the tallies)."""

    @property
    def game(self) -> str: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def keys(self) -> tuple[str, ...]: ...
    @property
    def time(self) -> str | None: ...
    @property
    def when(self) -> datetime | None: ...
    @property
    def finished(self) -> bool: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def team_totals(self) -> tuple[int, int] | None: ...
    def won(self, seat: int) -> bool: ...


def place_halves(values: Sequence[int]) -> list[int]:
    """Per seat, twice its night points for one game ranked by `values` (higher is better):
    two for each other seat it beat, one for each it tied with."""
    return [
        sum(2 if other < value else 1 if other == value else 0 for other in values) - 1
        for value in values
    ]


def partnership_halves() -> tuple[int, int, int]:
    """Twice the night points of a partnership game's players: each winner, each loser, and
    each of the four when the teams finish level (partners share a total, so finish level
    with each other: 2½, ½ and 1½)."""
    won = place_halves([1, 0, 1, 0])
    level = place_halves([0, 0, 0, 0])
    return won[0], won[1], level[0]


def game_halves(played: Played) -> list[int]:
    """A finished game's night points per seat, doubled: by each seat's total (solo) or its
    team's total (partnership)."""
    if played.team_totals is not None:
        team_of = {seat: team for team, seats in enumerate(TEAMS) for seat in seats}
        values = [played.team_totals[team_of[seat]] for seat in range(len(played.keys))]
    else:
        values = list(played.totals)
    return place_halves(values)


def sittings(
    moments: Sequence[datetime | None], starts: Iterable[datetime] = ()
) -> list[list[int]]:
    """The positions of `moments` (when each game was begun, in time order) grouped into
    nights: a new one after a pause longer than NIGHT_GAP, or at the first game begun at or
    after one of `starts`. An untimed game belongs to no night."""
    breaks = sorted(starts)
    groups: list[list[int]] = []
    previous: datetime | None = None
    for position, moment in enumerate(moments):
        if moment is None:
            continue
        if previous is None or moment - previous > NIGHT_GAP:
            groups.append([])
        else:
            following = bisect_right(breaks, previous)  # the first start after the last game
            if following < len(breaks) and breaks[following] <= moment:
                groups.append([])
        groups[-1].append(position)
        previous = moment
    return groups


def _standing_key(player: NightPlayer) -> tuple[int, int, int, str]:
    return (-player.halves, -player.wins, player.games, player.key)


def night_of(games: Sequence[Played], number: int = 1, positions: Sequence[int] = ()) -> Night:
    """The standings of one night's games (in time order): night points over its finished
    games; a person counts once per game."""
    names: dict[str, str] = {}
    figures: dict[str, list[int]] = {}  # games, finished, wins, halves
    kinds: list[str] = []
    for played in games:
        if played.game not in kinds:
            kinds.append(played.game)
        halves = game_halves(played) if played.finished else [0] * len(played.keys)
        seen: set[str] = set()
        for seat, key in enumerate(played.keys):
            names.setdefault(key, played.names[seat])
            if key in seen:
                continue
            seen.add(key)
            tally = figures.setdefault(key, [0, 0, 0, 0])
            tally[0] += 1
            if played.finished:
                tally[1] += 1
                tally[2] += played.won(seat)
                tally[3] += halves[seat]
    standings = sorted(
        (NightPlayer(key, names[key], *tally) for key, tally in figures.items()),
        key=_standing_key,
    )
    return Night(
        number=number,
        positions=tuple(positions) or tuple(range(len(games))),
        games=len(games),
        finished=sum(1 for played in games if played.finished),
        kinds=tuple(kinds),
        first=games[0].time if games else None,
        last=games[-1].time if games else None,
        last_when=games[-1].when if games else None,
        standings=tuple(standings),
    )


def nights(games: Sequence[GameFigures], starts: Iterable[datetime] = ()) -> tuple[Night, ...]:
    """Every night of a table, oldest first, from its games in time order and the moments a
    new night was started on purpose."""
    groups = sittings([played.when for played in games], starts)
    return tuple(
        night_of([games[position] for position in group], number, group)
        for number, group in enumerate(groups, start=1)
    )
