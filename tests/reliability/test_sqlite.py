"""SQLite as the app opens it: write-ahead log and a busy timeout, so workers share one file."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from scorekeeper.store.db import db
from tests.conftest import make_app


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    # its own SQLite app: the pragmas are SQLite's, whichever backend the suite runs on
    app = make_app(tmp_path, "sqlite:///" + str(tmp_path / "scorekeeper.sqlite"))
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() >= 5000
        assert db.session.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        db.session.remove()
        db.engine.dispose()
