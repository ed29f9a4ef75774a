"""docs/record-format.md, the project's description of `scorekeeper-game/1`, is true.

Every record shown there (a ```` ```json record ```` block) is run through `scorekeeper check`
and must print exactly the block that follows it: ```` ```json output ```` (exit 0, the same
JSON) or ```` ```text stderr exit=N ```` (that exit status, that one line, nothing on standard
output). The page must also name every contract's fields, every house rule with its choices and
every refusal `check` can give, so a new one cannot go undocumented.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.rules.contracts import CONTRACTS
from scorekeeper.rules.house_rules import HOUSE_RULE_CHOICES, HOUSE_RULE_KEYS
from scorekeeper.rules.messages import TEMPLATES, Counted

PAGE = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"
FENCE = re.compile(r"^```(\w+)(?: ([^\n]*))?\n(.*?)^```$", re.S | re.M)

NOT_FROM_A_RECORD = {
    "placed_twice": "the deal form's own (a record's order is refused as not_permutation)",
    "bad_format": "never given: a wrong `format` is not a record at all (exit 2)",
}
"""Refusals `check` never prints, and why."""


@dataclass(frozen=True)
class Example:
    """A record on the page and what the page says `check` does with it."""

    line: int
    record: str
    kind: str  # "output" or "stderr"
    expected: str
    status: int


def blocks(text: str) -> list[tuple[int, str, str, str]]:
    """Each fenced block: its line, language, tag and content."""
    return [
        (text.count("\n", 0, match.start()) + 1, match[1], match[2] or "", match[3])
        for match in FENCE.finditer(text)
    ]


def examples(text: str) -> list[Example]:
    """The records and their stated results, in page order; a record without a result (or a
    result without its record) fails here."""
    found: list[Example] = []
    pending: tuple[int, str] | None = None
    for line, language, tag, content in blocks(text):
        if tag == "record":
            assert pending is None, f"line {pending[0]}: a record with no stated result"
            pending = (line, content)
            continue
        if tag == "output" or tag.startswith("stderr"):
            assert pending is not None, f"line {line}: a result with no record before it"
            status = 0 if tag == "output" else int(tag.removeprefix("stderr exit="))
            found.append(Example(pending[0], pending[1], tag.split()[0], content, status))
            pending = None
            continue
        assert language != "json", f"line {line}: a JSON block must be a record or an output"
    assert pending is None, f"line {pending[0]}: a record with no stated result"
    return found


EXAMPLES = examples(PAGE.read_text(encoding="utf-8"))


def test_the_page_shows_records_of_each_outcome() -> None:
    assert {example.status for example in EXAMPLES} == {0, 1, 2}
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda example: f"line-{example.line}")
def test_check_prints_what_the_page_says(
    example: Example, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(example.record, encoding="utf-8")
    status = main(["check", str(path)])
    printed = capsys.readouterr()
    assert status == example.status
    if example.kind == "output":
        assert printed.err == ""
        # the same JSON, told apart by type too (true is not 1, 1.0 is not 1)
        assert json.dumps(json.loads(printed.out), sort_keys=True) == json.dumps(
            json.loads(example.expected), sort_keys=True
        )
    else:
        assert printed.out == ""
        assert printed.err == example.expected


def test_every_contract_and_field_is_described() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for contract in CONTRACTS.values():
        row = next(
            (line for line in text.splitlines() if line.startswith(f"| `{contract.id}`")), ""
        )
        assert row, f"no row for the contract {contract.id}"
        for spec in contract.fields:
            assert f"`{spec.name}`" in row, f"{contract.id}: the field {spec.name} is not described"


def test_every_house_rule_and_choice_is_described() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for key in HOUSE_RULE_KEYS:
        row = next((line for line in text.splitlines() if line.startswith(f"| `{key}`")), "")
        assert row, f"no row for the house rule {key}"
        for choice in HOUSE_RULE_CHOICES.get(key, ()):
            assert f'`"{choice}"`' in row, f"{key}: the choice {choice} is not described"


def test_every_refusal_is_listed() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for code, template in TEMPLATES.items():
        if code in NOT_FROM_A_RECORD:
            continue
        words = template.plural if isinstance(template, Counted) else template
        assert f"`{words}`" in text, f"the refusal {code} ({words!r}) is not listed"
