"""'Same four again' on a finished game outside a table (issue 24 item 5): one tap starts the
next game with the same players, game, mode and house rules, asking only who is first."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Table, page

DATA = Path(__file__).resolve().parent.parent / "data"


def _finished(table: Table, name: str = "trix-complex-partnership-complete") -> None:
    table.load(json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")))


def _tap(table: Table):  # type: ignore[no-untyped-def]
    fields = page(table.game_page()).hidden("/again")
    return table.client.post(f"{table.url}/again", data=fields)


def test_one_tap_starts_the_same_four_asking_only_who_is_first(table: Table) -> None:
    _finished(table)
    before = table.row()
    assert "Same four again" in page(table.game_page()).text
    answer = _tap(table)
    assert answer.status_code == 303
    table.token = answer.headers["Location"].rsplit("/", 1)[-1]
    after = table.row()
    assert after.token != before.token and after.table_id is None
    assert (after.players, after.game, after.mode, after.house_rules) == (
        before.players,
        before.game,
        before.mode,
        before.house_rules,
    )
    assert after.first is None and after.deal_count == 0
    shown = page(table.game_page()).text
    assert all(name in shown for name in before.players)
    assert "declares first" in shown or "7♥" in shown  # who is first: the only question


def test_tapped_again_goes_to_the_same_next_game(table: Table) -> None:
    _finished(table, "turkish-king-complete")
    finished = table.token
    first = _tap(table)
    table.token = finished
    second = _tap(table)
    assert first.headers["Location"] == second.headers["Location"]
    shown = page(table.client.get(second.headers["Location"])).text
    assert "has already started" in shown


def test_only_a_finished_game_and_never_a_tables(table: Table) -> None:
    table.new_game("trix", "solo", first=0)
    assert "Same four again" not in page(table.game_page()).text
    refused = table.client.post(f"{table.url}/again", data={"csrf_token": table.csrf()})
    assert refused.status_code == 400
