"""'Same four again' on a finished game outside a table (issue 24 item 5): one tap starts the
next game with the same players, game, mode and house rules, asking only who is first."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Phone, page

DATA = Path(__file__).resolve().parent.parent / "data"


def _finished(phone: Phone, name: str = "trix-complex-partnership-complete") -> None:
    phone.load(json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")))


def _tap(phone: Phone):  # type: ignore[no-untyped-def]
    fields = page(phone.game_page()).hidden("/again")
    return phone.client.post(f"{phone.url}/again", data=fields)


def test_one_tap_starts_the_same_four_asking_only_who_is_first(phone: Phone) -> None:
    _finished(phone)
    before = phone.row()
    assert "Same four again" in page(phone.game_page()).text
    answer = _tap(phone)
    assert answer.status_code == 303
    phone.token = answer.headers["Location"].rsplit("/", 1)[-1]
    after = phone.row()
    assert after.token != before.token and after.table_id is None
    assert (after.players, after.game, after.mode, after.house_rules) == (
        before.players,
        before.game,
        before.mode,
        before.house_rules,
    )
    assert after.first_chooser is None and after.deal_count == 0
    shown = page(phone.game_page()).text
    assert all(name in shown for name in before.players)
    assert "declares first" in shown or "7♥" in shown  # who is first: the only question


def test_tapped_again_goes_to_the_same_next_game(phone: Phone) -> None:
    _finished(phone, "turkish-king-complete")
    finished = phone.token
    first = _tap(phone)
    phone.token = finished
    second = _tap(phone)
    assert first.headers["Location"] == second.headers["Location"]
    shown = page(phone.client.get(second.headers["Location"])).text
    assert "has already started" in shown


def test_only_a_finished_game_and_never_a_tables(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    assert "Same four again" not in page(phone.game_page()).text
    refused = phone.client.post(f"{phone.url}/again", data={"csrf_token": phone.csrf()})
    assert refused.status_code == 400
