"""Migration g7_entries on a database holding games stored before it: the entries table comes
with its unique key on (game, key), the games are untouched and take keyed saves at once; the
downgrade takes the table away again."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.conftest import (
    BACKENDS,
    POSTGRES_URL,
    _dispose,
    _make_app,
    _sqlalchemy_url,
    _with_database,
)

BEFORE = "f6_changes"


@pytest.fixture(params=BACKENDS)
def before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on a database migrated up to the revision before g7_entries, one game in it."""
    from flask_migrate import upgrade

    name = None
    if request.param == "sqlite":
        uri = "sqlite:///" + str(tmp_path / "old.sqlite")
    else:
        import psycopg

        name = "scorekeeper_migration_" + secrets.token_hex(6)
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        uri = _sqlalchemy_url(_with_database(POSTGRES_URL, name))
    app = _make_app(tmp_path / "instance", uri)
    with app.app_context():
        upgrade(revision=BEFORE)
    yield app
    _dispose(app)
    if name is not None:
        import psycopg

        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_migration_adds_entries_with_a_unique_key(before: Flask) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.rules import replay
    from scorekeeper.store.db import db
    from scorekeeper.store.deals import Entry, Kept, Saved, enter_deal
    from scorekeeper.store.games import find_game, game_of
    from scorekeeper.store.records import parse_records, store_records
    from tests.rules.builders import DIAMONDS, TRIX_KINGDOM, raw_record

    with before.app_context():
        assert "entries" not in sa.inspect(db.engine).get_table_names()
        [row] = store_records(parse_records(json.dumps(raw_record("trix", TRIX_KINGDOM[:2]))))
        token, stored = row.token, list(row.deals)
        db.session.remove()
        upgrade()
        inspector = sa.inspect(db.engine)
        unique = inspector.get_unique_constraints("entries")
        assert [(u["name"], u["column_names"]) for u in unique] == [
            ("uq_entries_game_key", ["game_id", "key"])
        ]
        found = find_game(token)
        assert found is not None and found.deals == stored and found.version == 1
        key = "0b5c8a52-7f3e-4c1d-9a6b-2f4e8d1c7a90"
        entry = Entry(DIAMONDS, 3, 1, key=key)
        assert isinstance(enter_deal(found, replay(game_of(found)), entry), Saved)
        db.session.remove()
        found = find_game(token)
        assert found is not None
        assert enter_deal(found, replay(game_of(found)), entry) == Kept(3, False, 2)
        db.session.remove()
        downgrade(revision=BEFORE)
        assert "entries" not in sa.inspect(db.engine).get_table_names()
        found = find_game(token)
        assert found is not None and found.deals == [*stored, DIAMONDS]
        db.session.remove()
