"""What a language of the app needs from its catalogue, as checks a test runs for every language
of ``scorekeeper.web.languages.LANGUAGES`` (the registry the header's switch and the locale
selector use), so a language added there with an empty or partial catalogue fails, naming the
language and what it lacks.

Each check takes the translations folder and a language and returns its problems as sentences
(empty: nothing wrong), so ``test_catalogues.py`` can run the same checks on a scratch copy with a
new language in it and see them fail.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from scorekeeper.web.languages import DEFAULT_LANGUAGE, LANGUAGES

TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
TRANSLATED = tuple(language for language in LANGUAGES if language != DEFAULT_LANGUAGE)
"""Every language but the one the messages are written in."""
EXTRACT = (
    "pybabel extract -F babel.cfg -k _l -k N_ -k lazy_gettext --no-location "
    "--sort-output -o scorekeeper/translations/messages.pot . && pybabel update -i "
    "scorekeeper/translations/messages.pot -d scorekeeper/translations -N --ignore-obsolete"
)
COMPILE = "pybabel compile -d scorekeeper/translations"
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}")

# A catalogue's plural rule is the one Babel's CLDR data gives its language (what `pybabel init`
# writes), except where the tables chose otherwise (GLOSSARY.md, "Plural forms"):
HOUSE_PLURALS: dict[str, tuple[int, str]] = {
    # a Turkish noun after a number stays singular ("3 el"): one form
    "tr": (1, "0"),
    # gettext's Hindi rule: 0 takes the plural ("0 ट्रिकें"), where CLDR's makes it singular
    "hi": (2, "(n != 1)"),
}
RULE_COUNTS = range(0, 1001)
"""The counts a catalogue's plural rule is compared on (every count a page shows is in it)."""


def catalogue_path(folder: Path, language: str, suffix: str = "po") -> Path:
    return folder / language / "LC_MESSAGES" / f"messages.{suffix}"


def read_catalogue(folder: Path, language: str) -> Catalog:
    with catalogue_path(folder, language).open("rb") as handle:
        return read_po(handle, locale=language)


def read_template(folder: Path) -> Catalog:
    with (folder / "messages.pot").open("rb") as handle:
        return read_po(handle)


def message_key(message_id: str | tuple[str, ...] | list[str]) -> str:
    """A message's id as a reader names it: a plural by its singular."""
    return message_id if isinstance(message_id, str) else message_id[0]


