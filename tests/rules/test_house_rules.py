"""House rules `doubled_queen_of_diamonds` (Trix Complex) and `winners` (Turkish King), issue 12.

docs/rules.md (Trix Complex, Every game) and docs/record-format.md (house rules): what each scores
or decides, which game allows it, how a record reads and writes it, and the values refused.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import (
    FULL,
    GAMES,
    HOUSE_RULE_KEYS,
    NET,
    HouseRules,
    QueenOfDiamonds,
    Record,
    Winners,
    check_output,
    check_setup,
    dump_record,
    dumps_record,
    house_rules_for,
    load_record,
    record_from_json,
    replay,
)
from tests.rules.builders import (
    ALL_AT_ZERO,
    COMPLEX,
    TRIX,
    TURKISH_GAME,
    TWO_ABOVE_ZERO,
    first_problem,
    game_of,
    load,
    pairs,
    raw_record,
    refusal,
)

WHOLE = HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE)
WHOLE_FULL = HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE, doubled_self_take=FULL)
QUEEN_FULL = HouseRules(doubled_self_take=FULL)
POSITIVE = HouseRules(winners=Winners.POSITIVE)

# seat 0 takes the Q♦ (one trick, its one diamond, no other card); seat 3 may double it
QUEEN_OF_DIAMONDS_ALONE = {
    "contract": "complex",
    "tricks": [1, 4, 4, 4],
    "diamonds": [1, 4, 4, 4],
    "queens": {"S": 1, "H": 2, "D": 0, "C": 3},
    "king_of_hearts": 1,
}


def complex_scores(deal: dict[str, Any], rules: HouseRules | None = None) -> list[int]:
    """What a Complex deal scores as the second deal of a kingdom."""
    result = replay(game_of("trix-complex", [TRIX, deal], house_rules=rules))
    return list(result.deals[1].scores)


# --- doubled_queen_of_diamonds -------------------------------------------------------------------


def test_the_queen_of_diamonds_alone_costs_35_undoubled_under_either_rule() -> None:
    plain = complex_scores(QUEEN_OF_DIAMONDS_ALONE)
    assert plain[0] == -15 - 10 - 25  # one trick, the Q♦ as a diamond and as a queen
    assert complex_scores(QUEEN_OF_DIAMONDS_ALONE, WHOLE) == plain


@pytest.mark.parametrize("self_take", [NET, FULL])
def test_whole_doubles_the_whole_card_minus_70_and_plus_35(self_take: str) -> None:
    rules = HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE, doubled_self_take=self_take)
    deal = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 3}}
    plain = complex_scores(QUEEN_OF_DIAMONDS_ALONE, rules)
    doubled = complex_scores(deal, rules)
    # taker: −35 becomes −70; doubler: +35; nobody else moves
    assert doubled[0] == -15 - 70
    assert [d - p for d, p in zip(doubled, plain, strict=True)] == [-35, 0, 0, +35]
    assert doubled[3] == -60 - 40 - 25 + 35  # 4 tricks, 4 diamonds, the Q♣, the doubling


def test_queen_doubles_only_the_queen_part_minus_60_and_plus_25() -> None:
    deal = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 3}}
    plain = complex_scores(QUEEN_OF_DIAMONDS_ALONE)
    doubled = complex_scores(deal)
    assert doubled == complex_scores(
        deal, HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.QUEEN)
    )  # "queen" is the default
    assert doubled[0] == -15 - 60
    assert [d - p for d, p in zip(doubled, plain, strict=True)] == [-25, 0, 0, +25]


@pytest.mark.parametrize(
    ("rules", "card"),
    [
        (WHOLE, -35),  # −70 for taking it, +35 for doubling it
        (WHOLE_FULL, -70),  # the full doubled card, nothing for doubling
        (HouseRules(), -35),  # "queen", net: −50 − 10 + 25
        (QUEEN_FULL, -60),  # "queen", full: −50 − 10
    ],
)
def test_a_doubler_who_takes_their_own_queen_of_diamonds(rules: HouseRules, card: int) -> None:
    deal = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 0}}
    scores = complex_scores(deal, rules)
    assert scores[0] == -15 + card  # one trick and the Q♦
    assert scores[1:] == complex_scores(QUEEN_OF_DIAMONDS_ALONE, rules)[1:]


def test_whole_changes_only_the_queen_of_diamonds() -> None:
    # the other queens and the K♥ double as before; a Q♦ doubled alongside them is whole
    others = {**COMPLEX, "doubled_by": {"KH": 3, "S": 2, "H": 1}}
    assert complex_scores(others, WHOLE) == complex_scores(others)
    with_diamond = {**COMPLEX, "doubled_by": {"KH": 3, "S": 2, "D": 2}}
    queen, whole = complex_scores(with_diamond), complex_scores(with_diamond, WHOLE)
    assert [w - q for w, q in zip(whole, queen, strict=True)] == [-10, 0, +10, 0]


def test_whole_keeps_the_kingdom_at_zero_unless_a_doubler_takes_it_in_full() -> None:
    doubled = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 2}}
    own = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 0}}
    for rules in (WHOLE, WHOLE_FULL):
        assert sum(replay(game_of("trix-complex", [TRIX, doubled], house_rules=rules)).totals) == 0
    assert sum(replay(game_of("trix-complex", [TRIX, own], house_rules=WHOLE)).totals) == 0
    assert sum(replay(game_of("trix-complex", [TRIX, own], house_rules=WHOLE_FULL)).totals) == -35


def test_whole_through_a_record() -> None:
    data = raw_record(
        "trix-complex",
        [TRIX, {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 3}}],
        house_rules={"doubled_queen_of_diamonds": "whole"},
    )
    record = load(data)
    assert record.game.house_rules == WHOLE
    deal = check_output(replay(record.game))["deals"][1]
    assert deal["scores"][0] == -85 and deal["scores"][3] == -90


# --- winners -------------------------------------------------------------------------------------


def test_the_builders_end_where_these_tests_say() -> None:
    assert replay(game_of("turkish-king", TURKISH_GAME)).totals == (-200, 280, -360, 280)
    assert replay(game_of("turkish-king", TWO_ABOVE_ZERO)).totals == (-250, 330, -360, 280)
    result = replay(game_of("turkish-king", ALL_AT_ZERO))
    assert result.finished and result.totals == (0, 0, 0, 0)


def test_positive_two_winners_where_highest_has_one() -> None:
    assert replay(game_of("turkish-king", TWO_ABOVE_ZERO)).winners == (1,)
    result = replay(game_of("turkish-king", TWO_ABOVE_ZERO, house_rules=POSITIVE))
    assert result.winners == (1, 3)
    assert check_output(result)["winners"] == [1, 3]


def test_positive_nobody_wins_when_all_end_at_zero() -> None:
    assert replay(game_of("turkish-king", ALL_AT_ZERO)).winners == (0, 1, 2, 3)
    result = replay(game_of("turkish-king", ALL_AT_ZERO, house_rules=POSITIVE))
    assert result.finished and result.winners == ()
    assert check_output(result)["winners"] == []


def test_positive_only_decides_a_finished_game() -> None:
    result = replay(game_of("turkish-king", TWO_ABOVE_ZERO[:-1], house_rules=POSITIVE))
    assert result.winners is None and check_output(result)["winners"] is None


def test_positive_winners_through_a_record_and_its_export() -> None:
    data = raw_record("turkish-king", ALL_AT_ZERO, house_rules={"winners": "positive"})
    record = load(data)
    assert record.game.house_rules == POSITIVE
    exported = json.loads(dumps_record(record, derived=True))
    assert exported["winners"] == [] and exported["house_rules"] == {"winners": "positive"}
    assert load_record(json.dumps(exported)) == record
    # an export claiming the highest-total winners is refused under "positive"
    wrong = {**exported, "winners": [0, 1, 2, 3]}
    assert first_problem(refusal(wrong)) == ("winners", "derived_mismatch")


# --- which game allows which rule ----------------------------------------------------------------


def test_each_game_lists_its_house_rules() -> None:
    assert GAMES["trix"].house_rules == ("doubling", "doubled_self_take", "swap_diamonds_ltoosh")
    assert GAMES["trix-complex"].house_rules == (
        "doubling",
        "doubled_self_take",
        "doubled_queen_of_diamonds",
        "complex_tricks",
    )
    assert GAMES["turkish-king"].house_rules == ("winners",)
    assert HOUSE_RULE_KEYS == (
        "doubling",
        "doubled_self_take",
        "swap_diamonds_ltoosh",
        "doubled_queen_of_diamonds",
        "complex_tricks",
        "winners",
    )


EVERY_SWITCH = HouseRules(
    doubling=False,
    doubled_self_take=FULL,
    swap_diamonds_ltoosh=True,
    doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE,
    winners=Winners.POSITIVE,
)


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("trix", HouseRules(doubling=False, doubled_self_take=FULL, swap_diamonds_ltoosh=True)),
        (
            "trix-complex",
            HouseRules(
                doubling=False,
                doubled_self_take=FULL,
                doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE,
            ),
        ),
        ("turkish-king", HouseRules(winners=Winners.POSITIVE)),
    ],
)
def test_house_rules_for_keeps_the_new_rules_only_for_their_game(
    game: str, expected: HouseRules
) -> None:
    assert house_rules_for(game, EVERY_SWITCH) == expected
    assert check_setup(game, "solo", expected) == []


@pytest.mark.parametrize(
    ("game", "rules", "field"),
    [
        (
            "trix",
            HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE),
            "house_rules.doubled_queen_of_diamonds",
        ),
        (
            "turkish-king",
            HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE),
            "house_rules.doubled_queen_of_diamonds",
        ),
        ("trix", POSITIVE, "house_rules.winners"),
        ("trix-complex", POSITIVE, "house_rules.winners"),
    ],
)
def test_check_setup_refuses_a_new_rule_in_another_game(
    game: str, rules: HouseRules, field: str
) -> None:
    assert pairs(check_setup(game, "solo", rules)) == [(field, "rule_not_for_game")]


@pytest.mark.parametrize(
    ("game", "rules", "field"),
    [
        ("trix", {"doubled_queen_of_diamonds": "whole"}, "house_rules.doubled_queen_of_diamonds"),
        (
            "turkish-king",
            {"doubled_queen_of_diamonds": "whole"},
            "house_rules.doubled_queen_of_diamonds",
        ),
        ("trix", {"winners": "positive"}, "house_rules.winners"),
        ("trix-complex", {"winners": "positive"}, "house_rules.winners"),
    ],
)
def test_a_record_with_a_new_rule_of_another_game_is_refused(
    game: str, rules: dict[str, Any], field: str
) -> None:
    error = refusal(raw_record(game, house_rules=rules))
    assert error.deal_number is None
    assert first_problem(error) == (field, "rule_not_for_game")


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("trix", {"doubled_queen_of_diamonds": "queen", "winners": "highest"}),
        ("trix-complex", {"winners": "highest"}),
        ("turkish-king", {"doubled_queen_of_diamonds": "queen"}),
        ("turkish-king", {"winners": None, "doubled_queen_of_diamonds": None}),
    ],
)
def test_a_new_rule_at_its_default_is_fine_in_any_game(game: str, rules: dict[str, Any]) -> None:
    assert load(raw_record(game, house_rules=rules)).game.house_rules == HouseRules()


# --- values --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "key", "value", "code"),
    [
        ("trix-complex", "doubled_queen_of_diamonds", "half", "bad_queen_of_diamonds"),
        ("trix-complex", "doubled_queen_of_diamonds", "Whole", "bad_queen_of_diamonds"),
        ("trix-complex", "doubled_queen_of_diamonds", True, "bad_queen_of_diamonds"),
        ("trix-complex", "doubled_queen_of_diamonds", ["whole"], "bad_queen_of_diamonds"),
        ("turkish-king", "winners", "most", "bad_winners"),
        ("turkish-king", "winners", "POSITIVE", "bad_winners"),
        ("turkish-king", "winners", 0, "bad_winners"),
        ("turkish-king", "winners", {"positive": True}, "bad_winners"),
        # a bad value is refused as such even in a game the rule is not for
        ("trix", "winners", "most", "bad_winners"),
    ],
)
def test_a_bad_value_is_refused_naming_the_field(
    game: str, key: str, value: object, code: str
) -> None:
    error = refusal(raw_record(game, house_rules={key: value}))
    assert error.deal_number is None
    assert first_problem(error) == (f"house_rules.{key}", code)


def test_bad_values_have_messages() -> None:
    error = refusal(raw_record("turkish-king", house_rules={"winners": "most"}))
    assert error.headline() == "house_rules.winners must be highest or positive"
    error = refusal(raw_record("trix-complex", house_rules={"doubled_queen_of_diamonds": 2}))
    assert error.headline() == "house_rules.doubled_queen_of_diamonds must be queen or whole"


@pytest.mark.parametrize(
    ("game", "rules", "field", "code"),
    [
        (
            "turkish-king",
            HouseRules(winners="most"),
            "house_rules.winners",  # type: ignore[arg-type]
            "bad_winners",
        ),
        (
            "trix-complex",
            HouseRules(doubled_queen_of_diamonds="Whole"),  # type: ignore[arg-type]
            "house_rules.doubled_queen_of_diamonds",
            "bad_queen_of_diamonds",
        ),
        (
            "trix",
            HouseRules(doubled_self_take="half"),
            "house_rules.doubled_self_take",
            "bad_self_take",
        ),
    ],
)
def test_check_setup_refuses_a_bad_value(
    game: str, rules: HouseRules, field: str, code: str
) -> None:
    """The web form hands check_setup plain strings: a value no rule knows is refused there."""
    assert pairs(check_setup(game, "solo", rules)) == [(field, code)]


def test_plain_strings_are_the_same_rules() -> None:
    """The web layer builds HouseRules from stored JSON and form data: plain strings."""
    assert HouseRules(winners="positive") == POSITIVE  # type: ignore[arg-type]
    assert house_rules_for("turkish-king", HouseRules(winners="positive")) == POSITIVE  # type: ignore[arg-type]
    result = replay(
        game_of("turkish-king", TWO_ABOVE_ZERO, house_rules=HouseRules(winners="positive"))
    )  # type: ignore[arg-type]
    assert result.winners == (1, 3)
    deal = {**QUEEN_OF_DIAMONDS_ALONE, "doubled_by": {"D": 3}}
    assert complex_scores(deal, HouseRules(doubled_queen_of_diamonds="whole")) == (  # type: ignore[arg-type]
        complex_scores(deal, WHOLE)
    )


# --- reading and writing records -----------------------------------------------------------------


def test_missing_keys_take_their_defaults() -> None:
    for game in ("trix-complex", "turkish-king"):
        rules = load(raw_record(game, house_rules={})).game.house_rules
        assert rules.doubled_queen_of_diamonds == "queen" and rules.winners == "highest"
        assert load(raw_record(game)).game.house_rules == HouseRules()


@pytest.mark.parametrize(
    ("game", "rules", "written"),
    [
        (
            "trix",
            HouseRules(),
            {"doubling": True, "doubled_self_take": "net", "swap_diamonds_ltoosh": False},
        ),
        (
            "trix-complex",
            HouseRules(),
            {
                "doubling": True,
                "doubled_self_take": "net",
                "doubled_queen_of_diamonds": "queen",
                "complex_tricks": "every",
            },
        ),
        (
            "trix-complex",
            WHOLE_FULL,
            {
                "doubling": True,
                "doubled_self_take": "full",
                "doubled_queen_of_diamonds": "whole",
                "complex_tricks": "every",
            },
        ),
        ("turkish-king", HouseRules(), {"winners": "highest"}),
        ("turkish-king", POSITIVE, {"winners": "positive"}),
    ],
)
def test_a_record_writes_every_rule_of_its_game(
    game: str, rules: HouseRules, written: dict[str, object]
) -> None:
    record = Record(game_of(game, house_rules=rules))
    dumped = dump_record(record)
    assert dumped["house_rules"] == written
    # plain JSON values (the enums' strings), and the record reads back the same
    house_rules = dumped["house_rules"]
    assert isinstance(house_rules, dict)
    assert all(type(value) in (bool, str) for value in house_rules.values())
    assert json.loads(json.dumps(dumped))["house_rules"] == written
    assert record_from_json(json.loads(dumps_record(record))) == record
