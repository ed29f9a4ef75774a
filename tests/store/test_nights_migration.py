"""Migration h8_nights on a database holding a table with its roster and a seated game: the
table gains its ratings setting (off) and the nights' table comes with its unique key, and
nothing the table held is lost, up or down (on SQLite a batch would copy `tables` and drop it,
and with foreign keys on the drop deletes its players and seats)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.conftest import BACKENDS
from tests.store.conftest import migrated_before
from tests.store.test_edges_migration import NOW, begun_game, games, players, row, seats, tables

BEFORE = "g7_entries"  # the revision before h8_nights


@pytest.fixture(params=BACKENDS)
def before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on a database migrated up to the revision before h8_nights."""
    with migrated_before(request.param, tmp_path, "h8_nights") as app:
        yield app


def _held(connection: sa.Connection) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    """The roster (table, name) and the seats (seat, player), in order."""
    roster = connection.execute(
        sa.select(players.c.table_id, players.c.name).order_by(players.c.id)
    ).all()
    seated = connection.execute(
        sa.select(seats.c.seat, seats.c.player_id).order_by(seats.c.seat)
    ).all()
    return [(int(t), str(n)) for t, n in roster], [(int(s), int(p)) for s, p in seated]


def test_the_migration_keeps_every_table_roster_and_seat(before: Flask) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.store.db import db

    with before.app_context():
        connection = db.session.connection()
        table_id = connection.execute(
            sa.insert(tables).values(row(name="Majlis")).returning(tables.c.id)
        ).scalar_one()
        ids = [
            connection.execute(
                sa.insert(players)
                .values(table_id=table_id, name=name, key=name.lower(), created_at=NOW)
                .returning(players.c.id)
            ).scalar_one()
            for name in ["Rami", "Lina", "Omar", "Dana"]
        ]
        game_id = connection.execute(
            sa.insert(games)
            .values(begun_game(name=None, notes=None, table_id=table_id))
            .returning(games.c.id)
        ).scalar_one()
        for seat, player_id in enumerate(ids):
            connection.execute(
                sa.insert(seats).values(game_id=game_id, seat=seat, player_id=player_id)
            )
        db.session.commit()
        held = _held(db.session.connection())
        assert len(held[0]) == 4 and len(held[1]) == 4
        db.session.remove()

        upgrade()
        connection = db.session.connection()
        assert _held(connection) == held
        assert connection.execute(
            sa.select(sa.column("ratings")).select_from(sa.table("tables"))
        ).scalars().all() == [False]
        assert connection.execute(
            sa.select(sa.column("table_id")).select_from(sa.table("games"))
        ).scalars().all() == [table_id]
        unique = sa.inspect(db.engine).get_unique_constraints("night_starts")
        assert [(u["name"], u["column_names"]) for u in unique] == [
            ("uq_night_starts_table_after", ["table_id", "after_game_id"])
        ]
        db.session.remove()

        downgrade(revision=BEFORE)
        inspector = sa.inspect(db.engine)
        assert "night_starts" not in inspector.get_table_names()
        assert "ratings" not in {column["name"] for column in inspector.get_columns("tables")}
        assert _held(db.session.connection()) == held
        db.session.remove()
