"""Each rules fact has one owner: a contract's facts live in its `Contract` (rules/), and the only
other place a contract id may appear is its words record in words/contracts.py.

So adding a contract touches rules/ and words/ (and the catalogues) only: nothing in stats/,
store/, web/, cli/ or the templates switches on a contract id.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper.rules import CONTRACTS, GAMES, HouseRules
from scorekeeper.rules.contracts import Item

PACKAGE = Path(scorekeeper.__file__).resolve().parent
TEMPLATES = PACKAGE.parent / "templates"
OWNERS = (PACKAGE / "rules", PACKAGE / "words" / "contracts.py")
# an id that is also a word of another kind (a game, a field, what a field counts) cannot be
# told apart by its spelling: the others are looked for
SHARED = (
    set(GAMES)
    | {spec.name for contract in CONTRACTS.values() for spec in contract.fields}
    | {spec.unit for contract in CONTRACTS.values() for spec in contract.fields}
    | set(Item)
)
WATCHED = sorted(set(CONTRACTS) - SHARED)


def _sources() -> list[Path]:
    files = [
        path
        for path in PACKAGE.rglob("*.py")
        if not any(path.is_relative_to(owner) for owner in OWNERS)
    ]
    return files + sorted(TEMPLATES.rglob("*.html"))


def test_the_watched_ids_are_most_of_them() -> None:
    assert len(WATCHED) >= 9  # king-of-hearts, ltoosh, complex, trump and the no-… contracts


@pytest.mark.parametrize("path", _sources(), ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_no_contract_id_outside_its_owners(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [
        contract for contract in WATCHED if re.search(rf"""["']{re.escape(contract)}["']""", text)
    ]
    assert found == [], f"{path.name} names contracts {found}: ask the Contract instead"
    compared = [
        contract
        for contract in sorted(CONTRACTS)
        if re.search(rf"""(==|!=|\bin \(|\bin \[)\s*["']{re.escape(contract)}["']""", text)
    ]
    assert compared == [], f"{path.name} switches on contracts {compared}"


@pytest.mark.parametrize("contract", sorted(CONTRACTS))
def test_every_contract_describes_itself(contract: str) -> None:
    definition = CONTRACTS[contract]
    for _, field in definition.items:
        definition.field(field)  # what it counts is one of its fields
    assert all(
        card in spec.cards
        for spec in definition.fields
        if spec.name == definition.doubles_field
        for card in definition.doubles
    )
    scores = definition.item_scores(HouseRules())
    assert set(scores) == {item for item, _ in definition.items}
    if definition.place_field is None:
        assert definition.places(HouseRules()) == ()
    else:
        assert sorted(definition.places(HouseRules()), reverse=True) == list(
            definition.places(HouseRules())
        )


def test_what_each_contract_can_double() -> None:
    assert {
        contract: definition.doubles
        for contract, definition in CONTRACTS.items()
        if definition.doubles
    } == {
        "king-of-hearts": ("KH",),
        "queens": ("S", "H", "D", "C"),
        "complex": ("KH", "S", "H", "D", "C"),
    }


WEB = PACKAGE / "web"


@pytest.mark.parametrize(
    "path",
    sorted(WEB.rglob("*.py")) + sorted(TEMPLATES.rglob("*.html")),
    ids=lambda path: str(path.relative_to(PACKAGE.parent)),
)
def test_no_score_typed_in_the_web_layer(path: Path) -> None:
    """Every number a page shows about the rules is the engine's, shown by one helper: no
    signed score ("−75", "+25") is written in the web layer or a template."""
    text = path.read_text(encoding="utf-8")
    assert re.findall(r"[−+]\d+\b", text) == [], path.name
