"""A save tapped twice (or resent by the browser) stores one deal; so does an undo."""

from __future__ import annotations

from tests.conftest import Table, form_fields, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}


def test_same_save_posted_twice_stores_one_deal(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    first = table.save(form, form_fields(DIAMONDS))
    assert first.status_code == 303
    after_first = snapshot(table.app)
    second = table.save(form, form_fields(DIAMONDS))
    assert second.status_code == 303
    assert snapshot(table.app) == after_first
    assert table.row().deal_count == 1
    shown = page(table.client.get(second.headers["Location"])).text
    assert "already entered" not in shown  # the same deal: nothing to warn about


def test_different_deal_for_the_same_number_is_not_saved_and_says_so(table: Table) -> None:
    """Two phones entering deal 1: the second phone's different entry is refused."""
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    assert table.save(form, form_fields(DIAMONDS)).status_code == 303
    before = snapshot(table.app)
    other = table.save(form, form_fields({"contract": "diamonds", "counts": [1, 4, 5, 3]}))
    assert other.status_code == 303
    assert snapshot(table.app) == before
    shown = page(table.client.get(other.headers["Location"])).text
    assert "Deal 1 was already entered on another phone" in shown


def test_same_edit_posted_twice_changes_once(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    table.enter(DIAMONDS)
    form = table.open_edit(1)
    changed = form_fields({"contract": "diamonds", "counts": [1, 4, 5, 3]})
    assert table.save(form, changed).status_code == 303
    after = snapshot(table.app)
    again = table.save(form, changed)
    assert again.status_code == 303
    assert snapshot(table.app) == after
    shown = page(table.client.get(again.headers["Location"])).text
    assert "another phone" not in shown  # the same change: nothing to warn about
    assert table.record().game.deals[0].values["counts"] == (1, 4, 5, 3)


def test_undo_tapped_twice_removes_one_deal(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    table.enter(DIAMONDS)
    table.enter({"contract": "ltoosh", "tricks": [4, 3, 3, 3]})
    fields = page(table.game_page()).hidden("/undo")
    assert table.client.post(f"{table.url}/undo", data=fields).status_code == 303
    after = snapshot(table.app)
    assert table.client.post(f"{table.url}/undo", data=fields).status_code == 303
    assert snapshot(table.app) == after
    assert table.row().deal_count == 1


def test_choosing_the_first_seat_twice_keeps_the_first_choice(table: Table) -> None:
    table.new_game("turkish-king", "solo")
    fields = page(table.game_page()).hidden("/first")
    assert table.client.post(f"{table.url}/first", data={**fields, "seat": "2"}).status_code == 303
    assert table.client.post(f"{table.url}/first", data={**fields, "seat": "3"}).status_code == 303
    assert table.row().first == 2
