"""Sentences about a named player fit any player, a woman as well as a man (issue 44, item 7):
Arabic, Russian and Hindi give verbs, pronouns and adjectives a gender, and «ليلى هو الملك»
spoke of Layla in the masculine. A sentence whose subject is a player's name says it with
words that do not agree with the player: the kingdom, the turn, the name («مملكة ليلى»,
«الاسم ليلى», «का नाम»), or a passive that agrees with the contract. And «ديناري», a masculine
noun, takes a feminine adjective only as «ورقة ديناري» (a card of diamonds, seed 002:18).

The words that spoke of a man are listed here, each with its message: the compiled catalogues
the pages read must no longer say them."""

from __future__ import annotations

import re

import pytest

from scorekeeper.words.catalogue import read_catalogue
from tests.translations.test_seed_words import _strings

MASCULINE: list[tuple[str, str, str]] = [
    # (language, message, a word that spoke of the player as a man)
    ("ar", "%(name)s is king and chooses", "هو الملك"),
    ("ar", "%(name)s is king and chooses", "يختار"),
    ("ar", "King: %(name)s", "الملك"),
    ("ar", "%(name)s declares", "يعلن"),
    ("ar", "Declarer: %(name)s", "المُعلِن"),
    ("ar", "Deals: %(name)s", "يوزّع"),
    ("ar", "Leads: %(name)s", "يبدأ"),
    ("ar", "%(name)s has declared both trumps and must choose a negative contract.", "فعليه"),
    ("ar", "%(name)s has declared three negatives and must choose trump.", "أعلن %(name)s"),
    ("ar", "%(name)s is already on the roster. If they are the same person, merge them.", "موجود"),
    ("ar", "%(name)s joined this table a moment ago; pick them from the roster.", "انضمّ"),
    ("ar", "%(first)s and %(second)s played in the same game: they are two people.", "لعب "),
    ("ar", "Who else is %(name)s?", "من هو"),
    ("ar", "{field}: {name} is placed twice", "موضوع"),
    (
        "ar",
        "Finishing order: 1st %(first)s, 2nd %(second)s, 3rd %(third)s, 4th %(fourth)s",
        "، الثاني %(second)s",
    ),
    ("ar", "That player is king of the first kingdom and chooses the first contract.", "يختار"),
    ("ar", "three negatives declared", "أعلن "),
    ("ar", "two trumps declared", "أعلن "),
    # the rivals' columns: the row's player and the rival named in the cell
    ("ar", "Finishes ahead of most often", "عليه"),
    ("ar", "Finishes behind most often", "عنه"),
    ("ru", "%(name)s joined this table a moment ago; pick them from the roster.", "появился"),
    ("ru", "Finishing order: 1st %(first)s, 2nd %(second)s, 3rd %(third)s, 4th %(fourth)s", "1-й"),
    ("ru", "Declarer", "Заказывал"),
    ("hi", "%(name)s is king and chooses", "राजा"),
    ("hi", "King: %(name)s", "राजा"),
    ("hi", "Declarer: %(name)s", "वाला"),
    ("hi", "Declarer", "वाला"),
    ("hi", "%(name)s already has a seat.", "बैठे"),
    ("hi", "%(name)s joined this table a moment ago; pick them from the roster.", "जुड़े हैं"),
    ("hi", "%(first)s and %(second)s played in the same game: they are two people.", "खेले"),
    ("hi", "Merged: every game now shows %(name)s.", "%(name)s दिखता"),
    ("hi", "Finishing order: 1st %(first)s, 2nd %(second)s, 3rd %(third)s, 4th %(fourth)s", "पहला"),
    ("hi", "That player is king of the first kingdom and chooses the first contract.", "चुनता"),
    ("hi", "Played here before: tap a name to seat them in the next empty place.", "बैठेगा"),
]
COUNTED: list[tuple[str, str, str, str]] = [
    # (language, singular, plural, a word that spoke of the player as a man)
    (
        "ar",
        "%(num)d game of %(first)s will show %(second)s instead, and %(first)s leaves the list "
        "of players.",
        "%(num)d games of %(first)s will show %(second)s instead, and %(first)s leaves the list "
        "of players.",
        "ويخرج %(first)s",
    ),
    (
        "ar",
        "%(first)s and %(second)s played in the same game (%(num)d game): they are two people "
        "and cannot be merged.",
        "%(first)s and %(second)s played in the same games (%(num)d games): they are two people "
        "and cannot be merged.",
        "لعب ",
    ),
    (
        "hi",
        "%(num)d game of %(first)s will show %(second)s instead, and %(first)s leaves the list "
        "of players.",
        "%(num)d games of %(first)s will show %(second)s instead, and %(first)s leaves the list "
        "of players.",
        "%(first)s खिलाड़ियों",
    ),
    (
        "hi",
        "%(first)s and %(second)s played in the same game (%(num)d game): they are two people "
        "and cannot be merged.",
        "%(first)s and %(second)s played in the same games (%(num)d games): they are two people "
        "and cannot be merged.",
        "खेले",
    ),
]


@pytest.mark.parametrize(("language", "message", "masculine"), MASCULINE)
def test_a_sentence_about_a_player_fits_any_player(
    language: str, message: str, masculine: str
) -> None:
    translated = read_catalogue(language).gettext(message)
    assert translated != message, (language, message)  # translated at all
    assert masculine not in translated, (language, translated)


@pytest.mark.parametrize(("language", "singular", "plural", "masculine"), COUNTED)
def test_a_counted_sentence_about_a_player_fits_any_player(
    language: str, singular: str, plural: str, masculine: str
) -> None:
    catalogue = read_catalogue(language)
    for count in (0, 1, 2, 3, 11, 100):
        translated = catalogue.ngettext(singular, plural, count)
        assert translated not in (singular, plural), (language, count)
        assert masculine not in translated, (language, count, translated)


def test_no_arabic_sentence_calls_a_named_player_he() -> None:
    named = re.compile(r"%\((name|first|second)\)s|\{name\}")
    he = re.compile(r"(^|\s)(هو|فعليه|عليه)(\s|$)")
    assert [text for key, text in _strings("ar") if named.search(key) and he.search(text)] == []


def test_a_diamond_taken_agrees_in_arabic() -> None:
    """«−10 لكل ديناري مأخوذة»: ديناري is masculine; the card taken is «ورقة ديناري»."""
    diamond = read_catalogue("ar").gettext("%(score)s for each diamond taken")
    assert diamond == "%(score)s لكل ورقة ديناري مأخوذة"
    disagreeing = re.compile(r"(?<!ورقة )ديناري (مأخوذة|واحدة)")
    assert [text for _, text in _strings("ar") if disagreeing.search(text)] == []


def test_who_doubled_is_asked_not_told_in_arabic() -> None:
    """«دبّلها: ليلى» told of Layla in the masculine; a question fits any player, as «من أكل
    شيخ الكبة» beside it does."""
    assert read_catalogue("ar").gettext("Doubled by") == "من دبّلها"
