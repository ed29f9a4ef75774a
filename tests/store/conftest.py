"""What the store's tests share: the app's context around a test that calls the store directly,
a fresh read of a game, and an app on a database migrated only up to the revision before one."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.store.db import db
from scorekeeper.store.games import find_game
from scorekeeper.store.models import GameRow
from tests.conftest import POSTGRES_URL, _dispose, _make_app, _sqlalchemy_url, _with_database


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """The app's context (the store's functions use its session), the session removed after."""
    with app.app_context():
        yield
        db.session.remove()


def fresh(row: GameRow) -> GameRow:
    """The game as stored now (a fresh read, as the next request makes)."""
    token = row.token
    db.session.remove()
    found = find_game(token)
    assert found is not None
    return found


@contextmanager
def migrated_before(backend: str, tmp_path: Path, revision: str) -> Iterator[Flask]:
    """The app on an empty database (SQLite, or a PostgreSQL one of its own) migrated up to
    the revision before `revision`; the database dropped after."""
    from flask_migrate import upgrade

    name = None
    if backend == "sqlite":
        uri = "sqlite:///" + str(tmp_path / "old.sqlite")
    else:
        import psycopg

        name = "scorekeeper_migration_" + secrets.token_hex(6)
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        uri = _sqlalchemy_url(_with_database(POSTGRES_URL, name))
    app = _make_app(tmp_path / "instance", uri)
    with app.app_context():
        from alembic.script import ScriptDirectory

        scripts = ScriptDirectory.from_config(app.extensions["migrate"].migrate.get_config())
        upgrade(revision=scripts.get_revision(revision).down_revision)
    try:
        yield app
    finally:
        _dispose(app)
        if name is not None:
            import psycopg

            with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
