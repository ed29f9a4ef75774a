"""Every language of the app (``LANGUAGES``): its catalogue complete, compiled, faithful to its
placeholders, with its readers' plural forms; then the words each table chose.

The checks are ``tests/translations/catalogues.py``'s; ``test_catalogues.py`` shows them failing
on a new language with an empty or a partial catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper.rules.messages import PIECES, REASONS, TEMPLATES, UNITS, Counted
from scorekeeper.web.languages import LANGUAGES, direction
from tests.translations.catalogues import (
    EXTRACT,
    TRANSLATED,
    TRANSLATIONS,
    catalogue_folders,
    lost_placeholders,
    stale_compiled,
    untranslated,
    wrong_plurals,
)


def _catalog(path: Path, locale: str | None = None):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _template_ids() -> set[str]:
    return {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in _catalog(TRANSLATIONS / "messages.pot")
        if message.id
    }


def _po(locale: str):  # type: ignore[no-untyped-def]
    return _catalog(TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po", locale)


def test_every_language_has_a_catalogue_and_every_catalogue_a_language() -> None:
    # a catalogue no reader can choose is dead weight; a language without one shows English
    assert catalogue_folders(TRANSLATIONS) == set(LANGUAGES)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_message_is_translated(locale: str) -> None:
    problems = untranslated(TRANSLATIONS, locale)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", TRANSLATED)
def test_placeholders_survive_translation(locale: str) -> None:
    problems = lost_placeholders(TRANSLATIONS, locale)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_plural_form_is_written(locale: str) -> None:
    problems = wrong_plurals(TRANSLATIONS, locale)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("locale", "form_of"),
    [
        ("ru", {1: 0, 21: 0, 2: 1, 4: 1, 22: 1, 0: 2, 5: 2, 11: 2, 12: 2, 111: 2}),
        ("hi", {1: 0, 0: 1, 2: 1, 13: 1}),
    ],
)
def test_plural_forms_follow_the_language(locale: str, form_of: dict[int, int]) -> None:
    # The compiled header picks the form: Russian 1/21 строку, 2/22 строки, 5/11 строк.
    from babel.support import Translations

    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        compiled = Translations(handle)
    forms = next(
        message.string
        for message in _po(locale)
        if message.id == ("%(num)d value left to tap.", "%(num)d values left to tap.")
    )
    for count, form in form_of.items():
        assert (
            compiled.ngettext("%(num)d value left to tap.", "%(num)d values left to tap.", count)
            == forms[form]
        ), (locale, count)


@pytest.mark.parametrize("locale", ("ru", "hi"))
def test_a_deal_and_a_trick_are_different_words(locale: str) -> None:
    # Turkish King players name a deal (hand) and a trick differently; so must the catalogue.
    strings = {message.id: message.string for message in _po(locale) if message.id}
    deal, trick = (set(strings[key].lower().split()) for key in ("Deal %(n)d", "Trick 12"))
    assert not (deal & trick) - {"%(n)d", "12"}, (
        locale,
        strings["Deal %(n)d"],
        strings["Trick 12"],
    )


@pytest.mark.parametrize("locale", LANGUAGES)
def test_compiled_catalogues_match_their_sources(locale: str) -> None:
    problems = stale_compiled(TRANSLATIONS, locale)
    assert not problems, "\n".join(problems)


def test_engine_messages_are_in_the_catalogue() -> None:
    ids = _template_ids()
    plurals = {
        message.id
        for message in _catalog(TRANSLATIONS / "messages.pot")
        if isinstance(message.id, tuple)
    }
    pieces = [piece for table in PIECES.values() for piece in table.values()]
    for table in (list(TEMPLATES.values()), list(REASONS.values()), list(UNITS.values()), pieces):
        missing = sorted(
            str(value)
            for value in table
            if (isinstance(value, Counted) and (value.singular, value.plural) not in plurals)
            or (isinstance(value, str) and value not in ids)
        )
        assert not missing, f"run `{EXTRACT}`; missing: {missing}"


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("ar", ('lang="ar" dir="rtl"', "لعبة جديدة")),
        ("tr-TR,tr;q=0.9", ('lang="tr" dir="ltr"', "Yeni oyun")),
        ("en-GB", ('lang="en" dir="ltr"', "New game")),
        ("ru-RU,ru;q=0.9,en;q=0.5", ('lang="ru" dir="ltr"', "Новая партия")),
        ("hi-IN,hi;q=0.9", ('lang="hi" dir="ltr"', "नया खेल")),
    ],
)
def test_pages_speak_the_browsers_language(
    tmp_path: Path, accept: str, expected: tuple[str, str]
) -> None:
    from scorekeeper import create_app

    app = create_app(
        {
            "INSTANCE_PATH": str(tmp_path),
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/t.sqlite",
        }
    )
    with app.app_context():
        from scorekeeper.store.db import db

        db.create_all()
    page = app.test_client().get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    for text in expected:
        assert text in page


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_language_is_served_in_its_own_words(tmp_path: Path, locale: str) -> None:
    # a browser asking for the language gets the page in it, the right way round, with the
    # words of its compiled catalogue (not English, unless it is English)
    from babel.support import Translations

    from scorekeeper import create_app

    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        words = Translations(handle)
    new_game = words.gettext("New game")
    assert locale == "en" or new_game != "New game", f"{locale}: 'New game' is not translated"
    app = create_app(
        {
            "INSTANCE_PATH": str(tmp_path),
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/t.sqlite",
        }
    )
    with app.app_context():
        from scorekeeper.store.db import db

        db.create_all()
    page = app.test_client().get("/", headers={"Accept-Language": locale}).get_data(as_text=True)
    assert f'lang="{locale}" dir="{direction(locale)}"' in page
    assert new_game in page


# --- the seeds' own words (issue 22): each choice and its source is in GLOSSARY.md -----------


def _strings(locale: str, context: str | None = None) -> dict[str, tuple[str, ...]]:
    """msgid (a plural's singular) → its translated forms, in `context` (None: no context)."""
    return {
        (message.id if isinstance(message.id, str) else message.id[0]): (
            (message.string,) if isinstance(message.string, str) else tuple(message.string)
        )
        for message in _po(locale)
        if message.id and message.context == context
    }


def test_hindi_says_trick_for_a_trick_and_hath_never() -> None:
    # Seed 004 plays "कुल मिलाकर 20 हाथ" (20 deals) and says "कोई ट्रिक नहीं": हाथ for a trick
    # reads as a deal there, so it is gone; a trick is ट्रिक
    hindi = _strings("hi")
    for key, texts in hindi.items():
        for text in texts:
            assert "हाथ" not in text, (key, text)
            if re.search(r"\btricks?\b", key, re.IGNORECASE) and "{trick}" not in key:
                assert "ट्रिक" in text, (key, text)
    assert hindi["No Tricks"] == ("कोई ट्रिक नहीं",)
    assert hindi["Trick 12"] == ("12वीं ट्रिक",)


def test_hindi_trix_cannot_read_as_tricks() -> None:
    hindi = _strings("hi")
    assert hindi["Trix"] == ("तरिक्स",)
    for key, texts in hindi.items():
        for text in texts:
            assert "ट्रिक्स" not in text, (key, text)
            if re.search(r"\bTrix\b", key):
                assert "तरिक्स" in text, (key, text)


def test_hindi_turkish_king_contracts_in_everyday_card_names() -> None:
    # the app names them with the cards' Hindi names (पान, बेगम, बादशाह); seed 004's own names
    # («नो किंग», «कोई दिल नहीं», …) stand beside them on the rules page and the contract choice
    hindi = _strings("hi")
    names = {
        "No King of Hearts": "पान का बादशाह नहीं",
        "No Queens": "कोई बेगम नहीं",
        "No Boys": "कोई बादशाह-गुलाम नहीं",
        "No Hearts": "कोई पान नहीं",
        "No Last Two": "आख़िरी दो ट्रिक नहीं",
        "No Tricks": "कोई ट्रिक नहीं",
    }
    for key, name in names.items():
        assert hindi[key] == (name,), key
    assert not any("नहीं लेना" in text for texts in hindi.values() for text in texts)


def test_hindi_refusals_end_with_the_danda() -> None:
    from babel.support import Translations

    from scorekeeper.rules import Problem
    from scorekeeper.words.labels import problem_text

    with (TRANSLATIONS / "hi" / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        hindi = Translations(handle)
    problems = [
        Problem("counts", "sum_mismatch", {"total": 12, "expected": 13, "unit": "diamonds"}),
        Problem("tricks[1]", "no_tricks_no_cards", {}),
        Problem("contract", "game_finished", {}),
    ]
    for problem in problems:
        text = problem_text(
            problem,
            "diamonds",
            ("A", "B", "C", "D"),
            hindi.gettext,
            translate_plural=hindi.ngettext,
        )
        assert text.endswith("।") and not text.endswith(".।"), text
    english = problem_text(problems[0], "diamonds", ("A", "B", "C", "D"))
    assert english == "Diamonds add up to 12; there are 13 diamonds."


def test_arabic_a_contract_is_a_talba() -> None:
    # Seeds 000 and 002 say «طلبة» / «طلبات» for what the king chooses, never «عقد»
    arabic = _strings("ar")
    contract = re.compile(r"عقو?د")
    for context in (None, "turkish-king"):
        for key, texts in _strings("ar", context).items():
            for text in texts:
                assert not contract.search(text), (key, text)
    assert arabic["Contract"] == ("الطلبة",)
    assert arabic["%(num)d contract"][2] == "طلبتان"


def test_arabic_joins_a_team_with_an_attached_wa() -> None:
    from scorekeeper.words.labels import team_label

    arabic = _strings("ar")
    assert arabic["{first} & {second}"] == ("{first} و{second}",)
    translate = dict(zip(arabic, (texts[0] for texts in arabic.values()), strict=True)).get
    assert (
        team_label(("سامي", "رامي", "لينا", "دانة"), 0, lambda text: translate(text) or text)
        == "سامي ولينا"
    )


def test_arabic_finished_games_take_their_plural() -> None:
    forms = _strings("ar")["%(num)d finished"]
    assert forms[3] == "%(num)d منتهيات"  # «3 منتهيات», not «3 منتهية»
    assert len(set(forms)) >= 5


def test_arabic_turkish_king_says_yad_for_a_hand() -> None:
    # The glossary chose يد for Turkish King's hand: its pages never say جولة
    from scorekeeper.words.labels import HAND_MESSAGES

    hand = _strings("ar", "turkish-king")
    assert set(hand) == HAND_MESSAGES
    for key, texts in hand.items():
        for text in texts:
            assert "جول" not in text, (key, text)
            if "deal" in key.lower() and "deals" not in key.lower():
                assert "يد" in text, (key, text)
    plain = _strings("ar")
    turkish_only = [
        key for key in plain if re.search(r"\bhands?\b|declarer", key) and "Trix" not in key
    ]
    assert len(turkish_only) >= 3
    for key in turkish_only:
        for text in plain[key]:
            assert "جول" not in text, (key, text)


def test_russian_everyday_names_stay_beside_seed_003s() -> None:
    # the app's names are Russian tables' «Не брать …»; seed 003's «Без …» stand beside them
    # (words/contracts.py, tests/web/test_seed_names.py), never «Кинг» (Russian King's word)
    russian = _strings("ru")
    assert russian["No Hearts"] == ("Не брать червей",)
    assert russian["No King of Hearts"] == ("Не брать короля червей",)


def test_no_table_is_told_to_look_for_the_two_of_diamonds() -> None:
    # "often the player holding the 2♦" is in no seed (docs/rules.md dropped it)
    for locale in LANGUAGES:
        for key, texts in _strings(locale).items():
            assert "2♦" not in key, key
            for text in texts:
                assert "2♦" not in text, (locale, key)
