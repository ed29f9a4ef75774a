"""The commands on the database say, in one line, which database they opened and whether they
just made it (issue 44, item 14): run in another folder, `scorekeeper export` used to make a new,
empty `instance/` there without a word, and the first `init-db` or `serve` printed Alembic's
eight INFO lines instead. Counts are English: "1 game", "2 games"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.cli.database import news, shown
from scorekeeper.store.db import BEHIND, EMPTY, NEWEST
from tests.cli.test_transfer import COMPLETE

HERE = "instance/scorekeeper.sqlite"


@pytest.fixture
def elsewhere(instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of the operator's with no instance folder in it, the working folder; no
    SCOREKEEPER_INSTANCE: the commands use ./instance, as a new user's do."""
    monkeypatch.delenv("SCOREKEEPER_INSTANCE")
    folder = tmp_path / "downloads"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def said(capsys: pytest.CaptureFixture[str]) -> tuple[list[str], list[str]]:
    out, err = capsys.readouterr()
    return out.splitlines(), err.splitlines()


def test_init_db_says_it_created_the_database_then_that_it_is_up_to_date(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init-db"]) == 0
    assert said(capsys) == ([f"Created the database in {HERE}"], [])  # not Alembic's 10 lines
    assert (elsewhere / HERE).exists()
    assert main(["init-db"]) == 0
    assert said(capsys) == ([f"The database {HERE} is up to date"], [])


def test_init_db_says_it_migrated_an_older_database(
    elsewhere: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from alembic import command

    from scorekeeper import create_app
    from scorekeeper.store.db import migrate

    assert main(["init-db"]) == 0
    with create_app().app_context():
        config = migrate.get_config()
        config.attributes["configure_logger"] = False  # (Alembic's logging: this process's)
        command.downgrade(config, "-1")  # a database of the release before
    capsys.readouterr()
    assert main(["init-db"]) == 0
    assert said(capsys) == ([f"Migrated the database {HERE} to the newest schema"], [])


def test_export_and_import_name_the_database_and_count_in_english(
    elsewhere: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.json"
    assert main(["export", str(out)]) == 0
    assert said(capsys) == ([], [f"Created the database in {HERE}", "exported 0 games"])
    assert main(["import", str(COMPLETE[0])]) == 0
    assert said(capsys) == ([], [f"Using the database {HERE}", "imported 1 game"])
    assert main(["export", str(out)]) == 0
    assert said(capsys) == ([], [f"Using the database {HERE}", "exported 1 game"])
    both = tmp_path / "both.json"
    both.write_text(json.dumps([json.loads(path.read_text()) for path in COMPLETE[:2]]))
    assert main(["import", str(both)]) == 0
    assert said(capsys)[1][-1] == "imported 2 games"


def test_a_database_outside_the_working_folder_is_named_whole(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")  # the instance folder is not under it
    database = f"sqlite:///{instance}/scorekeeper.sqlite"
    assert shown(database) == f"{instance}/scorekeeper.sqlite"
    monkeypatch.chdir("/")  # the root holds every file: still its whole path
    assert shown(database) == f"{instance}/scorekeeper.sqlite"


def test_another_database_is_named_by_its_url_without_its_password() -> None:
    url = "postgresql+psycopg://keeper:s3cret@db.example:5432/scores"
    assert shown(url) == "postgresql://keeper:***@db.example:5432/scores"
    assert news(EMPTY, url) == (
        "Created the tables in the database postgresql://keeper:***@db.example:5432/scores"
    )
    assert news(NEWEST, url) == "Using the database postgresql://keeper:***@db.example:5432/scores"
    assert news(BEHIND, url).startswith("Migrated the database postgresql://keeper:***@")
