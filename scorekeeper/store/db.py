"""The database handle and migrations, created unbound so models and queries import them freely."""

from __future__ import annotations

from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import text
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for the typed models."""


# a committed row keeps its loaded values: a save writes with one guarded UPDATE and sets what it
# wrote on the row itself (games.write), so nothing is read back after the commit
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()


def up_to_date() -> bool:
    """Whether the app's database is at the newest migration (inside an app context): its
    version read, nothing written and nothing logged, so a command that finds nothing to
    migrate says nothing about it."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config: Any = migrate.get_config()  # Flask-Migrate's subclass of Alembic's Config
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with db.engine.connect() as connection:
        return set(MigrationContext.configure(connection).get_current_heads()) == heads


def try_a_write() -> None:
    """Begin a write to the migrated database and roll it back; the database's own error
    (sqlalchemy.exc.OperationalError) when it cannot be written: a read-only file, folder or
    mount that SQLite can still read (another process holding its write-ahead log open)."""
    with db.engine.connect() as connection:
        try:
            # the statement asks for the write lock, which a read-only database refuses
            connection.execute(text("DELETE FROM alembic_version WHERE 1 = 0"))
        finally:
            connection.rollback()
