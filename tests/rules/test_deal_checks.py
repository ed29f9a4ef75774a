"""Every check a single deal must pass (docs/rules.md, docs/record-format.md), as tables of
invalid input.

Each row names the field and the message id the engine must give, so that removing a check
from the engine fails its row rather than passing on some other refusal.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import CONTRACTS, GAMES, HouseRules, evaluate, parse_deal, replay
from tests.rules.builders import (
    COMPLEX,
    DIAMONDS,
    KING_OF_HEARTS,
    LTOOSH,
    NO_BOYS,
    NO_HEARTS,
    NO_KING,
    NO_LAST_TWO,
    NO_QUEENS,
    NO_TRICKS,
    QUEENS,
    SAMPLE_DEAL,
    TRIX,
    TRUMP,
    first_problem,
    game_of,
    pairs,
    raw_record,
    refusal,
)

GAME_OF_CONTRACT = {
    contract: game for game, definition in GAMES.items() for contract in definition.contracts
}


def changed(deal: dict[str, Any], **values: Any) -> dict[str, Any]:
    """A copy of a raw deal with some fields replaced."""
    return {**deal, **values}


def without(deal: dict[str, Any], key: str) -> dict[str, Any]:
    """A copy of a raw deal with one field removed."""
    return {k: v for k, v in deal.items() if k != key}


def parse_problems(game: str, raw: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, code) of everything parse_deal finds wrong with `raw` in `game`."""
    deal, problems = parse_deal(GAMES[game], raw)
    assert deal is None, f"{raw} was accepted"
    return pairs(problems)


# --- sums ----------------------------------------------------------------------------------------

SUMS = [
    # (base deal, field, total, unit)
    (DIAMONDS, "counts", 13, "diamonds"),
    (LTOOSH, "tricks", 13, "tricks"),
    (COMPLEX, "tricks", 13, "tricks"),
    (COMPLEX, "diamonds", 13, "diamonds"),
    (TRUMP, "tricks", 13, "tricks"),
    (NO_QUEENS, "counts", 4, "queens"),
    (NO_BOYS, "counts", 8, "kings_and_jacks"),
    (NO_HEARTS, "counts", 13, "hearts"),
    (NO_TRICKS, "tricks", 13, "tricks"),
]


def _sum_cases() -> list[Any]:
    cases = []
    for deal, name, total, unit in SUMS:
        for delta in (-1, +1):
            counts = list(deal[name])
            # move one item on or off a seat that stays in range
            seat = next(s for s, c in enumerate(counts) if 0 <= c + delta <= total)
            counts[seat] += delta
            cases.append(
                pytest.param(
                    deal,
                    name,
                    counts,
                    total + delta,
                    total,
                    unit,
                    id=f"{deal['contract']}.{name}{delta:+d}",
                )
            )
    return cases


@pytest.mark.parametrize(("deal", "name", "counts", "total", "expected", "unit"), _sum_cases())
def test_counts_must_add_up(
    deal: dict[str, Any], name: str, counts: list[int], total: int, expected: int, unit: str
) -> None:
    _, problems = parse_deal(
        GAMES[GAME_OF_CONTRACT[deal["contract"]]], changed(deal, **{name: counts})
    )
    assert len(problems) == 1
    problem = problems[0]
    assert (problem.field, problem.code) == (name, "sum_mismatch")
    assert dict(problem.params) == {"total": total, "expected": expected, "unit": unit}


def test_sum_message_in_words() -> None:
    _, problems = parse_deal(GAMES["trix"], changed(DIAMONDS, counts=[3, 4, 4, 1]))
    assert problems[0].message == "counts add up to 12; there are 13 diamonds"


# --- ranges and types of counts ------------------------------------------------------------------

COUNT_FIELDS = [(deal, name, total) for deal, name, total, _ in SUMS]


