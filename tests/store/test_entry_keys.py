"""Entries made with a key (store.entries): stored at most once per key, by the database, and
every repeat or question answered from the key — a phone's own save is never another phone's.

A game of three deals at version 2 (deal 3 entered with key MINE), and what each entry gets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper.rules import replay, without_deal
from scorekeeper.store.db import db
from scorekeeper.store.deals import (
    AlreadySaved,
    Entry,
    Kept,
    Outcome,
    Refused,
    Saved,
    Stale,
    check_entry,
    enter_deal,
    kept,
    undo_deal,
)
from scorekeeper.store.entries import EntryKind, Keyed, is_entry_key, new_entry_key
from scorekeeper.store.games import KeyTakenError, delete_game, game_of, write_deals
from scorekeeper.store.models import EntryRow, GameRow
from scorekeeper.store.records import parse_records, store_records
from tests.rules.builders import DIAMONDS, LTOOSH, TRIX_KINGDOM, raw_record
from tests.store.conftest import fresh

OTHER_DIAMONDS = {"contract": "diamonds", "counts": [1, 4, 5, 3]}
MINE = "0b5c8a52-7f3e-4c1d-9a6b-2f4e8d1c7a90"
ANOTHER = "5d0e7f31-2c4b-4a8e-b1f9-6e3d2a7c8b14"


def enter(row: GameRow, raw: dict[str, Any], number: int, version: int, **more: Any) -> Outcome:
    found = fresh(row)
    return enter_deal(found, replay(game_of(found)), Entry(raw, number, version, **more))


def check(row: GameRow, raw: dict[str, Any], number: int, version: int, **more: Any) -> Any:
    found = fresh(row)
    return check_entry(found, replay(game_of(found)), Entry(raw, number, version, **more))


def entries_of(row: GameRow) -> list[tuple[str, str, int, int, dict[str, Any]]]:
    return [
        (entry.key, entry.kind, entry.number, entry.version, entry.deal)
        for entry in db.session.execute(
            select(EntryRow).where(EntryRow.game_id == row.id).order_by(EntryRow.id)
        ).scalars()
    ]


@pytest.fixture
def three_deals(ctx: None) -> GameRow:
    """A game imported with two deals (version 1); deal 3 entered with the key MINE."""
    [row] = store_records(parse_records(json.dumps(raw_record("trix", TRIX_KINGDOM[:2]))))
    assert isinstance(enter(row, DIAMONDS, 3, 1, key=MINE), Saved)
    return row


def test_the_key_is_written_with_the_deal(three_deals: GameRow) -> None:
    assert entries_of(three_deals) == [(MINE, "deal", 3, 2, DIAMONDS)]
    assert fresh(three_deals).version == 2


@pytest.mark.parametrize(
    ("raw", "number", "version", "more", "expected"),
    [
        # its own save sent again: answered from the key, whatever the taps say now
        (DIAMONDS, 3, 1, {"key": MINE}, Kept(3, False, 2)),
        (OTHER_DIAMONDS, 3, 1, {"key": MINE}, Kept(3, False, 2)),
        # another form's deal 3, other taps: another phone's (its key is not the game's)
        (OTHER_DIAMONDS, 3, 1, {"key": ANOTHER}, AlreadySaved(False)),
        # another form's, the same taps: the deal as it entered it is in the game
        (DIAMONDS, 3, 1, {"key": ANOTHER}, AlreadySaved(True)),
        # a correction from a form older than deal 3: not this one's, even alike
        (DIAMONDS, 3, 1, {"key": ANOTHER, "correction": True}, Stale()),
        (OTHER_DIAMONDS, 3, 1, {"key": ANOTHER, "correction": True}, Stale()),
    ],
)
def test_each_entry_gets_its_outcome(
    three_deals: GameRow,
    raw: dict[str, Any],
    number: int,
    version: int,
    more: dict[str, Any],
    expected: Outcome,
) -> None:
    assert enter(three_deals, raw, number, version, **more) == expected
    assert fresh(three_deals).version == 2  # nothing written
    assert entries_of(three_deals) == [(MINE, "deal", 3, 2, DIAMONDS)]


def test_a_keyed_correction_is_kept_once(three_deals: GameRow) -> None:
    assert isinstance(enter(three_deals, OTHER_DIAMONDS, 3, 2, correction=True, key=ANOTHER), Saved)
    assert entries_of(three_deals)[-1] == (ANOTHER, "edit", 3, 3, OTHER_DIAMONDS)
    # "Save changes" again (its answer lost), even with a chip changed since
    again = enter(three_deals, DIAMONDS, 3, 2, correction=True, key=ANOTHER)
    assert again == Kept(3, True, 3)
    assert fresh(three_deals).deals[2] == OTHER_DIAMONDS
    # a correction from a form made before it, whose key the game never stored: stale
    third = "9e1f2a3b-4c5d-4e6f-8a7b-1c2d3e4f5a6b"
    assert enter(three_deals, DIAMONDS, 3, 2, correction=True, key=third) == Stale()


def test_a_kept_deal_changed_or_undone_since_no_longer_stands(three_deals: GameRow) -> None:
    edit = enter(three_deals, OTHER_DIAMONDS, 3, 2, correction=True, key=ANOTHER)
    assert isinstance(edit, Saved)
    assert enter(three_deals, DIAMONDS, 3, 1, key=MINE) == Kept(3, False, 2, stands=False)
    found = fresh(three_deals)
    assert isinstance(undo_deal(found, replay(game_of(found)), 3, 3), Saved)
    assert kept(fresh(three_deals), MINE) == Kept(3, False, 2, stands=False)


def test_a_refused_entry_writes_no_key(three_deals: GameRow) -> None:
    wrong = {"contract": "ltoosh", "tricks": [4, 4, 4, 4]}
    assert isinstance(enter(three_deals, wrong, 4, 2, key=ANOTHER), Refused)
    assert [entry[0] for entry in entries_of(three_deals)] == [MINE]
    assert isinstance(enter(three_deals, LTOOSH, 4, 2, key=ANOTHER), Saved)  # then right


@pytest.mark.parametrize(
    ("raw", "number", "version", "more", "expected"),
    [
        (DIAMONDS, 3, 1, {"key": MINE}, Kept(3, False, 2)),  # saved: its answer was lost
        (OTHER_DIAMONDS, 3, 1, {"key": MINE}, Kept(3, False, 2)),  # a chip changed since
        (OTHER_DIAMONDS, 3, 1, {"key": ANOTHER}, AlreadySaved(False)),  # another phone's
        (DIAMONDS, 3, 1, {"key": ANOTHER}, AlreadySaved(True)),  # another phone's, alike
        (LTOOSH, 4, 2, {"key": ANOTHER}, None),  # not saved (yet): send it again
        (LTOOSH, 4, 1, {"key": ANOTHER}, Stale()),  # made before deal 3, nothing in place
        (OTHER_DIAMONDS, 3, 2, {"key": ANOTHER, "correction": True}, None),  # a lost edit
        (OTHER_DIAMONDS, 2, 1, {"key": ANOTHER, "correction": True}, Stale()),
    ],
)
def test_a_lost_answer_is_asked_about(
    three_deals: GameRow,
    raw: dict[str, Any],
    number: int,
    version: int,
    more: dict[str, Any],
    expected: Outcome | None,
) -> None:
    assert check(three_deals, raw, number, version, **more) == expected
    assert fresh(three_deals).version == 2


def test_a_lost_edit_is_found_by_its_key(three_deals: GameRow) -> None:
    assert isinstance(enter(three_deals, OTHER_DIAMONDS, 3, 2, correction=True, key=ANOTHER), Saved)
    # asked with the taps the form shows now (one changed while the answer was awaited)
    assert check(three_deals, DIAMONDS, 3, 2, correction=True, key=ANOTHER) == Kept(3, True, 3)


def test_the_database_refuses_a_key_the_game_holds(three_deals: GameRow) -> None:
    """Whatever the store's checks said: the unique key refuses the write, and the version-
    guarded UPDATE made in the same transaction is undone with it."""
    found = fresh(three_deals)
    after = replay(without_deal(game_of(found), 2))  # a write the version allows
    with pytest.raises(KeyTakenError):
        write_deals(found, after, 2, Keyed(MINE, EntryKind.DEAL, 2, TRIX_KINGDOM[1]))
    stored = fresh(three_deals)
    assert (stored.version, stored.deal_count, stored.deals[2]) == (2, 3, DIAMONDS)
    assert len(entries_of(three_deals)) == 1


def test_a_key_reused_for_the_next_deal_stores_nothing(three_deals: GameRow) -> None:
    """A phone that sent one key with two entries: the second is answered as the first."""
    assert enter(three_deals, LTOOSH, 4, 2, key=MINE) == Kept(3, False, 2)
    assert fresh(three_deals).deal_count == 3


def test_keys_belong_to_their_game(three_deals: GameRow) -> None:
    [other] = store_records(parse_records(json.dumps(raw_record("trix", TRIX_KINGDOM[:2]))))
    assert kept(fresh(other), MINE) is None
    assert check(other, DIAMONDS, 3, 1, key=MINE) is None  # not saved there
    assert isinstance(enter(other, DIAMONDS, 3, 1, key=MINE), Saved)  # its own entry
    delete_game(fresh(three_deals))
    count = db.session.execute(select(func.count()).select_from(EntryRow)).scalar_one()
    assert count == 1  # the deleted game's keys went with it


def test_keys_have_one_shape() -> None:
    key = new_entry_key()
    assert is_entry_key(key) and is_entry_key(MINE)
    for wrong in (
        key.upper(),
        "{" + key + "}",
        key.replace("-", ""),
        key + "0",
        "0b5c8a52-7f3e-1c1d-9a6b-2f4e8d1c7a90",  # version 1
        "0b5c8a52-7f3e-4c1d-7a6b-2f4e8d1c7a90",  # not the RFC variant
        "0b5c8a52-7f3e-4c1d-9a6b-2f4e8d1c7a9\n",
        "",
        None,
        42,
    ):
        assert not is_entry_key(wrong), wrong
