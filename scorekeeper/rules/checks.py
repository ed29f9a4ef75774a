"""The checks a contract makes of its own deal beyond its fields' ranges (docs/rules.md): doubling
where the table plays without it, and what a Trix Complex deal's cards and tricks must agree on."""

from __future__ import annotations

from .cards import SEATS
from .deal import Deal
from .errors import Problem
from .house_rules import ComplexTricks, HouseRules


def doubling_checks(deal: Deal, rules: HouseRules) -> list[Problem]:
    """No double recorded where the table plays without doubling."""
    doubled = deal.values.get("doubled_by")
    if not rules.doubling and doubled not in (None, {}):
        return [Problem("doubled_by", "doubling_off")]
    return []


def check_complex(deal: Deal, rules: HouseRules) -> list[Problem]:
    """A Complex deal's tricks, cards and Q♦ agree (docs/rules.md, Trix Complex)."""
    problems = doubling_checks(deal, rules)
    tricks, diamonds = deal.counts("tricks"), deal.counts("diamonds")
    queens = deal.cards("queens")
    king = deal.seat("king_of_hearts")
    penalty_tricks = rules.complex_tricks == ComplexTricks.PENALTY
    for seat in SEATS:
        queens_taken = sum(1 for taker in queens.values() if taker == seat)
        has_queen_of_diamonds = queens["D"] == seat
        # the penalty cards a seat took (the Q♦ is one card, though a diamond and a queen)
        cards = (
            diamonds[seat]
            + queens_taken
            + (1 if king == seat else 0)
            - (1 if has_queen_of_diamonds else 0)
        )
        if tricks[seat] == 0 and (diamonds[seat] or queens_taken or king == seat):
            problems.append(Problem(f"tricks[{seat}]", "no_tricks_no_cards"))
        elif cards > 4 * tricks[seat]:
            problems.append(
                Problem(
                    f"tricks[{seat}]",
                    "cards_exceed_tricks",
                    {"cards": cards, "tricks": tricks[seat]},
                )
            )
        elif penalty_tricks and tricks[seat] > cards:
            # each trick counted holds at least one of the seat's penalty cards
            problems.append(
                Problem(
                    f"tricks[{seat}]",
                    "tricks_exceed_cards",
                    {"cards": cards, "tricks": tricks[seat]},
                )
            )
    if diamonds[queens["D"]] == 0:
        problems.append(Problem("queens.D", "queen_diamond_without_diamond"))
    return problems
