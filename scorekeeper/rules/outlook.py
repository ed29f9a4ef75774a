"""Can still win? What the deals left in a game can still do to each total (docs/rules.md,
Every game): the least and the most a player (a team, in partnership) can still add, who can no
longer reach the leader, and when the game is decided.

The deals left are known whatever the order they are played in: in Trix games every contract not
yet played in each kingdom, in Turkish King the trumps the players have still to declare and each
negative contract's plays left. No deal constrains another, so the bounds of the rest of the game
are the sums of each deal's, and each deal's are its contract's :attr:`Contract.extreme` deal
scored by the engine under the table's house rules (doubling included).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .cards import team_totals
from .contracts import CONTRACTS, Contract
from .deal import Deal
from .games import PLAYS_PER_NEGATIVE, TRUMPS_PER_PLAYER, TURKISH_NEGATIVES
from .house_rules import HouseRules, Winners
from .replay import Replay


@dataclass(frozen=True)
class Extremes:
    """The least and the most one deal of a contract can add to a seat's total, and to a team's
    (two partners'). Both can happen in one deal to two seats (or the two teams): one takes
    everything doubled by the other, or one finishes first and the other last."""

    lowest: int
    highest: int
    team_lowest: int
    team_highest: int


def extremes(contract: Contract, rules: HouseRules) -> Extremes:
    """What one deal of `contract` can do to a seat and to a team under `rules`."""
    values = {
        name: value
        for name, value in contract.extreme.items()
        if rules.doubling or name != contract.doubles_field
    }
    scores = contract.score(Deal(contract.id, values), rules)
    teams = team_totals(scores)
    return Extremes(min(scores), max(scores), min(teams), max(teams))


def remaining_contracts(result: Replay) -> tuple[str, ...]:
    """The contracts of the deals still to play, one per deal, in the game's order of contracts."""
    definition = result.game.definition
    if definition.kingdoms:
        played = {(deal.kingdom, deal.contract) for deal in result.deals}
        return tuple(
            contract
            for kingdom in range(definition.kingdoms)
            for contract in definition.contracts
            if (kingdom, contract) not in played
        )
    plays = Counter(deal.contract for deal in result.deals)
    left = Counter(dict.fromkeys(TURKISH_NEGATIVES, PLAYS_PER_NEGATIVE))
    left["trump"] = TRUMPS_PER_PLAYER * 4
    left.subtract(plays)
    return tuple(contract for contract in definition.contracts for _ in range(left[contract]))


@dataclass(frozen=True)
class Outlook:
    """What the rest of a game can still do. Sides are the players (solo) or the two teams
    (partnership: team A = seats 0 and 2), as the winner is one of them."""

    remaining: tuple[str, ...]
    """The contracts of the deals left (:func:`remaining_contracts`)."""
    totals: tuple[int, ...]
    """Each side's total now."""
    lowest: int
    """The least any one side can still add to its total (the same for every side)."""
    highest: int
    """The most any one side can still add to its total."""
    gain: int
    """The most a side can still gain on another: its best with the other's worst, deal by deal."""
    out: tuple[int, ...]
    """The sides that can no longer win: that can no longer reach the leader's total (under
    `winners` "positive": that can no longer finish above zero)."""
    sure: tuple[int, ...]
    """Under `winners` "positive": the sides sure to finish above zero; () under "highest"."""
    decided: tuple[int, ...] | None
    """The winning sides when no deal left can change them (under "highest": a single leader no
    side can reach; under "positive", possibly nobody); None while it is open."""


def outlook(result: Replay) -> Outlook:
    """What the deals left in `result`'s game can still do to each side's total."""
    game = result.game
    rules = game.house_rules
    remaining = remaining_contracts(result)
    team = result.team_totals is not None
    lowest = highest = 0
    for contract in remaining:
        bounds = extremes(CONTRACTS[contract], rules)
        lowest += bounds.team_lowest if team else bounds.lowest
        highest += bounds.team_highest if team else bounds.highest
    totals = result.team_totals if result.team_totals is not None else result.totals
    sides = range(len(totals))
    gain = highest - lowest
    if rules.winners == Winners.POSITIVE:
        out = tuple(side for side in sides if totals[side] + highest <= 0)
        sure = tuple(side for side in sides if totals[side] + lowest > 0)
        settled = len(out) + len(sure) == len(totals)
        return Outlook(
            remaining, totals, lowest, highest, gain, out, sure, sure if settled else None
        )
    best = max(totals)
    leaders = tuple(side for side in sides if totals[side] == best)
    out = tuple(side for side in sides if totals[side] + gain < best)
    decided = leaders if len(leaders) + len(out) == len(totals) and len(leaders) == 1 else None
    return Outlook(remaining, totals, lowest, highest, gain, out, (), decided)
