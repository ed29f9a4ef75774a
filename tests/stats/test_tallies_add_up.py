"""Figures a mutation run showed no test would miss: how a tally is laid out, doubles that add
up over deals and cards, partnerships after a solo game and in order, stamps with an offset."""

from __future__ import annotations

from datetime import UTC, datetime

from scorekeeper.rules import CONTRACTS, GAMES
from scorekeeper.stats import combine, game_figures
from scorekeeper.stats.figures import LAYOUTS, _layout
from tests.rules.builders import KING_OF_HEARTS, QUEENS, TRIX_KINGDOM
from tests.stats.records import trix
from tests.stats.test_takes import contract_of


def test_each_contract_has_its_own_slots_one_after_another() -> None:
    for game, definition in GAMES.items():
        for contracts in (definition.contracts, definition.contracts[1:]):
            layout = _layout(contracts)
            # in the engine's order of contracts, each starting where the one before ends
            assert list(layout.slots) == [c for c in CONTRACTS if c in contracts]
            start = 0
            for contract, slot in layout.slots.items():
                assert (slot.contract, slot.start) == (contract, start)
                assert slot.items == tuple(item for item, _ in CONTRACTS[contract].items)
                start += 5 + len(slot.items)  # deals, points, places, doubles, gain, items
            assert layout.size == start
        assert _layout(definition.contracts) == LAYOUTS[game]


def test_doubles_in_two_deals_of_one_contract_add_up() -> None:
    # Rami doubles the K♥ in the first kingdom and again in the second; Lina takes it both times
    doubled = {**KING_OF_HEARTS, "doubled_by": 0}
    deals = [doubled, *TRIX_KINGDOM[1:], doubled]
    rami = contract_of("trix", deals, "Rami", "king-of-hearts")
    assert (rami.deals, rami.doubles, rami.doubles_gain, rami.points) == (2, 2, 150, 150)


def test_two_queens_doubled_by_one_player_gain_each_their_own() -> None:
    # Lina takes the Q♥ and the Q♦, both doubled by Dana: +25 each, not each as if it were both
    deals = [{**QUEENS, "doubled_by": {"H": 3, "D": 3}}]
    dana = contract_of("trix", deals, "Dana", "queens")
    assert (dana.doubles, dana.doubles_gain, dana.points) == (2, 50, 25)


def test_a_solo_game_first_hides_no_partnership() -> None:
    stats = combine([game_figures(trix()), game_figures(trix(mode="partnership"))])
    assert [(p.names, p.games, p.wins, p.points) for p in stats.partnerships] == [
        (("Omar", "Rami"), 1, 1, 560),
        (("Dana", "Lina"), 1, 0, -560),
    ]


def test_pairs_with_as_many_wins_rank_by_points() -> None:
    # Omar & Rami win once by 560; Can & Sami win once and lose once by 560: as many wins,
    # fewer points
    games = [
        trix(["Rami", "Lina", "Omar", "Dana"], mode="partnership"),
        trix(["Can", "X", "Sami", "Y"], mode="partnership"),
        trix(["Lina", "Can", "Dana", "Sami"], mode="partnership"),
    ]
    pairs = combine([game_figures(record) for record in games]).partnerships
    assert [(p.keys, p.wins, p.points) for p in pairs] == [
        (("omar", "rami"), 1, 560),
        (("can", "sami"), 1, 0),
        (("dana", "lina"), 1, 0),
        (("x", "y"), 0, -560),
    ]


def test_a_stamp_with_an_offset_is_the_same_moment_in_utc() -> None:
    figures = game_figures(trix(created_at="2026-03-02T01:30:00+03:00"))
    assert figures.when == datetime(2026, 3, 1, 22, 30, tzinfo=UTC)
    assert game_figures(trix(created_at="2026-03-02T01:30:00")).when == datetime(
        2026, 3, 2, 1, 30, tzinfo=UTC
    )
