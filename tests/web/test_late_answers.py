"""A save whose answer was lost (a timeout, a dropped connection): the page asks the server
what it holds before it says anything, and a second tap after a late success says so."""

from __future__ import annotations

from tests.conftest import Phone, form_fields, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
OTHER = {"contract": "diamonds", "counts": [1, 4, 5, 3]}


def _check(phone: Phone, form, deal, why: str = "timeout"):  # type: ignore[no-untyped-def]
    data = {**form.checked("/deal"), **form_fields(deal), "why": why}
    return phone.client.post(
        f"{phone.url}/deal/check",
        data=data,
        headers={"HX-Request": "true", "X-CSRFToken": form.csrf_token},
    )


def test_nothing_saved_yet_is_said_and_nothing_is_stored(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    before = snapshot(phone.app)
    answer = _check(phone, form, DIAMONDS)
    assert answer.status_code == 200 and "HX-Redirect" not in answer.headers
    assert page(answer).text.strip() == "Not saved. No answer from the server. Try again."
    assert snapshot(phone.app) == before
    busy = page(_check(phone, form, DIAMONDS, why="server")).text.strip()
    assert busy == "Not saved. The server had a problem. Try again."


def test_a_late_success_is_found_and_said(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    assert phone.save(form, form_fields(DIAMONDS)).status_code == 303  # its answer was lost
    phone.client.get(phone.url)  # (the flash of that lost answer is not what is tested)
    answer = _check(phone, form, DIAMONDS)
    assert answer.headers["HX-Redirect"] == phone.url
    assert "Deal 1 saved." in page(phone.client.get(phone.url)).text


def test_another_phones_deal_in_its_place_is_said(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    assert phone.save(form, form_fields(OTHER)).status_code == 303
    phone.client.get(phone.url)
    answer = _check(phone, form, DIAMONDS)
    assert answer.headers["HX-Redirect"] == phone.url
    assert "Deal 1 was already entered on another phone" in page(phone.client.get(phone.url)).text


def test_a_correction_is_checked_too(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    form = phone.open_edit(1)
    assert "Not saved." in page(_check(phone, form, OTHER)).text
    assert phone.save(form, form_fields(OTHER)).status_code == 303
    phone.client.get(phone.url)
    assert _check(phone, form, OTHER).headers["HX-Redirect"] == phone.url
    assert "Deal 1 changed." in page(phone.client.get(phone.url)).text


def test_save_tapped_again_after_a_late_success_says_saved(phone: Phone) -> None:
    """Not silence: the deal is in the game, and the page says so."""
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    assert phone.save(form, form_fields(DIAMONDS)).status_code == 303
    phone.client.get(phone.url)  # the late answer's page was never seen
    again = phone.save(form, form_fields(DIAMONDS))
    assert again.status_code == 303
    assert "Deal 1 saved." in page(phone.client.get(again.headers["Location"])).text
    assert phone.row().deal_count == 1