@pytest.mark.parametrize(
    ("deal", "name", "maximum"),
    COUNT_FIELDS,
    ids=[f"{d['contract']}.{n}" for d, n, _ in COUNT_FIELDS],
)
@pytest.mark.parametrize("bad", ["above", "negative"])
def test_count_range(deal: dict[str, Any], name: str, maximum: int, bad: str) -> None:
    counts = [maximum + 1, 0, 0, 0] if bad == "above" else [maximum, 0, 0, -1]
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: counts}))
    seat = 0 if bad == "above" else 3
    assert problems[0] == (f"{name}[{seat}]", "count_range")


def test_count_range_names_the_maximum() -> None:
    _, problems = parse_deal(GAMES["turkish-king"], changed(NO_BOYS, counts=[9, 0, 0, 0]))
    assert dict(problems[0].params) == {"maximum": 8}
    assert problems[0].message == "counts[0] must be between 0 and 8"


@pytest.mark.parametrize(
    ("deal", "name", "maximum"),
    COUNT_FIELDS,
    ids=[f"{d['contract']}.{n}" for d, n, _ in COUNT_FIELDS],
)
@pytest.mark.parametrize("value", [True, False, 1.5, 3.0, "3"], ids=repr)
def test_count_must_be_a_json_integer(
    deal: dict[str, Any], name: str, maximum: int, value: object
) -> None:
    counts: list[object] = list(deal[name])
    counts[2] = value
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: counts}))
    assert problems == [(f"{name}[2]", "not_int")]


@pytest.mark.parametrize(
    ("deal", "name", "maximum"),
    COUNT_FIELDS,
    ids=[f"{d['contract']}.{n}" for d, n, _ in COUNT_FIELDS],
)
@pytest.mark.parametrize(
    ("value", "code"),
    [
        ([4, 3, 3], "wrong_length"),
        ([4, 3, 3, 3, 0], "wrong_length"),
        ([], "wrong_length"),
        ({"0": 13}, "not_list"),
        (13, "not_list"),
        ("4333", "not_list"),
    ],
)
def test_counts_are_four_per_seat(
    deal: dict[str, Any], name: str, maximum: int, value: object, code: str
) -> None:
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: value}))
    assert problems == [(name, code)]


@pytest.mark.parametrize(
    ("deal", "name", "maximum"),
    COUNT_FIELDS,
    ids=[f"{d['contract']}.{n}" for d, n, _ in COUNT_FIELDS],
)
def test_counts_are_required(deal: dict[str, Any], name: str, maximum: int) -> None:
    game = GAME_OF_CONTRACT[deal["contract"]]
    assert parse_problems(game, without(deal, name)) == [(name, "missing")]
    assert parse_problems(game, changed(deal, **{name: None})) == [(name, "missing")]


# --- seats ---------------------------------------------------------------------------------------

SEAT_FIELDS = [
    # (deal, how to put a value where a seat goes, field path)
    (KING_OF_HEARTS, lambda v: {"taker": v}, "taker"),
    (KING_OF_HEARTS, lambda v: {"doubled_by": v}, "doubled_by"),
    (QUEENS, lambda v: {"takers": {**QUEENS["takers"], "D": v}}, "takers.D"),
    (QUEENS, lambda v: {"doubled_by": {"C": v}}, "doubled_by.C"),
    (TRIX, lambda v: {"order": [2, 0, v, 1]}, "order[2]"),
    (COMPLEX, lambda v: {"queens": {**COMPLEX["queens"], "S": v}}, "queens.S"),
    (COMPLEX, lambda v: {"king_of_hearts": v}, "king_of_hearts"),
    (COMPLEX, lambda v: {"doubled_by": {"KH": v}}, "doubled_by.KH"),
    (NO_KING, lambda v: {"taker": v}, "taker"),
    (NO_LAST_TWO, lambda v: {"last_two": [0, v]}, "last_two[1]"),
    (NO_LAST_TWO, lambda v: {"last_two": [v, 0]}, "last_two[0]"),
]


