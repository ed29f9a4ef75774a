"""Properties over random legal games: the statistics only regroup the engine's own numbers."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Record, replay
from scorekeeper.stats import compute, player_key, to_json
from tests.rules.strategies import records

QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tables = st.lists(records(), min_size=1, max_size=4)


@QUICK
@given(tables)
def test_contract_points_add_up_to_every_deals_scores(table: list[Record]) -> None:
    stats = compute(table)
    by_players = sum(
        contract.points for player in stats.players for contract in player.contracts.values()
    )
    by_deals = sum(sum(deal.scores) for record in table for deal in replay(record.game).deals)
    assert by_players == by_deals
    deals = sum(
        contract.deals for player in stats.players for contract in player.contracts.values()
    )
    assert deals == 4 * sum(len(record.game.deals) for record in table)


@QUICK
@given(tables)
def test_points_and_wins_come_from_finished_games(table: list[Record]) -> None:
    stats = compute(table)
    results = [replay(record.game) for record in table]
    kinds = [p for kind in stats.standings.values() for p in kind]
    assert sum(player.points or 0 for player in kinds) == sum(
        sum(result.totals) for result in results if result.finished
    )
    # Trix and King points are never added up: all games together have none when both played
    mixed = {"trix", "turkish-king"} <= {record.game.kind for record in table} or {
        "trix-complex",
        "turkish-king",
    } <= {record.game.kind for record in table}
    assert all((player.points is None) == mixed for player in stats.players)
    wins = sum(
        len({player_key(result.game.players[seat]) for seat in result.winners or ()})
        for result in results
    )
    assert sum(player.wins for player in stats.players) == wins
    assert stats.finished == sum(result.finished for result in results)


@QUICK
@given(tables)
def test_every_player_once_sorted(table: list[Record]) -> None:
    stats = compute(table)
    keys = [player.key for player in stats.players]
    assert len(keys) == len(set(keys))
    assert set(keys) == {player_key(name) for record in table for name in record.game.players}
    order = [(-p.wins, -(p.points or 0)) for p in stats.players]
    assert order == sorted(order)
    assert [p["name"] for p in to_json(stats)["players"]] == [p.name for p in stats.players]
    for player in stats.players:
        assert player.longest_streak >= player.current_streak
        assert player.longest_streak <= player.wins


@QUICK
@given(tables)
def test_standings_per_kind_add_up_to_the_whole(table: list[Record]) -> None:
    stats = compute(table)
    for player in stats.players:
        parts = [p for kind in stats.standings.values() for p in kind if p.key == player.key]
        assert sum(p.games for p in parts) == player.games
        assert sum(p.wins for p in parts) == player.wins
        if player.points is not None:
            assert sum(p.points or 0 for p in parts) == player.points
