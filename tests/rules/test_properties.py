"""Properties of random legal games of every game, mode and house-rule set."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    FULL,
    GAMES,
    TRIX,
    TRIX_COMPLEX,
    TURKISH_KING,
    Game,
    QueenOfDiamonds,
    Quota,
    Record,
    Winners,
    dumps_record,
    evaluate,
    load_record,
    replay,
)
from tests.rules.strategies import games, games_with_entries, records

ALL_GAMES = st.sampled_from([TRIX, TRIX_COMPLEX, TURKISH_KING])
# each example replays its game once per deal while it is built: keep the counts modest
QUICK = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def record_of(game: Game) -> Record:
    return Record(game)


@QUICK
@given(st.data())
def test_every_generated_game_is_accepted(data: st.DataObject) -> None:
    game = data.draw(games(data.draw(ALL_GAMES)))
    result = replay(game)
    assert result.finished and result.next is None
    assert len(result.deals) == GAMES[game.kind].deals_total
    assert result.winners is not None
    # the highest total always wins; "positive" may name nobody (all four end at 0)
    if game.house_rules.winners == Winners.HIGHEST or any(t > 0 for t in result.totals):
        assert result.winners
    assert load_record(dumps_record(record_of(game))).game == game


def self_take_penalties(game: Game) -> list[int]:
    """Per kingdom, the extra loss of doubled cards taken by their own doubler under 'full'."""
    extra = [0, 0, 0, 0]
    if game.house_rules.doubled_self_take != FULL:
        return extra
    per_kingdom = game.definition.per_kingdom
    # a doubled Q♦ taken by its doubler: its queen part, or the whole card ("whole")
    queen_of_diamonds = (
        35 if game.house_rules.doubled_queen_of_diamonds == QueenOfDiamonds.WHOLE else 25
    )
    for index, deal in enumerate(game.deals):
        if deal.contract == "king-of-hearts":
            doubler = deal.optional_seat("doubled_by")
            if doubler is not None and doubler == deal.seat("taker"):
                extra[index // per_kingdom] += 75
        elif deal.contract in ("queens", "complex"):
            takers = deal.cards("takers" if deal.contract == "queens" else "queens")
            for card, doubler in deal.cards("doubled_by").items():
                taker = deal.seat("king_of_hearts") if card == "KH" else takers[card]
                if doubler == taker:
                    extra[index // per_kingdom] += {"KH": 75, "D": queen_of_diamonds}.get(card, 25)
    return extra


@QUICK
@given(st.data())
def test_trix_kingdoms_sum_to_zero_unless_full_self_take(data: st.DataObject) -> None:
    game = data.draw(games(data.draw(st.sampled_from([TRIX, TRIX_COMPLEX]))))
    result = replay(game)
    per_kingdom = game.definition.per_kingdom
    extra = self_take_penalties(game)
    for kingdom in range(4):
        deals = result.deals[kingdom * per_kingdom : (kingdom + 1) * per_kingdom]
        assert sum(sum(deal.scores) for deal in deals) == -extra[kingdom]
    assert sum(result.totals) == -sum(extra)
    if result.team_totals is not None:
        assert result.team_totals == (
            result.totals[0] + result.totals[2],
            result.totals[1] + result.totals[3],
        )


@QUICK
@given(games(TURKISH_KING))
def test_turkish_king_winners_follow_the_house_rule(game: Game) -> None:
    result = replay(game)
    assert result.winners is not None
    if game.house_rules.winners == Winners.POSITIVE:
        assert result.winners == tuple(s for s in range(4) if result.totals[s] > 0)
    else:
        best = max(result.totals)
        assert result.winners == tuple(s for s in range(4) if result.totals[s] == best)


@QUICK
@given(games(TURKISH_KING))
def test_turkish_king_games_sum_to_zero_and_use_every_quota(game: Game) -> None:
    result = replay(game)
    assert sum(result.totals) == 0
    assert result.quotas == (Quota(2, 3),) * 4
    assert result.negative_plays is not None
    assert set(result.negative_plays.values()) == {2}
    assert len(result.negative_plays) == 6
    for deal in result.deals:
        assert deal.chooser == (game.first + deal.number - 1) % 4
        total = sum(deal.scores)
        assert total == (
            650
            if deal.contract == "trump"
            else -{
                "no-king": 320,
                "no-queens": 400,
                "no-boys": 480,
                "no-hearts": 390,
                "no-last-two": 360,
                "no-tricks": 650,
            }[deal.contract]
        )


@QUICK
@given(games(complete=False))
def test_the_menu_is_never_empty_before_the_end(game: Game) -> None:
    result = replay(game)
    if result.finished:
        return
    assert result.next is not None and result.next.contracts
    quotas = result.quotas
    if quotas is not None:
        forced = quotas[result.next.chooser].forced
        if forced == "trump":
            assert result.next.contracts == ["trump"]
        elif forced == "negative":
            assert "trump" not in result.next.contracts


@QUICK
@given(records())
def test_load_dump_round_trip(record: Record) -> None:
    assert load_record(dumps_record(record)) == record
    exported = dumps_record(record, derived=True)
    assert load_record(exported) == record
    # the export carries exactly what `scorekeeper check` prints
    data = json.loads(exported)
    result = replay(record.game)
    assert data["totals"] == list(result.totals)
    assert data["finished"] is result.finished


def count_fields(entry: dict[str, Any]) -> list[str]:
    return [key for key in ("counts", "tricks", "diamonds") if key in entry]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_changing_one_count_is_refused(data: st.DataObject) -> None:
    game, entries = data.draw(games_with_entries(data.draw(ALL_GAMES), complete=False))
    counted = [i for i, entry in enumerate(entries) if count_fields(entry)]
    if not counted:
        return
    index = data.draw(st.sampled_from(counted))
    entry = entries[index]
    name = data.draw(st.sampled_from(count_fields(entry)))
    seat = data.draw(st.integers(0, 3))
    delta = data.draw(st.sampled_from([-1, 1]))
    values = list(entry[name])
    values[seat] += delta
    evaluation = evaluate(replay(game), {**entry, name: values}, index=index)
    assert not evaluation.ok
    assert evaluation.deal is None
    codes = {(problem.field, problem.code) for problem in evaluation.problems}
    assert codes & {(name, "sum_mismatch"), (f"{name}[{seat}]", "count_range")}
    # and through the record, the same deal is the one named
    raw = json.loads(dumps_record(Record(game)))
    raw["deals"][index][name] = values
    try:
        load_record(json.dumps(raw))
    except ValueError as error:
        assert getattr(error, "deal_number", None) == index + 1
    else:
        raise AssertionError("the changed record was accepted")


@QUICK
@given(st.data())
def test_every_open_contract_accepts_a_legal_entry(data: st.DataObject) -> None:
    from tests.rules.strategies import raw_deal

    game = data.draw(games(complete=False))
    result = replay(game)
    if result.next is None:
        return
    contract = data.draw(st.sampled_from(result.next.contracts))
    entry = data.draw(raw_deal(contract, game.house_rules))
    evaluation = evaluate(replay(game), entry)
    assert evaluation.ok, evaluation.problems
    for option in result.next.options:
        if not option.open:
            closed = data.draw(raw_deal(option.contract, game.house_rules))
            refused = evaluate(replay(game), closed)
            assert [(p.field, p.code) for p in refused.problems][:1] == [
                ("contract", option.reason)
            ]
