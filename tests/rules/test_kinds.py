"""Field kinds, contract kinds and closed-contract reasons are StrEnums (issue 11).

mypy --strict proves the engine's matches on them exhaustive; these tests pin what the web layer
and templates rely on: each member is its old string (equal, hashed, printed and serialised the
same) and every reason has a label and a message.
"""

from __future__ import annotations

import json

import pytest

from scorekeeper.rules import (
    CONTRACTS,
    REASONS,
    TEMPLATES,
    ClosedReason,
    ContractKind,
    FieldKind,
    Quota,
    replay,
)
from scorekeeper.rules.deal import FieldSpec, parse_field
from tests.rules.builders import DIAMONDS, game_of

OLD_FIELD_KINDS = {
    "SEAT": "seat",
    "OPTIONAL_SEAT": "optional_seat",
    "COUNTS": "counts",
    "ORDER": "order",
    "SEAT_PAIR": "seat_pair",
    "SUIT": "suit",
    "CARD_SEATS": "card_seats",
    "OPTIONAL_CARD_SEATS": "optional_card_seats",
}
OLD_CONTRACT_KINDS = {"POSITIVE": "positive", "NEGATIVE": "negative", "TRUMP": "trump"}


@pytest.mark.parametrize(
    ("enum", "old"),
    [
        (FieldKind, OLD_FIELD_KINDS),
        (ContractKind, OLD_CONTRACT_KINDS),
    ],
)
def test_each_member_is_its_old_string(enum: type, old: dict[str, str]) -> None:
    assert {member.name: member.value for member in enum} == old  # type: ignore[attr-defined]
    for name, value in old.items():
        member = enum[name]  # type: ignore[index]
        assert member == value and value == member and hash(member) == hash(value)
        assert str(member) == f"{member}" == value
        assert json.dumps(member) == json.dumps(value)
        assert member in (value,)  # the templates' `kind in ("seat", ...)`


def test_closed_reasons_are_their_message_ids() -> None:
    assert {r.value for r in ClosedReason} == {
        "contract_played",
        "trump_quota",
        "negative_quota",
        "negative_twice",
    }
    for reason in ClosedReason:
        assert REASONS[reason] == REASONS[reason.value]
        assert TEMPLATES[reason] == TEMPLATES[reason.value]


def test_every_closed_reason_has_a_label_and_nothing_else_does() -> None:
    assert set(REASONS) == set(ClosedReason)
    assert set(REASONS) <= set(TEMPLATES)


def test_every_contract_and_field_is_typed_by_the_enums() -> None:
    for contract in CONTRACTS.values():
        assert type(contract.kind) is ContractKind
        for spec in contract.fields:
            assert type(spec.kind) is FieldKind


def test_options_and_quotas_carry_members() -> None:
    step = replay(game_of("trix", [DIAMONDS])).next
    assert step is not None
    closed = [option for option in step.options if not option.open]
    assert [option.contract for option in closed] == ["diamonds"]
    assert closed[0].reason is ClosedReason.CONTRACT_PLAYED
    assert Quota(2, 0).forced is ContractKind.NEGATIVE
    assert Quota(0, 3).forced is ContractKind.TRUMP


@pytest.mark.parametrize("kind", list(FieldKind))
def test_only_optional_kinds_may_be_left_out(kind: FieldKind) -> None:
    spec = FieldSpec("x", kind, cards=("S",))
    optional = kind in (FieldKind.OPTIONAL_SEAT, FieldKind.OPTIONAL_CARD_SEATS)
    assert spec.required is not optional
    value, problems = parse_field(spec, None)
    if optional:
        assert problems == [] and value == (None if kind == FieldKind.OPTIONAL_SEAT else {})
    else:
        assert [(p.field, p.code) for p in problems] == [("x", "missing")]


@pytest.mark.parametrize("kind", list(FieldKind))
def test_a_plain_string_kind_still_parses_like_its_member(kind: FieldKind) -> None:
    """A FieldSpec built with the old string (as the web layer might) behaves the same."""
    raws: list[object] = [None, 1, 7, "S", [3, 4, 5, 1], [0, 1, 2, 3], [0, 0], {"S": 1}, "x"]
    for raw in raws:
        as_member = parse_field(FieldSpec("x", kind, cards=("S",)), raw)
        as_text = parse_field(FieldSpec("x", kind.value, cards=("S",)), raw)  # type: ignore[arg-type]
        assert as_member == as_text
