"""The store: games as rows in SQLAlchemy, each holding its game record.

- :mod:`.games`: find, create and write games; a row to its record and back;
- :mod:`.deals`: entering, correcting and undoing deals when several phones race;
- :mod:`.records`: moving records in and out (import, export, backup), all or nothing;
- :mod:`.limits`: what clients did lately (wrong access codes, imports), counted for every
  worker and host that shares the database;
- :mod:`.writer`: on SQLite, one writer at a time, handed over at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..settings import MIGRATIONS_DIR
from . import (
    limits,  # noqa: F401  (its tables belong to the models' metadata)
    writer,  # noqa: F401  (its listeners queue SQLite's writers)
)
from .db import db, migrate

if TYPE_CHECKING:
    from flask import Flask


def init_app(app: Flask) -> None:
    """Bind the database and its migrations to the app."""
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIR))
