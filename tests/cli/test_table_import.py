"""`scorekeeper import --table LINK`: records become games of a table, their players its roster."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.cli import main
from tests.cli.test_transfer import records


def make_table() -> tuple[str, str]:
    """A table in the instance's database: (scorekeeper token, its link)."""
    from scorekeeper import create_app
    from scorekeeper.store.tables import create_table

    assert main(["init-db"]) == 0
    app = create_app()
    with app.app_context():
        table = create_table("Majlis")
        return table.token, f"http://192.168.1.20:8000/t/{table.token}"


def roster_and_games(token: str) -> tuple[list[str], int]:
    from scorekeeper import create_app
    from scorekeeper.store.tables import find_table, roster, table_games

    with create_app().app_context():
        table = find_table(token)
        assert table is not None
        return sorted(player.name for player in roster(table)), len(table_games(table))


def test_import_into_a_table_by_its_link(
    instance: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    token, link = make_table()
    games = records()
    path = tmp_path / "games.json"
    path.write_text(json.dumps(games), encoding="utf-8")
    assert main(["import", str(path), "--table", link]) == 0
    names, count = roster_and_games(token)
    assert count == len(games)
    assert names == sorted({name for game in games for name in game["players"]})
    # the bare token works too (written with "=": a token may begin with "-", which argparse
    # would read as an option after a space)
    assert main(["import", str(path), f"--table={token}"]) == 0
    assert roster_and_games(token)[1] == 2 * len(games)


def test_an_unknown_table_imports_nothing(
    instance: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    token, _ = make_table()
    path = tmp_path / "games.json"
    path.write_text(json.dumps(records()), encoding="utf-8")
    assert main(["import", str(path), "--table", "nope"]) == 2
    assert "no table has the link nope" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "out.json")]) == 0
    assert json.loads((tmp_path / "out.json").read_text()) == []
    assert roster_and_games(token) == ([], 0)


def stored_figures_by_game() -> dict[int, tuple[int, str, bytes]]:
    """Every game's statistics figures stored in the database: (version, head, tallies)."""
    from sqlalchemy import select

    from scorekeeper import create_app
    from scorekeeper.store.db import db
    from scorekeeper.store.models import FiguresRow

    with create_app().app_context():
        return {
            game_id: (version, head, bytes(tallies))
            for game_id, version, head, tallies in db.session.execute(
                select(FiguresRow.game_id, FiguresRow.version, FiguresRow.head, FiguresRow.tallies)
            )
        }


@pytest.mark.parametrize("at_a_table", [True, False])
def test_an_import_stores_each_games_statistics_figures(
    instance: Path,
    tmp_path: Path,
    at_a_table: bool,
) -> None:
    """The import replays every record anyway: each game's figures, as its stored record makes
    them, are in the database when it ends (the table's first statistics page replays none)."""
    from scorekeeper import create_app
    from scorekeeper.stats import stored_form
    from scorekeeper.store.db import db
    from scorekeeper.store.games import record_of
    from scorekeeper.store.models import GameRow

    _, link = make_table()
    path = tmp_path / "games.json"
    path.write_text(json.dumps(records()), encoding="utf-8")
    assert main(["import", str(path), *(["--table", link] if at_a_table else [])]) == 0
    stored = stored_figures_by_game()
    with create_app().app_context():
        rows = db.session.query(GameRow).all()
        assert len(rows) == len(records())
        for row in rows:
            assert stored[row.id] == (row.version, *stored_form(record_of(row)))


def test_the_backup_keeps_where_a_tables_nights_began(instance: Path, tmp_path: Path) -> None:
    # `scorekeeper export` writes each night started on purpose on the game it followed, and
    # `import --table` puts it back (as the table's own export and import page do)
    _, link = make_table()
    games = [
        {**game, "created_at": f"2026-03-0{1 + number}T20:00:00+00:00"}
        for number, game in enumerate(records()[:3])
    ]
    games[1]["night_started_at"] = "2026-03-02T23:00:00+00:00"
    path = tmp_path / "games.json"
    path.write_text(json.dumps(games), encoding="utf-8")
    assert main(["import", str(path), "--table", link]) == 0
    backup = tmp_path / "backup.json"
    assert main(["export", str(backup)]) == 0
    written = json.loads(backup.read_text(encoding="utf-8"))
    assert [game.get("night_started_at") for game in written] == [
        None,
        "2026-03-02T23:00:00+00:00",
        None,
    ]
