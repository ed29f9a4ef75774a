"""Undo sits under the next step, near the totals, and an undo can be taken back: "Deal 2 was
removed — Restore deal 2" puts the same deal back while nothing else changed since."""

from __future__ import annotations

from tests.conftest import Table, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}


def _two_deals(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    table.enter(DIAMONDS)
    table.enter(LTOOSH)


def _restore(table: Table) -> object:
    fields = page(table.game_page()).hidden("/restore")
    return table.client.post(f"{table.url}/restore", data=fields)


def test_undo_is_near_the_totals_not_under_the_history(table: Table) -> None:
    _two_deals(table)
    html = table.game_page().get_data(as_text=True)
    assert html.index('id="undo"') < html.index('id="history"')
    assert html.index('id="play"') < html.index('id="undo"')
    assert "Restore" not in html  # nothing undone yet


def test_an_undone_deal_is_restored_as_it_was(table: Table) -> None:
    _two_deals(table)
    before = table.record().game.deals
    shown = page(table.undo())
    assert "Deal 2 was removed." in shown.text
    assert shown.hidden("/restore")["number"] == "2"
    assert table.row().deal_count == 1
    response = _restore(table)
    assert response.status_code == 303
    after = page(table.client.get(response.headers["Location"]))
    assert "Deal 2 restored." in after.text
    assert table.record().game.deals == before
    assert "Restore" not in after.text and "Undo deal 2" in after.text


def test_restore_tapped_twice_puts_back_one_deal(table: Table) -> None:
    _two_deals(table)
    table.undo()
    fields = page(table.game_page()).hidden("/restore")
    assert table.client.post(f"{table.url}/restore", data=fields).status_code == 303
    after = snapshot(table.app)
    again = table.client.post(f"{table.url}/restore", data=fields)
    assert again.status_code == 303
    assert snapshot(table.app) == after
    assert table.row().deal_count == 2
    assert "not restored" not in page(table.client.get(again.headers["Location"])).text


def test_no_restore_once_another_phone_changed_the_game(table: Table) -> None:
    _two_deals(table)
    table.undo()
    fields = page(table.game_page()).hidden("/restore")
    other = Table(table.app, table.app.test_client())
    other.token = table.token
    other.enter({"contract": "king-of-hearts", "taker": 2})  # deal 2 is now another deal
    before = snapshot(table.app)
    response = table.client.post(f"{table.url}/restore", data=fields)
    assert response.status_code == 303
    shown = page(table.client.get(response.headers["Location"]))
    assert "deal 2 was not restored" in shown.text
    assert "Restore" not in shown.text  # not offered again: it may no longer fit
    assert snapshot(table.app) == before
    assert table.record().game.deals[1].contract == "king-of-hearts"
    assert "Restore" not in shown.text


def test_the_offer_goes_when_the_game_moves_on(table: Table) -> None:
    _two_deals(table)
    table.undo()
    table.enter({"contract": "king-of-hearts", "taker": 2})
    assert "Restore" not in page(table.game_page()).text


def test_restore_without_an_undo_changes_nothing(table: Table) -> None:
    _two_deals(table)
    before = snapshot(table.app)
    fields = {**page(table.game_page()).hidden("/undo"), "number": "3"}
    response = table.client.post(f"{table.url}/restore", data=fields)
    assert response.status_code == 303
    assert snapshot(table.app) == before


def test_restore_of_a_tampered_form_is_refused(table: Table) -> None:
    _two_deals(table)
    table.undo()
    fields = {**page(table.game_page()).hidden("/restore"), "number": "x"}
    assert table.client.post(f"{table.url}/restore", data=fields).status_code == 400


def test_no_restore_once_another_phone_entered_and_undid_a_deal(table: Table) -> None:
    """The game has as many deals as the undo left, but it is not the game the undo left:
    another phone saved a deal and undid it since (its version moved on)."""
    _two_deals(table)
    table.undo()
    fields = page(table.game_page()).hidden("/restore")
    other = Table(table.app, table.app.test_client())
    other.token = table.token
    other.enter({"contract": "king-of-hearts", "taker": 2})
    other.undo()
    assert table.row().deal_count == 1
    assert "Restore" not in page(table.game_page()).text  # not offered: it may no longer fit
    before = snapshot(table.app)
    response = table.client.post(f"{table.url}/restore", data=fields)
    assert response.status_code == 303
    shown = page(table.client.get(response.headers["Location"]))
    assert "deal 2 was not restored" in shown.text
    assert "Restore" not in shown.text  # not offered again: it may no longer fit
    assert snapshot(table.app) == before


def test_the_first_deal_is_restored_too(table: Table) -> None:
    """Undo the game's only deal, then take the undo back: deal 1 is a deal like any other."""
    table.new_game("trix", "solo", first=1)
    table.enter(DIAMONDS)
    before = table.record().game.deals
    table.undo()
    assert table.row().deal_count == 0
    response = _restore(table)
    assert response.status_code == 303
    assert "Deal 1 restored." in page(table.client.get(response.headers["Location"])).text
    assert table.record().game.deals == before
