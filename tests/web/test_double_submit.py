"""A save tapped twice (or resent by the browser) stores one deal; so does an undo."""

from __future__ import annotations

from tests.conftest import Phone, form_fields, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}


def test_same_save_posted_twice_stores_one_deal(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    first = phone.save(form, form_fields(DIAMONDS))
    assert first.status_code == 303
    after_first = snapshot(phone.app)
    second = phone.save(form, form_fields(DIAMONDS))
    assert second.status_code == 303
    assert snapshot(phone.app) == after_first
    assert phone.row().deal_count == 1
    shown = page(phone.client.get(second.headers["Location"])).text
    assert "already entered" not in shown  # the same deal: nothing to warn about


def test_different_deal_for_the_same_number_is_not_saved_and_says_so(phone: Phone) -> None:
    """Two phones entering deal 1 (two forms, two keys): the second phone's different entry
    is refused."""
    phone.new_game("trix", "solo", first=1)
    form, other_form = phone.open_deal("diamonds"), phone.open_deal("diamonds")
    assert phone.save(form, form_fields(DIAMONDS)).status_code == 303
    before = snapshot(phone.app)
    other = phone.save(other_form, form_fields({"contract": "diamonds", "counts": [1, 4, 5, 3]}))
    assert other.status_code == 303
    assert snapshot(phone.app) == before
    shown = page(phone.client.get(other.headers["Location"])).text
    assert "Deal 1 was already entered on another phone" in shown


def test_a_save_sent_again_with_a_chip_changed_is_its_own(phone: Phone) -> None:
    """The same form (its key) sent again after a chip was changed: its first save is the
    deal in the game, said so, never another phone's, and nothing is stored again."""
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    assert phone.save(form, form_fields(DIAMONDS)).status_code == 303
    phone.client.get(phone.url)  # (that answer's page was never seen)
    before = snapshot(phone.app)
    again = phone.save(form, form_fields({"contract": "diamonds", "counts": [1, 4, 5, 3]}))
    assert again.status_code == 303 and snapshot(phone.app) == before
    shown = page(phone.client.get(again.headers["Location"])).text
    assert "Deal 1 is in the game." in shown and "another phone" not in shown


def test_same_edit_posted_twice_changes_once(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    form = phone.open_edit(1)
    changed = form_fields({"contract": "diamonds", "counts": [1, 4, 5, 3]})
    assert phone.save(form, changed).status_code == 303
    after = snapshot(phone.app)
    again = phone.save(form, changed)
    assert again.status_code == 303
    assert snapshot(phone.app) == after
    shown = page(phone.client.get(again.headers["Location"])).text
    assert "another phone" not in shown  # the same change: nothing to warn about
    assert phone.record().game.deals[0].values["counts"] == (1, 4, 5, 3)


def test_undo_tapped_twice_removes_one_deal(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    phone.enter({"contract": "ltoosh", "tricks": [4, 3, 3, 3]})
    fields = page(phone.game_page()).hidden("/undo")
    assert phone.client.post(f"{phone.url}/undo", data=fields).status_code == 303
    after = snapshot(phone.app)
    assert phone.client.post(f"{phone.url}/undo", data=fields).status_code == 303
    assert snapshot(phone.app) == after
    assert phone.row().deal_count == 1


def test_choosing_the_first_seat_twice_keeps_the_first_choice(phone: Phone) -> None:
    phone.new_game("turkish-king", "solo")
    fields = page(phone.game_page()).hidden("/first")
    assert phone.client.post(f"{phone.url}/first", data={**fields, "seat": "2"}).status_code == 303
    assert phone.client.post(f"{phone.url}/first", data={**fields, "seat": "3"}).status_code == 303
    assert phone.row().first_chooser == 2
