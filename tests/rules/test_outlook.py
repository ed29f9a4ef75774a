"""Can still win? (rules/outlook.py): the bounds of the deals left, checked against a brute force
over every extreme deal of each contract left (counts all to one seat; every taker, double,
order and pair), summed over every way the rest of a small remaining game can go."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from scorekeeper.rules import (
    CONTRACTS,
    Deal,
    FieldKind,
    FieldSpec,
    HouseRules,
    Replay,
    replay,
    team_totals,
)
from scorekeeper.rules.deal import Value
from scorekeeper.rules.house_rules import FULL, ComplexTricks, QueenOfDiamonds, Winners
from scorekeeper.rules.outlook import outlook, remaining_contracts
from tests.rules.builders import (
    COMPLEX_KINGDOM,
    TRIX_KINGDOM,
    TURKISH_NEGATIVES,
    load,
    raw_record,
)

Scores = tuple[int, ...]


def _choices(spec: FieldSpec) -> list[Value]:
    """A field's values in the brute force: counts at their corners (all to one seat), every
    other field whole."""
    seats = range(4)
    match spec.kind:
        case FieldKind.COUNTS:
            return [tuple(spec.total if s == seat else 0 for s in seats) for seat in seats]
        case FieldKind.SEAT:
            return list(seats)
        case FieldKind.OPTIONAL_SEAT:
            return [None, *seats]
        case FieldKind.ORDER:
            return list(itertools.permutations(seats))
        case FieldKind.SEAT_PAIR:
            return list(itertools.product(seats, seats))
        case FieldKind.SUIT:
            return ["S"]
        case FieldKind.CARD_SEATS:
            return [dict(zip(spec.cards, t, strict=True)) for t in _seats_each(spec, False)]
        case FieldKind.OPTIONAL_CARD_SEATS:
            return [
                {card: seat for card, seat in zip(spec.cards, t, strict=True) if seat is not None}
                for t in _seats_each(spec, True)
            ]
    raise AssertionError(spec.kind)


def _seats_each(spec: FieldSpec, optional: bool) -> Iterator[tuple[int | None, ...]]:
    options: list[int | None] = [None, 0, 1, 2, 3] if optional else [0, 1, 2, 3]
    return itertools.product(options, repeat=len(spec.cards))


def _legal(contract: str, values: dict[str, Value], rules: HouseRules) -> bool:
    deal = Deal(contract, {k: v for k, v in values.items() if v is not None})
    return not CONTRACTS[contract].check(deal, rules)


@cache
def _outcomes(contract: str, rules: HouseRules) -> frozenset[Scores]:
    """Every score vector a legal extreme deal of `contract` gives under `rules`: the takes
    first (checked), then every double on them."""
    specs = CONTRACTS[contract].specs(rules)
    takes = [
        s for s in specs if s.kind not in (FieldKind.OPTIONAL_SEAT, FieldKind.OPTIONAL_CARD_SEATS)
    ]
    doubles = [s for s in specs if s not in takes]
    found: set[Scores] = set()
    for take in itertools.product(*(_choices(s) for s in takes)):
        values = dict(zip((s.name for s in takes), take, strict=True))
        if not _legal(contract, values, rules):
            continue
        for double in itertools.product(*(_choices(s) for s in doubles)):
            full = {**values, **dict(zip((s.name for s in doubles), double, strict=True))}
            if _legal(contract, full, rules):
                deal = Deal(contract, {k: v for k, v in full.items() if v not in (None, {})})
                found.add(CONTRACTS[contract].score(deal, rules))
    return frozenset(found)


def _finals(result: Replay) -> set[Scores]:
    """Every side's final total (players', or teams' in partnership) over every way the deals
    left can go, each deal any legal extreme deal of its contract."""
    team = result.team_totals is not None
    finals: set[Scores] = {result.totals}
    for contract in remaining_contracts(result):
        finals = {
            tuple(a + b for a, b in zip(total, scores, strict=True))
            for total in finals
            for scores in _outcomes(contract, result.game.house_rules)
        }
    return {team_totals(f) if team else f for f in finals}


def _check_against_brute_force(result: Replay) -> None:
    seen = outlook(result)
    finals = _finals(result)
    now = seen.totals
    sides = range(len(now))
    for side in sides:
        assert min(f[side] for f in finals) == now[side] + seen.lowest
        assert max(f[side] for f in finals) == now[side] + seen.highest
        for other in sides:
            if other != side:
                best = max(f[side] - f[other] for f in finals)
                assert best == now[side] - now[other] + seen.gain
    if result.game.house_rules.winners == Winners.POSITIVE:
        assert seen.out == tuple(s for s in sides if all(f[s] <= 0 for f in finals))
        assert seen.sure == tuple(s for s in sides if all(f[s] > 0 for f in finals))
        settled = len(seen.out) + len(seen.sure) == len(now)
        assert seen.decided == (seen.sure if settled else None)
        return
    leader = max(sides, key=lambda s: now[s])
    assert seen.out == tuple(s for s in sides if all(f[s] < f[leader] for f in finals))
    certain = [w for w in sides if all(f[w] > f[s] for f in finals for s in sides if s != w)]
    assert seen.decided == (tuple(certain) if certain else None)


def _game(game: str, deals: list[dict[str, Any]], **top: Any) -> Replay:
    return replay(load(raw_record(game, deals, **top)).game)


TRIX_RULES = [
    {},
    {"doubling": False},
    {"doubled_self_take": FULL},
]
# three kingdoms, then the last one's diamonds and ltoosh: the K♥, queens and trix are left
TRIX_NEARLY = TRIX_KINGDOM * 3 + TRIX_KINGDOM[2:4]


@pytest.mark.parametrize("house", TRIX_RULES, ids=str)
def test_trix_solo_bounds_match_the_brute_force(house: dict[str, Any]) -> None:
    result = _game("trix", TRIX_NEARLY, house_rules=house)
    assert remaining_contracts(result) == ("king-of-hearts", "queens", "trix")
    _check_against_brute_force(result)
    seen = outlook(result)
    doubling = house.get("doubling", True)
    assert (seen.lowest, seen.highest) == (
        (-150 - 200 + 50, 75 + 100 + 200) if doubling else (-75 - 100 + 50, 200)
    )


@pytest.mark.parametrize("house", TRIX_RULES, ids=str)
def test_trix_partnership_bounds_match_the_brute_force(house: dict[str, Any]) -> None:
    result = _game("trix", TRIX_NEARLY, mode="partnership", house_rules=house)
    _check_against_brute_force(result)
    seen = outlook(result)
    # a team: the 1st and 2nd places (+350) or the 3rd and 4th (+150) of the trix
    assert seen.highest - seen.lowest == (
        225 + 300 + 200 if house.get("doubling", True) else 75 + 100 + 200
    )


COMPLEX_RULES = [
    {},
    {"doubling": False},
    {"doubled_queen_of_diamonds": QueenOfDiamonds.WHOLE},
    {"complex_tricks": ComplexTricks.PENALTY, "doubled_self_take": FULL},
]


# docs/rules.md's worked example of `complex_tricks` "penalty": legal under either rule
PENALTY_COMPLEX = {
    "contract": "complex",
    "tricks": [3, 2, 0, 1],
    "diamonds": [6, 4, 0, 3],
    "queens": {"S": 0, "H": 0, "D": 1, "C": 1},
    "king_of_hearts": 3,
}


@pytest.mark.parametrize("mode", ["solo", "partnership"])
@pytest.mark.parametrize("house", COMPLEX_RULES, ids=str)
def test_trix_complex_bounds_match_the_brute_force(house: dict[str, Any], mode: str) -> None:
    # three kingdoms and the last one's trix: its complex is left
    kingdom = (
        [COMPLEX_KINGDOM[0], PENALTY_COMPLEX] if house.get("complex_tricks") else COMPLEX_KINGDOM
    )
    result = _game("trix-complex", kingdom * 3 + kingdom[:1], mode=mode, house_rules=house)
    assert remaining_contracts(result) == ("complex",)
    _check_against_brute_force(result)


def test_trix_complex_two_deals_left() -> None:
    result = _game("trix-complex", COMPLEX_KINGDOM * 3)
    assert sorted(remaining_contracts(result)) == ["complex", "trix"]
    _check_against_brute_force(result)
    seen = outlook(result)
    # the complex: +175 for doubling the K♥ and the four queens, −675 for taking all doubled
    assert (seen.lowest, seen.highest) == (-675 + 50, 175 + 200)


TRUMP = {"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]}
# every player's negatives but seat 3's last (no-tricks), then six of the eight trumps
TURKISH_NEARLY = TURKISH_NEGATIVES * 2
TURKISH_NEARLY = [*TURKISH_NEARLY[:-1], *[TRUMP] * 6]


@pytest.mark.parametrize("winners", list(Winners))
def test_turkish_king_bounds_match_the_brute_force(winners: Winners) -> None:
    result = _game("turkish-king", TURKISH_NEARLY, house_rules={"winners": winners})
    assert sorted(remaining_contracts(result)) == ["no-tricks", "trump", "trump"]
    _check_against_brute_force(result)
    seen = outlook(result)
    assert (seen.lowest, seen.highest) == (-650, 1300)


def test_a_decided_game_and_players_out_of_reach() -> None:
    # seat 0 takes every trump trick of the first six: far ahead with three deals left
    sweep = {"contract": "trump", "suit": "S", "tricks": [13, 0, 0, 0]}
    deals = [*TURKISH_NEGATIVES * 2][:-1]
    deals = [*deals, *[sweep] * 6]
    result = _game("turkish-king", deals)
    _check_against_brute_force(result)
    seen = outlook(result)
    assert seen.out == (1, 2, 3)
    assert seen.decided == (0,)
