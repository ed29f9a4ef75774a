"""Who won a partnership game, as a team: the engine says it, the pages only show it."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.rules import load_record, replay

DATA = Path(__file__).parents[1] / "data"


def _replayed(name: str, deals: int | None = None):  # type: ignore[no-untyped-def]
    record = json.loads((DATA / name).read_text())
    if deals is not None:
        record["deals"] = record["deals"][:deals]
    return replay(load_record(json.dumps(record).encode()).game)


def test_the_winning_team_of_a_finished_partnership() -> None:
    result = _replayed("trix-partnership-complete.json")
    assert result.team_totals == (250, -250)
    assert result.winners == (0, 2)
    assert result.winning_teams == (0,)


def test_no_winning_team_before_the_end_or_in_solo() -> None:
    assert _replayed("trix-partnership-complete.json", 5).winning_teams is None
    solo = _replayed("trix-solo-complete.json")
    assert solo.winners and solo.winning_teams is None
