"""Fill in the one value a partial entry already determines (the last count, the 4th place).

The web form calls this as the player taps, so nobody has to tap what the app can work out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .cards import SEATS
from .contracts import CONTRACTS
from .deal import FieldKind, is_int


def autofill(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a raw deal with each sequence's single missing value filled in when determined.

    A count is filled when the other three are whole numbers and the remainder is in range; a
    finishing place when the other three are three different seats.
    """
    filled = dict(raw)
    contract = CONTRACTS.get(str(raw.get("contract")))
    if contract is None:
        return filled
    for spec in contract.fields:
        values = filled.get(spec.name)
        if spec.kind not in (FieldKind.COUNTS, FieldKind.ORDER):
            continue
        if not isinstance(values, list) or len(values) != 4:
            continue
        missing = [i for i, value in enumerate(values) if value is None]
        known = [value for value in values if value is not None]
        if len(missing) != 1 or not all(is_int(value) for value in known):
            continue
        if spec.kind == FieldKind.COUNTS:
            remainder = spec.total - sum(known)
            if 0 <= remainder <= spec.maximum:
                filled[spec.name] = [remainder if v is None else v for v in values]
        else:
            left = set(SEATS) - set(known)
            if len(left) == 1:
                filled[spec.name] = [left.pop() if v is None else v for v in values]
    return filled
