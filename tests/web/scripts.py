"""The games the web tests play: the complete example records, in every game × mode.

The examples are the complete records of ``tests/rules/examples/`` (docs/record-format.md),
copied into ``data/``. Trix solo and Trix Complex partnership have no example of their own: they
replay the other mode's deals, which are legal in either mode, under other house rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Script:
    """A complete game to enter: its setup and its deals (record JSON)."""

    id: str
    record: dict[str, Any]

    @property
    def deals(self) -> list[dict[str, Any]]:
        return list(self.record["deals"])


def example(name: str) -> dict[str, Any]:
    return dict(json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")))


def _variant(name: str, mode: str, house_rules: dict[str, Any]) -> dict[str, Any]:
    record = example(name)
    record["mode"] = mode
    record["house_rules"] = house_rules
    return record


SCRIPTS = [
    Script(
        "trix-solo",
        _variant(
            "trix-partnership-complete",
            "solo",
            {"doubling": True, "doubled_self_take": "full", "swap_diamonds_ltoosh": True},
        ),
    ),
    Script("trix-partnership", example("trix-partnership-complete")),
    Script("trix-complex-solo", example("trix-complex-solo-complete")),
    Script(
        "trix-complex-partnership",
        _variant(
            "trix-complex-solo-complete",
            "partnership",
            {"doubling": True, "doubled_self_take": "net"},
        ),
    ),
    Script("turkish-king-solo", example("turkish-king-complete")),
]


def rotated(deal: dict[str, Any]) -> dict[str, Any]:
    """The same deal with every take moved one seat to the right: legal whenever `deal` is."""

    def seat(value: Any) -> Any:
        return None if value is None else (value + 1) % 4

    out: dict[str, Any] = {"contract": deal["contract"]}
    for key, value in deal.items():
        if key == "contract":
            continue
        if key in ("order", "last_two"):
            out[key] = [seat(v) for v in value]
        elif isinstance(value, list):
            out[key] = [value[(i - 1) % 4] for i in range(4)]
        elif isinstance(value, dict):
            out[key] = {card: seat(v) for card, v in value.items()}
        elif key == "suit":
            out[key] = value
        else:
            out[key] = seat(value)
    return out


def blanks_for(deal: dict[str, Any], index: int) -> tuple[str, ...]:
    """Which chips to leave for the app to fill in: a last count or the 4th place, sometimes."""
    if index % 2:
        return ()
    for key in ("counts", "tricks", "diamonds"):
        if key in deal:
            return (f"{key}-{index % 4}",)
    if "order" in deal:
        return ("order-3",)
    return ()
