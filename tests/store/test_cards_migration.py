"""Migration j10_cards on a database holding a game stored before it: the games gain their card
(NULL: made by the first page that shows the game) and an index by table and first chooser,
nothing they held is lost, up or down (an
ALTER TABLE: on SQLite a batch would copy `games` and drop it, and with foreign keys on the drop
deletes every game's seats, entries and figures)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.conftest import BACKENDS
from tests.store.conftest import migrated_before
from tests.store.test_edges_migration import begun_game, games

BEFORE = "i9_zones"  # the revision before j10_cards

figures = sa.table(
    "game_figures", *(sa.column(name) for name in ("game_id", "version", "head", "tallies"))
)


@pytest.fixture(params=BACKENDS)
def before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on a database migrated up to the revision before j10_cards."""
    with migrated_before(request.param, tmp_path, "j10_cards") as app:
        yield app


def _held(connection: sa.Connection) -> list[tuple[object, ...]]:
    return [
        tuple(found)
        for found in connection.execute(
            sa.select(games.c.id, games.c.players, games.c.version, figures.c.version).join(
                figures, figures.c.game_id == games.c.id
            )
        ).all()
    ]


def test_the_migration_adds_an_empty_card_and_keeps_every_game(before: Flask) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.store.db import db

    with before.app_context():
        connection = db.session.connection()
        game_id = connection.execute(
            sa.insert(games).values(begun_game()).returning(games.c.id)
        ).scalar_one()
        connection.execute(
            sa.insert(figures).values(game_id=game_id, version=1, head="[]", tallies=b"")
        )
        db.session.commit()
        held = _held(db.session.connection())
        assert len(held) == 1
        db.session.remove()

        upgrade()
        connection = db.session.connection()
        assert _held(connection) == held
        assert connection.execute(
            sa.select(sa.column("card")).select_from(sa.table("games"))
        ).scalars().all() == [None]
        indexes = {index["name"]: index for index in sa.inspect(db.engine).get_indexes("games")}
        assert indexes["ix_games_table_first"]["column_names"] == ["table_id", "first"]
        db.session.remove()

        downgrade(revision=BEFORE)
        columns = {column["name"] for column in sa.inspect(db.engine).get_columns("games")}
        assert "card" not in columns
        indexes = {index["name"] for index in sa.inspect(db.engine).get_indexes("games")}
        assert "ix_games_table_first" not in indexes
        assert _held(db.session.connection()) == held
        db.session.remove()
