"""Nothing lost, nothing twice: double taps, resubmitted forms and two phones on one game."""

from __future__ import annotations

from flask import Flask

from scorekeeper.rules import replay
from scorekeeper.store.db import db
from scorekeeper.store.games import StaleStateError, find_game, game_of, write_deals
from tests.conftest import Page, Phone, form_fields, page
from tests.security.helpers import TRIX_KINGDOM

KING, QUEENS, DIAMONDS, LTOOSH, TRIX = TRIX_KINGDOM


def started(phone: Phone, deals: int = 2) -> Phone:
    phone.new_game(first=0)
    for deal in TRIX_KINGDOM[:deals]:
        phone.enter(deal)
    return phone


def second_phone(app: Flask, phone: Phone) -> Phone:
    """Another phone at the same table, opening the same link."""
    other = type(phone)(app, app.test_client())
    other.token = phone.token
    return other


def flashes(phone: Phone) -> str:
    return " ".join(page(phone.client.get(phone.url)).text.split())


def deals_of(phone: Phone) -> list[dict[str, object]]:
    return list(phone.row().deals)


def test_double_tap_saves_one_deal(phone: Phone) -> None:
    started(phone)
    form = phone.open_deal("diamonds")
    first = phone.save(form, form_fields(DIAMONDS))
    second = phone.save(form, form_fields(DIAMONDS))
    assert first.status_code == second.status_code == 303
    assert second.headers["Location"] == first.headers["Location"]
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]
    shown = flashes(phone)
    assert "Deal 3 saved" in shown  # the saved state is shown, with no warning
    assert "another phone" not in shown


def test_double_tap_over_htmx_saves_one_deal(phone: Phone) -> None:
    """The deal page's form, submitted through htmx's boosted navigation three times."""
    started(phone)
    form = phone.open_deal("diamonds")
    data = {**form.checked("/deal"), **form_fields(DIAMONDS)}
    headers = {"HX-Request": "true", "HX-Boosted": "true", "X-CSRFToken": form.csrf_token}
    responses = [
        phone.client.post(f"{phone.url}/deal", data=data, headers=headers) for _ in range(3)
    ]
    assert all(response.status_code == 303 for response in responses)
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]


def test_resubmitting_an_old_form_after_more_deals_saves_nothing(phone: Phone) -> None:
    started(phone)
    form = phone.open_deal("diamonds")
    phone.save(form, form_fields(DIAMONDS))
    phone.enter(LTOOSH)
    again = phone.save(form, form_fields(DIAMONDS))  # the browser's back button, then submit
    assert again.status_code == 303
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS, LTOOSH]


def test_two_phones_enter_the_same_deal_differently(app: Flask, phone: Phone) -> None:
    """B saves after A with a form made for the same deal: refused, told, A's deal kept."""
    started(phone)
    phone_b = second_phone(app, phone)
    form_a = phone.open_deal("diamonds")
    form_b = phone_b.open_deal("ltoosh")
    assert phone.save(form_a, form_fields(DIAMONDS)).status_code == 303
    refused = phone_b.save(form_b, form_fields(LTOOSH))
    assert refused.status_code == 303
    shown = flashes(phone_b)
    assert "Deal 3 was already entered on another phone" in shown
    assert "Diamonds" in shown  # the current state: the deal A saved is in the history
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]
    assert phone_b.enter(LTOOSH).status_code == 200  # B enters the next deal afresh
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS, LTOOSH]


def test_two_phones_enter_the_same_deal_alike(app: Flask, phone: Phone) -> None:
    """Both phones typed the same deal: one is saved, B sees it, no warning needed."""
    started(phone)
    phone_b = second_phone(app, phone)
    form_a = phone.open_deal("diamonds")
    form_b = phone_b.open_deal("diamonds")
    phone.save(form_a, form_fields(DIAMONDS))
    phone_b.save(form_b, form_fields(DIAMONDS))
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]
    assert "already entered" not in flashes(phone_b)


def test_new_deal_against_a_stale_version_is_refused(app: Flask, phone: Phone) -> None:
    """A edits deal 1 while B enters deal 3: B's form is stale; B is told, A's edit kept."""
    started(phone)
    phone_b = second_phone(app, phone)
    form_b = phone_b.open_deal("diamonds")
    edited_king = {"contract": "king-of-hearts", "taker": 2}
    phone.edit(1, edited_king)
    refused = phone_b.save(form_b, form_fields(DIAMONDS))
    assert refused.status_code == 303
    assert "changed on another phone" in flashes(phone_b)
    assert deals_of(phone) == [edited_king, QUEENS]
    phone_b.enter(DIAMONDS)
    assert deals_of(phone) == [edited_king, QUEENS, DIAMONDS]


