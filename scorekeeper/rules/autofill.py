"""Help while a deal is entered: fill in the one value a partial entry already determines (the
last count, the 4th place), keep it right while the player corrects the others, keep a running
sum per count, and say at once when a finishing order names a player twice.

The web form calls this as the player taps, so nobody has to tap what the app can work out.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import SEATS
from .contracts import CONTRACTS
from .deal import FieldKind, is_int
from .errors import Problem
from .house_rules import HouseRules

Place = tuple[str, int]
"""A value of a sequence field: (field name, index), e.g. ("counts", 3) or ("order", 3)."""


@dataclass(frozen=True)
class Sum:
    """A count field's running sum: what the entered counts add up to, of how many there are."""

    entered: int
    total: int
    at_most: bool = False
    """The total is a ceiling, not the sum ("5 / at most 13": Complex's tricks that held a
    penalty card)."""

    @property
    def over(self) -> bool:
        """More than the deal holds: one of the counts is wrong."""
        return self.entered > self.total


@dataclass(frozen=True)
class Filled:
    """A partial entry with what it determines filled in."""

    raw: dict[str, Any]
    filled: frozenset[Place] = frozenset()
    """The values the app filled in (not tapped); a later call may recompute them."""
    sums: Mapping[str, Sum] = field(default_factory=dict)
    """Per count field, the running sum of its entered (tapped or filled) counts."""
    problems: tuple[Problem, ...] = ()
    """What is already wrong before the entry is complete (a player placed twice)."""


def autofill(
    raw: Mapping[str, Any], refill: Collection[Place] = (), rules: HouseRules | None = None
) -> Filled:
    """A copy of a raw deal with each sequence's single missing value filled in when determined.

    A count is filled when the other three are whole numbers and the remainder is in range; a
    finishing place when the other three are three different seats. `refill` names values the
    app filled in before: they count as missing again, so correcting another count (5 → 6 after
    5/4/3 filled 1) fills 0 rather than leaving a sum of 14; one that is no longer determined is
    cleared. A count whose total is only a ceiling (`at_most`, under the game's house `rules`)
    determines nothing.
    """
    filled = dict(raw)
    places: set[Place] = set()
    sums: dict[str, Sum] = {}
    problems: list[Problem] = []
    contract = CONTRACTS.get(str(raw.get("contract")))
    if contract is None:
        return Filled(filled)
    for spec in contract.specs(rules if rules is not None else HouseRules()):
        values = filled.get(spec.name)
        if spec.kind not in (FieldKind.COUNTS, FieldKind.ORDER):
            continue
        if not isinstance(values, list) or len(values) != 4:
            continue
        values = list(values)
        was_filled = {i for i in range(4) if (spec.name, i) in refill and values[i] is not None}
        missing = [i for i, value in enumerate(values) if value is None or i in was_filled]
        known = [value for i, value in enumerate(values) if i not in missing]
        if all(is_int(value) for value in known):
            value = (
                _determined(spec.kind, spec.total, spec.maximum, known)
                if len(missing) == 1 and not spec.at_most
                else None
            )
            if value is not None:
                values[missing[0]] = value
                places.add((spec.name, missing[0]))
            else:  # no longer determined: what the app filled goes (a tap is never changed)
                for i in was_filled:
                    if len(missing) == 1:
                        values[i] = None
                    else:
                        places.add((spec.name, i))
        filled[spec.name] = values
        present = [value for value in values if is_int(value)]
        if spec.kind == FieldKind.COUNTS:
            sums[spec.name] = Sum(sum(present), spec.total, spec.at_most)
        else:
            problems += _placed_twice(spec.name, values)
    return Filled(filled, frozenset(places), sums, tuple(problems))


def _determined(kind: FieldKind, total: int, maximum: int, known: list[Any]) -> int | None:
    if kind == FieldKind.COUNTS:
        remainder = total - sum(known)
        return remainder if 0 <= remainder <= maximum else None
    left = set(SEATS) - set(known)
    return left.pop() if len(left) == 1 else None


def _placed_twice(name: str, values: list[Any]) -> list[Problem]:
    """A seat in two places of a finishing order, named once (at its second place)."""
    seen: set[int] = set()
    problems = []
    for index, seat in enumerate(values):
        if not is_int(seat) or seat not in SEATS:
            continue
        if seat in seen:
            problems.append(Problem(f"{name}[{index}]", "placed_twice", {"seat": seat}))
        seen.add(seat)
    return problems
