"""What the rules page shows, every number scored by the engine: what doubling does (a few deals
with a double), what the house rules' choices change, what a deal adds up to and what its
counts add up to (each contract's per-item scores are its own :meth:`Contract.item_scores`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import assert_never

from .cards import SEATS, SUITS
from .contracts import CONTRACTS, ContractKind, Item
from .deal import Deal, FieldKind, Value
from .games import GAMES, NEGATIVES_PER_PLAYER, PLAYS_PER_NEGATIVE, TRUMPS_PER_PLAYER
from .house_rules import FULL, HouseRules, QueenOfDiamonds


def _score(contract: str, values: Mapping[str, Value], rules: HouseRules) -> tuple[int, ...]:
    return tuple(CONTRACTS[contract].score(Deal(contract, values), rules))


def doubling_scores(rules: HouseRules) -> dict[str, int]:
    """What doubling does under `rules`, each number scored by the engine.

    `king_taker`/`king_doubler`: the K♥ doubled by one player, taken by another; the same for a
    queen; `*_self`: the doubler took their own card; `queen_diamond`, `queen_diamond_doubler`:
    a doubled Q♦ in Complex taken by another player, `queen_diamond_self` by its doubler.
    """
    others = {"H": 2, "D": 2, "C": 2}
    king = _score("king-of-hearts", {"taker": 0, "doubled_by": 1}, rules)
    queen = _score("queens", {"takers": {"S": 0, **others}, "doubled_by": {"S": 1}}, rules)
    complex_values: dict[str, Value] = {
        "tricks": (0, 0, 0, 0),
        "diamonds": (1, 0, 0, 0),
        "queens": {"S": 2, "H": 2, "C": 2, "D": 0},
        "king_of_hearts": 2,
        "doubled_by": {"D": 1},
    }
    queen_diamond = _score("complex", complex_values, rules)
    own_queen_diamond = _score("complex", {**complex_values, "doubled_by": {"D": 0}}, rules)
    return {
        "king_taker": king[0],
        "king_doubler": king[1],
        "queen_taker": queen[0],
        "queen_doubler": queen[1],
        "king_self": _score("king-of-hearts", {"taker": 0, "doubled_by": 0}, rules)[0],
        "queen_self": _score(
            "queens", {"takers": {"S": 0, **others}, "doubled_by": {"S": 0}}, rules
        )[0],
        "queen_diamond": queen_diamond[0],
        "queen_diamond_doubler": queen_diamond[1],
        "queen_diamond_self": own_queen_diamond[0],
    }


def _item_score(contract: str, item: Item, rules: HouseRules) -> int:
    """What one `item` taken in `contract` scores its taker under `rules` (the engine's)."""
    return CONTRACTS[contract].item_scores(rules)[item]


def house_rule_numbers() -> dict[str, int]:
    """The numbers the house rules' choices show beside their words, each scored by the engine:
    what a doubler taking their own K♥ / queen loses (`net_*`, `full_*`), Trix's diamond and
    Ltoosh trick when swapped (`swapped_*`), a doubled Q♦ in Complex to its taker and doubler
    (`queen_part_*`, `whole_*`), and the Q♦'s own penalty (`queen_of_diamonds`)."""
    net = doubling_scores(HouseRules())
    full = doubling_scores(HouseRules(doubled_self_take=FULL))
    whole = doubling_scores(HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE))
    swapped = HouseRules(swap_diamonds_ltoosh=True)
    return {
        "net_king": net["king_self"],
        "net_queen": net["queen_self"],
        "full_king": full["king_self"],
        "full_queen": full["queen_self"],
        "swapped_diamond": _item_score("diamonds", Item.DIAMONDS, swapped),
        "swapped_trick": _item_score("ltoosh", Item.TRICKS, swapped),
        "queen_part_taker": net["queen_diamond"],
        "queen_part_doubler": net["queen_diamond_doubler"],
        "whole_taker": whole["queen_diamond"],
        "whole_doubler": whole["queen_diamond_doubler"],
        "queen_of_diamonds": _item_score("complex", Item.QUEENS, HouseRules())
        + _item_score("complex", Item.DIAMONDS, HouseRules()),
        "complex_diamond": _item_score("complex", Item.DIAMONDS, HouseRules()),
    }


def deal_total(contract: str, rules: HouseRules) -> int | None:
    """What a deal of `contract` adds up to over the four seats without doubles under `rules`,
    scored by the engine (every deal of it adds up the same: each item it counts costs its
    taker the same, and its counts add up to their totals); None when a count's total is only
    a ceiling (Complex's tricks that held a penalty card), so deals differ."""
    values: dict[str, Value] = {}
    for spec in CONTRACTS[contract].specs(rules):  # seat 0 takes everything
        match spec.kind:
            case FieldKind.COUNTS if spec.at_most:
                return None
            case FieldKind.COUNTS:
                values[spec.name] = (spec.total, 0, 0, 0)
            case FieldKind.SEAT:
                values[spec.name] = 0
            case FieldKind.SEAT_PAIR:
                values[spec.name] = (0, 0)
            case FieldKind.ORDER:
                values[spec.name] = tuple(SEATS)
            case FieldKind.CARD_SEATS:
                values[spec.name] = dict.fromkeys(spec.cards, 0)
            case FieldKind.SUIT:
                values[spec.name] = SUITS[0]
            case FieldKind.OPTIONAL_SEAT | FieldKind.OPTIONAL_CARD_SEATS:
                pass  # no doubles
            case _:
                assert_never(spec.kind)
    return sum(_score(contract, values, rules))


def adds_up_to_zero(game: str, rules: HouseRules) -> bool:
    """Whether, without doubling, `game` adds up to zero under `rules`, by the engine's deal
    totals: every kingdom of a Trix game (each contract once), or a whole Turkish King game
    (each player's trumps and negatives), when those totals are fixed. Not when Complex charges
    only the tricks that held a penalty card, nor when Turkish King has more negatives than its
    negative deals play (which ones are played then decides the total)."""
    definition = GAMES[game]
    totals: dict[str, int] = {}
    for contract in definition.contracts:
        total = deal_total(contract, rules)
        if total is None:
            return False
        totals[contract] = total
    if definition.kingdoms:
        return sum(totals.values()) == 0
    trumps = {total for c, total in totals.items() if CONTRACTS[c].kind == ContractKind.TRUMP}
    negatives = [t for c, t in totals.items() if CONTRACTS[c].kind == ContractKind.NEGATIVE]
    if len(trumps) != 1 or len(negatives) * PLAYS_PER_NEGATIVE != (
        len(SEATS) * NEGATIVES_PER_PLAYER
    ):
        return False  # which trump or negative is played would change the total
    (trump,) = trumps
    return len(SEATS) * TRUMPS_PER_PLAYER * trump + PLAYS_PER_NEGATIVE * sum(negatives) == 0


def count_totals(game: str, rules: HouseRules, *, ceilings: bool = False) -> dict[Item, int]:
    """What a deal's counts add up to in `game` under `rules`, by the item they count
    (Item.TRICKS: 13, Item.QUEENS: 4, ...), in the order its contracts first count each; a count
    whose total is only a ceiling (Complex's tricks that held a penalty card) only with
    `ceilings`."""
    totals: dict[Item, int] = {}
    for contract in GAMES[game].contracts:
        for spec in CONTRACTS[contract].specs(rules):
            if spec.kind == FieldKind.COUNTS and (ceilings or not spec.at_most):
                totals.setdefault(Item(spec.unit), spec.total)
    return totals
