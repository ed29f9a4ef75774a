"""One key sent twice at the same instant (a double submit, the `online` event and the retry
timer both syncing): both requests read the same game, both write at once (a barrier); one
write stands, the other is answered from the key — never "another phone", never "not saved",
never stored twice. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.store import deals as store_deals
from scorekeeper.store.db import db
from scorekeeper.store.models import EntryRow
from tests.conftest import Phone, form_fields
from tests.reliability.test_races import at_once, shown
from tests.reliability.test_saves import DIAMONDS, KING, QUEENS, second_phone, started
from tests.rules.builders import FULL_GAME

OTHER_DIAMONDS = {"contract": "diamonds", "counts": [1, 4, 5, 3]}
KEYS = [f"{index:08x}-3333-4333-b333-333333333333" for index in range(1, 8)]


def first_writes_together(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold each request's first write until both requests have judged their first entry
    against the same version: they write at once (later writes of a sync go on alone)."""
    barrier = threading.Barrier(2, timeout=10)
    original: Callable[..., Any] = store_deals.write_deals
    waited = threading.local()

    def together(*args: Any, **kwargs: Any) -> Any:
        if not getattr(waited, "done", False):
            waited.done = True
            barrier.wait()
        return original(*args, **kwargs)

    monkeypatch.setattr(store_deals, "write_deals", together)


def keys_stored(app: Flask, since: int) -> list[tuple[str, int]]:
    """The keys stored with deal `since` and after (the ones before: the set-up's)."""
    with app.app_context():
        rows = db.session.execute(
            select(EntryRow.key, EntryRow.number)
            .where(EntryRow.number >= since)
            .order_by(EntryRow.id)
        )
        found = [(key, number) for key, number in rows]
        db.session.remove()
    return found


def test_one_form_sent_twice_at_once_with_a_chip_changed_stores_one_deal(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same form (its key) sent twice at once, a chip changed in between: one deal, and
    both answers say it is in the game (the one that lost the race is its twin's)."""
    started(phone)
    twin = second_phone(app, phone)  # (a second browser session for the second request)
    form, twin_form = phone.open_deal("diamonds"), twin.open_deal("diamonds")
    key = form.hidden("/deal")["entry_key"]
    twin_fields = {**twin_form.checked("/deal"), **form_fields(OTHER_DIAMONDS), "entry_key": key}
    first_writes_together(monkeypatch)
    results = at_once(
        lambda: phone.save(form, form_fields(DIAMONDS)),
        lambda: twin.client.post(f"{twin.url}/deal", data=twin_fields),
    )
    assert [r.status_code for r in results] == [303, 303]
    stored = phone.row().deals
    assert stored[:2] == [KING, QUEENS] and stored[2] in (DIAMONDS, OTHER_DIAMONDS)
    assert len(stored) == 3
    assert keys_stored(app, 3) == [(key, 3)]
    texts = [shown(each) for each in (phone, twin)]
    assert sorted("Deal 3 saved." in text for text in texts) == [False, True]
    assert all("Deal 3 saved." in t or "Deal 3 is in the game." in t for t in texts), texts
    assert not any("another phone" in text or "not saved" in text for text in texts), texts


def test_one_sync_sent_twice_at_once_stores_each_deal_once(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    phone.new_game("trix", "solo", first=0)
    for deal in FULL_GAME["trix"][:3]:
        phone.enter(deal)
    base = phone.row().version
    pending = [
        {"key": key, "number": 4 + index, "deal": deal}
        | ({"base": base} if index == 0 else {"after": KEYS[index - 1]})
        for index, (key, deal) in enumerate(zip(KEYS, FULL_GAME["trix"][3:8], strict=False))
    ]
    body = json.dumps({"entries": pending})
    other = second_phone(app, phone)

    def sync(each: Phone) -> Any:
        token = each.csrf()
        return lambda: each.client.post(
            f"{each.url}/sync",
            data=body,
            headers={"Content-Type": "application/json", "X-CSRFToken": token},
        )

    first_writes_together(monkeypatch)
    results = at_once(sync(phone), sync(other))
    assert [r.status_code for r in results] == [200, 200]
    row = phone.row()
    assert row.deals == FULL_GAME["trix"][:8] and row.version == base + 5
    assert keys_stored(app, 4) == [(key, 4 + index) for index, key in enumerate(KEYS[:5])]
    for answer in (r.get_json() for r in results):
        assert {r["outcome"] for r in answer["results"]} <= {"stored", "kept"}, answer
        assert [r["version"] for r in answer["results"]] == [base + i for i in range(1, 6)]
    outcomes = [r["outcome"] for a in results for r in a.get_json()["results"]]
    # each deal stored by one of the two, once; the other told it is in the game
    assert (outcomes.count("stored"), outcomes.count("kept")) == (5, 5)
