"""store.deals.can_restore: an undone deal goes back only onto the very game its undo left."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scorekeeper.store.deals import can_restore


def row(deals: int, version: int) -> Any:
    return SimpleNamespace(deal_count=deals, version=version)


def test_only_onto_the_game_the_undo_left() -> None:
    assert can_restore(row(deals=1, version=7), number=2, version=7)


def test_not_once_the_game_has_another_version() -> None:
    assert not can_restore(row(deals=1, version=9), number=2, version=7)


def test_not_once_the_game_has_more_or_fewer_deals() -> None:
    assert not can_restore(row(deals=2, version=7), number=2, version=7)
    assert not can_restore(row(deals=0, version=7), number=2, version=7)
