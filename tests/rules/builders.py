"""Records and deals for the engine tests: legal building blocks and helpers to break them.

Imported as ``tests.rules.builders`` (rootdir-relative); needs nothing but the engine.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import (
    GAMES,
    Game,
    HouseRules,
    NotARecordError,
    Problem,
    Record,
    RuleError,
    load_record,
    parse_deal,
)

EXAMPLES = Path(__file__).parent / "examples"
PLAYERS = ["Rami", "Lina", "Omar", "Dana"]

# --- legal deals ---------------------------------------------------------------------------------

KING_OF_HEARTS = {"contract": "king-of-hearts", "taker": 1}
QUEENS = {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}}
DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}
TRIX = {"contract": "trix", "order": [2, 0, 3, 1]}
TRIX_KINGDOM = [KING_OF_HEARTS, QUEENS, DIAMONDS, LTOOSH, TRIX]

COMPLEX = {
    "contract": "complex",
    "tricks": [4, 3, 3, 3],
    "diamonds": [5, 4, 2, 2],
    "queens": {"S": 0, "H": 1, "D": 0, "C": 3},
    "king_of_hearts": 1,
}
COMPLEX_KINGDOM = [TRIX, COMPLEX]

TRUMP = {"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]}
NO_KING = {"contract": "no-king", "taker": 2}
NO_QUEENS = {"contract": "no-queens", "counts": [1, 1, 1, 1]}
NO_BOYS = {"contract": "no-boys", "counts": [2, 2, 2, 2]}
NO_HEARTS = {"contract": "no-hearts", "counts": [4, 3, 3, 3]}
NO_LAST_TWO = {"contract": "no-last-two", "last_two": [0, 0]}
NO_TRICKS = {"contract": "no-tricks", "tricks": [4, 3, 3, 3]}
TURKISH_NEGATIVES = [NO_KING, NO_QUEENS, NO_BOYS, NO_HEARTS, NO_LAST_TWO, NO_TRICKS]
# 8 trumps (two per player, declarers rotate), then each negative twice (three per player)
TURKISH_GAME = [TRUMP] * 8 + TURKISH_NEGATIVES * 2

# TURKISH_GAME ends 280 for seats 1 and 3: make seat 1 take one more trump trick than seat 0
TWO_ABOVE_ZERO: list[dict[str, Any]] = [
    {"contract": "trump", "suit": "S", "tricks": [3, 4, 3, 3]},
    *TURKISH_GAME[1:],
]

# every player ends at 0: each takes 26 trump tricks (+1300) and loses 1300 on the negatives
_ROTATING_TRUMPS = [
    {"contract": "trump", "suit": "H", "tricks": [4 if seat == hand else 3 for seat in range(4)]}
    for hand in range(4)
]
ALL_AT_ZERO: list[dict[str, Any]] = [
    *_ROTATING_TRUMPS * 2,
    {"contract": "no-king", "taker": 0},  # −320 each for seats 0 and 1
    {"contract": "no-queens", "counts": [1, 1, 1, 1]},  # −200 each over both hands
    {"contract": "no-boys", "counts": [2, 2, 2, 2]},  # −240 each over both hands
    {"contract": "no-hearts", "counts": [1, 1, 5, 6]},  # −60, −60, −330, −330
    {"contract": "no-last-two", "last_two": [0, 1]},  # −180 each over both hands
    {"contract": "no-tricks", "tricks": [3, 3, 3, 4]},  # −300, −300, −350, −350
    {"contract": "no-king", "taker": 1},
    {"contract": "no-queens", "counts": [1, 1, 1, 1]},
    {"contract": "no-boys", "counts": [2, 2, 2, 2]},
    {"contract": "no-hearts", "counts": [1, 1, 6, 5]},
    {"contract": "no-last-two", "last_two": [2, 3]},
    {"contract": "no-tricks", "tricks": [3, 3, 4, 3]},
]
"""Turkish King games for the `winners` house rule (docs/rules.md, Every game)."""

SAMPLE_DEAL = {
    "trix": DIAMONDS,
    "trix-complex": COMPLEX,
    "turkish-king": NO_HEARTS,
}
"""One legal first deal for each game."""

FULL_GAME = {
    "trix": TRIX_KINGDOM * 4,
    "trix-complex": COMPLEX_KINGDOM * 4,
    "turkish-king": TURKISH_GAME,
}
"""A complete legal game's deals for each game (first seat 0)."""


def raw_record(
    game: str = "trix", deals: list[dict[str, Any]] | None = None, **top: Any
) -> dict[str, Any]:
    """A record as JSON data; keyword arguments replace or add top-level keys."""
    data: dict[str, Any] = {
        "format": "scorekeeper-game/1",
        "game": game,
        "mode": "solo",
        "players": list(PLAYERS),
        "first": 0,
        "deals": copy.deepcopy(deals) if deals is not None else [],
    }
    data.update(top)
    return data


def load(data: Any) -> Record:
    """Load JSON data as a record, through the same text parser the CLI and import use."""
    return load_record(json.dumps(data))


def refusal(data: Any) -> RuleError:
    """The RuleError loading `data` raises (fails the test if it loads)."""
    with pytest.raises(RuleError) as caught:
        load(data)
    return caught.value


def refusal_text(text: str) -> RuleError:
    """The RuleError loading JSON text raises (for duplicate keys, which dicts cannot hold)."""
    with pytest.raises(RuleError) as caught:
        load_record(text)
    return caught.value


def not_a_record(text: str) -> NotARecordError:
    """The NotARecordError loading JSON text raises."""
    with pytest.raises(NotARecordError) as caught:
        load_record(text)
    return caught.value


def first_problem(error: RuleError) -> tuple[str, str]:
    """(field, code) of the headline problem."""
    return error.problems[0].field, error.problems[0].code


def pairs(problems: list[Problem]) -> list[tuple[str, str]]:
    """(field, code) of each problem."""
    return [(problem.field, problem.code) for problem in problems]


def game_of(
    game: str = "trix",
    deals: list[dict[str, Any]] | None = None,
    *,
    mode: str = "solo",
    first: int = 0,
    house_rules: HouseRules | None = None,
) -> Game:
    """A Game built from raw deals (each must parse; context is not checked here)."""
    definition = GAMES[game]
    parsed = []
    for raw in deals or []:
        deal, problems = parse_deal(definition, raw, house_rules)
        assert deal is not None, problems
        parsed.append(deal)
    return Game(game, mode, tuple(PLAYERS), first, house_rules or HouseRules(), tuple(parsed))


def example(name: str) -> tuple[str, Any]:
    """An example record's text and the object `scorekeeper check` prints for it."""
    text = (EXAMPLES / f"{name}.json").read_text(encoding="utf-8")
    expected = json.loads((EXAMPLES / f"{name}.check.json").read_text(encoding="utf-8"))
    return text, expected


EXAMPLE_NAMES = sorted(
    path.name.removesuffix(".check.json") for path in EXAMPLES.glob("*.check.json")
)
