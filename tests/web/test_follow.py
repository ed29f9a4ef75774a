"""A second scorekeeping phone follows the first: the game page polls its version as the view link
does (204 while nothing changed), an open deal form is left alone and told the game moved on;
doubles noted before play stay in the form's address; the view link reloads itself without
JavaScript; our script is served without its comments."""

from __future__ import annotations

import re

from flask import Flask

from scorekeeper.serving.assets import minified_js
from tests.conftest import Page, Phone, page, snapshot

DIAMONDS = {"contract": "diamonds", "counts": [5, 4, 3, 1]}
HTMX = {"HX-Request": "true"}


def _poll_url(html: str) -> str:
    found = re.search(
        r'<div id="follow"[^>]* data-poll [^>]*hx-get="([^"]+)" '
        r'hx-trigger="every 3s, visibilitychange from:document"',
        html,
    )
    assert found, "the game page does not follow the game"
    return found.group(1).replace("&amp;", "&")


def _other_phone(phone: Phone) -> Phone:
    other = Phone(phone.app, phone.app.test_client())
    other.token = phone.token
    return other


def test_an_unchanged_game_answers_204(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _poll_url(phone.game_page().get_data(as_text=True))
    response = phone.client.get(url, headers=HTMX)
    assert response.status_code == 204 and response.get_data() == b""
    assert response.headers["Cache-Control"] == "no-store"  # a capability: never kept


def test_another_phones_save_is_sent_out_of_band(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _poll_url(phone.game_page().get_data(as_text=True))
    _other_phone(phone).enter(DIAMONDS)
    response = phone.client.get(url, headers=HTMX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="follow"') and _poll_url(html) != url
    for part in ("scoreboard", "play", "undo", "grid", "chart", "history", "notes-version"):
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"', html), part
    assert "Deal 2 of 20" in Page(html).text
    assert "<html" not in html
    assert phone.client.get(_poll_url(html), headers=HTMX).status_code == 204


def test_an_open_form_is_left_alone_and_told(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _poll_url(phone.game_page().get_data(as_text=True))
    _other_phone(phone).enter(DIAMONDS)
    html = phone.client.get(url + "&number=1", headers=HTMX).get_data(as_text=True)
    assert 'id="play"' not in html  # the form in its place stays
    moved = re.search(
        r'<div class="errors" id="e-contract" hx-swap-oob="true">(.*?)</div>', html, re.S
    )
    assert moved and "Deal 1 was saved on another phone" in moved.group(1)
    edited = phone.client.get(url + "&number=2", headers=HTMX).get_data(as_text=True)
    assert "The game changed on another phone" in edited


def test_a_preview_of_a_form_made_before_another_save_says_so(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    form = phone.open_deal("ltoosh")
    _other_phone(phone).enter(DIAMONDS)
    html = phone.preview(form, {"tricks-0": "4"}).get_data(as_text=True)
    assert "Deal 1 was saved on another phone" in html
    assert re.search(r'<div id="save-reasons" hx-swap-oob="true"><p class="error">Deal 1 was', html)


def test_following_is_for_the_game_page_only(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _poll_url(phone.game_page().get_data(as_text=True))
    plain = phone.client.get(url)
    assert plain.status_code == 303 and plain.headers["Location"].endswith(phone.url)
    assert phone.client.get("/g/nosuchgame0000000000/live", headers=HTMX).status_code == 404


def test_the_saved_banner_goes_when_the_next_entry_starts(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    href = page(phone.game_page()).link_with(contract="diamonds")
    html = phone.client.get(href, headers={**HTMX, "HX-Target": "play"}).get_data(as_text=True)
    assert '<div id="flash" hx-swap-oob="true"></div>' in html


def test_doubles_noted_before_play_stay_in_the_address(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    form = phone.open_deal("queens")
    form_html = phone.client.get(f"{phone.url}/deal?contract=queens").get_data(as_text=True)
    assert form_html.index("Doubled before play") < form_html.index("Who took each queen")
    response = phone.preview(form, {"doubled_by-S": "1", "doubled_by-H": "2"})
    assert response.headers["HX-Replace-Url"] == (
        f"{phone.url}/deal?contract=queens&doubled_by-S=1&doubled_by-H=2"
    )
    assert "Doubled:" in response.get_data(as_text=True)
    reloaded = phone.client.get(response.headers["HX-Replace-Url"])
    html = reloaded.get_data(as_text=True)
    assert page(reloaded).checked("/deal")["doubled_by-S"] == "1"
    assert page(reloaded).checked("/deal")["doubled_by-H"] == "2"
    assert re.search(r'id="doubled-note">Doubled: <bdi>Q♠ <bdi>Lina</bdi></bdi>', html)
    before = snapshot(phone.app)
    bad = phone.client.get(f"{phone.url}/deal?contract=queens&doubled_by-S=9")
    assert bad.status_code == 400 and snapshot(phone.app) == before


def test_no_doubles_in_the_address_when_doubling_is_off(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0, doubling=False)
    form = phone.open_deal("king-of-hearts")
    response = phone.preview(form, {"taker": "1"})
    assert "HX-Replace-Url" not in response.headers
    html = phone.client.get(f"{phone.url}/deal?contract=king-of-hearts&doubled_by=1")
    assert "doubled_by" not in page(html).checked("/deal")


def test_the_view_link_reloads_itself_without_javascript(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    view_token = phone.row().view_token
    response = phone.client.get(f"/v/{view_token}")
    html = response.get_data(as_text=True)
    head = html.split("</head>")[0]
    assert re.search(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>', head)
    assert "<script>" not in html  # no inline script: the CSP stands
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_our_script_is_served_without_its_comments(app: Flask) -> None:
    source = (app.static_folder or "") + "/js/app.js"
    with open(source, "rb") as handle:
        text = handle.read()
    served = app.test_client().get("/static/js/app.js").get_data()
    assert served == minified_js(text) and b"/*" not in served and len(served) < len(text)
    assert b"htmx.ajax(" in served  # (the code itself stays)
    htmx = app.test_client().get("/static/js/htmx-2.0.11.min.js").get_data()
    with open((app.static_folder or "") + "/js/htmx-2.0.11.min.js", "rb") as handle:
        assert htmx == handle.read()  # vendored, minified already: served as it is
