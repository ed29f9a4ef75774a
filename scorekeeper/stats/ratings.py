"""Ratings: OpenSkill (the `openskill` package, MIT; its default Plackett-Luce model) over a
table's finished games in the order they were played.

Each finished game is one match: a solo game four players ranked by their totals, a
partnership game two teams ranked by the teams' totals (equal totals share a rank). Nothing is
stored: the ratings are made again from the games each time, so the same history gives the
same ratings on every server (the model's arithmetic only: no randomness, no clock), and an
edited game or two players merged re-rate everything after.

A rating is shown on a familiar scale: the model's ordinal (mu − 3·sigma, a cautious estimate:
the player's skill is very likely above it) as ``1000 + 20 × ordinal``, so everyone starts at
1000; it is hidden until a player has :data:`RATED_AFTER` rated games.

openskill is imported on the first rating, not with this module: `scorekeeper stats` without
ratings, and every page of a table that did not ask for ratings, never load it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from ..rules.cards import TEAMS
from .evening_model import BASE, SCALE, Rating
from .figures import GameFigures

if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating


SOLO_TEAMS: Final = ((0,), (1,), (2,), (3,))
"""A solo game's four sides: one seat each (a partnership's are TEAMS)."""


def _ranks(values: Sequence[int]) -> list[float]:
    """Competition ranks, highest value first: 1 plus the number of values above (ties share)."""
    highest_first = sorted(values, reverse=True)
    return [1.0 + highest_first.index(value) for value in values]


def ratings(
    games: Sequence[GameFigures], names: Mapping[str, str] | None = None
) -> tuple[Rating, ...]:
    """Everyone's rating over the finished games, given in the order played (a game that
    seats one person twice is left out); shown ratings first, highest first, then by key.
    `names`: each key's spelling (else the first met here)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    rated: dict[str, int] = {}
    spelled: dict[str, str] = {}
    for played in games:
        keys = played.keys
        if not played.finished or len(set(keys)) < len(keys):
            continue
        for seat, key in enumerate(keys):
            if key not in current:
                current[key] = model.rating(name=key)
                spelled[key] = played.names[seat]
            rated[key] = rated.get(key, 0) + 1
        sides, values = (
            (TEAMS, played.team_totals)
            if played.team_totals is not None
            else (SOLO_TEAMS, played.totals)
        )
        teams = [[current[keys[seat]] for seat in seats] for seats in sides]
        outcome = model.rate(teams, ranks=_ranks(values))
        for side, seats in enumerate(sides):  # openskill answers the teams as given
            for place, seat in enumerate(seats):
                current[keys[seat]] = outcome[side][place]
    if names is not None:
        spelled = {**spelled, **{key: names[key] for key in spelled if key in names}}
    found = []
    for key, rating in current.items():
        mu, sigma = rating.mu, rating.sigma
        scaled = rating.ordinal(alpha=SCALE, target=BASE)
        found.append(Rating(key, spelled[key], rated[key], mu, sigma, scaled))
    return tuple(sorted(found, key=lambda rating: (not rating.shown, -rating.scaled, rating.key)))
