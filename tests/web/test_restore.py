"""Undo sits under the next step, near the totals, and an undo can be taken back: "Deal 2 was
removed — Restore deal 2" puts the same deal back while nothing else changed since."""

from __future__ import annotations

from tests.conftest import Phone, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}


def _two_deals(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    phone.enter(LTOOSH)


def _restore(phone: Phone) -> object:
    fields = page(phone.game_page()).hidden("/restore")
    return phone.client.post(f"{phone.url}/restore", data=fields)


def test_undo_is_near_the_totals_not_under_the_history(phone: Phone) -> None:
    _two_deals(phone)
    html = phone.game_page().get_data(as_text=True)
    assert html.index('id="undo"') < html.index('id="history"')
    assert html.index('id="play"') < html.index('id="undo"')
    assert "Restore" not in html  # nothing undone yet


def test_an_undone_deal_is_restored_as_it_was(phone: Phone) -> None:
    _two_deals(phone)
    before = phone.record().game.deals
    shown = page(phone.undo())
    assert "Deal 2 was removed." in shown.text
    assert shown.hidden("/restore")["number"] == "2"
    assert phone.row().deal_count == 1
    response = _restore(phone)
    assert response.status_code == 303
    after = page(phone.client.get(response.headers["Location"]))
    assert "Deal 2 restored." in after.text
    assert phone.record().game.deals == before
    assert "Restore" not in after.text and "Undo deal 2" in after.text


def test_restore_tapped_twice_puts_back_one_deal(phone: Phone) -> None:
    _two_deals(phone)
    phone.undo()
    fields = page(phone.game_page()).hidden("/restore")
    assert phone.client.post(f"{phone.url}/restore", data=fields).status_code == 303
    after = snapshot(phone.app)
    again = phone.client.post(f"{phone.url}/restore", data=fields)
    assert again.status_code == 303
    assert snapshot(phone.app) == after
    assert phone.row().deal_count == 2
    assert "not restored" not in page(phone.client.get(again.headers["Location"])).text


def test_no_restore_once_another_phone_changed_the_game(phone: Phone) -> None:
    _two_deals(phone)
    phone.undo()
    fields = page(phone.game_page()).hidden("/restore")
    other = Phone(phone.app, phone.app.test_client())
    other.token = phone.token
    other.enter({"contract": "king-of-hearts", "taker": 2})  # deal 2 is now another deal
    before = snapshot(phone.app)
    response = phone.client.post(f"{phone.url}/restore", data=fields)
    assert response.status_code == 303
    shown = page(phone.client.get(response.headers["Location"]))
    assert "deal 2 was not restored" in shown.text
    assert "Restore" not in shown.text  # not offered again: it may no longer fit
    assert snapshot(phone.app) == before
    assert phone.record().game.deals[1].contract == "king-of-hearts"
    assert "Restore" not in shown.text


def test_the_offer_goes_when_the_game_moves_on(phone: Phone) -> None:
    _two_deals(phone)
    phone.undo()
    phone.enter({"contract": "king-of-hearts", "taker": 2})
    assert "Restore" not in page(phone.game_page()).text


def test_restore_without_an_undo_changes_nothing(phone: Phone) -> None:
    _two_deals(phone)
    before = snapshot(phone.app)
    fields = {**page(phone.game_page()).hidden("/undo"), "number": "3"}
    response = phone.client.post(f"{phone.url}/restore", data=fields)
    assert response.status_code == 303
    assert snapshot(phone.app) == before


def test_restore_of_a_tampered_form_is_refused(phone: Phone) -> None:
    _two_deals(phone)
    phone.undo()
    fields = {**page(phone.game_page()).hidden("/restore"), "number": "x"}
    assert phone.client.post(f"{phone.url}/restore", data=fields).status_code == 400


def test_no_restore_once_another_phone_entered_and_undid_a_deal(phone: Phone) -> None:
    """The game has as many deals as the undo left, but it is not the game the undo left:
    another phone saved a deal and undid it since (its version moved on)."""
    _two_deals(phone)
    phone.undo()
    fields = page(phone.game_page()).hidden("/restore")
    other = Phone(phone.app, phone.app.test_client())
    other.token = phone.token
    other.enter({"contract": "king-of-hearts", "taker": 2})
    other.undo()
    assert phone.row().deal_count == 1
    assert "Restore" not in page(phone.game_page()).text  # not offered: it may no longer fit
    before = snapshot(phone.app)
    response = phone.client.post(f"{phone.url}/restore", data=fields)
    assert response.status_code == 303
    shown = page(phone.client.get(response.headers["Location"]))
    assert "deal 2 was not restored" in shown.text
    assert "Restore" not in shown.text  # not offered again: it may no longer fit
    assert snapshot(phone.app) == before


def test_the_first_deal_is_restored_too(phone: Phone) -> None:
    """Undo the game's only deal, then take the undo back: deal 1 is a deal like any other."""
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    before = phone.record().game.deals
    phone.undo()
    assert phone.row().deal_count == 0
    response = _restore(phone)
    assert response.status_code == 303
    assert "Deal 1 restored." in page(phone.client.get(response.headers["Location"])).text
    assert phone.record().game.deals == before