@pytest.mark.parametrize(
    ("deal", "put", "path"), SEAT_FIELDS, ids=[f"{d['contract']}.{p}" for d, _, p in SEAT_FIELDS]
)
@pytest.mark.parametrize(
    "value", [4, -1, 13, True, False, 1.5, 3.0, "3", [1], {"seat": 1}], ids=repr
)
def test_seats_are_integers_0_to_3(
    deal: dict[str, Any], put: Any, path: str, value: object
) -> None:
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **put(value)))
    assert problems == [(path, "not_seat")]


# an order with a seat repeated is the permutation check's business, not this one's
SINGLE_SEATS = [row for row in SEAT_FIELDS if row[0] is not TRIX]


@pytest.mark.parametrize(
    ("deal", "put", "path"), SINGLE_SEATS, ids=[f"{d['contract']}.{p}" for d, _, p in SINGLE_SEATS]
)
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_every_seat_is_accepted(deal: dict[str, Any], put: Any, path: str, seat: int) -> None:
    raw = changed(deal, **put(seat))
    parsed, problems = parse_deal(GAMES[GAME_OF_CONTRACT[deal["contract"]]], raw)
    assert parsed is not None, problems


@pytest.mark.parametrize(
    ("deal", "name"),
    [
        (KING_OF_HEARTS, "taker"),
        (NO_KING, "taker"),
        (COMPLEX, "king_of_hearts"),
        (NO_LAST_TWO, "last_two"),
        (TRIX, "order"),
        (QUEENS, "takers"),
        (COMPLEX, "queens"),
        (TRUMP, "suit"),
    ],
)
def test_required_fields(deal: dict[str, Any], name: str) -> None:
    game = GAME_OF_CONTRACT[deal["contract"]]
    assert parse_problems(game, without(deal, name)) == [(name, "missing")]
    assert parse_problems(game, changed(deal, **{name: None})) == [(name, "missing")]


@pytest.mark.parametrize("last_two", [[0, 0], [3, 3], [1, 2]])
def test_no_last_two_may_name_one_seat_twice(last_two: list[int]) -> None:
    deal, problems = parse_deal(GAMES["turkish-king"], changed(NO_LAST_TWO, last_two=last_two))
    assert deal is not None, problems


@pytest.mark.parametrize(
    ("deal", "name", "value", "code"),
    [
        (NO_LAST_TWO, "last_two", [0], "wrong_length"),
        (NO_LAST_TWO, "last_two", [0, 1, 2], "wrong_length"),
        (NO_LAST_TWO, "last_two", "01", "not_list"),
        (NO_LAST_TWO, "last_two", 0, "not_list"),
        (TRIX, "order", [0, 1, 2], "wrong_length"),
        (TRIX, "order", [0, 1, 2, 3, 0], "wrong_length"),
        (TRIX, "order", {"0": 1}, "not_list"),
        (TRIX, "order", 123, "not_list"),
    ],
)
def test_seat_sequences_shape(deal: dict[str, Any], name: str, value: object, code: str) -> None:
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: value}))
    assert problems == [(name, code)]


# --- trix order ----------------------------------------------------------------------------------


@pytest.mark.parametrize("order", [[0, 0, 1, 2], [3, 3, 3, 3], [1, 2, 3, 1], [0, 1, 2, 2]])
def test_trix_order_is_a_permutation(order: list[int]) -> None:
    assert parse_problems("trix", changed(TRIX, order=order)) == [("order", "not_permutation")]


def test_trix_order_permutations_all_accepted() -> None:
    from itertools import permutations

    for order in permutations(range(4)):
        deal, problems = parse_deal(GAMES["trix"], changed(TRIX, order=list(order)))
        assert deal is not None, problems


# --- queens and cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
@pytest.mark.parametrize(("deal", "name"), [(QUEENS, "takers"), (COMPLEX, "queens")])
def test_every_queen_needs_a_taker(deal: dict[str, Any], name: str, suit: str) -> None:
    takers = {s: seat for s, seat in deal[name].items() if s != suit}
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: takers}))
    assert problems == [(name, "card_keys")]


