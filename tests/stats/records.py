"""Small hand-made records for the statistics tests (built on tests.rules.builders)."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import Record
from tests.rules.builders import FULL_GAME, TRIX_KINGDOM, load, raw_record

TRIX_GAME = FULL_GAME["trix"]
"""TRIX_KINGDOM four times, first seat 0: totals 140, −640, 420, 80 (Omar, seat 2, wins)."""


def trix(
    players: list[str] | None = None, deals: list[dict[str, Any]] | None = None, **top: Any
) -> Record:
    """A Trix record (complete unless `deals` says otherwise)."""
    data = raw_record("trix", TRIX_GAME if deals is None else deals, **top)
    if players is not None:
        data["players"] = players
    return load(data)


def unfinished_trix(players: list[str] | None = None, **top: Any) -> Record:
    """One kingdom of Trix: five deals, not finished."""
    return trix(players, TRIX_KINGDOM, **top)


def turkish(
    deals: list[dict[str, Any]],
    winners: str = "highest",
    players: list[str] | None = None,
    **top: Any,
) -> Record:
    """A Turkish King record with the `winners` house rule."""
    data = raw_record("turkish-king", deals, house_rules={"winners": winners}, **top)
    if players is not None:
        data["players"] = players
    return load(data)
