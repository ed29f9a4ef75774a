"""Who chooses, deals and leads; which contracts stay open; quotas and the end of the game."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    GAMES,
    REASONS,
    TEMPLATES,
    ClosedReason,
    HouseRules,
    Option,
    Quota,
    evaluate,
    house_rules_for,
    replay,
)
from tests.rules.builders import (
    COMPLEX,
    DIAMONDS,
    FULL_GAME,
    KING_OF_HEARTS,
    NO_BOYS,
    NO_HEARTS,
    NO_KING,
    NO_QUEENS,
    SAMPLE_DEAL,
    TRIX,
    TRIX_KINGDOM,
    TRUMP,
    TURKISH_GAME,
    first_problem,
    game_of,
    pairs,
    raw_record,
    refusal,
)

# --- Trix games: kings ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["trix", "trix-complex"])
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_king_of_each_kingdom(game: str, first: int) -> None:
    result = replay(game_of(game, FULL_GAME[game], first=first))
    per_kingdom = GAMES[game].per_kingdom
    for index, deal in enumerate(result.deals):
        kingdom = index // per_kingdom
        assert deal.number == index + 1
        assert deal.kingdom == kingdom
        assert deal.chooser == (first + kingdom) % 4
        assert deal.leader == deal.chooser
        # the very first deal is dealt by whoever the table picks; then the king deals
        assert deal.dealer == (None if index == 0 else deal.chooser)


@pytest.mark.parametrize("game", ["trix", "trix-complex"])
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_next_step_in_a_trix_game(game: str, first: int) -> None:
    deals = FULL_GAME[game]
    per_kingdom = GAMES[game].per_kingdom
    for played in range(len(deals)):
        step = replay(game_of(game, deals[:played], first=first)).next
        assert step is not None
        kingdom = played // per_kingdom
        assert (step.number, step.kingdom) == (played + 1, kingdom)
        assert step.chooser == step.leader == (first + kingdom) % 4
        assert step.dealer == (None if played == 0 else step.chooser)
        done = {d["contract"] for d in deals[kingdom * per_kingdom : played]}
        assert step.options == tuple(
            Option(c, False, "contract_played") if c in done else Option(c, True)
            for c in GAMES[game].contracts
        )
        assert step.contracts == sorted(set(GAMES[game].contracts) - done)


def test_trix_contract_already_played_in_the_kingdom() -> None:
    for played in range(1, len(TRIX_KINGDOM)):
        for repeat in TRIX_KINGDOM[:played]:
            error = refusal(raw_record("trix", [*TRIX_KINGDOM[:played], repeat]))
            assert (error.deal_number, error.contract) == (played + 1, repeat["contract"])
            assert first_problem(error) == ("contract", "contract_played")


def test_a_new_kingdom_reopens_every_contract() -> None:
    game = game_of("trix", TRIX_KINGDOM)
    assert evaluate(replay(game), KING_OF_HEARTS).ok
    step = replay(game).next
    assert step is not None and step.kingdom == 1
    assert all(option.open for option in step.options)


def test_complex_contract_already_played() -> None:
    for deal in (TRIX, COMPLEX):
        error = refusal(raw_record("trix-complex", [deal, deal]))
        assert (error.deal_number, error.contract) == (2, deal["contract"])
        assert first_problem(error) == ("contract", "contract_played")


def test_contract_played_through_evaluate() -> None:
    game = game_of("trix", [DIAMONDS])
    evaluation = evaluate(replay(game), DIAMONDS)
    assert pairs(evaluation.problems) == [("contract", "contract_played")]
    assert not evaluation.ok
    # even a deal that does not parse says first that the contract is closed
    evaluation = evaluate(replay(game), {"contract": "diamonds", "counts": [1, 1, 1, 1]})
    assert pairs(evaluation.problems) == [
        ("contract", "contract_played"),
        ("counts", "sum_mismatch"),
    ]


# --- Turkish King: declarers and quotas ----------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_declarer_and_dealer_of_each_hand(first: int) -> None:
    result = replay(game_of("turkish-king", TURKISH_GAME, first=first))
    assert result.finished
    for hand, deal in enumerate(result.deals):
        assert deal.chooser == deal.leader == (first + hand) % 4
        assert deal.dealer == (deal.chooser + 3) % 4
        assert deal.kingdom is None
        if hand:
            # from the second hand on, the dealer is the previous declarer
            assert deal.dealer == result.deals[hand - 1].chooser


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_next_step_in_turkish_king(first: int) -> None:
    for played in range(20):
        step = replay(game_of("turkish-king", TURKISH_GAME[:played], first=first)).next
        assert step is not None
        assert step.number == played + 1
        assert step.kingdom is None
        assert step.chooser == step.leader == (first + played) % 4
        assert step.dealer == (step.chooser + 3) % 4


# first = 0: hand h is declared by seat h % 4
NEGATIVE_QUOTA_HANDS = [
    NO_KING,
    TRUMP,
    TRUMP,
    TRUMP,  # seat 0 declares no-king
    NO_QUEENS,
    TRUMP,
    TRUMP,
    TRUMP,  # seat 0: no-queens; 1-3 trumps done
    NO_BOYS,
    NO_KING,
    NO_QUEENS,
    NO_BOYS,
]  # seat 0's third negative
NO_TRICKS_DEAL = {"contract": "no-tricks", "tricks": [0, 0, 0, 13]}


def test_trump_quota() -> None:
    result = replay(game_of("turkish-king", [TRUMP] * 8))
    assert result.quotas == (Quota(2, 0),) * 4
    assert all(quota.forced == "negative" for quota in result.quotas)
    step = result.next
    assert step is not None and step.chooser == 0
    assert step.options[0] == Option("trump", False, "trump_quota")
    assert all(option.open for option in step.options[1:])
    assert "trump" not in step.contracts
    error = refusal(raw_record("turkish-king", [TRUMP] * 9))
    assert (error.deal_number, error.contract) == (9, "trump")
    assert first_problem(error) == ("contract", "trump_quota")


def test_negative_quota() -> None:
    result = replay(game_of("turkish-king", NEGATIVE_QUOTA_HANDS))
    assert result.quotas == (Quota(0, 3), Quota(2, 1), Quota(2, 1), Quota(2, 1))
    assert result.quotas[0].forced == "trump"
    step = result.next
    assert step is not None and step.chooser == 0
    assert step.contracts == ["trump"]
    assert {o.reason for o in step.options if not o.open} == {"negative_quota"}
    for negative in (NO_HEARTS, NO_KING, NO_TRICKS_DEAL):
        error = refusal(raw_record("turkish-king", [*NEGATIVE_QUOTA_HANDS, negative]))
        assert (error.deal_number, error.contract) == (13, negative["contract"])
        assert first_problem(error) == ("contract", "negative_quota")
    assert evaluate(replay(game_of("turkish-king", NEGATIVE_QUOTA_HANDS)), TRUMP).ok


def test_negative_played_a_third_time() -> None:
    hands = [NO_KING, NO_KING]
    result = replay(game_of("turkish-king", hands))
    assert result.negative_plays is not None and result.negative_plays["no-king"] == 2
    step = result.next
    assert step is not None
    assert Option("no-king", False, "negative_twice") in step.options
    assert "no-king" not in step.contracts
    error = refusal(raw_record("turkish-king", [*hands, NO_KING]))
    assert (error.deal_number, error.contract) == (3, "no-king")
    assert first_problem(error) == ("contract", "negative_twice")


def test_quota_forced() -> None:
    assert Quota().forced is None
    assert Quota(1, 2).forced is None
    assert Quota(2, 0).forced == "negative"
    assert Quota(2, 2).forced == "negative"
    assert Quota(0, 3).forced == "trump"
    assert Quota(1, 3).forced == "trump"
    assert Quota(2, 3).forced is None  # done: declares no more


def test_quotas_only_in_turkish_king() -> None:
    result = replay(game_of("trix", [DIAMONDS]))
    assert result.quotas is None and result.negative_plays is None


def test_a_complete_turkish_game_uses_every_quota() -> None:
    result = replay(game_of("turkish-king", TURKISH_GAME))
    assert result.quotas == (Quota(2, 3),) * 4
    assert result.negative_plays == dict.fromkeys(
        ["no-king", "no-queens", "no-boys", "no-hearts", "no-last-two", "no-tricks"], 2
    )


def test_every_reason_has_a_label_and_a_message() -> None:
    assert set(REASONS) == {"contract_played", "trump_quota", "negative_quota", "negative_twice"}
    assert set(REASONS) == set(ClosedReason)
    assert set(REASONS) <= set(TEMPLATES)


# --- the end of the game -------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["trix", "trix-complex", "turkish-king"])
def test_game_finished(game: str) -> None:
    deals = FULL_GAME[game]
    result = replay(game_of(game, deals))
    assert result.finished and result.next is None and result.winners is not None
    assert (
        len(deals)
        == GAMES[game].deals_total
        == {"trix": 20, "trix-complex": 8, "turkish-king": 20}[game]
    )
    extra = SAMPLE_DEAL[game]
    error = refusal(raw_record(game, [*deals, extra]))
    assert (error.deal_number, error.contract) == (len(deals) + 1, extra["contract"])
    assert first_problem(error) == ("contract", "game_finished")
    evaluation = evaluate(replay(game_of(game, deals)), extra)
    assert pairs(evaluation.problems) == [("contract", "game_finished")]


@pytest.mark.parametrize("game", ["trix", "trix-complex", "turkish-king"])
def test_game_finished_even_for_an_entry_that_does_not_parse(game: str) -> None:
    entry = {"contract": SAMPLE_DEAL[game]["contract"]}
    evaluation = evaluate(replay(game_of(game, FULL_GAME[game])), entry)
    assert pairs(evaluation.problems)[0] == ("contract", "game_finished")


@pytest.mark.parametrize("game", ["trix", "trix-complex", "turkish-king"])
def test_not_finished_one_deal_short(game: str) -> None:
    result = replay(game_of(game, FULL_GAME[game][:-1]))
    assert not result.finished and result.winners is None and result.next is not None
    assert result.next.contracts == [FULL_GAME[game][-1]["contract"]]


def test_house_rules_do_not_change_turns() -> None:
    plain = replay(game_of("trix", TRIX_KINGDOM))
    swapped = replay(
        game_of("trix", TRIX_KINGDOM, house_rules=HouseRules(swap_diamonds_ltoosh=True))
    )
    assert [d.chooser for d in plain.deals] == [d.chooser for d in swapped.deals]
    assert plain.next == swapped.next


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("trix", HouseRules(doubling=False, doubled_self_take="full", swap_diamonds_ltoosh=True)),
        ("trix-complex", HouseRules(doubling=False, doubled_self_take="full")),
        ("turkish-king", HouseRules()),
    ],
)
def test_house_rules_for_keeps_only_the_switches_the_game_uses(
    game: str, expected: HouseRules
) -> None:
    chosen = HouseRules(doubling=False, doubled_self_take="full", swap_diamonds_ltoosh=True)
    assert house_rules_for(game, chosen) == expected


def test_king_of_each_kingdom_passes_to_the_right() -> None:
    definition = GAMES["trix"]
    assert [definition.king(3, k) for k in range(4)] == [3, 0, 1, 2]
