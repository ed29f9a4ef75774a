"""The Arabic, Turkish, Russian and Hindi catalogues: complete, compiled, faithful to their
placeholders, with each language's plural forms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from scorekeeper.rules.messages import PIECES, REASONS, TEMPLATES, UNITS, Counted

TRANSLATIONS = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
TRANSLATED = ("ar", "tr", "ru", "hi")
EXTRACT = ("pybabel extract -F babel.cfg -k _l -k N_ -k lazy_gettext --no-location "
           "--sort-output -o scorekeeper/translations/messages.pot . && pybabel update -i "
           "scorekeeper/translations/messages.pot -d scorekeeper/translations -N --ignore-obsolete")
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}")


def _catalog(path: Path, locale: str | None = None):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _template_ids() -> set[str]:
    return {message.id if isinstance(message.id, str) else message.id[0]
            for message in _catalog(TRANSLATIONS / "messages.pot") if message.id}


def _po(locale: str):  # type: ignore[no-untyped-def]
    return _catalog(TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po", locale)


def _translations(catalog) -> dict[object, object]:  # type: ignore[no-untyped-def]
    """msgid → msgstr for every real translation (not fuzzy, not empty, not the msgid itself)."""
    table = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        strings = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        key = message.id if isinstance(message.id, str) else tuple(message.id)
        if all(strings) and strings != (key if isinstance(key, tuple) else (key,)):
            table[key] = strings
    return table


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated(locale: str) -> None:
    catalog = _po(locale)
    entries = {message.id if isinstance(message.id, str) else message.id[0]: message
               for message in catalog if message.id}
    missing = sorted(_template_ids() - entries.keys())
    assert not missing, f"run `{EXTRACT}`; not in {locale}: {missing}"
    untranslated = []
    for key, message in entries.items():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(s.strip() for s in strings):
            untranslated.append(key)
    assert not untranslated, f"{locale}: translate (and un-fuzzy) {untranslated}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_placeholders_survive_translation(locale: str) -> None:
    for message in _po(locale):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for index, string in enumerate(strings):
            found = set(PLACEHOLDER.findall(string))
            if len(ids) == 2 and locale == "ar" and index < 3:
                # Arabic zero, one and two are whole words ("two values"): the number may go.
                assert found <= wanted, (locale, ids[0], string)
            else:
                assert found == wanted, (locale, ids[0], string)


@pytest.mark.parametrize(("locale", "forms"), [("ar", 6), ("tr", 1), ("ru", 3), ("hi", 2)])
def test_every_plural_form_is_written(locale: str, forms: int) -> None:
    catalog = _po(locale)
    assert catalog.num_plurals == forms
    plurals = [message for message in catalog if isinstance(message.id, tuple)]
    assert plurals, "the catalogue should hold at least one ngettext message"
    for message in plurals:
        assert len(message.string) == forms and all(message.string), message.id


@pytest.mark.parametrize(("locale", "form_of"), [
    ("ru", {1: 0, 21: 0, 2: 1, 4: 1, 22: 1, 0: 2, 5: 2, 11: 2, 12: 2, 111: 2}),
    ("hi", {1: 0, 0: 1, 2: 1, 13: 1}),
])
def test_plural_forms_follow_the_language(locale: str, form_of: dict[int, int]) -> None:
    # The compiled header picks the form: Russian 1/21 строку, 2/22 строки, 5/11 строк.
    from babel.support import Translations

    with (TRANSLATIONS / locale / "LC_MESSAGES" / "messages.mo").open("rb") as handle:
        compiled = Translations(handle)
    forms = next(message.string for message in _po(locale)
                 if message.id == ("%(num)d value left to tap.", "%(num)d values left to tap."))
    for count, form in form_of.items():
        assert compiled.ngettext("%(num)d value left to tap.", "%(num)d values left to tap.",
                                 count) == forms[form], (locale, count)


@pytest.mark.parametrize("locale", ("ru", "hi"))
def test_a_deal_and_a_trick_are_different_words(locale: str) -> None:
    # Turkish King players name a deal (hand) and a trick differently; so must the catalogue.
    strings = {message.id: message.string for message in _po(locale) if message.id}
    deal, trick = (set(strings[key].lower().split()) for key in ("Deal %(n)d", "Trick 12"))
    assert not (deal & trick) - {"%(n)d", "12"}, (locale, strings["Deal %(n)d"],
                                                    strings["Trick 12"])


@pytest.mark.parametrize("locale", (*TRANSLATED, "en"))
def test_compiled_catalogues_match_their_sources(locale: str) -> None:
    folder = TRANSLATIONS / locale / "LC_MESSAGES"
    mo_path = folder / "messages.mo"
    assert mo_path.exists(), "run `pybabel compile -d scorekeeper/translations` and commit the .mo"
    with mo_path.open("rb") as handle:
        compiled = read_mo(handle)
    assert _translations(compiled) == _translations(_po(locale)), (
        f"{mo_path} is stale: run `pybabel compile -d scorekeeper/translations`")


def test_engine_messages_are_in_the_catalogue() -> None:
    ids = _template_ids()
    plurals = {message.id for message in _catalog(TRANSLATIONS / "messages.pot")
               if isinstance(message.id, tuple)}
    pieces = [piece for table in PIECES.values() for piece in table.values()]
    for table in (list(TEMPLATES.values()), list(REASONS.values()), list(UNITS.values()), pieces):
        missing = sorted(str(value) for value in table
                         if (isinstance(value, Counted)
                             and (value.singular, value.plural) not in plurals)
                         or (isinstance(value, str) and value not in ids))
        assert not missing, f"run `{EXTRACT}`; missing: {missing}"


@pytest.mark.parametrize(("accept", "expected"), [
    ("ar", ('lang="ar" dir="rtl"', "لعبة جديدة")),
    ("tr-TR,tr;q=0.9", ('lang="tr" dir="ltr"', "Yeni oyun")),
    ("en-GB", ('lang="en" dir="ltr"', "New game")),
    ("ru-RU,ru;q=0.9,en;q=0.5", ('lang="ru" dir="ltr"', "Новая партия")),
    ("hi-IN,hi;q=0.9", ('lang="hi" dir="ltr"', "नया खेल")),
])
def test_pages_speak_the_browsers_language(tmp_path: Path, accept: str,
                                           expected: tuple[str, str]) -> None:
    from scorekeeper import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path), "TESTING": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/t.sqlite"})
    with app.app_context():
        from scorekeeper.store.db import db
        db.create_all()
    page = app.test_client().get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    for text in expected:
        assert text in page
