"""What deals score (docs/rules.md tables) and the worked examples of the spec, to the point."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import (
    FULL,
    NET,
    HouseRules,
    check_output,
    evaluate,
    load_record,
    replay,
)
from tests.rules.builders import (
    COMPLEX,
    DIAMONDS,
    EXAMPLE_NAMES,
    EXAMPLES,
    KING_OF_HEARTS,
    LTOOSH,
    QUEENS,
    TRIX,
    TRIX_KINGDOM,
    example,
    game_of,
    load,
)

SHARED = Path("/work/shared")
CHECKOUT = Path(__file__).resolve().parents[2]


def scores(
    game: str,
    deal: dict[str, Any],
    *,
    before: list[dict[str, Any]] | None = None,
    house_rules: HouseRules | None = None,
    mode: str = "solo",
) -> list[int]:
    """What `deal` scores as the next deal of a game (the deal must be legal)."""
    if before is None:
        before = [TRIX] if game == "trix-complex" and deal["contract"] != "trix" else []
    evaluation = evaluate(replay(game_of(game, before, house_rules=house_rules, mode=mode)), deal)
    assert evaluation.ok, evaluation.problems
    assert evaluation.scores is not None
    return list(evaluation.scores)


# --- the worked examples -------------------------------------------------------------------------


def test_there_are_examples_of_each_game() -> None:
    assert EXAMPLE_NAMES == [
        "trix-complex-solo-complete",
        "trix-partnership-complete",
        "trix-solo-in-progress",
        "turkish-king-complete",
        "turkish-king-in-progress",
    ]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_records(name: str) -> None:
    text, expected = example(name)
    assert check_output(replay(load_record(text).game)) == expected


@pytest.mark.skipif(not (SHARED / "examples").is_dir(), reason="no shared spec folder here")
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_copies_match_the_spec(name: str) -> None:
    for suffix in (".json", ".check.json"):
        copy = json.loads((EXAMPLES / f"{name}{suffix}").read_text(encoding="utf-8"))
        original = json.loads((SHARED / "examples" / f"{name}{suffix}").read_text(encoding="utf-8"))
        assert copy == original


DOC_RECORD = {
    "format": "scorekeeper-game/1",
    "game": "trix",
    "mode": "partnership",
    "players": ["Rami", "Lina", "Omar", "Dana"],
    "first": 2,
    "house_rules": {"doubling": True, "doubled_self_take": "net", "swap_diamonds_ltoosh": False},
    "deals": [
        {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}, "doubled_by": {"H": 0}},
        {"contract": "diamonds", "counts": [3, 4, 5, 1]},
        {"contract": "ltoosh", "tricks": [4, 3, 3, 3]},
        {"contract": "trix", "order": [2, 0, 3, 1]},
    ],
}
DOC_OUTPUT = {
    "deals": [
        {
            "number": 1,
            "contract": "king-of-hearts",
            "chooser": 2,
            "kingdom": 0,
            "scores": [0, -150, 75, 0],
        }
    ],
    "totals": [0, -150, 75, 0],
    "team_totals": [75, -150],
    "finished": False,
    "next": {"chooser": 2, "contracts": ["diamonds", "ltoosh", "queens", "trix"]},
    "winners": None,
}
"""The example record of docs/record-format.md, cut to its first deal, prints exactly this."""


def test_game_record_document_example() -> None:
    first_deal = {**DOC_RECORD, "deals": DOC_RECORD["deals"][:1]}
    assert check_output(replay(load(first_deal).game)) == DOC_OUTPUT


def test_game_record_document_example_whole_kingdom() -> None:
    result = replay(load(DOC_RECORD).game)
    assert [list(d.scores) for d in result.deals] == [
        [0, -150, 75, 0],
        [-25 + 25, -50 - 25, 0, -25],  # Q♥ doubled by seat 0, taken by seat 1
        [-30, -40, -50, -10],
        [-60, -45, -45, -45],
        [150, 50, 200, 100],
    ]
    assert sum(result.totals) == 0
    assert result.team_totals == (
        result.totals[0] + result.totals[2],
        result.totals[1] + result.totals[3],
    )


def test_the_format_page_opens_with_this_record() -> None:
    """docs/record-format.md's first example is the record checked deal by deal above (the page's
    own test runs each of its examples through `scorekeeper check`)."""
    text = (CHECKOUT / "docs" / "record-format.md").read_text(encoding="utf-8")
    records = re.findall(r"^```json record\n(.*?)^```$", text, re.S | re.M)
    assert json.loads(records[0]) == DOC_RECORD


# --- Trix ----------------------------------------------------------------------------------------


def test_trix_contract_scores() -> None:
    assert scores("trix", KING_OF_HEARTS) == [0, -75, 0, 0]
    assert scores("trix", QUEENS) == [-25, -50, 0, -25]
    assert scores("trix", {"contract": "queens", "takers": dict.fromkeys("SHDC", 2)}) == [
        0,
        0,
        -100,
        0,
    ]
    assert scores("trix", DIAMONDS) == [-30, -40, -50, -10]
    assert scores("trix", LTOOSH) == [-60, -45, -45, -45]
    assert scores("trix", {"contract": "ltoosh", "tricks": [0, 13, 0, 0]}) == [0, -195, 0, 0]
    assert scores("trix", TRIX) == [150, 50, 200, 100]
    assert scores("trix", {"contract": "trix", "order": [0, 1, 2, 3]}) == [200, 150, 100, 50]


def test_swap_diamonds_ltoosh() -> None:
    swap = HouseRules(swap_diamonds_ltoosh=True)
    assert scores("trix", DIAMONDS, house_rules=swap) == [-45, -60, -75, -15]
    assert scores("trix", LTOOSH, house_rules=swap) == [-40, -30, -30, -30]
    assert sum(scores("trix", DIAMONDS, house_rules=swap)) == -195
    assert sum(scores("trix", LTOOSH, house_rules=swap)) == -130
    # the other contracts do not change
    for deal in (KING_OF_HEARTS, QUEENS, TRIX):
        assert scores("trix", deal, house_rules=swap) == scores("trix", deal)
    result = replay(game_of("trix", TRIX_KINGDOM, house_rules=swap))
    assert sum(result.totals) == 0


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_a_trix_kingdom_sums_to_zero(first: int) -> None:
    result = replay(game_of("trix", TRIX_KINGDOM * 4, first=first))
    for kingdom in range(4):
        assert sum(sum(d.scores) for d in result.deals[kingdom * 5 : kingdom * 5 + 5]) == 0


# --- doubling ------------------------------------------------------------------------------------

NET_RULES, FULL_RULES = HouseRules(doubled_self_take=NET), HouseRules(doubled_self_take=FULL)


@pytest.mark.parametrize("rules", [NET_RULES, FULL_RULES], ids=["net", "full"])
@pytest.mark.parametrize(("taker", "doubler"), [(1, 2), (2, 1), (0, 3), (3, 0), (2, 0)])
def test_doubled_king_of_hearts_taken_by_another(
    rules: HouseRules, taker: int, doubler: int
) -> None:
    expected = [0, 0, 0, 0]
    expected[taker], expected[doubler] = -150, 75
    deal = {"contract": "king-of-hearts", "taker": taker, "doubled_by": doubler}
    assert scores("trix", deal, house_rules=rules) == expected


def test_doubled_king_of_hearts_taken_by_the_partner() -> None:
    deal = {"contract": "king-of-hearts", "taker": 2, "doubled_by": 0}
    assert scores("trix", deal, mode="partnership") == [75, 0, -150, 0]
    result = replay(game_of("trix", [deal], mode="partnership"))
    assert result.team_totals == (-75, 0)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_doubler_takes_own_king_of_hearts(seat: int) -> None:
    deal = {"contract": "king-of-hearts", "taker": seat, "doubled_by": seat}
    net, full = [0, 0, 0, 0], [0, 0, 0, 0]
    net[seat], full[seat] = -75, -150
    assert scores("trix", deal, house_rules=NET_RULES) == net
    assert scores("trix", deal) == net  # net is the default
    assert scores("trix", deal, house_rules=FULL_RULES) == full


def test_doubled_queens() -> None:
    takers = {"S": 0, "H": 1, "D": 2, "C": 3}
    # Q♥ doubled by seat 3 and taken by seat 1; Q♣ doubled and taken by seat 3
    deal = {"contract": "queens", "takers": takers, "doubled_by": {"H": 3, "C": 3}}
    assert scores("trix", deal) == [-25, -50, -25, 25 - 25]
    assert scores("trix", deal, house_rules=FULL_RULES) == [-25, -50, -25, 25 - 50]
    # every queen doubled by the player who takes it
    deal = {"contract": "queens", "takers": takers, "doubled_by": takers}
    assert scores("trix", deal) == [-25, -25, -25, -25]
    assert scores("trix", deal, house_rules=FULL_RULES) == [-50, -50, -50, -50]
    # all four doubled by seat 0, all taken by seat 2
    deal = {
        "contract": "queens",
        "takers": dict.fromkeys("SHDC", 2),
        "doubled_by": dict.fromkeys("SHDC", 0),
    }
    assert scores("trix", deal) == [100, 0, -200, 0]


def test_doubled_by_null_means_not_doubled() -> None:
    assert scores("trix", {**KING_OF_HEARTS, "doubled_by": None}) == [0, -75, 0, 0]
    assert scores("trix", {**QUEENS, "doubled_by": {"H": None}}) == scores("trix", QUEENS)
    assert scores("trix", {**QUEENS, "doubled_by": {}}) == scores("trix", QUEENS)


# --- Trix Complex --------------------------------------------------------------------------------


def test_complex_deal() -> None:
    # tricks 4/3/3/3, diamonds 5/4/2/2, Q♦ Q♠ to seat 0, Q♥ to seat 1, Q♣ to seat 3, K♥ to seat 1
    assert scores("trix-complex", COMPLEX) == [-160, -185, -65, -90]
    assert sum(scores("trix-complex", COMPLEX)) == -500


def test_complex_queen_of_diamonds_is_a_diamond_and_a_queen() -> None:
    deal = {**COMPLEX, "queens": {"S": 1, "H": 1, "D": 2, "C": 1}, "king_of_hearts": 0}
    # seat 2: 3 tricks (-45), 2 diamonds (-20), the Q♦ as a queen (-25): Q♦ costs 35 in all
    assert scores("trix-complex", deal)[2] == -45 - 20 - 25


def test_complex_doubled_queen_of_diamonds() -> None:
    plain = scores("trix-complex", COMPLEX)
    doubled = scores("trix-complex", {**COMPLEX, "doubled_by": {"D": 2}})
    # seat 0 takes the Q♦: -35 undoubled, -60 doubled (only the queen part doubles)
    assert doubled[0] - plain[0] == -25
    assert plain[0] == -60 - 50 - 25 - 25 + 0  # tricks, diamonds, Q♠, Q♦ as a queen
    assert doubled[2] - plain[2] == +25
    assert doubled[1] == plain[1] and doubled[3] == plain[3]
    # the Q♦ on its own: -10 as a diamond and -50 as a doubled queen
    deal = {
        "contract": "complex",
        "tricks": [1, 4, 4, 4],
        "diamonds": [1, 4, 4, 4],
        "queens": {"S": 1, "H": 2, "D": 0, "C": 3},
        "king_of_hearts": 1,
        "doubled_by": {"D": 3},
    }
    assert scores("trix-complex", deal)[0] == -15 - 60
    assert scores("trix-complex", deal)[3] == -60 - 40 - 25 + 25


@pytest.mark.parametrize("rules", [NET_RULES, FULL_RULES], ids=["net", "full"])
def test_complex_doubled_king_of_hearts(rules: HouseRules) -> None:
    plain = scores("trix-complex", COMPLEX, house_rules=rules)
    doubled = scores("trix-complex", {**COMPLEX, "doubled_by": {"KH": 3}}, house_rules=rules)
    assert [d - p for d, p in zip(doubled, plain, strict=True)] == [0, -75, 0, 75]


def test_complex_doubler_takes_own_card() -> None:
    plain = scores("trix-complex", COMPLEX)
    own = {**COMPLEX, "doubled_by": {"KH": 1, "H": 1, "S": 0}}
    assert scores("trix-complex", own, house_rules=NET_RULES) == plain
    full = scores("trix-complex", own, house_rules=FULL_RULES)
    assert [f - p for f, p in zip(full, plain, strict=True)] == [-25, -75 - 25, 0, 0]


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_a_complex_kingdom_sums_to_zero(first: int) -> None:
    deals = [TRIX, COMPLEX, {**COMPLEX, "doubled_by": {"KH": 2, "D": 0}}, TRIX] * 2
    result = replay(game_of("trix-complex", deals, first=first))
    assert result.finished
    for kingdom in range(4):
        assert sum(sum(d.scores) for d in result.deals[kingdom * 2 : kingdom * 2 + 2]) == 0


# --- Turkish King --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "expected"),
    [
        ({"contract": "trump", "suit": "H", "tricks": [4, 3, 3, 3]}, [200, 150, 150, 150]),
        ({"contract": "trump", "suit": "C", "tricks": [13, 0, 0, 0]}, [650, 0, 0, 0]),
        ({"contract": "no-king", "taker": 3}, [0, 0, 0, -320]),
        ({"contract": "no-queens", "counts": [0, 1, 3, 0]}, [0, -100, -300, 0]),
        ({"contract": "no-boys", "counts": [1, 2, 3, 2]}, [-60, -120, -180, -120]),
        ({"contract": "no-hearts", "counts": [1, 2, 3, 7]}, [-30, -60, -90, -210]),
        ({"contract": "no-last-two", "last_two": [1, 2]}, [0, -180, -180, 0]),
        ({"contract": "no-last-two", "last_two": [3, 3]}, [0, 0, 0, -360]),
        ({"contract": "no-tricks", "tricks": [1, 2, 3, 7]}, [-50, -100, -150, -350]),
    ],
)
def test_turkish_king_scores(deal: dict[str, Any], expected: list[int]) -> None:
    assert scores("turkish-king", deal) == expected


def test_turkish_king_game_sums_to_zero() -> None:
    text, _ = example("turkish-king-complete")
    result = replay(load_record(text).game)
    assert result.finished and sum(result.totals) == 0


# --- winners -------------------------------------------------------------------------------------


def _negatives_on(seats: tuple[int, int]) -> list[dict[str, Any]]:
    low, high = seats
    return [
        {"contract": "king-of-hearts", "taker": high},
        {"contract": "queens", "takers": {"S": low, "H": low, "D": high, "C": high}},
        {
            "contract": "diamonds",
            "counts": [6 if s == low else 7 if s == high else 0 for s in range(4)],
        },
        {
            "contract": "ltoosh",
            "tricks": [6 if s == low else 7 if s == high else 0 for s in range(4)],
        },
    ]


def test_solo_winners_share_a_tie() -> None:
    # seats 0 and 1 take no penalty and share the trix places 1 and 2 equally
    orders = [[0, 1, 2, 3], [1, 0, 2, 3], [0, 1, 3, 2], [1, 0, 3, 2]]
    deals = [
        d
        for order in orders
        for d in [*_negatives_on((2, 3)), {"contract": "trix", "order": order}]
    ]
    result = replay(game_of("trix", deals))
    assert result.finished
    assert result.totals[0] == result.totals[1] == 700
    assert result.winners == (0, 1)


def test_solo_single_winner() -> None:
    deals = [
        d
        for order in [[0, 1, 2, 3]] * 4
        for d in [*_negatives_on((2, 3)), {"contract": "trix", "order": order}]
    ]
    result = replay(game_of("trix", deals))
    assert result.totals[:2] == (800, 600)
    assert result.winners == (0,)


def test_partnership_winners_are_both_partners() -> None:
    text, expected = example("trix-partnership-complete")
    result = replay(load_record(text).game)
    assert result.team_totals is not None
    best = max(result.team_totals)
    assert best != min(result.team_totals)
    assert result.winners == ((0, 2), (1, 3))[result.team_totals.index(best)]
    assert list(result.winners) == expected["winners"]


def test_partnership_tie_shares_the_win() -> None:
    kingdom_a = [
        {"contract": "king-of-hearts", "taker": 0},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 2, "C": 3}},
        {"contract": "diamonds", "counts": [3, 4, 3, 3]},
        {"contract": "ltoosh", "tricks": [3, 4, 3, 3]},
        {"contract": "trix", "order": [0, 1, 2, 3]},
    ]
    kingdom_b = [
        {"contract": "king-of-hearts", "taker": 1},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 2, "C": 3}},
        {"contract": "diamonds", "counts": [4, 3, 3, 3]},
        {"contract": "ltoosh", "tricks": [4, 3, 3, 3]},
        {"contract": "trix", "order": [1, 0, 3, 2]},
    ]
    result = replay(game_of("trix", (kingdom_a + kingdom_b) * 2, mode="partnership"))
    assert result.finished
    assert result.team_totals == (0, 0)
    assert result.winners == (0, 1, 2, 3)
    solo = replay(game_of("trix", (kingdom_a + kingdom_b) * 2))
    assert solo.team_totals is None
    assert solo.winners == tuple(s for s in range(4) if solo.totals[s] == max(solo.totals))
