"""The house rules docs/rules.md allows a table, with their words and defaults."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

NET = "net"
FULL = "full"


class QueenOfDiamonds(StrEnum):
    """House rule `doubled_queen_of_diamonds` (Trix Complex): what a doubled Q♦ doubles."""

    QUEEN = "queen"
    """Only its queen part: −50 − 10 = −60 to its taker, +25 to the doubler."""
    WHOLE = "whole"
    """The whole card: −70 to its taker, +35 to the doubler."""


class ComplexTricks(StrEnum):
    """House rule `complex_tricks` (Trix Complex): which tricks of a Complex deal cost −15."""

    EVERY = "every"
    """Every trick (the Complex text's score list): `tricks` counts all 13."""
    PENALTY = "penalty"
    """Only a trick that held a penalty card (a diamond, a queen, the K♥): `tricks` counts those
    alone, at most 13 in all, and a kingdom no longer sums to zero."""


class Winners(StrEnum):
    """House rule `winners` (Turkish King): who wins a finished game."""

    HIGHEST = "highest"
    """The highest total (equal totals share the win)."""
    POSITIVE = "positive"
    """Every player whose total is above zero (possibly several, possibly nobody)."""


@dataclass(frozen=True)
class HouseRules:
    """The switches docs/rules.md allows a table; GameDef.house_rules says which a game uses."""

    doubling: bool = True
    doubled_self_take: str = NET
    swap_diamonds_ltoosh: bool = False
    doubled_queen_of_diamonds: QueenOfDiamonds = QueenOfDiamonds.QUEEN
    complex_tricks: ComplexTricks = ComplexTricks.EVERY
    winners: Winners = Winners.HIGHEST


HOUSE_RULE_KEYS: tuple[str, ...] = tuple(f.name for f in fields(HouseRules))
"""Every house rule's key, in the order records write them."""

HOUSE_RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "doubled_self_take": (NET, FULL),
    "doubled_queen_of_diamonds": tuple(QueenOfDiamonds),
    "complex_tricks": tuple(ComplexTricks),
    "winners": tuple(Winners),
}
"""The house rules that take one of a few words, with the words; the others are true/false."""

BAD_CHOICE: dict[str, str] = {
    "doubled_self_take": "bad_self_take",
    "doubled_queen_of_diamonds": "bad_queen_of_diamonds",
    "complex_tricks": "bad_complex_tricks",
    "winners": "bad_winners",
}
"""The message id refusing a word that is not one of HOUSE_RULE_CHOICES[key]."""
