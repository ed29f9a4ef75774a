"""A deal form without Flask: its chip fields, read into the engine's raw deal and back, and
what the app fills in as the player taps.

The web form (:class:`scorekeeper.web.forms.DealForm`, WTForms) and the engine in the phone
(:mod:`scorekeeper.phone.worker`, under Pyodide) both call these, so a tap is read the same way
wherever it is judged. Every value is a row of tap targets ("chips") named after the engine's
field: ``taker``, ``counts-3`` (a seat's count), ``order-0`` (a place), ``takers-S`` (a card);
a chip's value is a seat, a count or a suit letter, or None while untapped.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, assert_never

from ..rules.autofill import Filled, Place, autofill
from ..rules.cards import SUITS
from ..rules.contracts import CONTRACTS, DOUBLING_KINDS
from ..rules.deal import FieldKind, FieldSpec
from ..rules.house_rules import HouseRules
from ..rules.messages import N_

NOT_A_CHOICE = N_("Not one of the choices offered.")
"""A chip value no chip offers (a tampered form, never a tap)."""


@dataclass(frozen=True)
class Chips:
    """How a deal form lays out one spec field: its chip fields (name, caption key) in order."""

    spec: FieldSpec
    names: tuple[str, ...]
    subjects: tuple[Any, ...]
    """Per chip field, what it records a value for: the seat index, card letter or place
    index, or None for a single field."""
    choices: tuple[Any, ...]

    @property
    def doubles(self) -> bool:
        """Whether its field records the doubles (the contract's `doubles_field`), which a table
        announces before play: noted first, kept in the form's address."""
        return self.spec.kind in DOUBLING_KINDS


@cache
def chip_groups(contract: str) -> tuple[Chips, ...]:
    """The chip layout of a contract's form, derived from the engine's field specs."""
    return tuple(_chips(spec) for spec in CONTRACTS[contract].fields)


def _chips(spec: FieldSpec) -> Chips:
    seats = (0, 1, 2, 3)
    match spec.kind:
        case FieldKind.SEAT | FieldKind.OPTIONAL_SEAT:
            return Chips(spec, (spec.name,), (None,), seats)
        case FieldKind.SUIT:
            return Chips(spec, (spec.name,), (None,), SUITS)
        case FieldKind.COUNTS:
            return Chips(
                spec,
                tuple(f"{spec.name}-{seat}" for seat in seats),
                seats,
                tuple(range(spec.maximum + 1)),
            )
        case FieldKind.ORDER | FieldKind.SEAT_PAIR:
            places = range(4 if spec.kind == FieldKind.ORDER else 2)
            return Chips(
                spec, tuple(f"{spec.name}-{place}" for place in places), tuple(places), seats
            )
        case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
            return Chips(
                spec, tuple(f"{spec.name}-{card}" for card in spec.cards), spec.cards, seats
            )
        case _:
            assert_never(spec.kind)


def chip_names(contract: str) -> tuple[str, ...]:
    """Every chip field of a contract's form, in the form's order."""
    return tuple(name for group in chip_groups(contract) for name in group.names)


def chip_value(choices: Sequence[Any], sent: str) -> Any:
    """The value a chip field sent: one of `choices`, or None when empty (untapped, or the
    "nobody" chip); ValueError for anything no chip offers."""
    if sent == "":
        return None
    sent = sent.strip()
    for choice in choices:
        if str(choice) == sent:
            return choice
    raise ValueError(NOT_A_CHOICE)


def chip_text(value: Any) -> str:
    """A chip value as the form writes it ("" for None)."""
    return "" if value is None else str(value)


Values = Mapping[str, Any]
"""A form's chip values by chip field name (None while untapped)."""


def raw_deal(contract: str, values: Values) -> dict[str, Any]:
    """The entry as the engine's raw deal: lists for per-seat values, maps for cards."""
    raw: dict[str, Any] = {"contract": contract}
    for group in chip_groups(contract):
        spec = group.spec
        taps = [values.get(name) for name in group.names]
        match spec.kind:
            case FieldKind.SEAT | FieldKind.SUIT:
                raw[spec.name] = taps[0]
            case FieldKind.OPTIONAL_SEAT:
                if taps[0] is not None:
                    raw[spec.name] = taps[0]
            case FieldKind.COUNTS | FieldKind.ORDER | FieldKind.SEAT_PAIR:
                raw[spec.name] = taps
            case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
                raw[spec.name] = {
                    card: value
                    for card, value in zip(group.subjects, taps, strict=True)
                    if value is not None
                }
            case _:
                assert_never(spec.kind)
    return raw


def chip_values(contract: str, raw: Mapping[str, Any]) -> dict[str, Any]:
    """The chips showing a raw deal (prefill for an edit, or values the app filled in)."""
    values: dict[str, Any] = {}
    for group in chip_groups(contract):
        value = raw.get(group.spec.name)
        for name, key in zip(group.names, group.subjects, strict=True):
            if key is None:
                values[name] = value
            elif isinstance(value, list | tuple) and isinstance(key, int) and key < len(value):
                values[name] = value[key]
            elif isinstance(value, Mapping):
                values[name] = value.get(key)
            else:
                values[name] = None
    return values


def still_filled(contract: str, marks: str, values: Values) -> list[Place]:
    """The values the app filled in (`marks`: "counts-3:1 order-3:2") that still hold what it
    filled (no tap changed them), as the engine's places: ("counts", 3)."""
    filled = dict(mark.partition(":")[::2] for mark in marks.split())
    places = []
    for group in chip_groups(contract):
        for index, name in enumerate(group.names):
            if name in filled and filled[name] == chip_text(values.get(name)):
                places.append((group.spec.name, index))
    return places


def unset(contract: str, values: Values) -> list[str]:
    """Names of required chip fields still untouched."""
    return [
        name
        for group in chip_groups(contract)
        if group.spec.required
        for name in group.names
        if values.get(name) is None
    ]


@dataclass(frozen=True)
class FilledIn:
    """A form after the app filled in what the entry determines."""

    values: dict[str, Any]
    """Every chip field's value, the app's included."""
    marks: str
    """The chips the app filled in, with their values ("counts-3:1"): while a chip keeps that
    value it is the app's, and the app may recompute it (the form's `autofilled` field)."""
    by_app: frozenset[str]
    """Chip fields holding a value the app filled in (drawn apart from tapped ones)."""
    changed: tuple[str, ...]
    """Chip fields whose value the app changed, sorted (their rows are drawn again)."""
    entry: Filled
    """The entry as the engine filled it in: the raw deal it reads, the running sums, what is
    wrong already (early refusals)."""


def fill_in(contract: str, values: Values, marks: str, rules: HouseRules) -> FilledIn:
    """Fill in what the entry determines (the last count, the 4th place), what the app filled
    before (`marks`) recomputed, as :func:`scorekeeper.rules.autofill.autofill` decides."""
    before = {name: values.get(name) for name in chip_names(contract)}
    result = autofill(raw_deal(contract, before), still_filled(contract, marks, before), rules)
    after = chip_values(contract, result.raw)
    by_app = _names_of(contract, result.filled)
    return FilledIn(
        after,
        " ".join(f"{name}:{chip_text(after[name])}" for name in by_app),
        frozenset(by_app),
        tuple(sorted(name for name, value in before.items() if after[name] != value)),
        result,
    )


def _names_of(contract: str, places: Collection[Place]) -> list[str]:
    """The chip fields of the engine's places, in the form's order."""
    return [
        name
        for group in chip_groups(contract)
        for index, name in enumerate(group.names)
        if (group.spec.name, index) in places
    ]
