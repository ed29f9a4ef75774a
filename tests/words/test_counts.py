"""Counts about the rules in words (scorekeeper.words.counts): every number is the engine's, so a
page follows a definition that changes, and each count takes its language's plural form."""

from __future__ import annotations

import dataclasses
from html import unescape
from pathlib import Path

import pytest
from babel.support import Translations
from flask.testing import FlaskClient

from scorekeeper.rules import CONTRACTS, GAMES, HouseRules
from scorekeeper.rules import games as game_definitions
from scorekeeper.rules.contracts import Item
from scorekeeper.rules.deal import FieldSpec
from scorekeeper.rules.examples import count_totals
from scorekeeper.rules.games import TRIX, TRIX_COMPLEX, TURKISH_KING
from scorekeeper.rules.house_rules import ComplexTricks
from scorekeeper.words.contracts import CONTRACT_WORDS
from scorekeeper.words.counts import counts_add_up, game_outline

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"


def words(language: str) -> Translations:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        return Translations(handle)


def outline(game: str, language: str) -> str:
    catalogue = words(language)
    return game_outline(game, catalogue.gettext, catalogue.ngettext)


def test_each_game_outline_in_english() -> None:
    assert game_outline(TRIX) == "Trix: 4 kingdoms of 5 contracts, 20 deals."
    assert game_outline(TRIX_COMPLEX) == "Trix Complex: 4 kingdoms of 2 contracts, 8 deals."
    assert game_outline(TURKISH_KING) == "Turkish King: 20 hands, solo only."


def test_the_counts_turkish_king_checks_are_its_contracts() -> None:
    assert count_totals(TURKISH_KING, HouseRules()) == {
        Item.TRICKS: 13,
        Item.QUEENS: 4,
        Item.KINGS_AND_JACKS: 8,
        Item.HEARTS: 13,
    }
    assert counts_add_up(TURKISH_KING, HouseRules()).startswith(
        "Counts add up: 13 tricks, 4 queens, 8 kings and jacks, 13 hearts; "
    )


def test_a_ceiling_is_not_a_total() -> None:
    # Complex's tricks that held a penalty card are at most 13: they do not add up to 13
    penalty = HouseRules(complex_tricks=ComplexTricks.PENALTY)
    assert count_totals(TRIX_COMPLEX, HouseRules()) == {"tricks": 13, "diamonds": 13}
    assert count_totals(TRIX_COMPLEX, penalty) == {"diamonds": 13}
    assert count_totals(TRIX_COMPLEX, penalty, ceilings=True) == {"tricks": 13, "diamonds": 13}


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        # the dual says two without the digit; 3-10 take the plural, 11-99 the singular
        ("ar", ("مملكتان", "طلبتان", "10 جولات", "26 جولة")),
        ("ru", ("2 королевства", "2 контракта", "10 сдач", "26 сдач", "3 сдачи")),
    ],
)
def test_an_outline_takes_each_languages_plural_forms(
    monkeypatch: pytest.MonkeyPatch, language: str, expected: tuple[str, ...]
) -> None:
    # a game's length follows its definition: 2 kingdoms of 5 contracts, 13 of 2
    monkeypatch.setitem(GAMES, TRIX, dataclasses.replace(GAMES[TRIX], kingdoms=2))
    monkeypatch.setitem(GAMES, TRIX_COMPLEX, dataclasses.replace(GAMES[TRIX_COMPLEX], kingdoms=13))
    kingdoms, contracts, ten, twenty_six, *three = expected
    trix, trix_complex = outline(TRIX, language), outline(TRIX_COMPLEX, language)
    assert kingdoms in trix and ten in trix
    assert contracts in trix_complex and twenty_six in trix_complex
    if language == "ar":
        assert "2" not in trix and "2 " not in trix_complex
    if three:  # one kingdom of three contracts: Russian's form for 2 to 4
        monkeypatch.setitem(
            GAMES, TRIX, dataclasses.replace(GAMES[TRIX], kingdoms=1, contracts=("a", "b", "c"))
        )
        assert three[0] in outline(TRIX, language)


