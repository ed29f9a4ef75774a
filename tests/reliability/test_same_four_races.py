"""'Same four again' tapped on several phones at once (issue 24 item 5): a barrier of threads
holds every request until all have read the finished game, then all ask at once; one next
game is started, every tap is sent to it. SQLite and PostgreSQL (two app objects on one
database, as two servers)."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.store.db import db
from scorekeeper.store.models import GameRow
from tests.conftest import _dispose, make_app

DATA = Path(__file__).resolve().parent.parent / "data"
TAPS = 4
ROUNDS = 4


@pytest.fixture
def servers(tmp_path: Path, database_uri: str) -> Iterator[tuple[Flask, Flask]]:
    apps = (
        make_app(tmp_path / "one", database_uri, WTF_CSRF_ENABLED=False),
        make_app(tmp_path / "two", database_uri, WTF_CSRF_ENABLED=False),
    )
    yield apps
    for app in apps:
        _dispose(app)


def _finished_game(app: Flask) -> str:
    from scorekeeper.rules import HouseRules, load_record, replay
    from scorekeeper.store.games import create_game, set_first, write_deals

    record = json.loads((DATA / "turkish-king-complete.json").read_text(encoding="utf-8"))
    game = load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game
    with app.app_context():
        row = create_game(game.kind, game.mode, list(game.players), HouseRules(), None)
        set_first(row, game.first, row.version)
        write_deals(row, replay(game), row.version)
        token = row.token
        db.session.remove()
    return token


def _games(app: Flask) -> int:
    with app.app_context():
        count = db.session.execute(select(func.count()).select_from(GameRow)).scalar_one()
        db.session.remove()
    return int(count)


def _at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            results[index] = calls[index]()
        except BaseException as error:  # a 500 under TESTING is an exception
            results[index] = error

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_same_four_tapped_on_four_phones_at_once_starts_one_game(
    servers: tuple[Flask, Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.store import tables as store

    barrier = threading.Barrier(TAPS, timeout=60)
    original = store.rematch

    def together(*args: Any, **kwargs: Any) -> Any:  # every tap has read the finished game
        barrier.wait()  # now all at once
        return original(*args, **kwargs)

    monkeypatch.setattr(store, "rematch", together)
    for _ in range(ROUNDS):
        token = _finished_game(servers[0])
        before = _games(servers[0])
        clients = [servers[index % 2].test_client() for index in range(TAPS)]
        results = _at_once(
            [functools.partial(client.post, f"/g/{token}/again") for client in clients]
        )
        failed = [result for result in results if isinstance(result, BaseException)]
        assert not failed, failed
        assert [result.status_code for result in results] == [303] * TAPS
        assert len({result.headers["Location"] for result in results}) == 1
        assert _games(servers[0]) == before + 1
