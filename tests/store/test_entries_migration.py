"""Migration g7_entries on a database holding games stored before it: the entries table comes
with its unique key on (game, key), the games are untouched and take keyed saves at once; the
downgrade takes the table away again."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from tests.conftest import BACKENDS
from tests.store.conftest import migrated_before
from tests.store.test_edges_migration import games, row

BEFORE = "f6_changes"  # the revision before g7_entries


@pytest.fixture(params=BACKENDS)
def before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on a database migrated up to the revision before g7_entries."""
    with migrated_before(request.param, tmp_path, "g7_entries") as app:
        yield app


def test_the_migration_adds_entries_with_a_unique_key(before: Flask) -> None:
    from flask_migrate import downgrade, upgrade

    from scorekeeper.rules import replay
    from scorekeeper.store.db import db
    from scorekeeper.store.deals import Entry, Kept, Saved, enter_deal
    from scorekeeper.store.games import find_game, game_of, row_of
    from scorekeeper.store.records import parse_records
    from tests.rules.builders import DIAMONDS, TRIX_KINGDOM, raw_record

    with before.app_context():
        assert "entries" not in sa.inspect(db.engine).get_table_names()
        # stored as a game was before (the rows' later columns are not there yet)
        [record] = parse_records(json.dumps(raw_record("trix", TRIX_KINGDOM[:2])))
        made = row_of(record)
        db.session.execute(
            sa.insert(games).values(
                row(
                    token=made.token,
                    game=made.game,
                    mode=made.mode,
                    players=made.players,
                    first=made.first_chooser,
                    house_rules=made.house_rules,
                    deals=made.deals,
                    deal_count=made.deal_count,
                    finished=made.finished,
                )
            )
        )
        db.session.commit()
        token, stored = made.token, list(made.deals)
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
        deals = db.session.execute(
            sa.select(games.c.deals).where(games.c.token == token)
        ).scalar_one()
        assert deals == [*stored, DIAMONDS]
        db.session.remove()
