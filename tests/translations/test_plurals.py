"""Counted messages in every language, and the words players use (issue 12).

Every message whose words follow a number goes through ngettext, the engine's refusals included
(``Counted`` templates rendered with the reader's plural rules). Each is rendered at 0, 1, 2, 3,
11 and 100 (and Russian's 5, 21, 22) in every language and must pick the form that language uses
for that number: Arabic's six (2 is the dual, 3–10 the plural, 11–99 the singular), Turkish's
one, English's two, Russian's three, Hindi's two. And the catalogues keep the table's words:
Turkish "el" is a trick, never a deal; "Latuş" is said as written; Arabic names kings and jacks.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po
from babel.support import Translations

from scorekeeper.rules import Problem
from scorekeeper.rules.messages import PIECES, TEMPLATES, UNITS, Counted
from scorekeeper.web.languages import DEFAULT_LANGUAGE, LANGUAGES
from tests.translations.catalogues import TRANSLATED, TRANSLATIONS, form_of, plural_rule

COUNTS = (0, 1, 2, 3, 11, 100)

# Which of the catalogue's forms each count takes, as each table says it (CLDR's rules as gettext
# writes them; Turkish and Hindi as GLOSSARY.md chose). The tests below follow `plural_rule`
# for every language of LANGUAGES; this table checks that rule where it was written down.
FORM_OF: dict[str, dict[int, int]] = {
    "en": {0: 1, 1: 0, 2: 1, 3: 1, 11: 1, 100: 1},
    "ar": {0: 0, 1: 1, 2: 2, 3: 3, 11: 4, 100: 5},
    "tr": {0: 0, 1: 0, 2: 0, 3: 0, 11: 0, 100: 0},
    "ru": {0: 2, 1: 0, 2: 1, 3: 1, 11: 2, 100: 2, 5: 2, 21: 0, 22: 1},
    "hi": {0: 1, 1: 0, 2: 1, 3: 1, 11: 1, 100: 1},
}
FORMS = {"en": 2, "ar": 6, "tr": 1, "ru": 3, "hi": 2}

# sample values for the other parameters: no 2 among them, so a dual form is seen to drop it
OTHER_PARAMS: dict[str, Any] = {
    "total": 7,
    "expected": 13,
    "maximum": 40,
    "cards": 9,
    "tricks": 1,
    "unit": "diamonds",
}


def compiled(language: str) -> Translations:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        return Translations(handle)


def catalog(language: str):  # type: ignore[no-untyped-def]
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=language)


def template_plurals() -> list[tuple[str, str]]:
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        return [message.id for message in read_po(handle) if isinstance(message.id, tuple)]


def engine_counted() -> list[tuple[str, Counted]]:
    """(message id, counted template) of every engine refusal whose words follow a number."""
    return [
        (code, template) for code, template in TEMPLATES.items() if isinstance(template, Counted)
    ]


def forms_of(language: str, ids: tuple[str, str]) -> tuple[str, ...]:
    if language == DEFAULT_LANGUAGE:
        return ids
    message = catalog(language).get(ids[0])
    assert message is not None and message.id == ids, (language, ids)
    return tuple(message.string)


# --- every counted message, every language ---------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogues_have_each_languages_number_of_forms(language: str) -> None:
    assert catalog(language).num_plurals == plural_rule(language)[0], language


@pytest.mark.parametrize("language", FORM_OF)
def test_the_plural_rules_give_the_forms_each_table_uses(language: str) -> None:
    assert plural_rule(language)[0] == FORMS[language]
    for count, form in FORM_OF[language].items():
        assert form_of(language, count) == form, (language, count)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_count_picks_its_languages_form(language: str) -> None:
    words = compiled(language)
    plurals = template_plurals()
    assert len(plurals) >= 19  # the engine's refusals, their units and the pages' counts
    for ids in plurals:
        forms = forms_of(language, ids)
        assert len(forms) == plural_rule(language)[0] and all(forms), (language, ids)
        for count in (*COUNTS, 5, 21, 22):
            assert words.ngettext(*ids, count) == forms[form_of(language, count)], (
                language,
                ids,
                count,
            )


def render(problem: Problem, language: str) -> str:
    words = compiled(language)
    return problem.render(words.gettext, field_label="F", translate_plural=words.ngettext)


def engine_samples() -> list[tuple[str, str, int, Problem]]:
    """(code, counted parameter, count, problem) for every counted refusal, unit and piece."""
    samples = []
    for code, template in engine_counted():
        names = {template.count, *PIECES.get(code, {})}
        units: list[str | None] = list(UNITS) if code == "sum_mismatch" else [None]
        for name in sorted(names):
            for unit in units:
                for count in (*COUNTS, 5, 21, 22):
                    params = {
                        key: value
                        for key, value in OTHER_PARAMS.items()
                        if "{" + key + "}" in template.plural or key in PIECES.get(code, {})
                    }
                    if unit is not None:
                        params["unit"] = unit
                    params[name] = count
                    samples.append((code, name, count, Problem("x", code, params)))
    return samples


def test_every_engine_refusal_with_a_count_is_counted() -> None:
    # a number placeholder followed by a plural noun in a plain template is a message that
    # cannot agree with its number ("1 tricks")
    number = re.compile(r"\{(expected|maximum|total|cards|tricks|count)\} (\w+ )?\w+s\b")
    plain = [
        template
        for template in TEMPLATES.values()
        if isinstance(template, str) and number.search(template)
    ]
    assert not plain
    assert {code for code, _ in engine_counted()} >= {
        "sum_mismatch",
        "wrong_length",
        "long_name",
        "cards_exceed_tricks",
    }
    assert all(isinstance(unit, Counted) for unit in UNITS.values())


def test_no_page_message_counts_without_ngettext() -> None:
    with (TRANSLATIONS / "messages.pot").open("rb") as handle:
        singles = [message.id for message in read_po(handle) if isinstance(message.id, str)]
    counted = re.compile(r"%\(\w+\)d (?:\w+ )?(\w+s)\b")
    not_nouns = {"was", "is", "has", "this", "its", "as"}
    assert not [
        text for text in singles if any(word not in not_nouns for word in counted.findall(text))
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_engine_refusals_render_with_the_right_form(language: str) -> None:
    rendered: dict[tuple[str, str, str], dict[int, str]] = {}
    for code, name, count, problem in engine_samples():
        text = render(problem, language)
        assert "{" not in text and "%(" not in text, (language, code, text)
        key = (code, name, str(problem.params.get("unit")))
        rendered.setdefault(key, {})[count] = text
    for (code, name, unit), by_count in rendered.items():
        where = (language, code, name, unit)
        if language == "en":
            assert by_count[1] != by_count[2], where
        if language == "ar":
            assert by_count[3] != by_count[11], where
            assert by_count[2] != by_count[3] and by_count[1] != by_count[2], where
            assert not re.search(r"(?<!\d)2(?!\d)", by_count[2]), (where, by_count[2])
        if language == "ru":
            assert len({by_count[1], by_count[2], by_count[5]}) == 3, where
            assert by_count[21] == by_count[1].replace("1", "21", 1) or "21" in by_count[21]
        if language == "tr":
            # one form: the number changes, the words do not
            assert by_count[3].replace("3", "#") == by_count[11].replace("11", "#"), where


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, "F: 9 cards cannot fit in 1 trick (at most 4 cards a trick)"),
        (2, "F: 9 cards cannot fit in 2 tricks (at most 4 cards a trick)"),
    ],
)
def test_the_english_refusal_says_1_trick(count: int, expected: str) -> None:
    problem = Problem("x", "cards_exceed_tricks", {"cards": 9, "tricks": count})
    assert render(problem, "en") == expected
    assert problem.render(field_label="F") == expected  # the CLI's English, no catalogue


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("ar", 2, "F: 9 أوراق أكثر مما تتسع له لطشتان (4 أوراق على الأكثر في اللطشة)"),
        ("ar", 11, "F: 9 أوراق أكثر مما تتسع له 11 لطشةً (4 أوراق على الأكثر في اللطشة)"),
        ("ru", 1, "F: 9 карт — больше, чем вмещает 1 взятка (во взятке не больше 4 карт)"),
        ("ru", 2, "F: 9 карт — больше, чем вмещают 2 взятки (во взятке не больше 4 карт)"),
    ],
)
def test_a_refusal_counting_two_things(language: str, count: int, expected: str) -> None:
    problem = Problem("x", "cards_exceed_tricks", {"cards": 9, "tricks": count})
    assert render(problem, language) == expected


def test_the_kingdom_of_two_contracts_uses_the_dual() -> None:
    # "في كل مملكة 2 طلبات" (issue 12): Trix Complex's two contracts a kingdom are a dual
    words = compiled("ar")
    assert words.ngettext("%(num)d contract", "%(num)d contracts", 2) % {"num": 2} == "طلبتان"
    assert words.ngettext("%(num)d contract", "%(num)d contracts", 5) % {"num": 5} == "5 طلبات"


# --- words as players say them ---------------------------------------------------------------

DEAL = re.compile(r"\b(deals?|hands?)\b", re.IGNORECASE)
DEAL_AS_A_VERB = {
    "Deals: %(name)s",
    "The king chooses the order of the contracts, and each is played exactly once in the "
    "kingdom. The king deals and leads.",
    "What the app enforces. It records what the table took: it does not deal or play cards, so "
    "the rules of play below are help only.",
}


def strings(language: str) -> dict[str, tuple[str, ...]]:
    table = {}
    for message in catalog(language):
        if message.id:
            key = message.id if isinstance(message.id, str) else message.id[0]
            table[key] = (
                (message.string,) if isinstance(message.string, str) else tuple(message.string)
            )
    return table


def test_turkish_says_tur_for_a_deal_and_keeps_el_for_a_trick() -> None:
    turkish = strings("tr")
    deal_messages = [
        key
        for key in turkish
        if DEAL.search(re.sub(r"%\(\w+\)[sd]", "", key)) and key not in DEAL_AS_A_VERB
    ]
    assert len(deal_messages) >= 25
    for key in deal_messages:
        for text in turkish[key]:
            assert re.search(r"\btur", text, re.IGNORECASE), (key, text)
            if not re.search(r"trick", key, re.IGNORECASE):
                assert not re.search(r"\bel\w*", text, re.IGNORECASE), (key, text)
    for key in ("Trick 12", "Tricks", "trick", "No Tricks", "Last two tricks"):
        assert re.search(r"\bel", turkish[key][0], re.IGNORECASE), key
    assert turkish["No deals yet."] == ("Henüz tur yok.",)
    assert turkish["Deal %(n)d of %(total)d"] == ("Tur %(n)d / %(total)d",)


def test_ltoosh_is_sayable_in_turkish() -> None:
    turkish = strings("tr")
    assert turkish["Ltoosh"] == ("Latuş",)
    for key, texts in turkish.items():
        for text in texts:
            assert "Ltoş" not in text, key
            if "Ltoosh" in key:
                assert "Latuş" in text, key


def test_arabic_no_boys_names_kings_and_jacks() -> None:
    arabic = strings("ar")
    assert arabic["No Boys"] == ("بلا شيوخ ولا شباب",)
    for key, texts in arabic.items():
        for text in texts:
            assert "بلا شباب" not in text, key


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_deal_and_a_trick_are_different_words_everywhere(language: str) -> None:
    table = strings(language)
    deal = set(table["Deal %(n)d"][0].lower().split()) - {"%(n)d"}
    for key in ("Trick 12", "Tricks", "trick"):
        trick = {word.strip(".") for word in table[key][0].lower().split()} - {"12", "12."}
        assert not deal & trick, (language, key, deal, trick)