@pytest.mark.parametrize(("deal", "name"), [(QUEENS, "takers"), (COMPLEX, "queens")])
@pytest.mark.parametrize("card", ["KH", "X", "s", "JH", "QS"])
def test_queen_takers_name_suits_only(deal: dict[str, Any], name: str, card: str) -> None:
    takers = {**deal[name], card: 0}
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: takers}))
    assert problems == [(f"{name}.{card}", "bad_card")]


@pytest.mark.parametrize(
    ("deal", "name"),
    [(QUEENS, "takers"), (COMPLEX, "queens"), (QUEENS, "doubled_by"), (COMPLEX, "doubled_by")],
)
@pytest.mark.parametrize("value", [[0, 1, 1, 3], "S0", 0])
def test_card_maps_are_objects(deal: dict[str, Any], name: str, value: object) -> None:
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{name: value}))
    assert problems == [(name, "not_object")]


@pytest.mark.parametrize("suit", ["N", "NT", "s", "", 0, True, None])
def test_trump_suit(suit: object) -> None:
    code = "missing" if suit is None else "not_suit"
    assert parse_problems("turkish-king", changed(TRUMP, suit=suit)) == [("suit", code)]


@pytest.mark.parametrize("suit", ["S", "H", "D", "C"])
def test_every_trump_suit_accepted(suit: str) -> None:
    deal, problems = parse_deal(GAMES["turkish-king"], changed(TRUMP, suit=suit))
    assert deal is not None, problems


# --- doubling ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "card"),
    [
        (QUEENS, "KH"),
        (QUEENS, "JH"),
        (QUEENS, "QS"),
        (QUEENS, "X"),
        (COMPLEX, "JH"),
        (COMPLEX, "QH"),
        (COMPLEX, "KS"),
        (COMPLEX, "AH"),
        (COMPLEX, "kh"),
    ],
)
def test_doubling_a_card_that_cannot_be_doubled(deal: dict[str, Any], card: str) -> None:
    problems = parse_problems(
        GAME_OF_CONTRACT[deal["contract"]], changed(deal, doubled_by={card: 1})
    )
    assert problems == [(f"doubled_by.{card}", "bad_card")]


@pytest.mark.parametrize(
    "deal",
    [DIAMONDS, LTOOSH, TRIX, TRUMP, NO_KING, NO_QUEENS, NO_BOYS, NO_HEARTS, NO_LAST_TWO, NO_TRICKS],
    ids=lambda deal: deal["contract"],
)
@pytest.mark.parametrize("doubled_by", [1, {"H": 1}, None])
def test_doubling_where_the_contract_has_none(deal: dict[str, Any], doubled_by: object) -> None:
    problems = parse_problems(
        GAME_OF_CONTRACT[deal["contract"]], changed(deal, doubled_by=doubled_by)
    )
    assert problems == [("doubled_by", "unknown_key")]


@pytest.mark.parametrize(
    ("game", "deal", "doubled_by"),
    [
        ("trix", KING_OF_HEARTS, 1),
        ("trix", KING_OF_HEARTS, 3),
        ("trix", QUEENS, {"H": 0}),
        ("trix", QUEENS, {"S": 0, "C": 2}),
        ("trix-complex", COMPLEX, {"KH": 1}),
        ("trix-complex", COMPLEX, {"D": 2}),
    ],
)
def test_doubling_switched_off(game: str, deal: dict[str, Any], doubled_by: object) -> None:
    off = game_of(game, house_rules=HouseRules(doubling=False))
    if game == "trix-complex":
        off = game_of(game, [TRIX], house_rules=HouseRules(doubling=False))
    evaluation = evaluate(replay(off), changed(deal, doubled_by=doubled_by))
    assert pairs(evaluation.problems) == [("doubled_by", "doubling_off")]
    on = game_of(game, [TRIX] if game == "trix-complex" else [])
    assert evaluate(replay(on), changed(deal, doubled_by=doubled_by)).ok


