"""The one loader of several records (rules/record.py), shared by `scorekeeper stats`, the
import page and `scorekeeper import`: which record is bad, and what an empty array means."""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import NotARecordError, RuleError
from scorekeeper.rules.record import RecordsRefused, load_records
from tests.rules.builders import KING_OF_HEARTS, raw_record


def test_an_array_and_a_lone_record() -> None:
    one = raw_record("trix", [KING_OF_HEARTS])
    assert len(load_records(json.dumps([one, one]))) == 2
    assert len(load_records(json.dumps(one))) == 1


def test_the_bad_record_is_named_by_its_place_with_its_players() -> None:
    good = raw_record("trix", [KING_OF_HEARTS])
    bad = raw_record("trix", [KING_OF_HEARTS, KING_OF_HEARTS])
    with pytest.raises(RecordsRefused) as refused:
        load_records(json.dumps([good, good, bad]))
    assert (refused.value.record, refused.value.count) == (3, 3)
    assert refused.value.is_rule and isinstance(refused.value.error, RuleError)
    assert refused.value.players == tuple(bad["players"])
    assert refused.value.headline().startswith("record 3: deal 2 (king-of-hearts): ")


def test_an_empty_array_is_no_records_unless_refused() -> None:
    assert load_records("[]") == []
    with pytest.raises(RecordsRefused) as refused:
        load_records("[]", empty=False)
    assert isinstance(refused.value.error, NotARecordError) and refused.value.count == 0


def test_not_json_is_not_records() -> None:
    with pytest.raises(RecordsRefused) as refused:
        load_records(b"not json")
    assert not refused.value.is_rule and refused.value.record is None


def test_the_items_are_seen_before_any_replay() -> None:
    seen: list[int] = []

    def refuse(items: list[object]) -> None:
        seen.append(len(items))
        raise ValueError("too many")

    bad = raw_record("trix", [KING_OF_HEARTS, KING_OF_HEARTS])
    with pytest.raises(ValueError, match="too many"):
        load_records(json.dumps([bad, bad]), before_replay=refuse)
    assert seen == [2]
