"""A save whose answer was lost (a timeout, a dropped connection): the page asks the server by
the form's key what became of it before it says anything, and whatever asks again (the save
tapped again, the poll following other phones, a tap, "enter these taps as the next deal")
finds the phone's own save by its key: never "another phone's", never offered again."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Page, Phone, form_fields, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
OTHER = {"contract": "diamonds", "counts": [1, 4, 5, 3]}
THIRD = {"contract": "diamonds", "counts": [5, 4, 3, 1]}
HTMX = {"HX-Request": "true"}


def _check(phone: Phone, form: Page, deal: dict[str, Any], why: str = "timeout") -> Any:
    data = {**form.checked("/deal"), **form_fields(deal), "why": why}
    return phone.client.post(
        f"{phone.url}/deal/check", data=data, headers={**HTMX, "X-CSRFToken": form.csrf_token}
    )


def _said(phone: Phone) -> str:
    return page(phone.client.get(phone.url)).text


def _lost_save(phone: Phone, form: Page, deal: dict[str, Any]) -> None:
    """Save; the answer never reaches the phone (nor its page, nor its message)."""
    assert phone.save(form, form_fields(deal)).status_code == 303
    phone.client.get(phone.url)


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


@pytest.mark.parametrize("asked_with", [DIAMONDS, OTHER], ids=["same taps", "a chip changed"])
def test_a_late_success_is_found_by_its_key(phone: Phone, asked_with: dict[str, Any]) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    _lost_save(phone, form, DIAMONDS)
    answer = _check(phone, form, asked_with)
    assert answer.headers["HX-Redirect"] == phone.url
    said = _said(phone)
    assert "Deal 1 is in the game." in said and "another phone" not in said
    assert phone.row().deals == [DIAMONDS]


def test_another_phones_deal_in_its_place_is_said(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form, other_phones = phone.open_deal("diamonds"), phone.open_deal("diamonds")
    _lost_save(phone, other_phones, OTHER)
    assert _check(phone, form, DIAMONDS).headers["HX-Redirect"] == phone.url
    assert "Deal 1 was already entered on another phone" in _said(phone)


def test_another_phones_same_deal_in_its_place_is_in_the_game(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form, other_phones = phone.open_deal("diamonds"), phone.open_deal("diamonds")
    _lost_save(phone, other_phones, DIAMONDS)
    assert _check(phone, form, DIAMONDS).headers["HX-Redirect"] == phone.url
    assert "Deal 1 is in the game." in _said(phone)


def test_a_correction_is_checked_by_its_key(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    phone.enter(DIAMONDS)
    form = phone.open_edit(1)
    assert "Not saved." in page(_check(phone, form, OTHER)).text
    _lost_save(phone, form, OTHER)
    # asked with a chip changed while the answer was awaited: nobody else touched deal 1
    assert _check(phone, form, THIRD).headers["HX-Redirect"] == phone.url
    said = _said(phone)
    assert "Deal 1 changed." in said and "another phone" not in said
    assert phone.row().deals == [OTHER]


def test_a_late_success_changed_on_another_phone_since_is_said_so(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    _lost_save(phone, form, DIAMONDS)
    phone.edit(1, OTHER)  # another phone corrected it
    phone.client.get(phone.url)
    assert _check(phone, form, DIAMONDS).headers["HX-Redirect"] == phone.url
    said = _said(phone)
    assert "Deal 1 was saved from this phone, then changed on another phone." in said
    assert "already entered" not in said


@pytest.mark.parametrize("tapped", [DIAMONDS, OTHER], ids=["same taps", "a chip changed"])
def test_save_tapped_again_after_a_late_success_says_it_is_in_the_game(
    phone: Phone, tapped: dict[str, Any]
) -> None:
    """Not silence, and no second deal: the deal is in the game, and the page says so."""
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    _lost_save(phone, form, DIAMONDS)
    phone.enter({"contract": "ltoosh", "tricks": [4, 3, 3, 3]})  # the game moved on since
    again = phone.save(form, form_fields(tapped))
    assert again.status_code == 303
    said = page(phone.client.get(again.headers["Location"])).text
    assert "Deal 1 is in the game." in said and "another phone" not in said
    assert phone.row().deal_count == 2


@pytest.fixture
def deal_four(phone: Phone) -> tuple[Phone, Page]:
    """A game of three deals; this phone's deal 4 was saved, its answer lost (the issue's
    case: answer after 12 s, the question after it slow too)."""
    phone.new_game("trix", "solo", first=0)
    for deal in (
        {"contract": "king-of-hearts", "taker": 1},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}},
        {"contract": "ltoosh", "tricks": [4, 3, 3, 3]},
    ):
        phone.enter(deal)
    form = phone.open_deal("diamonds")
    _lost_save(phone, form, DIAMONDS)
    return phone, form


def test_the_poll_following_other_phones_finds_its_own_late_save(
    deal_four: tuple[Phone, Page],
) -> None:
    phone, form = deal_four
    key = form.hidden("/deal")["entry_key"]
    poll = phone.client.get(
        f"{phone.url}/live",
        query_string={"v": "old", "number": "4", "entry_key": key},
        headers=HTMX,
    )
    assert poll.status_code == 200 and poll.headers["HX-Redirect"] == phone.url
    assert "Enter these taps as the next deal" not in poll.get_data(as_text=True)
    said = _said(phone)
    assert "Deal 4 is in the game." in said and "another phone" not in said
    assert phone.row().deal_count == 4


def test_the_poll_still_says_when_another_phone_saved_that_deal(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form, other_phones = phone.open_deal("diamonds"), phone.open_deal("diamonds")
    _lost_save(phone, other_phones, OTHER)
    key = form.hidden("/deal")["entry_key"]
    poll = phone.client.get(
        f"{phone.url}/live",
        query_string={"v": "old", "number": "1", "entry_key": key},
        headers=HTMX,
    )
    html = poll.get_data(as_text=True)
    assert "HX-Redirect" not in poll.headers
    assert "Deal 1 was saved on another phone" in html and "Enter these taps" in html


@pytest.mark.parametrize("path", ["/deal/preview", "/deal/carry"])
def test_a_tap_or_a_carry_on_a_form_whose_save_is_in_finds_it(
    deal_four: tuple[Phone, Page], path: str
) -> None:
    phone, form = deal_four
    before = snapshot(phone.app)
    data = {**form.checked("/deal"), **form_fields(OTHER)}
    answer = phone.client.post(
        phone.url + path, data=data, headers={**HTMX, "X-CSRFToken": form.csrf_token}
    )
    assert answer.headers["HX-Redirect"] == phone.url
    assert snapshot(phone.app) == before
    said = _said(phone)
    assert "Deal 4 is in the game." in said and "another phone" not in said


def test_a_key_of_another_game_is_not_found_there(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    _lost_save(phone, form, DIAMONDS)
    first = phone.token
    phone.new_game("trix", "solo", first=1)  # the same version, no deal yet
    assert phone.token != first
    answer = _check(phone, form, DIAMONDS)
    assert "HX-Redirect" not in answer.headers
    assert page(answer).text.strip().startswith("Not saved.")


@pytest.mark.parametrize(
    "key",
    [
        "not-a-key",
        "0B5C8A52-7F3E-4C1D-9A6B-2F4E8D1C7A90",
        "0b5c8a52-7f3e-1c1d-9a6b-2f4e8d1c7a90",
        "0b5c8a527f3e4c1d9a6b2f4e8d1c7a90",
        "0b5c8a52-7f3e-4c1d-9a6b-2f4e8d1c7a90 ",
        "x" * 5000,
    ],
    ids=["words", "capitals", "version 1", "no hyphens", "a space after", "5,000 letters"],
)
@pytest.mark.parametrize("path", ["/deal", "/deal/check", "/deal/preview", "/deal/carry"])
def test_a_malformed_key_is_a_400(phone: Phone, key: str, path: str) -> None:
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    before = snapshot(phone.app)
    data = {**form.checked("/deal"), **form_fields(DIAMONDS), "entry_key": key}
    answer = phone.client.post(
        phone.url + path, data=data, headers={**HTMX, "X-CSRFToken": form.csrf_token}
    )
    assert answer.status_code == 400
    assert snapshot(phone.app) == before


def test_a_form_without_an_entry_key_is_refused(phone: Phone) -> None:
    """Every form the app renders has an entry key (no deployment predates them): a form
    without one is a tampered form, refused with nothing saved, its question too."""
    phone.new_game("trix", "solo", first=1)
    form = phone.open_deal("diamonds")
    data = {**form.checked("/deal"), **form_fields(DIAMONDS)}
    del data["entry_key"]
    before = snapshot(phone.app)
    assert phone.client.post(f"{phone.url}/deal", data=data).status_code == 400
    for blank in ({}, {"entry_key": ""}):
        check = phone.client.post(
            f"{phone.url}/deal/check",
            data={**data, **blank, "why": "timeout"},
            headers={**HTMX, "X-CSRFToken": form.csrf_token},
        )
        assert check.status_code == 400
    assert snapshot(phone.app) == before and phone.row().deals == []