@pytest.mark.parametrize(
    ("game", "deal", "doubled_by"),
    [
        ("trix", KING_OF_HEARTS, None),
        ("trix", QUEENS, {}),
        ("trix", QUEENS, {"H": None}),
        ("trix-complex", COMPLEX, {}),
        ("trix-complex", COMPLEX, None),
    ],
)
def test_nothing_doubled_is_fine_with_doubling_off(
    game: str, deal: dict[str, Any], doubled_by: object
) -> None:
    off = game_of(
        game, [TRIX] if game == "trix-complex" else [], house_rules=HouseRules(doubling=False)
    )
    assert evaluate(replay(off), changed(deal, doubled_by=doubled_by)).ok


def test_doubling_off_through_the_record() -> None:
    error = refusal(
        raw_record("trix", [changed(KING_OF_HEARTS, doubled_by=2)], house_rules={"doubling": False})
    )
    assert (error.deal_number, error.contract) == (1, "king-of-hearts")
    assert first_problem(error) == ("doubled_by", "doubling_off")


# --- unknown keys and contracts ------------------------------------------------------------------


@pytest.mark.parametrize(
    "deal",
    [DIAMONDS, KING_OF_HEARTS, QUEENS, COMPLEX, TRUMP, NO_LAST_TWO],
    ids=lambda deal: deal["contract"],
)
@pytest.mark.parametrize("key", ["count", "Taker", "extra", "seat", "king_of_hearts "])
def test_unknown_keys_in_a_deal(deal: dict[str, Any], key: str) -> None:
    problems = parse_problems(GAME_OF_CONTRACT[deal["contract"]], changed(deal, **{key: 1}))
    assert (key, "unknown_key") in problems


@pytest.mark.parametrize(
    ("game", "contract"),
    [
        ("trix", "complex"),
        ("trix", "trump"),
        ("trix", "no-king"),
        ("trix", "KING-OF-HEARTS"),
        ("trix-complex", "diamonds"),
        ("trix-complex", "queens"),
        ("trix-complex", "king-of-hearts"),
        ("trix-complex", "ltoosh"),
        ("trix-complex", "no-tricks"),
        ("turkish-king", "trix"),
        ("turkish-king", "complex"),
        ("turkish-king", "diamonds"),
        ("turkish-king", "no-trump"),
        ("trix", "bridge"),
        ("trix", ""),
        ("trix", 1),
        ("trix", None),
        ("trix", ["trix"]),
    ],
)
def test_contract_not_of_this_game(game: str, contract: object) -> None:
    raw = {"contract": contract, "counts": [3, 4, 5, 1]}
    assert parse_problems(game, raw)[0] == ("contract", "unknown_contract")


@pytest.mark.parametrize(
    ("game", "deal"),
    [
        ("trix", TRUMP),
        ("trix", COMPLEX),
        ("trix-complex", DIAMONDS),
        ("turkish-king", DIAMONDS),
        ("turkish-king", TRIX),
    ],
)
def test_contract_not_of_this_game_in_a_record(game: str, deal: dict[str, Any]) -> None:
    error = refusal(raw_record(game, [SAMPLE_DEAL[game], deal]))
    assert error.deal_number == 2
    assert first_problem(error) == ("contract", "unknown_contract")


def test_contracts_of_each_game() -> None:
    assert GAMES["trix"].contracts == ("king-of-hearts", "queens", "diamonds", "ltoosh", "trix")
    assert GAMES["trix-complex"].contracts == ("trix", "complex")
    assert set(GAMES["turkish-king"].contracts) == {
        "trump",
        "no-king",
        "no-queens",
        "no-boys",
        "no-hearts",
        "no-last-two",
        "no-tricks",
    }
    assert set(CONTRACTS) == {c for g in GAMES.values() for c in g.contracts}


# --- Trix Complex consistency --------------------------------------------------------------------


def complex_problems(**values: Any) -> list[tuple[str, str]]:
    """(field, code) of what evaluate(replay()) finds wrong with a complex deal as deal 2."""
    game = game_of("trix-complex", [TRIX])
    evaluation = evaluate(replay(game), changed(COMPLEX, **values))
    assert evaluation.deal is not None, "the deal should parse; the check is in context"
    return pairs(evaluation.problems)


