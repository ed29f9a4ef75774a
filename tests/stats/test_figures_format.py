"""Stored figures name their layout: a change of contracts' order or items makes them again."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from scorekeeper.rules import GAMES, Game, HouseRules, Record
from scorekeeper.stats import figures as figures_module
from scorekeeper.stats import figures_head, game_figures, stored_figures
from scorekeeper.stats.figures import LAYOUTS, Layout, layout_fingerprint


def _reordered(layout: Layout) -> Layout:
    slots = dict(reversed(list(layout.slots.items())))
    return Layout(slots, layout.size)


def test_the_fingerprint_names_the_order_and_the_items() -> None:
    today = layout_fingerprint(LAYOUTS)
    assert today in figures_module.FIGURES_FORMAT  # what stored figures are checked against
    assert layout_fingerprint(dict(LAYOUTS)) == today
    for game in GAMES:
        reordered = {**LAYOUTS, game: _reordered(LAYOUTS[game])}
        assert layout_fingerprint(reordered) != today
        first = next(iter(LAYOUTS[game].slots.values()))
        other_items = replace(first, items=(*reversed(first.items), "more"))
        changed = Layout({**LAYOUTS[game].slots, first.contract: other_items}, LAYOUTS[game].size)
        assert layout_fingerprint({**LAYOUTS, game: changed}) != today


PLAYERS = ("A", "B", "C", "D")


def _figures() -> tuple[str, bytes]:
    game = Game("trix", "solo", PLAYERS, 0, HouseRules())
    made = game_figures(Record(game=game))
    return figures_head(made), made.tallies


def test_figures_stored_in_another_layout_are_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    head, tallies = _figures()
    assert stored_figures(head, tallies, PLAYERS) is not None
    # the same bytes, read after the contracts' order changed (same length: only the name tells)
    monkeypatch.setattr(figures_module, "FIGURES_FORMAT", "2.00000000")
    assert stored_figures(head, tallies, PLAYERS) is None


def test_figures_of_the_first_format_are_made_again() -> None:
    head, tallies = _figures()
    values = json.loads(head)
    values[0] = 1  # what the first stored figures said
    assert stored_figures(json.dumps(values), tallies, PLAYERS) is None
