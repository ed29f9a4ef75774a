"""Migration d4_edges on a database holding what the app stored before it: a record with a
lone surrogate in a name (a page of that game was a 500, and so was the home page of every
browser that had it) and a game seating one person twice (a merge that raced a new game).
After it, the names hold U+FFFD, every page draws, and each seat is one person."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.conftest import BACKENDS
from tests.store.conftest import migrated_before

DATA = Path(__file__).resolve().parent.parent / "data"
NOW = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)

games = sa.table(
    "games",
    *(
        sa.column(name)
        for name in (
            "id",
            "token",
            "view_token",
            "game",
            "mode",
            "first",
            "deal_count",
            "finished",
            "name",
            "notes",
            "version",
            "created_at",
            "updated_at",
            "table_id",
        )
    ),
    sa.column("players", sa.JSON),
    sa.column("house_rules", sa.JSON),
    sa.column("deals", sa.JSON),
)
tables = sa.table(
    "tables",
    *(
        sa.column(name)
        for name in ("id", "token", "view_token", "name", "version", "created_at", "updated_at")
    ),
)
players = sa.table(
    "players", *(sa.column(name) for name in ("id", "table_id", "name", "key", "created_at"))
)
seats = sa.table("seats", *(sa.column(name) for name in ("game_id", "seat", "player_id")))


@pytest.fixture(params=BACKENDS)
def before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on an empty database migrated up to the revision before d4_edges."""
    with migrated_before(request.param, tmp_path, "d4_edges") as app:
        yield app


def row(**values: object) -> dict[str, object]:
    return {
        "token": secrets.token_urlsafe(16),
        "view_token": secrets.token_urlsafe(16),
        "version": 1,
        "created_at": NOW,
        "updated_at": NOW,
        **values,
    }


def begun_game(**values: object) -> dict[str, object]:
    """A Trix game's row, its first chooser known and no deal yet (`values` added)."""
    return row(
        game="trix",
        mode="solo",
        players=["Rami", "Lina", "Omar", "Dana"],
        first=0,
        house_rules={},
        deals=[],
        deal_count=0,
        finished=False,
        **values,
    )


def test_the_migration_repairs_lone_surrogates_and_twice_seated_people(before: Flask) -> None:
    from flask_migrate import upgrade

    from scorekeeper.store.db import db

    record = json.loads((DATA / "trix-solo-complete.json").read_text(encoding="utf-8"))
    broken = ["Rami", "a\ud800b", "Omar", "x\udfff"]
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
            for name in ["B", "C", "D"]
        ]
        lone = row(
            game="trix",
            mode="solo",
            players=broken,
            first=record["first"],
            house_rules={},
            deals=record["deals"],
            deal_count=len(record["deals"]),
            finished=True,
            name="Friday",
            notes=None,
            table_id=None,
        )
        twice = row(
            game="trix",
            mode="solo",
            players=["B", "B", "C", "D"],
            first=0,
            house_rules={},
            deals=[],
            deal_count=0,
            finished=False,
            name=None,
            notes=None,
            table_id=table_id,
        )
        lone_id = connection.execute(
            sa.insert(games).values(lone).returning(games.c.id)
        ).scalar_one()
        twice_id = connection.execute(
            sa.insert(games).values(twice).returning(games.c.id)
        ).scalar_one()
        for seat, player_id in enumerate([ids[0], ids[0], ids[1], ids[2]]):
            connection.execute(
                sa.insert(seats).values(game_id=twice_id, seat=seat, player_id=player_id)
            )
        db.session.commit()
        upgrade()
        stored = {
            game_id: (names, version)
            for game_id, names, version in db.session.execute(
                sa.select(games.c.id, games.c.players, games.c.version)
            )
        }
        assert stored[lone_id] == (["Rami", "a\ufffdb", "Omar", "x\ufffd"], 2)
        assert stored[twice_id] == (["B", "B 2", "C", "D"], 2)
        seated = db.session.execute(
            sa.select(seats.c.seat, players.c.name)
            .join(players, players.c.id == seats.c.player_id)
            .where(seats.c.game_id == twice_id)
            .order_by(seats.c.seat)
        ).all()
        assert [name for _, name in seated] == ["B", "B 2", "C", "D"]
        with pytest.raises(sa.exc.IntegrityError):  # the key holds from now on
            db.session.execute(
                sa.update(seats)
                .where(seats.c.game_id == twice_id, seats.c.seat == 1)
                .values(player_id=ids[0])
            )
        db.session.rollback()
        lone_token = db.session.execute(
            sa.select(games.c.token).where(games.c.id == lone_id)
        ).scalar_one()
        db.session.remove()
    client = before.test_client()
    response = client.get(f"/g/{lone_token}")
    assert response.status_code == 200 and "a\ufffdb" in response.get_data(as_text=True)
    assert client.get(f"/g/{lone_token}/export.json").status_code == 200
    assert client.get("/").status_code == 200