def test_the_base_complex_deal_is_legal() -> None:
    assert complex_problems() == []


@pytest.mark.parametrize(
    ("values", "seat"),
    [
        # seat 3 takes no trick but a diamond
        ({"tricks": [5, 4, 4, 0], "diamonds": [5, 4, 3, 1]}, 3),
        # seat 2 takes no trick but the Q♣
        (
            {
                "tricks": [5, 4, 0, 4],
                "diamonds": [5, 4, 0, 4],
                "queens": {"S": 0, "H": 1, "D": 0, "C": 2},
            },
            2,
        ),
        # seat 1 takes no trick but the K♥
        (
            {
                "tricks": [5, 0, 4, 4],
                "diamonds": [5, 0, 4, 4],
                "queens": {"S": 0, "H": 2, "D": 0, "C": 3},
                "king_of_hearts": 1,
            },
            1,
        ),
    ],
)
def test_complex_no_tricks_no_cards(values: dict[str, Any], seat: int) -> None:
    assert complex_problems(**values) == [(f"tricks[{seat}]", "no_tricks_no_cards")]


@pytest.mark.parametrize(
    ("values", "seat", "cards", "tricks"),
    [
        # seat 3: one trick, five diamonds and the Q♣
        ({"tricks": [4, 4, 4, 1], "diamonds": [5, 1, 2, 5]}, 3, 6, 1),
        # seat 1: one trick, 3 diamonds + Q♥ + K♥ = 5 cards
        ({"tricks": [4, 1, 4, 4], "diamonds": [5, 3, 3, 2]}, 1, 5, 1),
        # seat 0: two tricks, 6 diamonds + Q♠ + Q♣ + K♥ (Q♦ elsewhere) = 9 cards
        (
            {
                "tricks": [2, 5, 3, 3],
                "diamonds": [6, 3, 2, 2],
                "queens": {"S": 0, "H": 1, "D": 1, "C": 0},
                "king_of_hearts": 0,
            },
            0,
            9,
            2,
        ),
    ],
)
def test_complex_cards_exceed_tricks(
    values: dict[str, Any], seat: int, cards: int, tricks: int
) -> None:
    game = game_of("trix-complex", [TRIX])
    evaluation = evaluate(replay(game), changed(COMPLEX, **values))
    assert pairs(evaluation.problems) == [(f"tricks[{seat}]", "cards_exceed_tricks")]
    assert dict(evaluation.problems[0].params) == {"cards": cards, "tricks": tricks}


def test_complex_cards_fit_exactly() -> None:
    # seat 3: one trick holding the Q♦ plus three other diamonds = 4 cards (Q♦ counted once)
    assert (
        complex_problems(
            tricks=[4, 4, 4, 1], diamonds=[3, 3, 3, 4], queens={"S": 0, "H": 1, "D": 3, "C": 0}
        )
        == []
    )
    # seat 2: one trick with a diamond, the Q♠, the Q♣ and the K♥
    assert (
        complex_problems(
            tricks=[4, 4, 1, 4],
            diamonds=[4, 4, 1, 4],
            queens={"S": 2, "H": 1, "D": 0, "C": 2},
            king_of_hearts=2,
        )
        == []
    )


def test_complex_queen_of_diamonds_taker_took_a_diamond() -> None:
    values = {"diamonds": [5, 4, 4, 0], "queens": {"S": 0, "H": 1, "D": 3, "C": 3}}
    assert complex_problems(**values) == [("queens.D", "queen_diamond_without_diamond")]


def test_complex_checks_through_the_record() -> None:
    bad = changed(COMPLEX, tricks=[5, 4, 4, 0], diamonds=[5, 4, 3, 1])
    error = refusal(raw_record("trix-complex", [TRIX, bad]))
    assert (error.deal_number, error.contract) == (2, "complex")
    assert first_problem(error) == ("tricks[3]", "no_tricks_no_cards")
    assert str(error) == "deal 2 (complex): tricks[3]: a player who took no tricks took no cards"
