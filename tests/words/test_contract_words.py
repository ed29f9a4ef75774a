"""One words record per contract and per item (scorekeeper.words.contracts), walked from the
engine's registries: a contract or an item without its words, or a sentence asking for a
number or a count the engine does not give it, is named here, before a page shows a raw id, a
blank or a KeyError."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from scorekeeper.rules import CONTRACTS, GAMES, HouseRules
from scorekeeper.rules.contracts import Contract, ContractKind, Item
from scorekeeper.rules.deal import FieldKind, FieldSpec
from scorekeeper.rules.examples import count_totals
from scorekeeper.rules.games import TURKISH_KING
from scorekeeper.rules.house_rules import HOUSE_RULE_KEYS
from scorekeeper.rules.messages import UNITS
from scorekeeper.web.languages import LANGUAGES
from scorekeeper.words.contracts import (
    CONTRACT_WORDS,
    ITEM_WORDS,
    ContractWords,
    ItemWords,
    score_numbers,
)

POT = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations" / "messages.pot"
EXTRACT = "run the pybabel commands at the top of babel.cfg"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
WHERE = "scorekeeper/words/contracts.py"


def _catalogue() -> set[str]:
    with POT.open("rb") as handle:
        return {
            message.id if isinstance(message.id, str) else message.id[0]
            for message in read_po(handle)
            if message.id
        }


CATALOGUE = _catalogue()


def _count_fields(definition: Contract) -> list[FieldSpec]:
    return [spec for spec in definition.fields if spec.kind == FieldKind.COUNTS]


def _ruled_rules(words: ContractWords) -> Iterator[HouseRules]:
    """The house rules each of the record's ruled words apply under (and the defaults)."""
    yield HouseRules()
    for rule, value in words.ruled:
        if rule in HOUSE_RULE_KEYS:
            default = getattr(HouseRules(), rule)
            yield dataclasses.replace(HouseRules(), **{rule: type(default)(value)})


def _uncatalogued(texts: list[str]) -> list[str]:
    return [text for text in texts if text not in CATALOGUE]


def item_problems(item: str) -> list[str]:
    """Why `item`'s words are not complete, each naming what to add (empty: complete)."""
    item = str(item)  # its value, as a count field's `unit` holds it
    words = ITEM_WORDS.get(item)  # type: ignore[call-overload]
    if words is None:
        return [f"ITEM_WORDS has no record for item {item!r}: add ItemWords(...) in {WHERE}"]
    assert isinstance(words, ItemWords)
    problems = []
    counted_by = [
        definition.id
        for definition in CONTRACTS.values()
        for spec in _count_fields(definition)
        if spec.unit == item
    ]
    if counted_by and words.count is None:
        problems.append(
            f"item {item!r} has no count phrase (ItemWords.count), which "
            f"{', '.join(counted_by)} need"
        )
    if counted_by and item not in UNITS:
        problems.append(
            f"item {item!r} has no words for the engine's refusals "
            f"(scorekeeper/rules/messages.py UNITS), which {', '.join(counted_by)} need"
        )
    sectioned = [
        definition.id
        for definition in CONTRACTS.values()
        if len(_count_fields(definition)) > 1
        and any(spec.unit == item for spec in _count_fields(definition))
    ]
    if sectioned and words.section is None:
        problems.append(
            f"item {item!r} has no section words (ItemWords.section), which "
            f"{', '.join(sectioned)} need"
        )
    texts = [words.average]
    if words.count is not None:
        texts.append(words.count.singular)
    if words.section is not None and re.search(r"[A-Za-z]", words.section.replace("{counts}", "")):
        texts.append(words.section)
    problems += [
        f"item {item!r}: {text!r} is not in messages.pot: {EXTRACT}"
        for text in _uncatalogued(texts)
    ]
    return problems


