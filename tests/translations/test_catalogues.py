"""The catalogue checks follow the registry: a language added to ``LANGUAGES`` with an empty or
partial catalogue fails, naming itself and what is missing (a scratch German catalogue, made as
``pybabel init`` makes one, in a copy of the translations folder); and ``messages.pot`` is what
extraction makes of today's code (nothing to extract that is not in the catalogues).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from scorekeeper.web.languages import LANGUAGES
from tests.translations.catalogues import (
    TRANSLATIONS,
    catalogue_folders,
    catalogue_path,
    lost_placeholders,
    read_template,
    stale_compiled,
    untranslated,
    wrong_plurals,
)

ROOT = Path(__file__).resolve().parents[2]
LEFT_OUT = (
    "New game",
    "Undo deal %(n)d",
    "%(num)d contract",
)  # left untranslated in the partial one


def scratch_language(folder: Path, language: str, *, translate: bool) -> Catalog:
    """`pybabel init -l language` in `folder` (every message, none translated), then, with
    `translate`, every message but LEFT_OUT translated (as itself: placeholders kept) and
    compiled."""
    with (folder / "messages.pot").open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    catalogue.locale = language  # type: ignore[assignment]
    catalogue.fuzzy = False
    if translate:
        for message in catalogue:
            if not message.id:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            if key in LEFT_OUT:
                continue
            if isinstance(message.id, str):
                message.string = message.id
            else:
                others = (message.id[1],) * (catalogue.num_plurals - 1)
                message.string = (message.id[0], *others)
    path = catalogue_path(folder, language)
    path.parent.mkdir(parents=True)
    with path.open("wb") as handle:
        write_po(handle, catalogue)
    if translate:
        with catalogue_path(folder, language, "mo").open("wb") as handle:
            write_mo(handle, catalogue)
    return catalogue


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    """A copy of the translations folder to add a language to."""
    folder = tmp_path / "translations"
    shutil.copytree(TRANSLATIONS, folder)
    return folder


def test_an_empty_new_catalogue_fails_every_check_naming_the_language(scratch: Path) -> None:
    scratch_language(scratch, "de", translate=False)
    assert catalogue_folders(scratch) - set(LANGUAGES) == {"de"}  # offered to no reader yet
    [empty] = untranslated(scratch, "de")
    total = len([m for m in read_template(scratch) if m.id])
    assert empty.startswith(f"de: {total} of {total} messages to translate"), empty
    assert "'New game'" in empty
    assert any("de: write all 2 forms of" in text for text in wrong_plurals(scratch, "de"))
    assert stale_compiled(scratch, "de") == [
        "de: no messages.mo: run `pybabel compile -d scorekeeper/translations` and commit it"
    ]
    assert lost_placeholders(scratch, "de")  # an empty string keeps no placeholder
    # the languages already there are untouched by it
    for language in LANGUAGES:
        assert not untranslated(scratch, language), language


def test_a_partial_catalogue_fails_naming_each_missing_message(scratch: Path) -> None:
    scratch_language(scratch, "de", translate=True)
    [partial] = untranslated(scratch, "de")
    total = len([m for m in read_template(scratch) if m.id])
    assert partial == (
        f"de: 4 of {total} messages to translate (and un-fuzzy): "
        "['%(num)d contract', 'New game', 'Undo deal %(n)d', "
        "\"Undo deal %(n)d (context 'turkish-king')\"]"
    )
    assert wrong_plurals(scratch, "de") == ["de: write all 2 forms of ['%(num)d contract']"]
    assert stale_compiled(scratch, "de") == []
    # the translated ones keep their placeholders; the empty ones keep none
    assert sorted(set(lost_placeholders(scratch, "de"))) == [
        "de: '%(num)d contract' → ''",
        "de: 'Undo deal %(n)d' → ''",
    ]


def test_a_catalogue_without_its_language_forms_fails(scratch: Path) -> None:
    # German written with Turkish's one form: the header is wrong, and so is every plural
    catalogue = scratch_language(scratch, "de", translate=True)
    catalogue._num_plurals, catalogue._plural_expr = 1, "0"  # type: ignore[attr-defined]
    for message in catalogue:
        if isinstance(message.id, tuple):
            message.string = (message.id[0],)
    with catalogue_path(scratch, "de").open("wb") as handle:
        write_po(handle, catalogue)
    problems = wrong_plurals(scratch, "de")
    assert problems[0] == "de: 1 plural forms, not 2"
    assert problems[1].startswith("de: Plural-Forms '0' differs from '(n != 1)' at [0, 2, 3")


def test_a_language_in_the_registry_without_a_catalogue_fails(scratch: Path) -> None:
    for check in (untranslated, wrong_plurals, stale_compiled, lost_placeholders):
        [problem] = check(scratch, "de")
        assert problem.startswith("de: no "), (check, problem)


PLUGIN = """
import shutil
from pathlib import Path

