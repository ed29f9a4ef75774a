"""A deal as the table entered it, and the field specs that say what each contract records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import assert_never

from .cards import SEATS, SUITS
from .errors import Problem

Value = int | str | None | tuple[int, ...] | Mapping[str, int]


class FieldKind(StrEnum):
    """What a contract's field holds. A StrEnum: members equal (and serialise as) their values,
    so ``spec.kind == "counts"`` still holds wherever the kind is compared as text."""

    SEAT = "seat"
    """One seat (0..3)."""
    OPTIONAL_SEAT = "optional_seat"
    """One seat, or absent/null."""
    COUNTS = "counts"
    """Four counts indexed by seat, each 0..maximum, adding up to total."""
    ORDER = "order"
    """The four seats in finishing order."""
    SEAT_PAIR = "seat_pair"
    """Two seats (the same seat may appear twice)."""
    SUIT = "suit"
    """A suit letter."""
    CARD_SEATS = "card_seats"
    """{card: seat} for every card of the spec."""
    OPTIONAL_CARD_SEATS = "optional_card_seats"
    """{card: seat} for some of the spec's cards (may be empty or absent)."""


@dataclass(frozen=True)
class FieldSpec:
    """One field of a contract's record: its key, its kind and, for counts, range and total."""

    name: str
    kind: FieldKind
    cards: tuple[str, ...] = ()
    maximum: int = 13
    total: int = 13
    unit: str = ""
    """Counts: what they count, the value of the contracts' ``Item`` (a StrEnum) it is."""
    at_most: bool = False
    """Counts: `total` is a ceiling, not the sum (Complex's tricks that held a penalty card)."""

    @property
    def required(self) -> bool:
        """Whether the field must be present (optional fields may be absent or null)."""
        match self.kind:
            case FieldKind.OPTIONAL_SEAT | FieldKind.OPTIONAL_CARD_SEATS:
                return False
            case (
                FieldKind.SEAT
                | FieldKind.COUNTS
                | FieldKind.ORDER
                | FieldKind.SEAT_PAIR
                | FieldKind.SUIT
                | FieldKind.CARD_SEATS
            ):
                return True
            case _:
                assert_never(self.kind)


@dataclass(frozen=True)
class Deal:
    """One entered deal: its contract id and the values of the contract's fields.

    Build deals with :func:`parse_deal`, which checks every value's type and range, so the
    accessors below can trust what they read.
    """

    contract: str
    values: Mapping[str, Value] = field(default_factory=dict)

    def seat(self, name: str) -> int:
        """A required seat field."""
        value = self.values[name]
        assert isinstance(value, int)
        return value

    def optional_seat(self, name: str) -> int | None:
        """An optional seat field (None when absent)."""
        value = self.values.get(name)
        assert value is None or isinstance(value, int)
        return value

    def counts(self, name: str) -> tuple[int, ...]:
        """A per-seat array (or an order or a pair of seats)."""
        value = self.values[name]
        assert isinstance(value, tuple)
        return value

    def cards(self, name: str) -> Mapping[str, int]:
        """A {card: seat} mapping (empty when an optional one is absent)."""
        value = self.values.get(name)
        if value is None:
            return {}
        assert isinstance(value, Mapping)
        return value

    def text(self, name: str) -> str:
        """A text field such as a trump suit."""
        value = self.values[name]
        assert isinstance(value, str)
        return value


def is_int(value: object) -> bool:
    """True for a real integer; booleans and floats such as 3.0 are not counts or seats."""
    return type(value) is int


def _seat_problem(path: str, value: object) -> Problem | None:
    if not is_int(value):
        return Problem(path, "not_seat")
    assert isinstance(value, int)
    if value not in SEATS:
        return Problem(path, "not_seat")
    return None


def parse_field(spec: FieldSpec, raw: object) -> tuple[Value, list[Problem]]:
    """Check one raw value (from JSON or a form) against its spec; return it typed, or problems."""
    name = spec.name
    if raw is None:
        if spec.required:
            return None, [Problem(name, "missing")]
        return (None if spec.kind == FieldKind.OPTIONAL_SEAT else {}), []
    match spec.kind:
        case FieldKind.SEAT | FieldKind.OPTIONAL_SEAT:
            problem = _seat_problem(name, raw)
            return (None, [problem]) if problem else (raw, [])  # type: ignore[return-value]
        case FieldKind.SUIT:
            if not isinstance(raw, str) or raw not in SUITS:
                return None, [Problem(name, "not_suit")]
            return raw, []
        case FieldKind.COUNTS | FieldKind.ORDER | FieldKind.SEAT_PAIR:
            return _parse_sequence(spec, raw)
        case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
            return _parse_card_seats(spec, raw)
        case _:
            assert_never(spec.kind)


def _parse_sequence(spec: FieldSpec, raw: object) -> tuple[Value, list[Problem]]:
    name = spec.name
    length = 2 if spec.kind == FieldKind.SEAT_PAIR else 4
    if not isinstance(raw, list | tuple):
        return None, [Problem(name, "not_list")]
    if len(raw) != length:
        return None, [Problem(name, "wrong_length", {"expected": length})]
    problems: list[Problem] = []
    for index, item in enumerate(raw):
        path = f"{name}[{index}]"
        if item is None:
            problems.append(Problem(path, "missing"))
        elif spec.kind == FieldKind.COUNTS:
            if not is_int(item):
                problems.append(Problem(path, "not_int"))
            elif not 0 <= item <= spec.maximum:
                problems.append(Problem(path, "count_range", {"maximum": spec.maximum}))
        else:
            problem = _seat_problem(path, item)
            if problem:
                problems.append(problem)
    if problems:
        return None, problems
    values = tuple(int(item) for item in raw)
    if spec.kind == FieldKind.COUNTS and (
        sum(values) > spec.total if spec.at_most else sum(values) != spec.total
    ):
        return None, [
            Problem(
                name,
                "sum_over" if spec.at_most else "sum_mismatch",
                {"total": sum(values), "expected": spec.total, "unit": spec.unit},
            )
        ]
    if spec.kind == FieldKind.ORDER and sorted(values) != list(SEATS):
        return None, [Problem(name, "not_permutation")]
    return values, []


def _parse_card_seats(spec: FieldSpec, raw: object) -> tuple[Value, list[Problem]]:
    name = spec.name
    if not isinstance(raw, Mapping):
        return None, [Problem(name, "not_object")]
    problems: list[Problem] = []
    result: dict[str, int] = {}
    for card, seat in raw.items():
        path = f"{name}.{card}"
        if card not in spec.cards:
            problems.append(Problem(path, "bad_card"))
            continue
        if seat is None and spec.kind == FieldKind.OPTIONAL_CARD_SEATS:
            continue
        problem = _seat_problem(path, seat)
        if problem:
            problems.append(problem)
        else:
            result[card] = seat
    if spec.kind == FieldKind.CARD_SEATS and not problems and set(result) != set(spec.cards):
        problems.append(Problem(name, "card_keys", {"cards": " ".join(spec.cards)}))
    if problems:
        return None, problems
    # keep the spec's card order so equal deals compare and dump identically
    return {card: result[card] for card in spec.cards if card in result}, []


def dump_value(spec: FieldSpec, value: Value) -> object:
    """The JSON form of a typed field value."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    return value
