"""Editing, inserting and removing deals: the whole game is re-checked from the change on."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    GAMES,
    ClosedReason,
    Deal,
    Game,
    Option,
    RuleError,
    edit_options,
    evaluate,
    parse_deal,
    replay,
    with_deal,
    without_deal,
)
from tests.rules.builders import (
    DIAMONDS,
    FULL_GAME,
    KING_OF_HEARTS,
    LTOOSH,
    NO_KING,
    QUEENS,
    TRIX,
    TRIX_KINGDOM,
    TRUMP,
    TURKISH_GAME,
    first_problem,
    game_of,
    pairs,
)


def parsed(game: str, raw: dict[str, object]) -> Deal:
    """A raw deal parsed for `game` (it must parse)."""
    deal, problems = parse_deal(GAMES[game], raw)
    assert deal is not None, problems
    return deal


def test_an_edit_that_breaks_a_later_deal_names_it() -> None:
    game = game_of("trix", TRIX_KINGDOM)
    # deal 1 becomes diamonds, so deal 3 (diamonds) is now played twice in kingdom 1
    evaluation = evaluate(replay(game), DIAMONDS, index=0)
    assert evaluation.problems == []
    assert evaluation.scores == (-30, -40, -50, -10)
    assert not evaluation.ok
    later = evaluation.later
    assert isinstance(later, RuleError)
    assert (later.deal_number, later.contract) == (3, "diamonds")
    assert first_problem(later) == ("contract", "contract_played")
    assert str(later) == (
        "deal 3 (diamonds): contract: this contract was already played in this kingdom"
    )


def test_an_edit_that_breaks_a_later_turkish_hand() -> None:
    game = game_of("turkish-king", TURKISH_GAME)
    # hand 1 becomes no-king: no-king is then played at hands 1, 9 and 15
    evaluation = evaluate(replay(game), NO_KING, index=0)
    assert evaluation.problems == []
    assert evaluation.later is not None
    assert (evaluation.later.deal_number, evaluation.later.contract) == (15, "no-king")
    assert first_problem(evaluation.later) == ("contract", "negative_twice")


def test_an_edit_to_a_quota_breaks_a_later_hand() -> None:
    game = game_of("turkish-king", TURKISH_GAME)
    # seat 0 declares hands 1, 5, 9, 13 and 17; hand 9 as a third trump is refused at once
    evaluation = evaluate(replay(game), TRUMP, index=8)
    assert pairs(evaluation.problems) == [("contract", "trump_quota")]
    # hand 1 as a negative: seat 0's negatives at hands 9 and 13 make three, so hand 17 is a
    # fourth negative
    evaluation = evaluate(replay(game), {"contract": "no-hearts", "counts": [1, 2, 3, 7]}, index=0)
    assert evaluation.problems == []
    assert evaluation.later is not None
    assert (evaluation.later.deal_number, evaluation.later.contract) == (17, "no-boys")
    assert first_problem(evaluation.later) == ("contract", "negative_quota")


def test_an_edit_that_keeps_the_game_legal() -> None:
    game = game_of("trix", TRIX_KINGDOM * 2)
    evaluation = evaluate(replay(game), {**KING_OF_HEARTS, "taker": 3, "doubled_by": 0}, index=5)
    assert evaluation.ok and evaluation.later is None
    assert evaluation.scores == (75, 0, 0, -150)


def test_an_edit_judged_against_the_deals_before_it() -> None:
    game = game_of("trix", TRIX_KINGDOM)
    # replacing deal 4 (ltoosh) with queens: queens is deal 2 of the same kingdom
    evaluation = evaluate(replay(game), QUEENS, index=3)
    assert pairs(evaluation.problems) == [("contract", "contract_played")]
    assert evaluation.later is None
    # replacing deal 4 with itself, changed, is fine even though ltoosh "was played"
    assert evaluate(replay(game), {**LTOOSH, "tricks": [13, 0, 0, 0]}, index=3).ok


def test_editing_the_last_deal_of_a_finished_game() -> None:
    game = game_of("trix", FULL_GAME["trix"])
    assert evaluate(replay(game), {**TRIX, "order": [0, 1, 2, 3]}, index=19).ok
    assert pairs(evaluate(replay(game), DIAMONDS, index=19).problems) == [
        ("contract", "contract_played")
    ]


def test_an_edit_that_does_not_parse() -> None:
    game = game_of("trix", TRIX_KINGDOM)
    evaluation = evaluate(replay(game), {**DIAMONDS, "counts": [13, 1, 0, 0]}, index=2)
    assert evaluation.deal is None
    assert pairs(evaluation.problems) == [("counts", "sum_mismatch")]


def first_illegal(game: Game) -> RuleError | None:
    """The first deal that breaks a rule after an edit or a removal, or None."""
    try:
        replay(game)
    except RuleError as error:
        return error
    return None


def test_first_illegal() -> None:
    assert first_illegal(game_of("trix", FULL_GAME["trix"])) is None
    assert first_illegal(game_of("trix")) is None
    broken = game_of("trix", [KING_OF_HEARTS, QUEENS, KING_OF_HEARTS, DIAMONDS])
    error = first_illegal(broken)
    assert error is not None
    assert (error.deal_number, error.contract) == (3, "king-of-hearts")
    assert first_problem(error) == ("contract", "contract_played")


def test_with_deal() -> None:
    game = game_of("trix", TRIX_KINGDOM[:2])
    diamonds = parsed("trix", DIAMONDS)
    appended = with_deal(game, diamonds)
    assert appended.deals == (*game.deals, diamonds)
    replaced = with_deal(game, diamonds, 0)
    assert replaced.deals == (diamonds, game.deals[1])
    assert first_illegal(replaced) is None
    assert game.deals == game_of("trix", TRIX_KINGDOM[:2]).deals  # the original is untouched


def test_without_deal() -> None:
    game = game_of("trix", FULL_GAME["trix"])
    shorter = without_deal(game, 2)
    assert len(shorter.deals) == 19
    assert shorter.deals[2] == game.deals[3]
    # without its diamonds, kingdom 1 runs into the next kingdom's king-of-hearts
    error = first_illegal(shorter)
    assert error is not None
    assert (error.deal_number, error.contract) == (5, "king-of-hearts")
    # removing the last deal leaves a legal game in progress
    assert first_illegal(without_deal(game, 19)) is None
    assert replay(without_deal(game, 19)).next is not None


def test_an_accepted_deal_comes_with_the_game_it_makes() -> None:
    """`after`: the game with the deal entered, replayed; none when the deal is refused."""
    game = game_of("trix", [KING_OF_HEARTS, QUEENS])
    accepted = evaluate(replay(game), DIAMONDS)
    assert accepted.ok and accepted.deal is not None
    assert accepted.after == replay(with_deal(game, accepted.deal))
    refused = evaluate(replay(game), QUEENS)  # Queens is played already in this kingdom
    assert not refused.ok and refused.after is None
    edited = evaluate(replay(game), DIAMONDS, 1)  # deal 2 becomes Diamonds
    assert edited.ok and edited.deal is not None
    assert edited.after == replay(with_deal(game, edited.deal, 1))


@pytest.mark.parametrize("kind", sorted(FULL_GAME))
def test_an_edits_choices_are_what_a_save_would_accept(kind: str) -> None:
    """Issue 44 item 10: a past deal's edit form offers a contract only when the engine would
    accept it there, and a closed one names why (and the later deal it would break)."""
    game = game_of(kind, FULL_GAME[kind])
    current = replay(game)
    for index in (0, 1, 6, len(game.deals) - 1):
        for option in edit_options(game, index):
            raw = next(deal for deal in FULL_GAME[kind] if deal["contract"] == option.contract)
            evaluation = evaluate(current, raw, index)
            assert option.open == evaluation.ok, (index, option)
            if option.open:
                continue
            if option.deal is None:  # refused at its own place
                assert [p.code for p in evaluation.problems] == [option.reason]
            else:
                assert evaluation.later is not None
                assert evaluation.later.deal_number == option.deal
                assert first_problem(evaluation.later) == ("contract", option.reason)


def test_deal_1_cannot_become_the_contract_deal_2_played() -> None:
    game = game_of("trix", [DIAMONDS, LTOOSH])
    options = {option.contract: option for option in edit_options(game, 0)}
    assert options["ltoosh"] == Option("ltoosh", False, ClosedReason.CONTRACT_PLAYED, deal=2)
    assert options["diamonds"].open and options["trix"].open
    before = {option.contract: option for option in edit_options(game, 1)}
    assert before["diamonds"] == Option("diamonds", False, ClosedReason.CONTRACT_PLAYED)