import scorekeeper.web.languages as languages

languages.LANGUAGE_NAMES["de"] = "Deutsch"
languages.LANGUAGES = tuple(languages.LANGUAGE_NAMES)

import tests.translations.catalogues as catalogues

catalogues.TRANSLATIONS = Path({folder!r})
"""


REGISTRY_DRIVEN = {
    # each test driven by LANGUAGES → whether German's partial catalogue fails it
    "test_translations.py::test_every_message_is_translated[de]": True,
    "test_translations.py::test_placeholders_survive_translation[de]": True,
    "test_translations.py::test_every_plural_form_is_written[de]": True,
    "test_translations.py::test_compiled_catalogues_match_their_sources[de]": False,
    "test_translations.py::test_every_language_is_served_in_its_own_words[de]": True,
    "test_plurals.py::test_the_catalogues_have_each_languages_number_of_forms[de]": False,
    "test_plurals.py::test_each_count_picks_its_languages_form[de]": True,
    "test_plurals.py::test_a_deal_and_a_trick_are_different_words_everywhere[de]": False,
    "test_translations.py::test_every_language_has_a_catalogue_and_every_catalogue_a_language": (
        False
    ),
}


def test_the_suite_runs_each_check_for_a_language_added_to_the_registry(
    scratch: Path, tmp_path: Path
) -> None:
    # the registry-driven tests themselves, in a pytest of their own, with German added to
    # LANGUAGES and a partial German catalogue: each has a German case (pytest refuses a test id
    # it does not find), and the German cases fail where German lacks something, naming it
    scratch_language(scratch, "de", translate=True)
    (tmp_path / "add_german.py").write_text(PLUGIN.format(folder=str(scratch)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "add_german", "-p", "no:cacheprovider"),
            *(f"tests/translations/{test}" for test in REGISTRY_DRIVEN),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    failed = set(re.findall(r"^FAILED tests/translations/(\S+?)(?: - |$)", run.stdout, re.M))
    assert failed == {test for test, fails in REGISTRY_DRIVEN.items() if fails}, run.stdout[-4000:]
    passed = len(REGISTRY_DRIVEN) - len(failed)
    assert f"{len(failed)} failed, {passed} passed" in run.stdout.splitlines()[-1], run.stdout
    assert "de: 4 of" in run.stdout and "'New game', 'Undo deal %(n)d'" in run.stdout


# --- messages.pot is current -----------------------------------------------------------------


def extract_command() -> list[str]:
    """The extraction babel.cfg's first lines give, as arguments."""
    comments = []
    for line in (ROOT / "babel.cfg").read_text().splitlines():
        if not line.startswith("#"):
            break
        comments.append(line.lstrip("# ").rstrip())
    text = " ".join(comments).replace("\\ ", " ")
    command = re.search(r"pybabel (extract .*? \.)(?: |$)", text)
    assert command is not None, text
    return shlex.split(command.group(1))


def messages(catalogue: Catalog) -> dict[tuple[str | None, object], object]:
    """(context, id) → the message's flags and comments for translators: what a catalogue gets
    from extraction, less the header, dates and places."""
    return {
        (message.context, message.id): (sorted(message.flags), message.auto_comments)
        for message in catalogue
        if message.id
    }


def test_extraction_changes_nothing(tmp_path: Path) -> None:
    arguments = extract_command()
    output = arguments.index("-o") + 1
    assert arguments[output] == "scorekeeper/translations/messages.pot"
    arguments[output] = str(tmp_path / "messages.pot")
    run = subprocess.run(
        [sys.executable, "-c", "from babel.messages.frontend import main; main()", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    extracted = messages(read_template(tmp_path))
    committed = messages(read_template(TRANSLATIONS))
    new = sorted(str(key) for key in extracted.keys() - committed.keys())
    gone = sorted(str(key) for key in committed.keys() - extracted.keys())
    changed = sorted(
        str(key) for key in extracted.keys() & committed.keys() if extracted[key] != committed[key]
    )
    command = "the pybabel commands at the top of babel.cfg (extract, update, compile)"
    assert not (new or gone or changed), (
        f"messages.pot is not what the code says: run {command}; "
        f"new: {new}; gone: {gone}; changed: {changed}"
    )
