"""A kept deal undone on the phone while it may have been on its way: its key withdrawn.

The phone sends `{"key", "number", "withdraw": true}`; the server takes the key for good with
nothing stored (a late copy of the deal is refused), or says the deal was stored first and the
entries after it wait for the person. Never "Deal N saved." for a deal the person undid."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.store import deals as store_deals
from scorekeeper.store import entries as store_entries
from scorekeeper.store.db import db
from scorekeeper.store.models import EntryRow
from tests.conftest import Phone, form_fields, snapshot
from tests.reliability.test_races import at_once
from tests.reliability.test_saves import second_phone
from tests.rules.builders import FULL_GAME
from tests.web.test_sync import KEYS, PENDING, chain, sync


@pytest.fixture
def three_deals(phone: Phone) -> Phone:
    phone.new_game("trix", "solo", first=0)
    for deal in FULL_GAME["trix"][:3]:
        phone.enter(deal)
    return phone


def withdrawal(key: str, number: int) -> dict[str, Any]:
    return {"key": key, "number": number, "withdraw": True}


def test_a_withdrawn_key_is_never_stored_later(three_deals: Phone) -> None:
    phone = three_deals
    base = phone.row().version
    answer = sync(phone, {"entries": [withdrawal(KEYS[0], 4)]}).get_json()
    assert [r["outcome"] for r in answer["results"]] == ["withdrawn"]
    assert answer["results"][0]["message"] == "Deal 4 undone."
    assert answer["version"] == base and answer["deals"] == 3
    # the deal's own copy comes late (a sync whose answer was lost, sent again): not stored
    before = snapshot(phone.app)
    late = sync(phone, {"entries": chain(PENDING, 4, base, KEYS)}).get_json()
    first, *rest = late["results"]
    assert first["outcome"] == "withdrawn" and "saved" not in first["message"]
    assert late["deals"] == 3
    # (the withdrawn one stored nothing; those after it were based on it: the phone looks again)
    assert all(r["outcome"] in ("stale", "waiting", "withdrawn") for r in rest), rest
    assert snapshot(phone.app) == before
    # withdrawn twice: the same answer, nothing changed
    again = sync(phone, {"entries": [withdrawal(KEYS[0], 4)]}).get_json()
    assert [r["outcome"] for r in again["results"]] == ["withdrawn"]
    assert snapshot(phone.app) == before


def test_a_late_form_save_of_a_withdrawn_key_is_refused(three_deals: Phone) -> None:
    """The deal's own save (its form's request, answer lost) arriving after the withdrawal."""
    phone = three_deals
    form = phone.open_deal(PENDING[0]["contract"])
    key = form.hidden("/deal")["entry_key"]
    sync(phone, {"entries": [withdrawal(key, 4)]})
    answer = phone.save(form, form_fields(PENDING[0]))
    assert phone.row().deal_count == 3
    text = phone.client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "was undone on this phone before it reached the server" in text


def test_a_withdrawal_after_the_deal_was_stored_says_so_and_the_rest_wait(
    three_deals: Phone,
) -> None:
    phone = three_deals
    base = phone.row().version
    pending = chain(PENDING, 4, base, KEYS)
    stored = sync(phone, {"entries": pending[:1]}).get_json()
    assert stored["results"][0]["outcome"] == "stored"
    # the person undid deal 4 on the phone while that sync was in flight, and kept a new deal 4
    later = {"key": KEYS[9], "number": 4, "base": base, "deal": PENDING[1]}
    answer = sync(phone, {"entries": [withdrawal(KEYS[0], 4), later]}).get_json()
    too_late, waiting = answer["results"]
    assert too_late["outcome"] == "too-late" and too_late["number"] == 4
    assert too_late["message"].startswith("Deal 4 reached the server before your undo")
    assert waiting["outcome"] == "waiting"
    assert answer["deals"] == 4


@pytest.mark.parametrize(
    "body",
    [
        {"entries": [{"key": KEYS[0], "number": 4, "withdraw": False}]},
        {"entries": [{"key": KEYS[0], "number": 4, "withdraw": 1}]},
        {"entries": [{"key": KEYS[0], "withdraw": True}]},
        {"entries": [{"key": "nope", "number": 4, "withdraw": True}]},
        {"entries": [{"key": KEYS[0], "number": 4, "withdraw": True, "deal": {}}]},
        {"entries": [withdrawal(KEYS[0], 4), withdrawal(KEYS[0], 4)]},
    ],
)
def test_a_wrong_withdrawal_is_refused_whole(three_deals: Phone, body: Any) -> None:
    before = snapshot(three_deals.app)
    answer = sync(three_deals, body)
    assert answer.status_code == 400 and answer.get_json()["error"]
    assert snapshot(three_deals.app) == before


def test_a_withdrawal_and_the_deal_itself_at_once_have_one_outcome(
    app: Flask, three_deals: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal's sync and its withdrawal from a second sender, each held until both have
    looked for the key: the database's unique key decides; the deal is stored exactly when the
    withdrawal is told it came too late."""
    phone = three_deals
    other = second_phone(app, phone)
    base = phone.row().version
    barrier = threading.Barrier(2, timeout=10)
    looked: Callable[..., Any] = store_entries.find_entry
    written: Callable[..., Any] = store_deals.write_deals
    held = threading.local()

    def once() -> None:
        if not getattr(held, "done", False):
            held.done = True
            barrier.wait()

    def find_then_wait(*args: Any, **kwargs: Any) -> Any:
        found = looked(*args, **kwargs)  # (the withdrawal found no entry yet)
        once()
        return found

    def wait_then_write(*args: Any, **kwargs: Any) -> Any:
        once()  # (the deal judged, about to be written)
        return written(*args, **kwargs)

    monkeypatch.setattr(store_entries, "find_entry", find_then_wait)
    monkeypatch.setattr(store_deals, "write_deals", wait_then_write)
    entry = {"key": KEYS[0], "number": 4, "base": base, "deal": PENDING[0]}
    sent, withdrawn = at_once(
        lambda: sync(phone, {"entries": [entry]}),
        lambda: sync(other, {"entries": [withdrawal(KEYS[0], 4)]}),
    )
    first = sent.get_json()["results"][0]["outcome"]
    second = withdrawn.get_json()["results"][0]["outcome"]
    with app.app_context():
        kinds = db.session.execute(select(EntryRow.kind).where(EntryRow.key == KEYS[0])).all()
        db.session.remove()
    deals = phone.row().deal_count
    assert len(kinds) == 1
    if kinds[0][0] == "withdrawn":
        assert (first, second, deals) == ("withdrawn", "withdrawn", 3)
    else:
        assert (first, second, deals) == ("stored", "too-late", 4)