def contract_problems(contract: str) -> list[str]:
    """Why `contract`'s words are not complete, each naming what to add (empty: complete)."""
    definition = CONTRACTS[contract]
    words = CONTRACT_WORDS.get(contract)
    if words is None:
        return [
            f"CONTRACT_WORDS has no record for contract {contract!r}: add "
            f"ContractWords(label, native, score, fields) in {WHERE}"
        ]
    problems = []
    names = {spec.name for spec in definition.fields}
    problems += [
        f"{contract}: no label for field {name!r} (ContractWords.fields)"
        for name in sorted(names - set(words.fields))
    ]
    problems += [
        f"{contract}: a label for {name!r}, which is not one of its fields"
        for name in sorted(set(words.fields) - names)
    ]
    for (rule, value), ruled in words.ruled.items():
        if rule not in HOUSE_RULE_KEYS:
            problems.append(f"{contract}: words for house rule {rule!r}, which does not exist")
        problems += [
            f"{contract}: words for field {name!r} under {rule} {value!r}, not one of its fields"
            for name in ruled.fields
            if name not in names
        ]
    unknown = [item for item, _ in definition.items if item not in ITEM_WORDS]
    problems += [
        f"{contract}: counts item {str(item)!r}, which has no ItemWords" for item in unknown
    ]
    if not unknown:
        for rules in _ruled_rules(words):
            given = score_numbers(contract, rules)
            for text in (words.score_for(rules), words.note_for(rules)):
                problems += [
                    f"{contract}: its sentence asks for %({name})s, which it does not score "
                    f"(it gives {sorted(given)}): {text!r}"
                    for name in PLACEHOLDER.findall(text or "")
                    if name not in given
                ]
            for game in (game for game, d in GAMES.items() if contract in d.contracts):
                totals = {str(item) for item in count_totals(game, rules, ceilings=True)}
                problems += [
                    f"{contract}: its check asks for %({name})s, which {game}'s counts do not "
                    f"add up to (they give {sorted(totals)}): {text!r}"
                    for text in words.checks_for(rules)
                    for name in PLACEHOLDER.findall(text)
                    if name not in totals
                ]
    texts = [words.label, words.score, *words.fields.values(), *words.checks]
    texts += [words.note] if words.note else []
    for ruled in words.ruled.values():
        texts += [text for text in (ruled.score, ruled.note) if text]
        texts += [*(ruled.checks or ()), *ruled.fields.values()]
    problems += [
        f"{contract}: {text!r} is not in messages.pot: {EXTRACT}" for text in _uncatalogued(texts)
    ]
    problems += [
        f"{contract}: its name {text.name!r} ({text.source}) is in {text.language!r}, which the "
        "app does not speak"
        for text in words.texts
        if text.language not in LANGUAGES
    ]
    problems += [
        f"{contract}: its name {text.name!r} ({text.source}) is said to be unlike "
        f"{text.unlike!r}, which is not a contract"
        for text in words.texts
        if text.unlike is not None and text.unlike not in CONTRACTS
    ]
    if not words.native:
        problems.append(f"{contract}: no native name (ContractWords.native, docs/rules.md)")
    return problems


@pytest.mark.parametrize("contract", sorted(CONTRACTS))
def test_every_contract_has_its_words(contract: str) -> None:
    assert contract_problems(contract) == []


@pytest.mark.parametrize("item", list(Item))
def test_every_item_has_its_words(item: Item) -> None:
    assert item_problems(item) == []


def test_no_words_for_what_the_engine_does_not_have() -> None:
    assert sorted(set(CONTRACT_WORDS) - set(CONTRACTS)) == []
    assert sorted(set(ITEM_WORDS) - set(Item)) == []


def test_a_count_field_counts_the_item_its_contract_says() -> None:
    # what a count field counts (`unit`) is the item the contract reads from it
    for definition in CONTRACTS.values():
        counted = dict((field, item) for item, field in definition.items)
        for spec in _count_fields(definition):
            assert spec.unit == counted[spec.name], (definition.id, spec.name)


# --- a new contract: what adding one costs, and what the records test says first ------------


def _no_diamonds() -> Contract:
    """A toy Turkish King contract: each diamond taken −30 (the engine's part only)."""
    counts = FieldSpec("counts", FieldKind.COUNTS, maximum=13, total=13, unit=Item.DIAMONDS)
    return Contract(
        "no-diamonds",
        (counts,),
        ContractKind.NEGATIVE,
        lambda deal, rules: tuple(-30 * count for count in deal.counts("counts")),
        items=((Item.DIAMONDS, "counts"),),
        sample={"counts": (1, 0, 0, 0)},
    )