def test_edits_check_the_version(app: Flask, phone: Phone) -> None:
    """Two phones edit the same past deal: the second edit is refused, the first kept."""
    started(phone, deals=3)
    phone_b = second_phone(app, phone)
    form_a = phone.open_edit(1, "king-of-hearts")
    form_b = phone_b.open_edit(1, "king-of-hearts")
    assert (
        phone.save(form_a, form_fields({"contract": "king-of-hearts", "taker": 2})).status_code
        == 303
    )
    refused = phone_b.save(form_b, form_fields({"contract": "king-of-hearts", "taker": 3}))
    assert refused.status_code == 303
    assert "changed on another phone" in flashes(phone_b)
    assert deals_of(phone)[0] == {"contract": "king-of-hearts", "taker": 2}
    assert len(deals_of(phone)) == 3


def test_edit_racing_a_new_deal_loses_nothing(app: Flask, phone: Phone) -> None:
    started(phone)
    phone_b = second_phone(app, phone)
    form_b = phone_b.open_edit(2, "queens")
    phone.enter(DIAMONDS)
    phone_b.save(
        form_b, form_fields({"contract": "queens", "takers": {"S": 3, "H": 2, "D": 1, "C": 0}})
    )
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]
    assert "changed on another phone" in flashes(phone_b)


def _undo_fields(phone: Phone) -> dict[str, str]:
    return page(phone.game_page()).hidden("/undo")


def test_double_tap_on_undo_removes_one_deal(phone: Phone) -> None:
    started(phone, deals=3)
    fields = _undo_fields(phone)
    for _ in range(3):
        assert phone.client.post(f"{phone.url}/undo", data=fields).status_code == 303
    assert deals_of(phone) == [KING, QUEENS]


def test_stale_undo_removes_nothing(app: Flask, phone: Phone) -> None:
    """B taps undo on a page that predates A's new deal: A's deal stays."""
    started(phone)
    phone_b = second_phone(app, phone)
    fields_b = _undo_fields(phone_b)
    phone.enter(DIAMONDS)
    assert phone_b.client.post(f"{phone.url}/undo", data=fields_b).status_code == 303
    assert deals_of(phone) == [KING, QUEENS, DIAMONDS]
    assert "nothing was undone" in flashes(phone_b)


def test_stale_notes_are_refused(app: Flask, phone: Phone) -> None:
    started(phone)
    phone_b = second_phone(app, phone)
    fields_a = page(phone.game_page()).hidden("/notes")
    fields_b = page(phone_b.game_page()).hidden("/notes")
    phone.client.post(f"{phone.url}/notes", data={**fields_a, "notes": "A's notes"})
    phone_b.client.post(f"{phone.url}/notes", data={**fields_b, "notes": "B's notes"})
    assert phone.row().notes == "A's notes"
    assert "notes were not saved" in flashes(phone_b)


def test_first_chooser_is_chosen_once(app: Flask, phone: Phone) -> None:
    phone.new_game()
    phone_b = second_phone(app, phone)
    fields_a = page(phone.game_page()).hidden("/first")
    fields_b = page(phone_b.game_page()).hidden("/first")
    phone.client.post(f"{phone.url}/first", data={**fields_a, "seat": "2"})
    phone_b.client.post(f"{phone.url}/first", data={**fields_b, "seat": "3"})
    assert phone.row().first_chooser == 2
    assert "Someone else already started" in flashes(phone_b)


def test_store_refuses_a_write_against_an_old_version(app: Flask, phone: Phone) -> None:
    """The version check is in the UPDATE itself, so it holds across processes and hosts."""
    started(phone)
    with app.app_context():
        row = find_game(phone.token)
        assert row is not None
        game, old = game_of(row), row.version
        write_deals(row, replay(game), old)
        try:
            write_deals(row, replay(game), old)
        except StaleStateError:
            pass
        else:
            raise AssertionError("a write against an old version went through")
        assert find_game(phone.token).version == old + 1  # type: ignore[union-attr]
        db.session.remove()


def test_forms_carry_the_deal_number_and_version(phone: Phone) -> None:
    started(phone)
    form: Page = phone.open_deal("diamonds")
    hidden = form.hidden("/deal")
    assert hidden["number"] == "3"
    assert hidden["version"] == str(phone.row().version)


def test_save_from_before_an_undo_is_refused_with_a_message(app: Flask, phone: Phone) -> None:
    """B's form is for deal 4, but A undid deal 3 meanwhile: told, not a bare 400."""
    started(phone, deals=3)
    phone_b = second_phone(app, phone)
    form_b = phone_b.open_deal("ltoosh")
    phone.client.post(f"{phone.url}/undo", data=_undo_fields(phone))
    refused = phone_b.save(form_b, form_fields(LTOOSH))
    assert refused.status_code == 303
    assert "changed on another phone" in flashes(phone_b)
    assert deals_of(phone) == [KING, QUEENS]


def test_edit_of_an_undone_deal_is_refused_with_a_message(app: Flask, phone: Phone) -> None:
    started(phone, deals=3)
    phone_b = second_phone(app, phone)
    form_b = phone_b.open_edit(3, "diamonds")
    phone.client.post(f"{phone.url}/undo", data=_undo_fields(phone))
    refused = phone_b.save(form_b, form_fields({"contract": "diamonds", "counts": [1, 4, 4, 4]}))
    assert refused.status_code == 303
    assert "changed on another phone" in flashes(phone_b)
    assert deals_of(phone) == [KING, QUEENS]
