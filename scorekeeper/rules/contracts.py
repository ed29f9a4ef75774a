"""The contracts of all three games: what each records, what it scores, its own checks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import assert_never

from .cards import SUITS
from .checks import check_complex, doubling_checks
from .deal import Deal, FieldKind, FieldSpec, Value
from .errors import Problem
from .house_rules import FULL, ComplexTricks, HouseRules, QueenOfDiamonds

Scores = tuple[int, ...]
Scorer = Callable[[Deal, HouseRules], Scores]
Checker = Callable[[Deal, HouseRules], list[Problem]]


class Item(StrEnum):
    """What a player can take in a deal (docs/rules.md's cards and tricks): what a contract's fields
    count, and what the statistics add up."""

    KING_OF_HEARTS = "king_of_hearts"
    """The K♥."""
    QUEENS = "queens"
    DIAMONDS = "diamonds"
    TRICKS = "tricks"
    """Tricks taken (trump tricks in Turkish King's trump contract)."""
    HEARTS = "hearts"
    KINGS_AND_JACKS = "kings_and_jacks"
    LAST_TWO = "last_two"
    """The last two tricks (0, 1 or 2 of them)."""


DOUBLING_KINDS = (FieldKind.OPTIONAL_SEAT, FieldKind.OPTIONAL_CARD_SEATS)
"""The kinds of field a double is recorded in (`doubled_by`): the only optional ones."""


class ContractKind(StrEnum):
    """What a contract is for the turn rules: Turkish King counts trumps and negatives per player.
    A StrEnum: members equal (and serialise as) their values."""

    POSITIVE = "positive"
    """Points to win (Trix's layout game)."""
    NEGATIVE = "negative"
    """Penalties to avoid."""
    TRUMP = "trump"
    """Turkish King's trump contract: tricks to win."""


def _no_checks(deal: Deal, rules: HouseRules) -> list[Problem]:
    return []


@dataclass(frozen=True)
class Contract:
    """A contract and every fact about it, so nothing outside the engine switches on its id
    (python-chess's variant classes are the model): the fields it records and what each counts,
    its kind, how it scores, its own checks, the cards it can double and a sample deal.

    A field of kind SEAT or OPTIONAL_SEAT names in its spec's `cards` the card its seat took
    (or doubled); the optional fields are the doubles."""

    id: str
    fields: tuple[FieldSpec, ...]
    kind: ContractKind
    score: Scorer
    check: Checker = _no_checks
    items: tuple[tuple[Item, str], ...] = ()
    """What its fields count: (item, the field it is read from), in the order they are shown."""
    sample: Mapping[str, Value] = field(default_factory=dict)
    """A deal of it in which seat 0 takes one of each item it counts (or the card, or the first
    place): scored by :meth:`score`, it gives the per-item scores the rules page shows."""
    per_item: Callable[[HouseRules], Mapping[Item, int]] | None = None
    """The score of one item taken, when the sample cannot say it (several items in one deal)."""
    shaped: Callable[[HouseRules], tuple[FieldSpec, ...]] | None = None
    """Its fields as a house rule shapes them (what a count means, whether its total is only a
    ceiling), when one does; `fields` are the defaults' shape."""
    extreme: Mapping[str, Value] = field(default_factory=dict)
    """A deal of it at its extremes: one seat scores the least a seat (and with its partner, a
    team) can, another the most, every card it can double doubled (rules/outlook.py reads it,
    without the doubles where doubling is off)."""

    def specs(self, rules: HouseRules) -> tuple[FieldSpec, ...]:
        """The fields it records under `rules` (the same names and kinds as `fields`)."""
        return self.fields if self.shaped is None else self.shaped(rules)

    def field(self, name: str) -> FieldSpec:
        """The spec of one field by name."""
        for spec in self.fields:
            if spec.name == name:
                return spec
        raise KeyError(name)

    @property
    def doubles(self) -> tuple[str, ...]:
        """The cards it lets a player double (none: it records no doubles)."""
        return tuple(
            card for spec in self.fields if spec.kind in DOUBLING_KINDS for card in spec.cards
        )

    @property
    def doubles_field(self) -> str | None:
        """The field its doubles are recorded in (`doubled_by`), if it records any."""
        return next((spec.name for spec in self.fields if spec.kind in DOUBLING_KINDS), None)

    @property
    def takes(self) -> tuple[FieldSpec, ...]:
        """The fields saying what was taken, in the order its takes read in short form (the
        doubles are read with the cards they double)."""
        return tuple(spec for spec in self.fields if spec.kind not in DOUBLING_KINDS)

    @property
    def place_field(self) -> str | None:
        """The field holding a finishing order (Trix), if it records one."""
        return next((spec.name for spec in self.fields if spec.kind == FieldKind.ORDER), None)

    @property
    def suit_field(self) -> str | None:
        """The field holding a suit its deal names (Turkish King's trump), if it records one."""
        return next((spec.name for spec in self.fields if spec.kind == FieldKind.SUIT), None)

    def item_scores(self, rules: HouseRules) -> Mapping[Item, int]:
        """What one of each item it counts scores its taker under `rules` (by the engine)."""
        if self.per_item is not None:
            return self.per_item(rules)
        taker = self.score(Deal(self.id, self.sample), rules)[0]
        return {item: taker for item, _ in self.items}

    def places(self, rules: HouseRules) -> Scores:
        """A finishing-order contract's score for 1st, 2nd, 3rd and 4th place; () for others."""
        if self.place_field is None:
            return ()
        order = Deal(self.id, self.sample).counts(self.place_field)
        scores = self.score(Deal(self.id, self.sample), rules)
        return tuple(scores[seat] for seat in order)


def _charge_card(
    scores: list[int], taker: int, doubler: int | None, penalty: int, rules: HouseRules
) -> None:
    """Apply one card's penalty, doubled if someone doubled it (docs/rules.md, Doubling)."""
    if doubler is None:
        scores[taker] -= penalty
    elif doubler != taker:
        scores[taker] -= 2 * penalty
        scores[doubler] += penalty
    elif rules.doubled_self_take == FULL:
        scores[taker] -= 2 * penalty
    else:
        scores[taker] -= penalty  # -2p for taking it, +p for doubling it


def _per_item(penalty: int, name: str) -> Scorer:
    def score(deal: Deal, rules: HouseRules) -> Scores:
        return tuple(-penalty * count for count in deal.counts(name))

    return score


# --- Trix --------------------------------------------------------------------------------------

KING_OF_HEARTS_PENALTY = 75
QUEEN_PENALTY = 25
TRIX_PLACES = (200, 150, 100, 50)


def diamond_penalty(rules: HouseRules) -> int:
    """Per diamond in the Trix contract: 10, or 15 with swap_diamonds_ltoosh."""
    return 15 if rules.swap_diamonds_ltoosh else 10


def ltoosh_penalty(rules: HouseRules) -> int:
    """Per trick in Ltoosh: 15, or 10 with swap_diamonds_ltoosh."""
    return 10 if rules.swap_diamonds_ltoosh else 15


def _score_king_of_hearts(deal: Deal, rules: HouseRules) -> Scores:
    scores = [0, 0, 0, 0]
    _charge_card(
        scores, deal.seat("taker"), deal.optional_seat("doubled_by"), KING_OF_HEARTS_PENALTY, rules
    )
    return tuple(scores)


def _score_queens(deal: Deal, rules: HouseRules) -> Scores:
    scores = [0, 0, 0, 0]
    doublers = deal.cards("doubled_by")
    for suit, taker in deal.cards("takers").items():
        _charge_card(scores, taker, doublers.get(suit), QUEEN_PENALTY, rules)
    return tuple(scores)


def _score_diamonds(deal: Deal, rules: HouseRules) -> Scores:
    return tuple(-diamond_penalty(rules) * count for count in deal.counts("counts"))


def _score_ltoosh(deal: Deal, rules: HouseRules) -> Scores:
    return tuple(-ltoosh_penalty(rules) * count for count in deal.counts("tricks"))


def _score_trix(deal: Deal, rules: HouseRules) -> Scores:
    scores = [0, 0, 0, 0]
    for place, seat in enumerate(deal.counts("order")):
        scores[seat] = TRIX_PLACES[place]
    return tuple(scores)


# --- Trix Complex ------------------------------------------------------------------------------

COMPLEX_TRICK, COMPLEX_DIAMOND = 15, 10
KING_OF_HEARTS_CARD = "KH"


QUEEN_OF_DIAMONDS = QUEEN_PENALTY + COMPLEX_DIAMOND
"""The Q♦ is a queen and a diamond: 35 in all."""


def _score_complex(deal: Deal, rules: HouseRules) -> Scores:
    scores = [
        -COMPLEX_TRICK * t - COMPLEX_DIAMOND * d
        for t, d in zip(deal.counts("tricks"), deal.counts("diamonds"), strict=True)
    ]
    doublers = deal.cards("doubled_by")
    for suit, taker in deal.cards("queens").items():
        doubler = doublers.get(suit)
        if suit != "D" or doubler is None:
            _charge_card(scores, taker, doubler, QUEEN_PENALTY, rules)
            continue
        match rules.doubled_queen_of_diamonds:
            case QueenOfDiamonds.QUEEN:  # the diamond's 10 stays single (in the counts above)
                _charge_card(scores, taker, doubler, QUEEN_PENALTY, rules)
            case QueenOfDiamonds.WHOLE:  # the whole 35 doubles: take its 10 back from the counts
                scores[taker] += COMPLEX_DIAMOND
                _charge_card(scores, taker, doubler, QUEEN_OF_DIAMONDS, rules)
            case _:
                assert_never(rules.doubled_queen_of_diamonds)
    _charge_card(
        scores,
        deal.seat("king_of_hearts"),
        doublers.get(KING_OF_HEARTS_CARD),
        KING_OF_HEARTS_PENALTY,
        rules,
    )
    return tuple(scores)


def _complex_items(rules: HouseRules) -> Mapping[Item, int]:
    return {
        Item.TRICKS: -COMPLEX_TRICK,
        Item.DIAMONDS: -COMPLEX_DIAMOND,
        Item.QUEENS: -QUEEN_PENALTY,
        Item.KING_OF_HEARTS: -KING_OF_HEARTS_PENALTY,
    }


# --- Turkish King ------------------------------------------------------------------------------

TRUMP_TRICK = 50


def _score_no_last_two(deal: Deal, rules: HouseRules) -> Scores:
    scores = [0, 0, 0, 0]
    for seat in deal.counts("last_two"):
        scores[seat] -= 180
    return tuple(scores)


def _score_no_king(deal: Deal, rules: HouseRules) -> Scores:
    scores = [0, 0, 0, 0]
    scores[deal.seat("taker")] -= 320
    return tuple(scores)


def _score_trump(deal: Deal, rules: HouseRules) -> Scores:
    return tuple(TRUMP_TRICK * count for count in deal.counts("tricks"))


def _counts(name: str, maximum: int, unit: Item) -> FieldSpec:
    """A field of per-seat counts of `unit` that add up to `maximum`."""
    return FieldSpec(name, FieldKind.COUNTS, maximum=maximum, total=maximum, unit=unit)


_COMPLEX_TRICKS = _counts("tricks", 13, Item.TRICKS)
_COMPLEX_PENALTY_TRICKS = FieldSpec(
    "tricks", FieldKind.COUNTS, maximum=13, total=13, unit=Item.TRICKS, at_most=True
)
"""Under `complex_tricks` "penalty": the tricks that held a penalty card, at most 13 in all."""


def _shape_complex(rules: HouseRules) -> tuple[FieldSpec, ...]:
    complex_contract = CONTRACTS["complex"]
    if rules.complex_tricks == ComplexTricks.EVERY:
        return complex_contract.fields
    return tuple(
        _COMPLEX_PENALTY_TRICKS if spec.name == "tricks" else spec
        for spec in complex_contract.fields
    )


QUEEN_CARDS = SUITS
COMPLEX_DOUBLE_CARDS = (KING_OF_HEARTS_CARD, *SUITS)
_KING = (KING_OF_HEARTS_CARD,)
_ONE = (1, 0, 0, 0)
_ALL = (13, 0, 0, 0)

_NEG, _POS, _TRUMP = ContractKind.NEGATIVE, ContractKind.POSITIVE, ContractKind.TRUMP

CONTRACTS: dict[str, Contract] = {
    contract.id: contract
    for contract in (
        Contract(
            "king-of-hearts",
            (
                FieldSpec("taker", FieldKind.SEAT, cards=_KING),
                FieldSpec("doubled_by", FieldKind.OPTIONAL_SEAT, cards=_KING),
            ),
            _NEG,
            _score_king_of_hearts,
            doubling_checks,
            items=((Item.KING_OF_HEARTS, "taker"),),
            sample={"taker": 0},
            extreme={"taker": 0, "doubled_by": 1},
        ),
        Contract(
            "queens",
            (
                FieldSpec("takers", FieldKind.CARD_SEATS, cards=QUEEN_CARDS),
                FieldSpec("doubled_by", FieldKind.OPTIONAL_CARD_SEATS, cards=QUEEN_CARDS),
            ),
            _NEG,
            _score_queens,
            doubling_checks,
            items=((Item.QUEENS, "takers"),),
            sample={"takers": {"S": 0, "H": 1, "D": 1, "C": 1}},
            extreme={"takers": dict.fromkeys(SUITS, 0), "doubled_by": dict.fromkeys(SUITS, 1)},
        ),
        Contract(
            "diamonds",
            (_counts("counts", 13, Item.DIAMONDS),),
            _NEG,
            _score_diamonds,
            items=((Item.DIAMONDS, "counts"),),
            sample={"counts": _ONE},
            extreme={"counts": _ALL},
        ),
        Contract(
            "ltoosh",
            (_counts("tricks", 13, Item.TRICKS),),
            _NEG,
            _score_ltoosh,
            items=((Item.TRICKS, "tricks"),),
            sample={"tricks": _ONE},
            extreme={"tricks": _ALL},
        ),
        Contract(
            "trix",
            (FieldSpec("order", FieldKind.ORDER),),
            _POS,
            _score_trix,
            sample={"order": (0, 1, 2, 3)},
            extreme={"order": (1, 3, 0, 2)},  # seat 2 last, seat 1 first; 0+2 the least
        ),
        Contract(
            "complex",
            (
                _COMPLEX_TRICKS,
                _counts("diamonds", 13, Item.DIAMONDS),
                FieldSpec("queens", FieldKind.CARD_SEATS, cards=QUEEN_CARDS),
                FieldSpec("king_of_hearts", FieldKind.SEAT, cards=_KING),
                FieldSpec("doubled_by", FieldKind.OPTIONAL_CARD_SEATS, cards=COMPLEX_DOUBLE_CARDS),
            ),
            _NEG,
            _score_complex,
            check_complex,
            items=(
                (Item.TRICKS, "tricks"),
                (Item.DIAMONDS, "diamonds"),
                (Item.QUEENS, "queens"),
                (Item.KING_OF_HEARTS, "king_of_hearts"),
            ),
            sample={
                "tricks": (4, 3, 3, 3),
                "diamonds": (1, 4, 4, 4),
                "queens": {"S": 2, "H": 2, "D": 0, "C": 2},
                "king_of_hearts": 2,
            },
            extreme={
                "tricks": _ALL,
                "diamonds": _ALL,
                "queens": dict.fromkeys(SUITS, 0),
                "king_of_hearts": 0,
                "doubled_by": dict.fromkeys(COMPLEX_DOUBLE_CARDS, 1),
            },
            per_item=_complex_items,
            shaped=_shape_complex,
        ),
        Contract(
            "trump",
            (FieldSpec("suit", FieldKind.SUIT), _counts("tricks", 13, Item.TRICKS)),
            _TRUMP,
            _score_trump,
            items=((Item.TRICKS, "tricks"),),
            sample={"suit": "S", "tricks": _ONE},
            extreme={"suit": "S", "tricks": _ALL},
        ),
        Contract(
            "no-king",
            (FieldSpec("taker", FieldKind.SEAT, cards=_KING),),
            _NEG,
            _score_no_king,
            items=((Item.KING_OF_HEARTS, "taker"),),
            sample={"taker": 0},
            extreme={"taker": 0},
        ),
        Contract(
            "no-queens",
            (_counts("counts", 4, Item.QUEENS),),
            _NEG,
            _per_item(100, "counts"),
            items=((Item.QUEENS, "counts"),),
            sample={"counts": _ONE},
            extreme={"counts": (4, 0, 0, 0)},
        ),
        Contract(
            "no-boys",
            (_counts("counts", 8, Item.KINGS_AND_JACKS),),
            _NEG,
            _per_item(60, "counts"),
            items=((Item.KINGS_AND_JACKS, "counts"),),
            sample={"counts": _ONE},
            extreme={"counts": (8, 0, 0, 0)},
        ),
        Contract(
            "no-hearts",
            (_counts("counts", 13, Item.HEARTS),),
            _NEG,
            _per_item(30, "counts"),
            items=((Item.HEARTS, "counts"),),
            sample={"counts": _ONE},
            extreme={"counts": _ALL},
        ),
        Contract(
            "no-last-two",
            (FieldSpec("last_two", FieldKind.SEAT_PAIR),),
            _NEG,
            _score_no_last_two,
            items=((Item.LAST_TWO, "last_two"),),
            sample={"last_two": (0, 1)},
            extreme={"last_two": (0, 0)},
        ),
        Contract(
            "no-tricks",
            (_counts("tricks", 13, Item.TRICKS),),
            _NEG,
            _per_item(50, "tricks"),
            items=((Item.TRICKS, "tricks"),),
            sample={"tricks": _ONE},
            extreme={"tricks": _ALL},
        ),
    )
}
"""Every contract by its id (docs/rules.md tables)."""
