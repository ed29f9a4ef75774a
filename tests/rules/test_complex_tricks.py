"""House rule `complex_tricks` (Trix Complex), issue 22: "every" (default, −15 for every trick)
or "penalty" (only a trick that held a penalty card costs −15; `tricks` counts those alone).

docs/rules.md (Trix Complex) gives the checks under "penalty" — each count 0..13, at most 13 in all,
0 such tricks ⇒ no penalty card, the cards fit in them, each such trick holds one of them — and
a worked example; docs/record-format.md the key. Each check below fails when its rule is removed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import (
    ComplexTricks,
    HouseRules,
    Record,
    check_output,
    check_setup,
    dump_record,
    dumps_record,
    evaluate,
    load_record,
    replay,
)
from scorekeeper.rules.autofill import autofill
from tests.rules.builders import (
    COMPLEX,
    TRIX,
    first_problem,
    game_of,
    load,
    pairs,
    raw_record,
    refusal,
)

PENALTY = HouseRules(complex_tricks=ComplexTricks.PENALTY)

# docs/rules.md's worked example: tricks-with-penalty [3, 2, 0, 1], diamonds [6, 4, 0, 3], Q♠ Q♥ to
# seat 0, Q♦ Q♣ to seat 1, K♥ to seat 3, nothing doubled
WORKED = {
    "contract": "complex",
    "tricks": [3, 2, 0, 1],
    "diamonds": [6, 4, 0, 3],
    "queens": {"S": 0, "H": 0, "D": 1, "C": 1},
    "king_of_hearts": 3,
}

# 13 tricks that each held a penalty card: seat 0 five diamonds (the Q♦ one of them), seat 1
# four, seat 2 three and the Q♠, seat 3 one diamond, the Q♥, the Q♣ and the K♥
FULL_HOUSE = {
    "contract": "complex",
    "tricks": [4, 4, 4, 1],
    "diamonds": [5, 4, 3, 1],
    "queens": {"S": 2, "H": 3, "D": 0, "C": 3},
    "king_of_hearts": 3,
}


def penalty_record(*deals: dict[str, Any], **top: Any) -> dict[str, Any]:
    return raw_record(
        "trix-complex", [TRIX, *deals], house_rules={"complex_tricks": "penalty"}, **top
    )


def problems_of(deal: dict[str, Any], rules: HouseRules = PENALTY) -> list[tuple[str, str]]:
    """(field, code) of what the engine says about `deal` as the second deal of a kingdom."""
    game = game_of("trix-complex", [TRIX], house_rules=rules)
    return pairs(evaluate(replay(game), deal).problems)


# --- the worked example --------------------------------------------------------------------------


def test_rules_md_worked_example_scores_as_written() -> None:
    result = replay(load(penalty_record(WORKED)).game)
    assert result.deals[1].scores == (-155, -120, 0, -120)
    # a kingdom no longer sums to zero
    assert sum(result.deals[1].scores) == -395


def test_the_worked_example_through_scorekeeper_check() -> None:
    output = check_output(replay(load_record(json.dumps(penalty_record(WORKED))).game))
    assert output["deals"][1]["scores"] == [-155, -120, 0, -120]  # type: ignore[index]


def test_under_every_the_same_entry_is_refused_and_a_full_count_scores_zero_sum() -> None:
    # the default reads `tricks` as every trick: 6 of 13 is a wrong sum
    error = refusal(raw_record("trix-complex", [TRIX, WORKED]))
    assert first_problem(error) == ("tricks", "sum_mismatch")
    assert error.headline() == "deal 2 (complex): tricks add up to 6; there are 13 tricks"
    every = replay(load(raw_record("trix-complex", [TRIX, COMPLEX])).game)
    assert sum(every.deals[1].scores) == -500


def test_scores_charge_only_the_tricks_recorded() -> None:
    result = replay(load(penalty_record(FULL_HOUSE)).game)
    # seat 0: 4 tricks −60, 5 diamonds −50, the Q♦ as a queen −25
    assert result.deals[1].scores[0] == -60 - 50 - 25


# --- the checks under "penalty", each with its refusal -------------------------------------------


def test_a_full_house_of_13_tricks_is_accepted() -> None:
    assert problems_of(FULL_HOUSE) == []


def test_each_count_is_0_to_13() -> None:
    deal = {**FULL_HOUSE, "tricks": [14, 4, 4, 1]}
    assert problems_of(deal) == [("tricks[0]", "count_range")]
    deal = {**FULL_HOUSE, "tricks": [-1, 4, 4, 1]}
    assert problems_of(deal) == [("tricks[0]", "count_range")]


def test_the_counts_add_up_to_at_most_13() -> None:
    over = {**FULL_HOUSE, "tricks": [5, 4, 4, 1]}  # 14: every seat's cards would allow it
    assert problems_of(over) == [("tricks", "sum_over")]
    error = refusal(penalty_record(over))
    assert error.headline() == (
        "deal 2 (complex): tricks add up to 14; there are at most 13 tricks"
    )


def test_fewer_than_13_is_the_point_of_the_rule() -> None:
    assert problems_of(WORKED) == []
    assert problems_of({**FULL_HOUSE, "tricks": [2, 1, 1, 1]}) == []


def test_a_seat_with_no_such_trick_took_no_penalty_card() -> None:
    deal = {**WORKED, "tricks": [3, 2, 1, 0]}  # seat 3 holds the K♥ and 3 diamonds
    assert ("tricks[3]", "no_tricks_no_cards") in problems_of(deal)


def test_the_cards_a_seat_took_fit_in_its_tricks() -> None:
    deal = {**WORKED, "tricks": [1, 2, 0, 1]}  # seat 0: 6 diamonds, 2 queens in one trick
    assert problems_of(deal) == [("tricks[0]", "cards_exceed_tricks")]


def test_each_such_trick_holds_one_of_the_seats_cards() -> None:
    deal = {**WORKED, "tricks": [3, 2, 1, 1], "diamonds": [6, 4, 1, 2]}
    assert problems_of(deal) == []  # seat 2: one diamond, one trick
    deal = {**WORKED, "tricks": [3, 6, 0, 1]}  # seat 1 took 5 penalty cards, not 6 tricks' worth
    assert problems_of(deal) == [("tricks[1]", "tricks_exceed_cards")]
    error = refusal(penalty_record(deal))
    assert error.headline() == (
        "deal 2 (complex): tricks[1]: 6 tricks held a penalty card, but "
        "the player took 5 penalty cards"
    )


def test_a_trick_without_any_card_is_refused() -> None:
    deal = {**WORKED, "tricks": [3, 2, 1, 1]}  # seat 2 took nothing
    assert problems_of(deal) == [("tricks[2]", "tricks_exceed_cards")]
    assert (
        refusal(penalty_record(deal))
        .headline()
        .endswith("1 trick held a penalty card, but the player took 0 penalty cards")
    )


def test_under_every_a_trick_need_not_hold_a_card() -> None:
    # the "tricks ≤ cards" check is the rule's own: every trick counts by default
    # seat 2 took 3 tricks and only 2 diamonds: fine when every trick counts, not when each
    # counted trick must hold a penalty card
    assert problems_of(COMPLEX, HouseRules()) == []
    assert problems_of(COMPLEX) == [("tricks[2]", "tricks_exceed_cards")]


def test_the_queen_of_diamonds_still_needs_a_diamond() -> None:
    deal = {
        **WORKED,
        "queens": {"S": 0, "H": 0, "D": 2, "C": 1},
        "tricks": [3, 2, 1, 1],
        "diamonds": [6, 4, 0, 3],
    }
    assert ("queens.D", "queen_diamond_without_diamond") in problems_of(deal)


# --- the record ----------------------------------------------------------------------------------


def test_records_with_the_rule_round_trip() -> None:
    record = load(penalty_record(WORKED, name="Penalty night"))
    dumped = dump_record(record, derived=True)
    assert dumped["house_rules"] == {
        "doubling": True,
        "doubled_self_take": "net",
        "doubled_queen_of_diamonds": "queen",
        "complex_tricks": "penalty",
    }
    again = load_record(dumps_record(record, derived=True))
    assert again == record
    assert replay(again.game).deals[1].scores == (-155, -120, 0, -120)


@pytest.mark.parametrize("value", ["some", "Penalty", True, 1, ["penalty"]])
def test_a_bad_value_is_refused_naming_the_field(value: object) -> None:
    error = refusal(raw_record("trix-complex", house_rules={"complex_tricks": value}))
    assert error.deal_number is None
    assert first_problem(error) == ("house_rules.complex_tricks", "bad_complex_tricks")
    assert error.headline() == "house_rules.complex_tricks must be every or penalty"


@pytest.mark.parametrize("game", ["trix", "turkish-king"])
def test_the_rule_is_for_trix_complex_only(game: str) -> None:
    error = refusal(raw_record(game, house_rules={"complex_tricks": "penalty"}))
    assert first_problem(error) == ("house_rules.complex_tricks", "rule_not_for_game")
    assert pairs(check_setup(game, "solo", PENALTY)) == [
        ("house_rules.complex_tricks", "rule_not_for_game")
    ]
    assert load(raw_record(game, house_rules={"complex_tricks": "every"})).game.house_rules == (
        HouseRules()
    )


def test_a_missing_key_is_every() -> None:
    assert load(raw_record("trix-complex", house_rules={})).game.house_rules.complex_tricks == (
        ComplexTricks.EVERY
    )
    assert HouseRules(complex_tricks="penalty") == PENALTY  # type: ignore[arg-type]
    assert isinstance(Record(game_of("trix-complex", house_rules=PENALTY)), Record)


# --- entering a deal: the running sum, nothing filled in -----------------------------------------


def test_the_last_count_is_not_filled_in_and_the_sum_is_a_ceiling() -> None:
    raw = {"contract": "complex", "tricks": [3, 2, 0, None], "diamonds": [6, 4, 0, None]}
    filled = autofill(raw, rules=PENALTY)
    assert filled.raw["tricks"] == [3, 2, 0, None]  # any count up to 8 could follow
    assert filled.raw["diamonds"] == [6, 4, 0, 3]  # diamonds still add up to 13
    assert filled.sums["tricks"].at_most and filled.sums["tricks"].total == 13
    assert not filled.sums["diamonds"].at_most
    every = autofill(raw)
    assert every.raw["tricks"] == [3, 2, 0, 8] and not every.sums["tricks"].at_most
