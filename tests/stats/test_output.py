"""to_json(): the issue's `scorekeeper stats` format exactly, extra keys beside it."""

from __future__ import annotations

import json

from scorekeeper.stats import compute, to_json
from tests.rules.builders import TURKISH_GAME
from tests.stats.records import trix, turkish, unfinished_trix

ISSUE_KEYS = ["name", "games", "finished", "wins", "points", "contracts"]


def test_the_issue_format() -> None:
    data = to_json(compute([trix(), unfinished_trix(), turkish(TURKISH_GAME)]))
    json.dumps(data)  # plain JSON values only
    assert next(iter(data)) == "players"
    for player in data["players"]:
        assert list(player)[:6] == ISSUE_KEYS
        for figures in player["contracts"].values():
            assert list(figures) == ["deals", "points"]
    lina = next(p for p in data["players"] if p["name"] == "Lina")
    assert {k: lina[k] for k in ISSUE_KEYS[:5]} == {
        "name": "Lina",
        "games": 3,
        "finished": 2,
        "wins": 1,
        "points": None,  # Trix (−640) and King (+280) points are never added up
    }
    by_kind = {
        game: next(p["points"] for p in players if p["name"] == "Lina")
        for game, players in data["standings"].items()
        if players
    }
    assert by_kind == {"trix": -640, "turkish-king": 280}
    assert lina["contracts"]["king-of-hearts"] == {"deals": 5, "points": -375}
    assert lina["contracts"]["trump"] == {"deals": 8, "points": 1200}


def test_only_contracts_played_appear() -> None:
    data = to_json(compute([trix()]))
    assert all(
        set(p["contracts"]) == {"king-of-hearts", "queens", "diamonds", "ltoosh", "trix"}
        for p in data["players"]
    )


def test_extra_keys() -> None:
    data = to_json(
        compute(
            [
                trix(created_at="2025-01-01T20:00:00", mode="partnership"),
                trix(["Omar", "Lina", "Rami", "Dana"], created_at="2025-01-02T20:00:00"),
            ]
        )
    )
    assert (data["games"], data["finished"]) == (2, 2)
    omar = next(p for p in data["players"] if p["name"] == "Omar")
    assert (omar["key"], omar["win_rate"], omar["longest_streak"], omar["current_streak"]) == (
        "omar",
        0.5,
        1,
        0,
    )
    assert omar["details"]["king-of-hearts"] == {
        "taken": {"king_of_hearts": 0},
        "doubles": 0,
        "doubles_gain": 0,
    }
    assert omar["details"]["trix"] == {"places": 4 * 1 + 4 * 2}  # first, then second out
    assert sorted(data["standings"]) == ["trix", "trix-complex", "turkish-king"]
    assert data["standings"]["trix"][0]["name"] == data["players"][0]["name"]
    assert data["partnerships"] == [
        {"names": ["Omar", "Rami"], "games": 1, "finished": 1, "wins": 1, "points": 560},
        {"names": ["Dana", "Lina"], "games": 1, "finished": 1, "wins": 0, "points": -560},
    ]


def test_no_records() -> None:
    assert to_json(compute([]))["players"] == []
