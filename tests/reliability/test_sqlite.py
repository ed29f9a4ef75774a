"""SQLite as the app opens it: write-ahead log and a busy timeout, so workers share one file."""

from __future__ import annotations

import pytest
from flask import Flask
from sqlalchemy import text

from scorekeeper.extensions import db


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(app: Flask) -> None:
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("SQLite only")
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() >= 5000
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        db.session.remove()
