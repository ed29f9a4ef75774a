"""store.sync: deals a phone saved offline, sent in order, each once; what each one gets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import replay
from scorekeeper.store.deals import Entry, Finished, Kept, Refused, Saved, Stale, enter_deal
from scorekeeper.store.games import game_of, save_text
from scorekeeper.store.models import GameRow
from scorekeeper.store.records import parse_records, store_records
from scorekeeper.store.sync import Conflict, Pending, Sent, send_pending
from tests.rules.builders import FULL_GAME, LTOOSH, TRIX_KINGDOM, raw_record
from tests.store.conftest import fresh

KEYS = [f"{index:08x}-1111-4111-8111-111111111111" for index in range(1, 12)]
PENDING = FULL_GAME["trix"][3:8]  # deals 4 to 8: the first kingdom's last two, then the next
OTHER_LTOOSH = {"contract": "ltoosh", "tricks": [1, 4, 4, 4]}


def send(row: GameRow, pending: list[Pending]) -> list[Sent]:
    found = fresh(row)
    return send_pending(found, replay(game_of(found)), pending)


def chain(deals: list[dict[str, Any]], first: int, base: int, keys: list[str]) -> list[Pending]:
    """Pending deals `first`, `first`+1, …: the first on version `base`, each next one after
    the one before it."""
    return [
        Pending(key, first + index, deal, base if index == 0 else keys[index - 1])
        for index, (key, deal) in enumerate(zip(keys, deals, strict=False))
    ]


@pytest.fixture
def three_deals(ctx: None) -> GameRow:
    [row] = store_records(parse_records(json.dumps(raw_record("trix", TRIX_KINGDOM[:3]))))
    return row  # version 1


def outcomes(sent: list[Sent]) -> list[str]:
    return [type(each.outcome).__name__ for each in sent]


def test_five_deals_across_a_kingdom_are_stored_in_order_then_kept(three_deals: GameRow) -> None:
    pending = chain(PENDING, 4, 1, KEYS)
    sent = send(three_deals, pending)
    assert outcomes(sent) == ["Saved"] * 5
    assert [each.version for each in sent] == [2, 3, 4, 5, 6]
    stored = fresh(three_deals)
    assert stored.deals == FULL_GAME["trix"][:8] and stored.version == 6
    local = replay(game_of(stored))
    assert local.next is not None and local.next.kingdom == 1  # the second kingdom goes on
    again = send(three_deals, pending)  # the answer was lost: the whole sync sent again
    assert [each.outcome for each in again] == [Kept(4 + i, False, 2 + i) for i in range(5)]
    assert [each.version for each in again] == [2, 3, 4, 5, 6]
    assert fresh(three_deals).version == 6


def test_a_sync_that_stopped_half_way_goes_on_when_sent_again(three_deals: GameRow) -> None:
    pending = chain(PENDING, 4, 1, KEYS)
    assert outcomes(send(three_deals, pending[:2])) == ["Saved", "Saved"]
    assert outcomes(send(three_deals, pending)) == ["Kept", "Kept", "Saved", "Saved", "Saved"]
    assert fresh(three_deals).deals == FULL_GAME["trix"][:8]


def test_another_phones_deal_stands_and_the_rest_wait(three_deals: GameRow) -> None:
    # phone A, offline too, sent its deal 4 first
    assert outcomes(send(three_deals, [Pending(KEYS[10], 4, OTHER_LTOOSH, 1)])) == ["Saved"]
    pending = chain(PENDING, 4, 1, KEYS)
    sent = send(three_deals, pending)
    assert sent[0].outcome == Conflict(4, OTHER_LTOOSH, same=False)
    assert outcomes(sent)[1:] == ["Waiting"] * 4
    assert fresh(three_deals).deals[3:] == [OTHER_LTOOSH]
    # "drop mine": the rest, on the game as it is now (their keys were never stored)
    rest = [Pending(KEYS[1], 5, PENDING[1], 2), *pending[2:]]
    assert outcomes(send(three_deals, rest)) == ["Saved"] * 4
    assert fresh(three_deals).deals == [*TRIX_KINGDOM[:3], OTHER_LTOOSH, *PENDING[1:]]


def test_mine_entered_as_the_next_deal_after_a_conflict(three_deals: GameRow) -> None:
    trix = FULL_GAME["trix"][4]
    assert outcomes(send(three_deals, [Pending(KEYS[10], 4, trix, 1)])) == ["Saved"]
    sent = send(three_deals, [Pending(KEYS[0], 4, LTOOSH, 1)])
    assert sent[0].outcome == Conflict(4, trix, same=False)
    # "enter mine as the next deal": a new key, the next number, the game's version now
    assert outcomes(send(three_deals, [Pending(KEYS[1], 5, LTOOSH, 2)])) == ["Saved"]
    assert fresh(three_deals).deals[3:] == [trix, LTOOSH]


def test_the_same_deal_from_another_phone_is_a_conflict_said_alike(three_deals: GameRow) -> None:
    assert outcomes(send(three_deals, [Pending(KEYS[10], 4, LTOOSH, 1)])) == ["Saved"]
    sent = send(three_deals, chain(PENDING, 4, 1, KEYS))
    assert sent[0].outcome == Conflict(4, LTOOSH, same=True)


def test_an_entry_based_on_an_old_version_is_stale_until_rebased(three_deals: GameRow) -> None:
    save_text(fresh(three_deals), "Friday", None, 1)  # another phone named the game
    pending = chain(PENDING, 4, 1, KEYS)
    sent = send(three_deals, pending)
    assert outcomes(sent) == ["Stale"] + ["Waiting"] * 4
    rebased = [Pending(KEYS[0], 4, PENDING[0], 2), *pending[1:]]  # same keys, the new base
    assert outcomes(send(three_deals, rebased)) == ["Saved"] * 5


def test_an_entry_after_a_key_the_game_does_not_hold_is_stale(three_deals: GameRow) -> None:
    sent = send(three_deals, [Pending(KEYS[1], 4, PENDING[0], KEYS[0])])
    assert sent[0].outcome == Stale()
    assert fresh(three_deals).version == 1


def test_a_refused_entry_says_why_and_the_rest_wait(three_deals: GameRow) -> None:
    wrong = {"contract": "ltoosh", "tricks": [4, 4, 4, 4]}
    pending = [Pending(KEYS[0], 4, wrong, 1), *chain(PENDING[1:], 5, 2, KEYS[1:])]
    sent = send(three_deals, pending)
    assert isinstance(sent[0].outcome, Refused)
    assert [p.code for p in sent[0].outcome.evaluation.problems] == ["sum_mismatch"]
    assert outcomes(sent)[1:] == ["Waiting"] * 4
    assert fresh(three_deals).version == 1


@pytest.mark.parametrize(
    ("number", "base", "correction", "expected"),
    [
        (9, 1, False, Stale),  # numbers no state of the game had
        (3, 2, True, Stale),  # a correction on a version the game never had
        (2, 1, True, Saved),  # a correction, on the game as it is
    ],
)
def test_odd_numbers_are_stale_and_corrections_go_through(
    three_deals: GameRow, number: int, base: int, correction: bool, expected: type
) -> None:
    deal = TRIX_KINGDOM[number - 1] if number <= 3 else PENDING[0]
    if correction:
        deal = {"contract": "queens", "takers": {"S": 3, "H": 1, "D": 1, "C": 0}}
    sent = send(three_deals, [Pending(KEYS[0], number, deal, base, correction)])
    assert type(sent[0].outcome) is expected


def test_a_finished_game_takes_no_pending_deal(ctx: None) -> None:
    [row] = store_records(parse_records(json.dumps(raw_record("trix", FULL_GAME["trix"]))))
    sent = send(row, [Pending(KEYS[0], 21, LTOOSH, 1)])
    assert sent[0].outcome == Finished()


def test_a_form_save_and_a_sync_share_the_keys(three_deals: GameRow) -> None:
    """A deal saved from a form (its answer lost), then sent again by the phone's sync."""
    found = fresh(three_deals)
    entry = Entry(PENDING[0], 4, 1, key=KEYS[0])
    assert isinstance(enter_deal(found, replay(game_of(found)), entry), Saved)
    sent = send(three_deals, chain(PENDING[:2], 4, 1, KEYS))
    assert outcomes(sent) == ["Kept", "Saved"]
    assert isinstance(sent[0].outcome, Kept) and sent[0].version == 2
    assert sent[1].version == 3
