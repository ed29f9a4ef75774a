"""Seats, suits and teams: the vocabulary every game shares."""

from __future__ import annotations

SEATS: tuple[int, ...] = (0, 1, 2, 3)
"""Seats in order of play (counter-clockwise at the table); the next player is seat + 1."""

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""Suit letters as the game record writes them: spades, hearts, diamonds, clubs."""

SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

TEAMS: tuple[tuple[int, int], ...] = ((0, 2), (1, 3))
"""Partnership teams: A = seats 0 and 2, B = seats 1 and 3 (partners sit opposite)."""


def next_seat(seat: int, steps: int = 1) -> int:
    """The seat `steps` places further in order of play."""
    return (seat + steps) % 4


def team_of(seat: int) -> int:
    """Team index (0 = A, 1 = B) of a seat in a partnership game."""
    return seat % 2


def team_totals(totals: tuple[int, ...]) -> tuple[int, int]:
    """Sum per-seat totals into the two partnership teams."""
    return (totals[0] + totals[2], totals[1] + totals[3])
