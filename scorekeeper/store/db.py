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


EMPTY, BEHIND, NEWEST = "empty", "behind", "newest"
"""Where a database stands against the migrations: no schema yet (just created), an older
schema, or the newest."""


def schema_state() -> str:
    """EMPTY, BEHIND or NEWEST: the app's database against the newest migration (inside an app
    context), its version read, nothing written and nothing logged."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config: Any = migrate.get_config()  # Flask-Migrate's subclass of Alembic's Config
    heads = set(ScriptDirectory.from_config(config).get_heads())
    with db.engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
    return EMPTY if not current else NEWEST if current == heads else BEHIND


def upgrade_quietly() -> None:
    """Migrate the app's database to the newest schema (inside an app context) without
    Alembic's own log lines: the operator's commands say in one line what was done (`flask db
    upgrade`, the developer's, still logs each migration as it runs)."""
    from alembic import command

    config: Any = migrate.get_config()
    config.attributes["configure_logger"] = False  # read by migrations/env.py
    command.upgrade(config, "head")


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
