"""What each player took per contract, and doubles: how many and what they gained or cost (the
engine's score with the double against the same deal without it)."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import CONTRACTS, GAMES
from scorekeeper.stats import ContractStats, Item, compute
from tests.rules.builders import COMPLEX, QUEENS, load, raw_record


def contract_of(
    game: str, deals: list[dict[str, Any]], name: str, contract: str, **house_rules: Any
) -> ContractStats:
    record = load(raw_record(game, deals, house_rules=house_rules or None))
    player = next(p for p in compute([record]).players if p.name == name)
    return player.contracts[contract]


def test_every_contract_says_what_it_counts() -> None:
    for contract in CONTRACTS.values():
        for _, field in contract.items:
            contract.field(field)  # the field exists


def test_every_game_contract_is_a_contract() -> None:
    for definition in GAMES.values():
        assert set(definition.contracts) <= set(CONTRACTS)


def test_a_double_on_someone_else_gains_the_penalty() -> None:
    deals = [{"contract": "king-of-hearts", "taker": 1, "doubled_by": 0}]
    rami = contract_of("trix", deals, "Rami", "king-of-hearts")
    assert (rami.doubles, rami.doubles_gain, rami.points) == (1, 75, 75)
    lina = contract_of("trix", deals, "Lina", "king-of-hearts")
    assert (lina.doubles, lina.doubles_gain, lina.points) == (0, 0, -150)
    assert lina.taken == {Item.KING_OF_HEARTS: 1}


@pytest.mark.parametrize(("self_take", "gain", "points"), [("net", 0, -75), ("full", -75, -150)])
def test_a_double_taken_by_its_doubler(self_take: str, gain: int, points: int) -> None:
    deals = [{"contract": "king-of-hearts", "taker": 1, "doubled_by": 1}]
    lina = contract_of("trix", deals, "Lina", "king-of-hearts", doubled_self_take=self_take)
    assert (lina.doubles, lina.doubles_gain, lina.points) == (1, gain, points)


def test_each_doubled_queen_counts() -> None:
    # takers S Rami, H Lina, D Lina, C Dana; Dana doubles H (Lina takes it: +25), Rami doubles
    # S and takes it himself (net: nothing gained, nothing lost)
    deals = [{**QUEENS, "doubled_by": {"H": 3, "S": 0}}]
    dana = contract_of("trix", deals, "Dana", "queens")
    assert (dana.doubles, dana.doubles_gain, dana.points) == (1, 25, 0)
    rami = contract_of("trix", deals, "Rami", "queens")
    assert (rami.doubles, rami.doubles_gain, rami.points) == (1, 0, -25)
    lina = contract_of("trix", deals, "Lina", "queens")
    assert (lina.taken, lina.points) == ({Item.QUEENS: 2}, -75)


@pytest.mark.parametrize(("rule", "gain"), [("queen", 25), ("whole", 35)])
def test_a_doubled_queen_of_diamonds_in_complex(rule: str, gain: int) -> None:
    # COMPLEX: Rami takes the Q♦; Omar doubles it
    deals = [{**COMPLEX, "doubled_by": {"D": 2}}]
    omar = contract_of("trix-complex", deals, "Omar", "complex", doubled_queen_of_diamonds=rule)
    assert (omar.doubles, omar.doubles_gain) == (1, gain)


def test_complex_counts_tricks_diamonds_queens_and_the_king() -> None:
    # COMPLEX: tricks 4/3/3/3, diamonds 5/4/2/2, queens S+D Rami, H Lina, C Dana, K♥ Lina
    rami = contract_of("trix-complex", [COMPLEX], "Rami", "complex")
    assert rami.taken == {Item.TRICKS: 4, Item.DIAMONDS: 5, Item.QUEENS: 2, Item.KING_OF_HEARTS: 0}
    # −15 × 4 − 10 × 5 − 25 × 2
    assert rami.points == -160
    lina = contract_of("trix-complex", [COMPLEX], "Lina", "complex")
    assert lina.taken[Item.KING_OF_HEARTS] == 1
    assert lina.points == -45 - 40 - 25 - 75


def test_no_doubles_no_gain() -> None:
    rami = contract_of("trix-complex", [COMPLEX], "Rami", "complex")
    assert (rami.doubles, rami.doubles_gain) == (0, 0)
