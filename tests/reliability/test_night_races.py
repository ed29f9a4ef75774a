"""The night's two writes tapped on several phones at once: a barrier of threads holds every
request until all have read the table, then all write together. "Start a new night" starts one
night (the unique key per table and latest game); the ratings switch changes the setting once
(one UPDATE guarded by the version the pages showed). SQLite and PostgreSQL, two app objects on
one database (two servers)."""

from __future__ import annotations

import functools
import threading
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.store.db import db
from scorekeeper.store.models import NightStartRow, TableRow
from tests.reliability.test_same_four_races import _at_once, _finished_game
from tests.reliability.test_same_four_races import servers as servers  # the two servers

TAPS = 4
ROUNDS = 3


def _table_with_a_game(app: Flask) -> str:
    """A table holding one finished game (a game made outside it, moved in)."""
    from scorekeeper.store.games import find_game
    from scorekeeper.store.tables import create_table

    game = _finished_game(app)
    with app.app_context():
        table = create_table("Majlis")
        row = find_game(game)
        assert row is not None
        row.table_id = table.id
        db.session.commit()
        token = table.token
        db.session.remove()
    return token


def _table(app: Flask, token: str) -> tuple[int, bool, int]:
    """The table's version, ratings setting and nights started."""
    with app.app_context():
        table = db.session.execute(select(TableRow).where(TableRow.token == token)).scalar_one()
        starts = db.session.execute(
            select(func.count())
            .select_from(NightStartRow)
            .where(NightStartRow.table_id == table.id)
        ).scalar_one()
        found = (table.version, table.ratings, int(starts))
        db.session.remove()
    return found


def _together(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Hold every call of the store's `name` until TAPS requests have made it."""
    from scorekeeper.store import nights as store

    barrier = threading.Barrier(TAPS, timeout=60)
    original = getattr(store, name)

    def together(*args: Any) -> Any:
        barrier.wait()
        return original(*args)

    monkeypatch.setattr(store, name, together)


def test_start_a_new_night_tapped_on_four_phones_starts_one(
    servers: tuple[Flask, Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    _together(monkeypatch, "start_night")
    for _ in range(ROUNDS):
        token = _table_with_a_game(servers[0])
        clients = [servers[index % 2].test_client() for index in range(TAPS)]
        results = _at_once(
            [functools.partial(client.post, f"/t/{token}/night") for client in clients]
        )
        failed = [result for result in results if isinstance(result, BaseException)]
        assert not failed, failed
        assert [result.status_code for result in results] == [303] * TAPS
        assert _table(servers[0], token)[2] == 1
        said = [
            client.get(f"/t/{token}").get_data(as_text=True) for client in clients
        ]  # each phone is told the truth: one started it, the others found it started
        assert sum("A new night starts with the next game." in text for text in said) >= 1
        assert sum("already started" in text for text in said) == TAPS - 1


def test_the_ratings_switch_tapped_on_four_phones_changes_once(
    servers: tuple[Flask, Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    _together(monkeypatch, "set_ratings")
    token = _table_with_a_game(servers[0])
    for on in (True, False, True):
        version, ratings, _ = _table(servers[0], token)
        assert ratings is not on
        clients = [servers[index % 2].test_client() for index in range(TAPS)]
        data = {"ratings": "on" if on else "off", "version": str(version)}
        results = _at_once(
            [functools.partial(client.post, f"/t/{token}/ratings", data=data) for client in clients]
        )
        failed = [result for result in results if isinstance(result, BaseException)]
        assert not failed, failed
        assert [result.status_code for result in results] == [303] * TAPS
        assert _table(servers[0], token)[:2] == (version + 1, on)  # one change, not four


def test_a_page_left_open_racing_a_fresh_one_changes_nothing(
    servers: tuple[Flask, Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One phone's page was made at version v (off) and turns ratings on; another phone turned
    them on since (v+1) and now, at once with the first, turns them off: whichever the
    database takes first, the table ends off at v+2, changed once by these two."""
    from scorekeeper.store import nights as store

    token = _table_with_a_game(servers[0])
    version, _, _ = _table(servers[0], token)
    one, two = servers[0].test_client(), servers[1].test_client()
    two.post(f"/t/{token}/ratings", data={"ratings": "on", "version": str(version)})
    barrier = threading.Barrier(2, timeout=60)
    real = store.set_ratings

    def together(*args: Any) -> Any:
        barrier.wait()
        return real(*args)

    monkeypatch.setattr(store, "set_ratings", together)
    stale = {"ratings": "on", "version": str(version)}
    fresh = {"ratings": "off", "version": str(version + 1)}
    results = _at_once(
        [
            functools.partial(one.post, f"/t/{token}/ratings", data=stale),
            functools.partial(two.post, f"/t/{token}/ratings", data=fresh),
        ]
    )
    assert [result.status_code for result in results] == [303, 303]
    assert _table(servers[0], token)[:2] == (version + 2, False)
