"""game_figures() and combine(): a game's figures, made once, add up to the table's statistics
whatever else the table holds, so a process may keep them per game."""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Record, replay
from scorekeeper.stats import (
    ContractStats,
    GameFigures,
    Item,
    TableStats,
    combine,
    compute,
    game_figures,
    player_key,
)
from scorekeeper.stats.figures import LAYOUTS
from tests.rules.builders import TURKISH_GAME
from tests.rules.strategies import records
from tests.stats.records import trix, turkish, unfinished_trix

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tables = st.lists(records(), min_size=1, max_size=5)

HAND_MADE = [
    trix(created_at="2026-03-02T20:00:00Z"),
    unfinished_trix(["Rami", "Lina", "Sami", "Dana"], created_at="2026-03-01T20:00:00Z"),
    turkish(TURKISH_GAME, players=["rami ", "Can", "Omar", "LINA"]),
    trix(["Omar", "Rami", "Dana", "Lina"], mode="partnership"),
]


def seat_contracts(figures: GameFigures, seat: int) -> tuple[ContractStats, ...]:
    """The seat's deals of each contract it played in the game."""
    return LAYOUTS[figures.game].contract_stats(figures.tally(seat))


def summed(parts: list[ContractStats]) -> tuple[int, int, dict[Item, int], int, int, int]:
    taken: dict[Item, int] = {}
    for part in parts:
        for item, count in part.taken.items():
            taken[item] = taken.get(item, 0) + count
    return (
        sum(p.deals for p in parts),
        sum(p.points for p in parts),
        taken,
        sum(p.places for p in parts),
        sum(p.doubles for p in parts),
        sum(p.doubles_gain for p in parts),
    )


def assert_adds_up(table: list[Record], stats: TableStats) -> None:
    """Every player's figures over the table are the sums of their figures game by game."""
    alone = [combine([game_figures(record)]) for record in table]
    for player in stats.players:
        games = [one.player(player.key) for one in alone]
        mine = [one for one in games if one is not None]
        assert player.games == sum(one.games for one in mine)
        assert player.finished == sum(one.finished for one in mine)
        assert player.wins == sum(one.wins for one in mine)
        if player.points is not None:  # (None: Trix and King never added up)
            assert player.points == sum(one.points or 0 for one in mine)
        for contract, figures in player.contracts.items():
            parts = [one.contracts[contract] for one in mine if contract in one.contracts]
            assert (
                figures.deals,
                figures.points,
                dict(figures.taken),
                figures.places,
                figures.doubles,
                figures.doubles_gain,
            ) == summed(parts)
        assert set(player.contracts) == {c for one in mine for c in one.contracts}


def test_combined_figures_are_the_statistics_of_the_hand_made_records() -> None:
    stats = combine([game_figures(record) for record in HAND_MADE])
    assert stats == compute(HAND_MADE)
    assert stats.games == 4 and stats.finished == 3
    assert_adds_up(HAND_MADE, stats)
    # figures made in any order (as a cache fills) combine in the records' order
    made = {
        index: game_figures(record)
        for index, record in random.Random(7).sample(list(enumerate(HAND_MADE)), 4)
    }
    assert combine([made[index] for index in range(4)]) == stats


def test_a_games_figures_are_its_replay_per_seat() -> None:
    record = turkish(TURKISH_GAME, players=["Rami", "Lina", "Omar", "Dana"])
    figures = game_figures(record)
    result = replay(record.game)
    assert (figures.game, figures.finished, figures.totals) == ("turkish-king", True, result.totals)
    assert figures.keys == ("rami", "lina", "omar", "dana")
    rami = {stats.contract: stats for stats in seat_contracts(figures, 0)}
    assert (rami["trump"].deals, rami["trump"].points, rami["trump"].taken) == (
        8,
        1600,
        {Item.TRICKS: 32},
    )
    assert rami["no-last-two"].taken == {Item.LAST_TWO: 4}
    assert seat_contracts(figures, 2)[1].contract == "no-king"
    assert seat_contracts(figures, 2)[1].taken == {Item.KING_OF_HEARTS: 2}


def test_figures_are_plain_values() -> None:
    figures = game_figures(HAND_MADE[0])
    assert pickle.loads(pickle.dumps(figures)) == figures
    assert figures == game_figures(trix(created_at="2026-03-02T20:00:00Z"))


@QUICK
@given(tables)
def test_combined_figures_are_compute(table: list[Record]) -> None:
    figures = [game_figures(record) for record in table]
    assert all(isinstance(one, GameFigures) for one in figures)
    assert combine(figures) == compute(table)


@QUICK
@given(tables)
def test_the_whole_is_the_sum_of_its_games(table: list[Record]) -> None:
    assert_adds_up(table, combine([game_figures(record) for record in table]))


@QUICK
@given(records())
def test_each_seats_contracts_are_its_deals(record: Record) -> None:
    figures = game_figures(record)
    result = replay(record.game)
    for seat in range(4):
        played = {stats.contract: stats for stats in seat_contracts(figures, seat)}
        assert played.keys() == {deal.contract for deal in result.deals}
        for contract, stats in played.items():
            deals = [deal for deal in result.deals if deal.contract == contract]
            assert stats.deals == len(deals)
            assert stats.points == sum(deal.scores[seat] for deal in deals)
    assert figures.keys == tuple(player_key(name) for name in record.game.players)
    assert figures.finished == result.finished
    assert figures.winners == (result.winners or ())


def _seat_after(deal: dict[str, object]) -> dict[str, object]:
    """The same deal with every seat moved one place on (what seat 0 did, seat 1 does)."""
    moved: dict[str, object] = {}
    for key, value in deal.items():
        if key in ("counts", "tricks"):  # per seat
            assert isinstance(value, list)
            moved[key] = value[-1:] + value[:-1]
        elif isinstance(value, list):  # seats
            moved[key] = [(seat + 1) % 4 for seat in value]
        elif isinstance(value, dict):  # a seat per card
            moved[key] = {card: (seat + 1) % 4 for card, seat in value.items()}
        elif isinstance(value, int):  # a seat
            moved[key] = (value + 1) % 4
        else:
            moved[key] = value
    return moved


def test_a_partnership_won_by_the_second_team_is_theirs() -> None:
    """Team B (seats 1 and 3) wins; the statistics must not give it to team A (seat 0)."""
    from tests.stats.records import TRIX_GAME

    record = trix(
        ["Rami", "Lina", "Omar", "Dana"],
        [_seat_after(deal) for deal in TRIX_GAME],
        mode="partnership",
    )
    figures = game_figures(record)
    assert figures.finished and figures.team_totals == (-560, 560)
    assert [figures.won(seat) for seat in range(4)] == [False, True, False, True]
    wins = {pair.names: pair.wins for pair in compute([record]).partnerships}
    assert wins == {("Omar", "Rami"): 0, ("Dana", "Lina"): 1}


def test_no_seat_has_won_an_unfinished_game() -> None:
    figures = game_figures(unfinished_trix())
    assert [figures.won(seat) for seat in range(4)] == [False] * 4
