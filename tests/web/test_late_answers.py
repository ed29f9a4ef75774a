"""A save whose answer was lost (a timeout, a dropped connection): the page asks the server
what it holds before it says anything, and a second tap after a late success says so."""

from __future__ import annotations

from tests.conftest import Table, form_fields, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
OTHER = {"contract": "diamonds", "counts": [1, 4, 5, 3]}


def _check(table: Table, form, deal, why: str = "timeout"):  # type: ignore[no-untyped-def]
    data = {**form.checked("/deal"), **form_fields(deal), "why": why}
    return table.client.post(
        f"{table.url}/deal/check",
        data=data,
        headers={"HX-Request": "true", "X-CSRFToken": form.csrf_token},
    )


def test_nothing_saved_yet_is_said_and_nothing_is_stored(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    before = snapshot(table.app)
    answer = _check(table, form, DIAMONDS)
    assert answer.status_code == 200 and "HX-Redirect" not in answer.headers
    assert page(answer).text.strip() == "Not saved. No answer from the server. Try again."
    assert snapshot(table.app) == before
    busy = page(_check(table, form, DIAMONDS, why="server")).text.strip()
    assert busy == "Not saved. The server had a problem. Try again."


def test_a_late_success_is_found_and_said(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    assert table.save(form, form_fields(DIAMONDS)).status_code == 303  # its answer was lost
    table.client.get(table.url)  # (the flash of that lost answer is not what is tested)
    answer = _check(table, form, DIAMONDS)
    assert answer.headers["HX-Redirect"] == table.url
    assert "Deal 1 saved." in page(table.client.get(table.url)).text


def test_another_phones_deal_in_its_place_is_said(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    assert table.save(form, form_fields(OTHER)).status_code == 303
    table.client.get(table.url)
    answer = _check(table, form, DIAMONDS)
    assert answer.headers["HX-Redirect"] == table.url
    assert "Deal 1 was already entered on another phone" in page(table.client.get(table.url)).text


def test_a_correction_is_checked_too(table: Table) -> None:
    table.new_game("trix", "solo", first=1)
    table.enter(DIAMONDS)
    form = table.open_edit(1)
    assert "Not saved." in page(_check(table, form, OTHER)).text
    assert table.save(form, form_fields(OTHER)).status_code == 303
    table.client.get(table.url)
    assert _check(table, form, OTHER).headers["HX-Redirect"] == table.url
    assert "Deal 1 changed." in page(table.client.get(table.url)).text


def test_save_tapped_again_after_a_late_success_says_saved(table: Table) -> None:
    """Not silence: the deal is in the game, and the page says so."""
    table.new_game("trix", "solo", first=1)
    form = table.open_deal("diamonds")
    assert table.save(form, form_fields(DIAMONDS)).status_code == 303
    table.client.get(table.url)  # the late answer's page was never seen
    again = table.save(form, form_fields(DIAMONDS))
    assert again.status_code == 303
    assert "Deal 1 saved." in page(table.client.get(again.headers["Location"])).text
    assert table.row().deal_count == 1
