"""A deal as the table entered it, and the field specs that say what each contract records."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .cards import SEATS, SUITS
from .errors import Problem

Value = int | str | None | tuple[int, ...] | Mapping[str, int]

SEAT = "seat"
OPTIONAL_SEAT = "optional_seat"
COUNTS = "counts"
ORDER = "order"
SEAT_PAIR = "seat_pair"
SUIT = "suit"
CARD_SEATS = "card_seats"
OPTIONAL_CARD_SEATS = "optional_card_seats"


@dataclass(frozen=True)
class FieldSpec:
    """One field of a contract's record: its key, its kind and, for counts, range and total."""

    name: str
    kind: str
    cards: tuple[str, ...] = ()
    maximum: int = 13
    total: int = 13
    unit: str = ""

    @property
    def required(self) -> bool:
        """Whether the field must be present (optional fields may be absent or null)."""
        return self.kind not in (OPTIONAL_SEAT, OPTIONAL_CARD_SEATS)


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
        if spec.kind == OPTIONAL_SEAT:
            return None, []
        if spec.kind == OPTIONAL_CARD_SEATS:
            return {}, []
        return None, [Problem(name, "missing")]
    if spec.kind in (SEAT, OPTIONAL_SEAT):
        problem = _seat_problem(name, raw)
        return (None, [problem]) if problem else (raw, [])  # type: ignore[return-value]
    if spec.kind == SUIT:
        if not isinstance(raw, str) or raw not in SUITS:
            return None, [Problem(name, "not_suit")]
        return raw, []
    if spec.kind in (COUNTS, ORDER, SEAT_PAIR):
        return _parse_sequence(spec, raw)
    return _parse_card_seats(spec, raw)


def _parse_sequence(spec: FieldSpec, raw: object) -> tuple[Value, list[Problem]]:
    name = spec.name
    length = 2 if spec.kind == SEAT_PAIR else 4
    if not isinstance(raw, list | tuple):
        return None, [Problem(name, "not_list")]
    if len(raw) != length:
        return None, [Problem(name, "wrong_length", {"expected": length})]
    problems: list[Problem] = []
    for index, item in enumerate(raw):
        path = f"{name}[{index}]"
        if item is None:
            problems.append(Problem(path, "missing"))
        elif spec.kind == COUNTS:
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
    if spec.kind == COUNTS and sum(values) != spec.total:
        return None, [Problem(name, "sum_mismatch",
                              {"total": sum(values), "expected": spec.total, "unit": spec.unit})]
    if spec.kind == ORDER and sorted(values) != list(SEATS):
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
        if seat is None and spec.kind == OPTIONAL_CARD_SEATS:
            continue
        problem = _seat_problem(path, seat)
        if problem:
            problems.append(problem)
        else:
            result[card] = seat
    if spec.kind == CARD_SEATS and not problems and set(result) != set(spec.cards):
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
