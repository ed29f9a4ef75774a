"""What a game page shows of the engine's result, on the server's pages and the phone's alike:
the standings, the kingdoms' grid, and a name isolated inside a sentence (U+2068 … U+2069, as
:func:`scorekeeper.web.present.takes` isolates it).
"""

from __future__ import annotations

from typing import Protocol

from ..rules import Replay


def isolated(name: str) -> str:
    """A name inside a sentence, isolated from the text direction around it."""
    return f"\u2068{name}\u2069"


class Totals(Protocol):
    """The engine's totals of a game: a replay, or a game's card as its row keeps them."""

    @property
    def totals(self) -> tuple[int, ...]: ...

    @property
    def team_totals(self) -> tuple[int, int] | None: ...


def standings(result: Totals) -> list[int]:
    """Seats from the highest total to the lowest (ties keep the order of play)."""
    return sorted(range(4), key=lambda seat: -result.totals[seat])


def team_standings(result: Totals) -> list[int]:
    """Partnership: the teams from the highest total to the lowest (none in solo)."""
    if result.team_totals is None:
        return []
    teams = result.team_totals
    return sorted(range(2), key=lambda team: -teams[team])


def kingdom_grid(result: Replay) -> list[list[int | None]]:
    """Trix games: per kingdom, per contract, the deal number it was played as (or None)."""
    definition = result.game.definition
    grid: list[list[int | None]] = [
        [None] * len(definition.contracts) for _ in range(definition.kingdoms)
    ]
    for deal in result.deals:
        if deal.kingdom is not None:
            grid[deal.kingdom][definition.contracts.index(deal.contract)] = deal.number
    return grid
