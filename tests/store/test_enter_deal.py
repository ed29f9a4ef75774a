"""store.deals as a table: what each form (its deal number, the game version it was made at, new
deal or correction) gets from a game of three deals at version 2; undo and restore, twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scorekeeper.rules import replay
from scorekeeper.store.db import db
from scorekeeper.store.deals import (
    AlreadySaved,
    Entry,
    Finished,
    Impossible,
    Outcome,
    Saved,
    Stale,
    enter_deal,
    restore_deal,
    undo_deal,
)
from scorekeeper.store.entries import new_entry_key
from scorekeeper.store.games import find_game, game_of
from scorekeeper.store.models import GameRow
from scorekeeper.store.records import parse_records, store_records
from tests.rules.builders import DIAMONDS, FULL_GAME, LTOOSH, TRIX_KINGDOM, raw_record

OTHER_DIAMONDS = {"contract": "diamonds", "counts": [1, 4, 5, 3]}


def imported(deals: list[dict[str, Any]]) -> GameRow:
    """A game imported with these deals: version 1, its first chooser known."""
    [row] = store_records(parse_records(json.dumps(raw_record("trix", deals))))
    return row


def enter(
    row: GameRow, raw: dict[str, Any], number: int, version: int, correction: bool
) -> Outcome:
    """The outcome of the form, judged on the game as stored now (a fresh read, as a request)."""
    token = row.token
    db.session.remove()
    found = find_game(token)
    assert found is not None
    entry = Entry(raw, number, version, correction, key=new_entry_key())  # (a form's own)
    return enter_deal(found, replay(game_of(found)), entry)


@pytest.fixture
def three_deals(ctx: None) -> GameRow:
    """Deal 3 (DIAMONDS) entered on a game imported with two: three deals, version 2."""
    row = imported(TRIX_KINGDOM[:2])
    assert isinstance(enter(row, DIAMONDS, 3, 1, False), Saved)  # an import's version is 1
    return row


CASES = [
    # raw, number, version, correction: outcome
    (LTOOSH, 4, 2, False, Saved),  # the next deal
    (DIAMONDS, 3, 1, False, AlreadySaved(True)),  # deal 3 tapped twice
    (OTHER_DIAMONDS, 3, 1, False, AlreadySaved(False)),  # another phone's deal 3 won
    (LTOOSH, 5, 2, False, Impossible),  # beyond the next deal
    (LTOOSH, 5, 1, False, Stale),  # a form from before another phone's undo
    (LTOOSH, 0, 2, False, Impossible),
    (LTOOSH, 4, 0, False, Impossible),
    (LTOOSH, 4, 3, False, Impossible),  # a version the game never had
    (OTHER_DIAMONDS, 3, 2, True, Saved),  # a correction of deal 3
    # a correction from a form older than deal 3's, alike: not this form's (its own second tap
    # is found by its key: tests/store/test_entry_keys.py)
    (DIAMONDS, 3, 1, True, Stale),
    (OTHER_DIAMONDS, 3, 1, True, Stale),  # a correction from before deal 3 was saved
    (LTOOSH, 4, 2, True, Impossible),  # a correction of a deal the game does not have
]


@pytest.mark.parametrize(("raw", "number", "version", "correction", "expected"), CASES)
def test_each_form_gets_its_outcome(
    three_deals: GameRow,
    raw: dict[str, Any],
    number: int,
    version: int,
    correction: bool,
    expected: Any,
) -> None:
    outcome = enter(three_deals, raw, number, version, correction)
    if isinstance(expected, type):
        assert type(outcome) is expected
    else:
        assert outcome == expected
    stored = find_game(three_deals.token)
    assert stored is not None
    if isinstance(outcome, Saved):
        assert stored.version == 3
        assert stored.deals[number - 1] == dict(raw)
    else:  # nothing written
        assert (stored.version, stored.deals[2]) == (2, DIAMONDS)


def test_the_last_deal_finishes_the_game(ctx: None) -> None:
    row = imported(FULL_GAME["trix"][:-1])
    assert not row.finished
    assert isinstance(enter(row, FULL_GAME["trix"][-1], 20, 1, False), Saved)
    stored = find_game(row.token)
    assert stored is not None and (stored.finished, stored.deal_count) == (True, 20)


def test_a_finished_game_takes_no_more_deals(ctx: None) -> None:
    row = imported(FULL_GAME["trix"])
    assert isinstance(enter(row, DIAMONDS, 21, 1, False), Finished)
    # its deals may still be corrected
    assert isinstance(enter(row, OTHER_DIAMONDS, 3, 1, True), Saved)


def test_undo_and_restore_each_tapped_twice(three_deals: GameRow) -> None:
    row = three_deals

    def again(outcome: Callable[[GameRow], Outcome]) -> Outcome:
        db.session.remove()
        found = find_game(row.token)
        assert found is not None
        return outcome(found)

    undone = again(lambda found: undo_deal(found, replay(game_of(found)), 3, 2))
    assert isinstance(undone, Saved) and undone.removed == DIAMONDS
    assert again(lambda found: undo_deal(found, replay(game_of(found)), 3, 2)) == AlreadySaved(True)
    stored = find_game(row.token)
    assert stored is not None and (stored.version, len(stored.deals)) == (3, 2)

    def restore(
        raw: dict[str, Any], number: int, version: int, correction: bool = False
    ) -> Outcome:
        entry = Entry(raw, number, version, correction, key=new_entry_key())
        return again(lambda found: restore_deal(found, replay(game_of(found)), entry))

    assert restore(DIAMONDS, 0, 3) == Impossible()
    assert restore(DIAMONDS, 3, 3, correction=True) == Impossible()
    assert isinstance(restore(DIAMONDS, 3, 3), Saved)
    assert restore(DIAMONDS, 3, 3) == AlreadySaved(True)  # restored already, by its twin
    stored = find_game(row.token)
    assert stored is not None and (stored.version, stored.deals[2]) == (4, DIAMONDS)
