"""One URL, two answers: htmx gets the fragment, everyone else the page, and caches are told."""

from __future__ import annotations

import pytest

from tests.conftest import Page, Phone, form_fields, page

KING_OF_HEARTS = {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2}


@pytest.fixture
def started(phone: Phone) -> Phone:
    phone.new_game("trix", "partnership", first=0)
    return phone


def preview(phone: Phone, headers: dict[str, str]) -> tuple[int, str, str]:
    form = phone.open_deal("king-of-hearts")
    data = {**form.checked("/deal"), **form_fields(KING_OF_HEARTS)}
    response = phone.client.post(
        f"{phone.url}/deal/preview", data=data, headers={"X-CSRFToken": form.csrf_token, **headers}
    )
    return response.status_code, response.get_data(as_text=True), response.headers["Vary"]


def test_htmx_preview_is_a_fragment(started: Phone) -> None:
    status, html, vary = preview(started, {"HX-Request": "true"})
    assert status == 200
    assert "<html" not in html and "<body" not in html
    # only what a tap changes: no form, no chips the player tapped (the browser has them)
    assert "<form" not in html and 'name="taker"' not in html
    assert html.lstrip().startswith('<ol class="deal-scores">')
    assert "HX-Request" in vary
    # the engine's scores of the deal, and Save (out of band) enabled as it accepts the deal
    assert "−150" in html and "+75" in html
    assert (
        '<button type="submit" id="deal-save" class="button primary save" hx-swap-oob="true">'
    ) in html


def test_plain_preview_is_a_page(started: Phone) -> None:
    status, html, vary = preview(started, {})
    assert status == 200
    assert "<html" in html and 'id="deal-form"' in html
    assert "HX-Request" in vary


def test_boosted_preview_is_a_page(started: Phone) -> None:
    status, html, vary = preview(started, {"HX-Request": "true", "HX-Boosted": "true"})
    assert status == 200
    assert "<html" in html
    assert "HX-Request" in vary


def test_htmx_preview_of_a_partial_entry_keeps_save_disabled(started: Phone) -> None:
    form = started.open_deal("diamonds")
    response = started.preview(form, {"counts-0": "3", "counts-1": "4"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert 'class="button primary save" disabled hx-swap-oob="true"' in html
    assert "2 values left to tap." in Page(html).text


def test_a_page_without_javascript_does_not_show_a_count_it_cannot_keep_current(
    started: Phone,
) -> None:
    form = started.open_deal("diamonds")  # a plain GET, as a browser without JavaScript makes
    assert "left to tap" not in form.text


def test_htmx_preview_fills_in_the_last_count_and_the_fourth_place(started: Phone) -> None:
    """The rows the app filled in come back out of band, and only those."""
    form = started.open_deal("diamonds")
    response = started.preview(form, {"counts-0": "3", "counts-1": "4", "counts-2": "5"})
    html = response.get_data(as_text=True)
    assert Page(html).checked_radios() == {"counts-3": "1"}
    assert '<fieldset class="chip-row has-more" id="r-counts-3" hx-swap-oob="true">' in html
    form = started.open_deal("trix")
    response = started.preview(form, {"order-0": "2", "order-1": "0", "order-2": "3"})
    assert Page(response.get_data(as_text=True)).checked_radios() == {"order-3": "1"}
    response = started.preview(form, {"order-0": "2", "order-1": "0"})
    assert Page(response.get_data(as_text=True)).checked_radios() == {}


def test_htmx_preview_empties_the_messages_of_a_fixed_field(started: Phone) -> None:
    """Every field's message box comes back, so a message goes once its cause is fixed."""
    form = started.open_deal("diamonds")
    wrong = started.preview(
        form, {"counts-0": "3", "counts-1": "4", "counts-2": "4", "counts-3": "4"}
    ).get_data(as_text=True)
    box = wrong.split('id="e-counts"', 1)[1].split("</div>", 1)[0]
    assert "13" in box and 'role="alert"' in box
    fixed = started.preview(
        form, {"counts-0": "3", "counts-1": "4", "counts-2": "4", "counts-3": "2"}
    ).get_data(as_text=True)
    box = fixed.split('<div class="errors" id="e-counts" hx-swap-oob="true">', 1)[1]
    # the running sum, no message
    assert box.startswith('<p class="sum" dir="ltr">13 / 13</p></div>')


@pytest.mark.parametrize(
    "path", ["/", "/new", "/g/{token}", "/g/{token}/deal?contract=trix", "/g/nowhere"]
)
@pytest.mark.parametrize("htmx", [False, True])
def test_every_page_varies_on_hx_request(started: Phone, path: str, htmx: bool) -> None:
    headers = {"HX-Request": "true"} if htmx else {}
    response = started.client.get(path.format(token=started.token), headers=headers)
    assert response.status_code in (200, 404)
    assert "HX-Request" in response.headers["Vary"]


def test_csrf_token_rides_on_the_body(started: Phone) -> None:
    """htmx sends the token from <body hx-headers>; it is the one the forms carry."""
    game = page(started.game_page())
    assert game.hx_headers["X-CSRFToken"]
    response = started.client.post(
        f"{started.url}/deal/preview",
        data={**started.open_deal("trix").checked("/deal"), "csrf_token": ""},
        headers={"HX-Request": "true", "X-CSRFToken": game.hx_headers["X-CSRFToken"]},
    )
    assert response.status_code == 200


def test_without_javascript_a_save_fills_in_the_last_count_too(started: Phone) -> None:
    """No htmx, no preview: the plain form post alone is enough, auto-fill included."""
    form = started.open_deal("diamonds")
    response = started.save(form, {"counts-0": "3", "counts-1": "4", "counts-2": "5"})
    assert response.status_code == 303
    assert started.record().game.deals[0].values["counts"] == (3, 4, 5, 1)


def test_without_javascript_a_refusal_is_a_whole_page(started: Phone) -> None:
    form = started.open_deal("diamonds")
    response = started.save(
        form, {"counts-0": "3", "counts-1": "4", "counts-2": "4", "counts-3": "1"}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "<html" in html
    assert "Diamonds add up to 12; there are 13 diamonds." in Page(html).text
    # what was tapped stays tapped
    assert Page(html).checked("/deal")["counts-2"] == "4"
