"""What each seat took in one deal, read from the deal's own fields, and what its doubles did.

Scores are never computed here: a double's effect is the engine's score of the deal with the
double against its score of the same deal without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import assert_never

from ..rules.cards import SEATS
from ..rules.contracts import CONTRACTS, Item
from ..rules.deal import Deal, FieldKind, Value
from ..rules.house_rules import HouseRules


@dataclass(frozen=True)
class SeatTakes:
    """One seat in one deal: what it took, its Trix place, its doubles and what they did."""

    taken: Mapping[Item, int] = field(default_factory=dict)
    place: int = 0
    """Trix: 1 (first out) to 4; 0 in other contracts."""
    doubles: int = 0
    doubles_gain: int = 0


_KINDS: Mapping[tuple[str, str], FieldKind] = {
    (contract.id, spec.name): spec.kind
    for contract in CONTRACTS.values()
    for spec in contract.fields
}


def _per_seat(deal: Deal, name: str) -> tuple[int, ...]:
    """How many of what field `name` records each seat took, for the four seats."""
    kind = _KINDS[deal.contract, name]
    match kind:
        case FieldKind.SEAT | FieldKind.OPTIONAL_SEAT:
            taker = deal.values.get(name)
            return tuple(1 if taker == seat else 0 for seat in SEATS)
        case FieldKind.COUNTS:
            return deal.counts(name)
        case FieldKind.SEAT_PAIR | FieldKind.ORDER:
            seats = deal.counts(name)
            return tuple(seats.count(seat) for seat in SEATS)
        case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
            takers = list(deal.cards(name).values())
            return tuple(takers.count(seat) for seat in SEATS)
        case FieldKind.SUIT:
            return (0, 0, 0, 0)
        case _:
            assert_never(kind)


def _without(deal: Deal, name: str, card: str | None) -> Deal:
    """The deal with one double taken back: the whole field, or one card of it."""
    values: dict[str, Value] = dict(deal.values)
    if card is None:
        del values[name]
    else:
        values[name] = {key: seat for key, seat in deal.cards(name).items() if key != card}
    return Deal(deal.contract, values)


def _doubles(deal: Deal, rules: HouseRules, scores: tuple[int, ...]) -> list[tuple[int, int]]:
    """Per seat: (doubles made, what they changed in the seat's score)."""
    contract = CONTRACTS[deal.contract]
    found = [(0, 0) for _ in SEATS]
    for spec in contract.fields:
        doubles: list[tuple[int, str | None]] = []
        if spec.kind == FieldKind.OPTIONAL_SEAT and deal.values.get(spec.name) is not None:
            doubles.append((deal.seat(spec.name), None))
        elif spec.kind == FieldKind.OPTIONAL_CARD_SEATS:
            doubles.extend((seat, card) for card, seat in deal.cards(spec.name).items())
        for seat, card in doubles:
            without = contract.score(_without(deal, spec.name, card), rules)
            count, gain = found[seat]
            found[seat] = (count + 1, gain + scores[seat] - without[seat])
    return found


def seat_takes(deal: Deal, rules: HouseRules, scores: tuple[int, ...]) -> tuple[SeatTakes, ...]:
    """Each seat's takes in a deal the engine scored `scores`."""
    contract = CONTRACTS[deal.contract]
    counted = [(item, _per_seat(deal, name)) for item, name in contract.items]
    doubles = _doubles(deal, rules, scores)
    order = deal.counts(contract.place_field) if contract.place_field else None
    return tuple(
        SeatTakes(
            taken={item: counts[seat] for item, counts in counted},
            place=order.index(seat) + 1 if order is not None else 0,
            doubles=doubles[seat][0],
            doubles_gain=doubles[seat][1],
        )
        for seat in SEATS
    )