@pytest.mark.parametrize(
    ("language", "pieces"),
    [
        ("ar", ("13 لطشةً", "4 بنات", "8 شيوخ وشباب", "13 ورقة كبة")),
        ("ru", ("13 взяток", "4 дамы", "8 королей и валетов", "13 червей")),
        ("tr", ("13 el", "4 kız", "8 papaz ve oğlan", "13 kupa")),
        ("hi", ("13 ट्रिक", "4 बेगम", "8 बादशाह और गुलाम", "पान के 13 पत्ते")),
    ],
)
def test_the_counts_in_every_language(language: str, pieces: tuple[str, ...]) -> None:
    catalogue = words(language)
    text = counts_add_up(TURKISH_KING, HouseRules(), catalogue.gettext, catalogue.ngettext)
    assert all(piece in text for piece in pieces), text
    assert "%(" not in text and "Counts add up" not in text


def test_a_changed_definition_changes_the_setup_and_the_rules_pages(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = unescape(client.get("/new").get_data(as_text=True))
    assert "Trix: 4 kingdoms of 5 contracts, 20 deals." in before
    assert "Turkish King: 20 hands, solo only." in before
    monkeypatch.setitem(GAMES, TRIX, dataclasses.replace(GAMES[TRIX], kingdoms=1))
    monkeypatch.setattr(game_definitions, "NEGATIVES_PER_PLAYER", 4)  # 4 × (2 + 4) hands
    hearts = CONTRACTS["no-hearts"]
    (counts,) = hearts.fields
    twelve = FieldSpec(counts.name, counts.kind, maximum=12, total=12, unit=counts.unit)
    monkeypatch.setitem(CONTRACTS, "no-hearts", dataclasses.replace(hearts, fields=(twelve,)))
    after = unescape(client.get("/new").get_data(as_text=True))
    assert "Trix: 1 kingdom of 5 contracts, 5 deals." in after
    assert "Turkish King: 24 hands, solo only." in after
    rules = unescape(client.get("/rules/turkish-king").get_data(as_text=True))
    assert "Counts add up: 13 tricks, 4 queens, 8 kings and jacks, 12 hearts;" in rules
    arabic = client.get("/new", headers={"Accept-Language": "ar"}).get_data(as_text=True)
    assert "مملكة واحدة" in arabic and "24 يدًا" in arabic


def test_the_trix_checks_show_the_contracts_totals(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = unescape(client.get("/rules/trix").get_data(as_text=True))
    assert "Diamonds add up to 13 and tricks add up to 13;" in before
    diamonds = CONTRACTS["diamonds"]
    (counts,) = diamonds.fields
    twelve = FieldSpec(counts.name, counts.kind, maximum=12, total=12, unit=counts.unit)
    monkeypatch.setitem(CONTRACTS, "diamonds", dataclasses.replace(diamonds, fields=(twelve,)))
    after = unescape(client.get("/rules/trix").get_data(as_text=True))
    assert "Diamonds add up to 12 and tricks add up to 13;" in after
    russian = client.get("/rules/trix", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Бубен в сумме 12 и взяток 13" in russian


def test_no_count_of_the_rules_is_typed_in_the_checks() -> None:
    for words in CONTRACT_WORDS.values():
        ruled = [ruled.checks or () for ruled in words.ruled.values()]
        for texts in (words.checks, *ruled):
            for text in texts:
                assert "13" not in text, text


def test_no_count_of_the_rules_is_typed_in_the_setup_and_rules_templates() -> None:
    templates = Path(__file__).resolve().parents[2] / "templates"
    for name in ("partials/setup.html", "pages/rules.html"):
        text = (templates / name).read_text(encoding="utf-8")
        for typed in ("20 deals", "20 hands", "4 kingdoms", "13 tricks", "13 hearts", "4 queens"):
            assert typed not in text, (name, typed)
    macros = (templates / "partials" / "macros.html").read_text(encoding="utf-8")
    assert "of 4" not in macros  # the kingdoms of a game are its definition's
