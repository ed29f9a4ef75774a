"""A second phone's form the game moved on under (issue 24 item 8): Save no longer looks
saveable, and one tap makes its taps the next deal's, judged again there."""

from __future__ import annotations

import re

from tests.conftest import Page, Phone, form_fields, page

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}
HTMX = {"HX-Request": "true"}


def _stale_form(phone: Phone, contract: str) -> Page:
    """Deal 2's form for `contract`, opened before another phone saved deal 2 (diamonds)."""
    phone.new_game("trix", "solo", first=1)
    phone.enter({"contract": "queens", "takers": {"S": 0, "H": 2, "D": 2, "C": 3}})
    form = phone.open_deal(contract)
    phone.enter(DIAMONDS)  # the other phone
    return form


def _post(phone: Phone, form: Page, path: str, deal: dict[str, object]):  # type: ignore[no-untyped-def]
    data = {**form.checked("/deal"), **form_fields(deal)}
    return phone.client.post(
        f"{phone.url}/deal/{path}", data=data, headers={**HTMX, "X-CSRFToken": form.csrf_token}
    )


def test_an_out_of_date_form_cannot_look_saveable(phone: Phone) -> None:
    form = _stale_form(phone, "ltoosh")
    html = _post(phone, form, "preview", LTOOSH).get_data(as_text=True)
    save = re.search(r'<button[^>]*id="deal-save"[^>]*>', html)
    assert save and "disabled" in save.group(0) and "primary" not in save.group(0)
    assert "Enter these taps as the next deal" in html
    current = phone.open_deal("ltoosh")  # a form made after the save: nothing to move
    fresh = _post(phone, current, "preview", LTOOSH).get_data(as_text=True)
    assert "Enter these taps as the next deal" not in fresh


def test_one_tap_moves_the_taps_to_the_next_deal_and_saves_there(phone: Phone) -> None:
    form = _stale_form(phone, "ltoosh")
    moved = _post(phone, form, "carry", LTOOSH)
    assert moved.status_code == 200
    again = Page(moved.get_data(as_text=True))
    fields = again.checked("/deal")
    assert fields["number"] == "3" and fields["version"] == str(phone.row().version)
    assert {name: fields[name] for name in form_fields(LTOOSH) if name != "contract"} == {
        name: value for name, value in form_fields(LTOOSH).items() if name != "contract"
    }
    save = re.search(r'<button[^>]*id="deal-save"[^>]*>', moved.get_data(as_text=True))
    assert save and "disabled" not in save.group(0)  # judged again: a legal deal 3
    saved = phone.client.post(
        f"{phone.url}/deal",
        data={**fields, **form_fields(LTOOSH)},
        headers={**HTMX, "X-CSRFToken": form.csrf_token},
    )
    assert saved.status_code == 200 and "Deal 3 saved." in saved.get_data(as_text=True)
    assert phone.row().deal_count == 3
    assert phone.record().game.deals[2].values["tricks"] == (4, 3, 3, 3)


def test_a_contract_no_longer_open_is_said_and_nothing_is_saved(phone: Phone) -> None:
    form = _stale_form(phone, "diamonds")  # the other phone played diamonds as deal 2
    before = phone.row().deal_count
    answer = _post(phone, form, "carry", DIAMONDS)
    assert answer.headers["HX-Redirect"] == phone.url
    assert "cannot be chosen now" in page(phone.client.get(phone.url)).text
    assert phone.row().deal_count == before


def test_the_carried_form_says_save_is_still_needed(phone: Phone) -> None:
    """Issue 44 item 6: the form the taps move to looked like the saved deal; it says they are
    not saved yet, and which button saves them, in the reader's words."""
    form = _stale_form(phone, "ltoosh")
    said = Page(_post(phone, form, "carry", LTOOSH).get_data(as_text=True)).text
    assert "Not saved yet: your taps are now deal 3. Check them, then tap “Save deal”." in said
    fresh = Page(phone.client.get(f"{phone.url}/deal?contract=ltoosh").get_data(as_text=True))
    assert "Not saved yet" not in fresh.text  # a form opened as usual says nothing of it
    plain = phone.client.post(  # without JavaScript: the same words on the page
        f"{phone.url}/deal/carry", data={**form.checked("/deal"), **form_fields(LTOOSH)}
    )
    assert "Not saved yet: your taps are now deal 3." in Page(plain.get_data(as_text=True)).text


def test_the_carried_form_says_it_in_arabic_with_a_hand(phone: Phone) -> None:
    """Turkish King's deal is a hand (يد) in Arabic."""
    phone.new_game("turkish-king", "solo", first=0)
    form = phone.open_deal("no-king")
    phone.enter({"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]})  # the other phone
    answer = phone.client.post(
        f"{phone.url}/deal/carry?lang=ar",
        data={**form.checked("/deal"), **form_fields({"contract": "no-king", "taker": 2})},
        headers={**HTMX, "X-CSRFToken": form.csrf_token},
    )
    assert (
        "لم تُحفظ بعد: اختياراتك الآن لليد 2. راجعها ثم انقر «حفظ اليد»."
        in Page(answer.get_data(as_text=True)).text
    )