def forms(string: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return (string,) if isinstance(string, str) else tuple(string)


def named(keys: Iterable[tuple[str | None, str]]) -> list[str]:
    """(context, id) keys as a reader looks them up: the id, and its context if it has one."""
    return sorted(
        key if context is None else f"{key} (context {context!r})" for context, key in keys
    )


def plural_rule(language: str) -> tuple[int, str]:
    """(number of forms, gettext expression) a catalogue of `language` must carry."""
    if language in HOUSE_PLURALS:
        return HOUSE_PLURALS[language]
    rule = get_plural(language)
    return rule.num_plurals, rule.plural_expr


def form_of(language: str, count: int) -> int:
    """Which of the catalogue's forms `count` takes in `language`."""
    return int(gettext.c2py(plural_rule(language)[1])(count))


def catalogue_folders(folder: Path) -> set[str]:
    """The languages the folder holds a catalogue for."""
    return {path.parent.parent.name for path in folder.glob("*/LC_MESSAGES/messages.po")}


def untranslated(folder: Path, language: str) -> list[str]:
    """Why `language`'s catalogue is not complete: missing, entries not in it, entries empty or
    fuzzy, entries the template no longer has."""
    if not catalogue_path(folder, language).exists():
        return [
            f"{language}: no catalogue: run `pybabel init -i scorekeeper/translations/"
            f"messages.pot -d scorekeeper/translations -l {language}` and translate it"
        ]
    template = {(m.context, message_key(m.id)) for m in read_template(folder) if m.id}
    catalogue = read_catalogue(folder, language)
    entries = {(m.context, message_key(m.id)): m for m in catalogue if m.id}
    problems = []
    missing = named(template - entries.keys())
    if missing:
        problems.append(f"{language}: not in the catalogue (run `{EXTRACT}`): {missing}")
    stale = named(entries.keys() - template)
    if stale:
        problems.append(f"{language}: no longer in messages.pot (run `{EXTRACT}`): {stale}")
    if language != DEFAULT_LANGUAGE:
        empty = [
            key
            for key, message in entries.items()
            if message.fuzzy or not all(text.strip() for text in forms(message.string))
        ]
        if empty:
            problems.append(
                f"{language}: {len(empty)} of {len(entries)} messages to translate "
                f"(and un-fuzzy): {named(empty)}"
            )
    return problems


def wrong_plurals(folder: Path, language: str) -> list[str]:
    """Why `language`'s catalogue does not count as its readers do: another plural rule, or a
    counted message without every form."""
    if not catalogue_path(folder, language).exists():
        return [f"{language}: no catalogue"]
    catalogue = read_catalogue(folder, language)
    number, expression = plural_rule(language)
    problems = []
    if catalogue.num_plurals != number:
        problems.append(f"{language}: {catalogue.num_plurals} plural forms, not {number}")
    chosen, wanted = gettext.c2py(catalogue.plural_expr), gettext.c2py(expression)
    differ = [count for count in RULE_COUNTS if chosen(count) != wanted(count)]
    if differ:
        problems.append(
            f"{language}: Plural-Forms {catalogue.plural_expr!r} differs from {expression!r} "
            f"at {differ[:10]}"
        )
    if language != DEFAULT_LANGUAGE:
        plurals = [message for message in catalogue if isinstance(message.id, tuple)]
        if not plurals:
            problems.append(f"{language}: no ngettext message in the catalogue")
        short = [
            message.id[0]
            for message in plurals
            if len(forms(message.string)) != number or not all(forms(message.string))
        ]
        if short:
            problems.append(f"{language}: write all {number} forms of {short}")
    return problems


def _real_translations(entries: Iterable[object]) -> dict[object, object]:
    """msgid → msgstr of every real translation (not fuzzy, not empty, not the msgid itself)."""
    table: dict[object, object] = {}
    for message in entries:
        if not message.id or message.fuzzy:  # type: ignore[attr-defined]
            continue
        strings = forms(message.string)  # type: ignore[attr-defined]
        key = message.id  # type: ignore[attr-defined]
        key = key if isinstance(key, str) else tuple(key)
        if all(strings) and strings != (key if isinstance(key, tuple) else (key,)):
            table[(message.context, key)] = strings  # type: ignore[attr-defined]
    return table


def stale_compiled(folder: Path, language: str) -> list[str]:
    """Why the app would not read what `language`'s catalogue says: no .mo, or an old one."""
    mo_path = catalogue_path(folder, language, "mo")
    if not mo_path.exists():
        return [f"{language}: no {mo_path.name}: run `{COMPILE}` and commit it"]
    if not catalogue_path(folder, language).exists():
        return [f"{language}: no catalogue"]
    with mo_path.open("rb") as handle:
        compiled = read_mo(handle)
    if _real_translations(compiled) != _real_translations(read_catalogue(folder, language)):
        return [f"{language}: {mo_path} is stale: run `{COMPILE}`"]
    return []


def lost_placeholders(folder: Path, language: str) -> list[str]:
    """Translations (of a language other than the messages' own) that drop or invent a
    placeholder."""
    if not catalogue_path(folder, language).exists():
        return [f"{language}: no catalogue"]
    problems = []
    for message in read_catalogue(folder, language):
        if not message.id:
            continue
        ids = forms(message.id)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for index, string in enumerate(forms(message.string)):
            found = set(PLACEHOLDER.findall(string))
            if len(ids) == 2 and form_shows_no_number(language, index):
                lost = not found <= wanted
            else:
                lost = found != wanted
            if lost:
                problems.append(f"{language}: {ids[0]!r} → {string!r}")
    return problems


def form_shows_no_number(language: str, index: int) -> bool:
    """Arabic's zero, one and two forms are words of their own ("two values"): the number may
    go there."""
    return language == "ar" and index < 3
