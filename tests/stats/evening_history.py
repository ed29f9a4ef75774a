"""A small table history for the nights, rivals and ratings tests, each figure of it worked
out by hand in the tests.

Every Trix game here is TRIX_GAME (totals by seat 140, −640, 420, 80; seat 1 takes the K♥ in
all four King of Hearts deals; Trix order seats 2, 0, 3, 1), every Turkish King game
FULL_GAME's (totals −200, 280, −360, 280: seats 1 and 3 share the win; seat 0 takes 4 tricks
in each of the 8 trump hands, the others 3; seat 2 takes the K♥ in both No King hands).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.rules import Record
from scorekeeper.stats import GameFigures, game_figures
from tests.rules.builders import FULL_GAME, TRIX_KINGDOM, load, raw_record


def trix(players: list[str], at: str | None, mode: str = "solo", deals: int = 20) -> Record:
    top = {"players": players, "mode": mode}
    if at is not None:
        top["created_at"] = at
    return load(raw_record("trix", (TRIX_KINGDOM * 4)[:deals], **top))


def turkish(players: list[str], at: str) -> Record:
    return load(
        raw_record("turkish-king", FULL_GAME["turkish-king"], players=players, created_at=at)
    )


HISTORY = [
    # night 1, Thursday
    trix(["Rami", "Lina", "Omar", "Dana"], "2025-03-06T19:00:00+00:00"),  # G1
    trix(["Lina", "Omar", "Dana", "Sami"], "2025-03-06T20:30:00+00:00"),  # G2
    trix(["Rami", "Omar", "Lina", "Sami"], "2025-03-06T22:00:00+00:00", "partnership"),  # G3
    # night 2, Friday
    turkish(["Omar", "Sami", "Rami", "Dana"], "2025-03-07T20:00:00+00:00"),  # G4
    trix(["Lina", "Rami", "Omar", "Sami"], "2025-03-07T21:00:00+00:00", deals=5),  # G5 unfinished
    trix(["Dana", "Rami", "Sami", "Omar"], "2025-03-07T22:30:00+00:00"),  # G6
]


def history_figures() -> list[GameFigures]:
    return [game_figures(record) for record in HISTORY]


def solo_ending(totals: list[int], at: str) -> GameFigures:
    """A finished solo game of Lina, Rami, Omar and Dana (seats in that order) ending at
    `totals` (the deals are TRIX_GAME's; only the totals rank the rivals)."""
    figures = game_figures(trix(["Lina", "Rami", "Omar", "Dana"], at))
    return replace(figures, totals=tuple(totals))


TIED = [
    solo_ending([10, 0, 20, 20], "2025-05-01T19:00:00+00:00"),
    solo_ending([10, 0, 20, 20], "2025-05-01T20:00:00+00:00"),
    solo_ending([0, 10, 20, 20], "2025-05-01T21:00:00+00:00"),
    solo_ending([0, 10, -50, -50], "2025-05-01T22:00:00+00:00"),
    solo_ending([5, 5, 5, 5], "2025-05-01T23:00:00+00:00"),
    solo_ending([5, 5, 5, 5], "2025-05-02T00:00:00+00:00"),
]
"""Lina and Rami: 2 ahead, 2 behind, 2 level each way; Omar and Dana always level, each ahead
of Lina and of Rami 3 times, behind them once, level twice."""