@pytest.fixture
def no_diamonds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turkish King with an eighth contract, "no diamonds", in the engine only."""
    monkeypatch.setitem(CONTRACTS, "no-diamonds", _no_diamonds())
    king = GAMES[TURKISH_KING]
    monkeypatch.setitem(
        GAMES, TURKISH_KING, dataclasses.replace(king, contracts=(*king.contracts, "no-diamonds"))
    )


@pytest.mark.usefixtures("no_diamonds")
def test_a_new_contract_without_words_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    assert contract_problems("no-diamonds") == [
        "CONTRACT_WORDS has no record for contract 'no-diamonds': add "
        f"ContractWords(label, native, score, fields) in {WHERE}"
    ]
    # its record, gap by gap: each is named until only the catalogues' are left
    monkeypatch.setitem(
        CONTRACT_WORDS,
        "no-diamonds",
        ContractWords("No Diamonds", "Karo almaz", "%(score)s for each %(card)s", {}),
    )
    assert contract_problems("no-diamonds") == [
        "no-diamonds: no label for field 'counts' (ContractWords.fields)",
        "no-diamonds: its sentence asks for %(card)s, which it does not score (it gives "
        "['diamond', 'score']): '%(score)s for each %(card)s'",
        f"no-diamonds: 'No Diamonds' is not in messages.pot: {EXTRACT}",
        f"no-diamonds: '%(score)s for each %(card)s' is not in messages.pot: {EXTRACT}",
    ]
    monkeypatch.setitem(
        CONTRACT_WORDS,
        "no-diamonds",
        ContractWords(
            "No Diamonds", "Karo almaz", "%(score)s for each diamond taken", {"counts": "Diamonds"}
        ),
    )
    assert contract_problems("no-diamonds") == [
        f"no-diamonds: 'No Diamonds' is not in messages.pot: {EXTRACT}"
    ]


def test_an_item_without_words_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(ITEM_WORDS, Item.HEARTS)
    assert item_problems(Item.HEARTS) == [
        f"ITEM_WORDS has no record for item 'hearts': add ItemWords(...) in {WHERE}"
    ]
    assert contract_problems("no-hearts") == [
        "no-hearts: counts item 'hearts', which has no ItemWords"
    ]
    monkeypatch.setitem(ITEM_WORDS, Item.HEARTS, ItemWords("heart", "Hearts per deal"))
    assert item_problems(Item.HEARTS) == [
        "item 'hearts' has no count phrase (ItemWords.count), which no-hearts need"
    ]
    monkeypatch.setitem(
        ITEM_WORDS,
        Item.DIAMONDS,
        dataclasses.replace(ITEM_WORDS[Item.DIAMONDS], section=None),
    )
    assert item_problems(Item.DIAMONDS) == [
        "item 'diamonds' has no section words (ItemWords.section), which complex need"
    ]


@pytest.mark.usefixtures("no_diamonds")
def test_a_new_contract_with_its_record_is_on_the_pages(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rules/ and the one words module are all a page needs (English until the catalogues
    # have its words): the rules page, what the counts add up to, the deal form
    monkeypatch.setitem(
        CONTRACT_WORDS,
        "no-diamonds",
        ContractWords(
            "No Diamonds", "Karo almaz", "%(score)s for each diamond taken", {"counts": "Diamonds"}
        ),
    )
    page = unescape(client.get("/rules/turkish-king").get_data(as_text=True))
    assert "No Diamonds" in page and "Karo almaz" in page
    assert "−30 for each diamond taken" in re.sub(r"<[^>]+>", "", page)
    assert "13 hearts, 13 diamonds;" in page  # what its counts add up to


SCRATCH_CONTRACT = """
        Contract(
            "no-sevens",
            (_counts("counts", 4, Item.SEVENS),),
            _NEG,
            _per_item(40, "counts"),
            items=((Item.SEVENS, "counts"),),
            sample={"counts": _ONE},
        ),
"""


def test_a_new_contract_in_a_scratch_copy_fails_this_test_by_name(tmp_path: Path) -> None:
    # a copy of the package whose engine has "no sevens" (a new item and a new Turkish King
    # contract) and no words for them: this file's records tests name both, and nothing else
    root = Path(__file__).resolve().parents[2]
    shutil.copytree(root / "scorekeeper", tmp_path / "scorekeeper", ignore=_compiled)
    (tmp_path / "tests" / "words").mkdir(parents=True)
    shutil.copy(Path(__file__), tmp_path / "tests" / "words" / Path(__file__).name)
    contracts = tmp_path / "scorekeeper" / "rules" / "contracts.py"
    text = contracts.read_text(encoding="utf-8")
    text = text.replace(
        '    HEARTS = "hearts"\n', '    HEARTS = "hearts"\n    SEVENS = "sevens"\n', 1
    )
    text = text.replace(
        '\n    )\n}\n"""Every contract by its id',
        SCRATCH_CONTRACT + '    )\n}\n"""Every contract by its id',
        1,
    )
    contracts.write_text(text, encoding="utf-8")
    games = tmp_path / "scorekeeper" / "rules" / "games.py"
    text = games.read_text(encoding="utf-8")
    games.write_text(text.replace('"no-tricks"),', '"no-tricks", "no-sevens"),', 1), "utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "has_its_words",
            "--rootdir",
            str(tmp_path),
            str(tmp_path / "tests" / "words"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    failed = sorted(re.findall(r"^FAILED \S+::(\S+)", run.stdout, re.MULTILINE))
    assert failed == [
        "test_every_contract_has_its_words[no-sevens]",
        "test_every_item_has_its_words[sevens]",
    ], run.stdout[-3000:]
    assert "CONTRACT_WORDS has no record for contract 'no-sevens'" in run.stdout
    assert "ITEM_WORDS has no record for item 'sevens'" in run.stdout


def _compiled(folder: str, names: list[str]) -> list[str]:
    return [name for name in names if name == "__pycache__"]
