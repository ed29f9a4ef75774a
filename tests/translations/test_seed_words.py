"""The catalogues against the game texts (issue 30): no page names a game the texts do not, the
game is Turkish King, Turkish writes Kompleks as one word, every language's catalogue is
complete, and GLOSSARY.md cites the file and line of every word it takes from a text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.words.contracts import CONTRACT_WORDS

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
GLOSSARY = TRANSLATIONS / "GLOSSARY.md"
DOCS = ROOT / "docs" / "translations.md"
CARD_LABELS = {
    # Russian decks print Т К Д В (003:15 «Король червей», 003:17 «дамы»)
    "ru": {"Q♠": "Д♠", "K♥": "К♥"},
    # 000:8 «بنات», 000:13 «شيخ الكبة»
    "ar": {"Q♠": "بنت ♠", "K♥": "شيخ ♥"},
    # 004:5 writes the cards as letters, «A K Q J 10 9 8 7 6 5 4 3 2», as Indian decks print them
    "hi": {"Q♠": "Q♠", "K♥": "K♥"},
}
"""A card's label on every form and in the history, per language (issue 44, item 9)."""
A_WORD_ON_A_CARD = re.compile(r"(इक्का|बादशाह|बेगम|गुलाम|किंग|क्वीन|जैक|राजा)\s?[♠♥♦♣]")
"""A Hindi card's name where a card's label stands (Hindi's words and seed 004's)."""


def _strings(language: str) -> list[tuple[str, str]]:
    """(msgid, one translated form) for every entry of a language's catalogue."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(key, form) for form in forms]
    return found


@pytest.mark.parametrize(
    ("language", "other_game"),
    [
        # «Кинг» is Russian King, a game of its own (its own contracts and scoring)
        ("ru", re.compile(r"[Кк]инг")),
        # alone, «किंग» is not this game: seed 004 says «टर्किश किंग» (and «नो किंग», a contract)
        ("hi", re.compile(r"(?<!टर्किश )(?<!नो )किंग")),
        # Sevens is not «सात-आठ» (a different game); the Trix help names no other game so
        ("hi", re.compile(r"सात-आठ")),
    ],
)
def test_no_message_names_a_game_the_texts_do_not(
    language: str, other_game: re.Pattern[str]
) -> None:
    named = [(key, text) for key, text in _strings(language) if other_game.search(text)]
    assert named == []


@pytest.mark.parametrize(
    ("language", "name"), [("ru", "Turkish King"), ("hi", "टर्किश किंग"), ("ar", "الكينغ التركي")]
)
def test_the_game_is_turkish_king(language: str, name: str) -> None:
    # seed 003 line 1 writes "Turkish King" in Latin letters; seed 004 line 3 «टर्किश किंग»
    assert dict(_strings(language))["Turkish King"] == name


def test_turkish_writes_kompleks_as_one_word() -> None:
    mixed = [(key, text) for key, text in _strings("tr") if "Complex" in text]
    assert mixed == []


def test_the_english_catalogue_holds_every_message() -> None:
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        template = {(m.context, str(m.id)) for m in read_po(handle) if m.id}
    with (TRANSLATIONS / "en" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        english = {(m.context, str(m.id)) for m in read_po(handle, locale="en") if m.id}
    assert sorted(template - english, key=str) == []


def test_the_glossary_cites_every_name_it_takes_from_a_text() -> None:
    glossary = GLOSSARY.read_text(encoding="utf-8")
    assert "not checked" not in glossary and "not in this session's reach" not in glossary
    for contract, words in CONTRACT_WORDS.items():
        for text in words.texts:
            cited = re.search(
                rf"«{re.escape(text.name)}»[^|\n]*\b{re.escape(text.source)}\b", glossary
            )
            assert cited, (contract, text.name, text.source)


@pytest.mark.parametrize("language", sorted(CARD_LABELS))
def test_the_card_labels_are_the_ones_the_docs_and_the_glossary_give(language: str) -> None:
    """docs/translations.md said Hindi forms show «बेगम ♠», GLOSSARY.md that Hindi keeps the
    letters, the forms showed Q♠: seed 004 decides (its cards are letters), and all three say it."""
    strings = dict(_strings(language))
    docs = DOCS.read_text(encoding="utf-8")
    glossary = GLOSSARY.read_text(encoding="utf-8")
    for card, label in CARD_LABELS[language].items():
        assert strings[card] == label, (language, card, strings[card])
        assert label in docs, (language, label)
        assert label in glossary, (language, label)
    if language == "hi":
        for where, text in (("docs", docs), ("glossary", glossary)):
            assert not A_WORD_ON_A_CARD.findall(text), (where, A_WORD_ON_A_CARD.findall(text))
        assert [text for _, text in _strings("hi") if A_WORD_ON_A_CARD.search(text)] == []
