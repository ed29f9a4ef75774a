"""The view link, the live fragment, the QR code and the chart.

The view link reads and never writes: every route that can change a game is tried with the view
token (404 or 405, database unchanged), and nothing under /v/ takes anything but GET.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from tests.conftest import Phone, page, snapshot, totals_shown

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
DATA = Path(__file__).resolve().parent.parent / "data"


def started(phone: Phone) -> str:
    """A Trix partnership game with two deals entered; its view token."""
    phone.new_game("trix", "partnership", name="Majlis", first=1)
    phone.enter({"contract": "king-of-hearts", "taker": 2, "doubled_by": 1})
    phone.enter({"contract": "diamonds", "counts": [3, 4, 5, 1]})
    return str(phone.row().view_token)


def game_rules(app: Flask) -> list[Rule]:
    return [rule for rule in app.url_map.iter_rules() if "token" in rule.arguments]


def url_for_rule(rule: Rule, token: str) -> str:
    values: dict[str, Any] = {"token": token, "number": 1, "player_id": 1, "part": "standings"}
    return rule.build({k: v for k, v in values.items() if k in rule.arguments})[1]


def test_the_view_page_shows_the_game_and_no_way_to_change_it(phone: Phone) -> None:
    view_token = started(phone)
    row = phone.row()
    response = phone.client.get(f"/v/{view_token}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert totals_shown(response) == totals_shown(phone.game_page())
    assert "Majlis" in html and "Rami" in html
    assert "Deal 3 of 20" in html  # where the game is
    assert 'class="history"' in html and "King of Hearts" in html
    assert 'class="chart running-totals"' in html
    assert row.token not in html  # the scorekeeper's link is never shown to viewers
    shown = page(response)
    assert not any("/g/" in link for link in shown.links)
    assert [form["action"] for form in shown.forms] == []
    assert "Edit" not in shown.text and "Undo" not in shown.text
    assert f"/v/{view_token}/export.json" in shown.links
    assert f"/v/{view_token}/export.csv" in shown.links


def test_a_view_link_is_never_remembered_as_a_scorekeepers(app: Flask, phone: Phone) -> None:
    view_token = started(phone)
    viewer = app.test_client()
    assert viewer.get(f"/v/{view_token}").status_code == 200
    assert phone.row().token not in viewer.get("/").get_data(as_text=True)
    assert viewer.get("/backup.json").get_data(as_text=True).strip() == "[]"


def test_views_exports_work(phone: Phone) -> None:
    view_token = started(phone)
    scorekeeper = phone.client.get(f"{phone.url}/export.json").get_data(as_text=True)
    viewer = phone.client.get(f"/v/{view_token}/export.json")
    assert viewer.status_code == 200 and viewer.get_data(as_text=True) == scorekeeper
    csv = phone.client.get(f"/v/{view_token}/export.csv")
    assert csv.status_code == 200 and csv.mimetype == "text/csv"


def test_unknown_view_tokens_are_404(client: FlaskClient) -> None:
    for url in ("/v/nope", "/v/nope/live", "/v/nope/export.json", "/v/" + "x" * 100 + "/live"):
        assert client.get(url).status_code == 404


def test_nothing_under_v_accepts_a_write(app: Flask, phone: Phone) -> None:
    view_token = started(phone)
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/v/")]
    assert {rule.endpoint for rule in rules} >= {"live.view_page", "live.live"}
    before = snapshot(app)
    for rule in rules:
        assert rule.methods is not None and rule.methods <= {"GET", "HEAD", "OPTIONS"}, rule
        url = rule.build({"view_token": view_token, "part": "standings"}, append_unknown=False)[1]
        for method in WRITE_METHODS:
            response = phone.client.open(url, method=method, headers={"X-CSRFToken": phone.csrf()})
            assert response.status_code == 405, (method, url)
    assert snapshot(app) == before


def test_every_write_route_refuses_the_view_token(app: Flask, phone: Phone) -> None:
    view_token = started(phone)
    version = phone.row().version
    token = phone.csrf()  # a valid CSRF token: a refusal can only come from the link
    rules = game_rules(app)
    writes = [rule for rule in rules if rule.methods and set(WRITE_METHODS) & rule.methods]
    # the routes the web app has today; a new one is covered automatically
    assert {rule.endpoint for rule in writes} >= {
        "games.choose_first",
        "games.undo",
        "games.notes",
        "games.delete",
        "deals.preview",
        "deals.save_deal",
    }
    form = {
        "seat": "0",
        "number": "3",
        "version": str(version),
        "contract": "queens",
        "name": "hacked",
        "notes": "hacked",
        "editing": "",
        "takers-S": "0",
        "csrf_token": token,
    }
    before = snapshot(app)
    for rule in rules:
        url = url_for_rule(rule, view_token)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            response = phone.client.open(
                url, method=method, data=form, headers={"X-CSRFToken": token}
            )
            assert response.status_code in (404, 405), (method, url, response.status_code)
    assert snapshot(app) == before
    # the same request with the scorekeeper's token does reach the game
    notes = phone.client.post(f"{phone.url}/notes", data=form, headers={"X-CSRFToken": token})
    assert notes.status_code == 303
    assert phone.row().name == "hacked"


def test_a_saved_deal_shows_up_in_the_live_fragment(app: Flask, phone: Phone) -> None:
    view_token = started(phone)
    viewer = app.test_client()
    html = viewer.get(f"/v/{view_token}").get_data(as_text=True)
    poll = re.search(
        r'<div class="live" data-poll hx-get="([^"]+)" '
        r'hx-trigger="every 3s, visibilitychange from:document" hx-swap="outerHTML">',
        html,
    )
    assert poll is not None
    poll_url = poll.group(1).replace("&amp;", "&")
    live = viewer.get(f"/v/{view_token}/live")
    etag = live.headers["ETag"]
    assert live.status_code == 200 and etag

    # nothing changed: 304 to a conditional request, 204 to htmx's poll (no swap)
    unchanged = viewer.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    assert viewer.get(poll_url, headers={"HX-Request": "true"}).status_code == 204

    phone.enter({"contract": "ltoosh", "tricks": [4, 3, 3, 3]})
    changed = viewer.get(poll_url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    fragment = changed.get_data(as_text=True)
    assert fragment.startswith('<div class="live"')  # a fragment, not a page
    assert "<html" not in fragment
    assert "Ltoosh" in fragment and "Deal 4 of 20" in fragment
    assert totals_shown(changed) == totals_shown(phone.game_page())
    assert phone.row().token not in fragment
    # the new fragment polls for the next change
    assert f"v={changed.get_etag()[0]}" in fragment


def test_304_holds_for_compressed_responses(phone: Phone) -> None:
    view_token = started(phone)
    browser = {"Accept-Encoding": "gzip, deflate, br"}
    first = phone.client.get(f"/v/{view_token}/live", headers=browser)
    assert first.status_code == 200
    again = phone.client.get(
        f"/v/{view_token}/live", headers={**browser, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304


def test_an_unchanged_game_is_answered_without_loading_it(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.web.views import live as live_views

    view_token = started(phone)
    etag = phone.client.get(f"/v/{view_token}/live").headers["ETag"]

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the whole game was loaded")

    monkeypatch.setattr(live_views, "viewed_or_404", refuse)
    monkeypatch.setattr(live_views, "game_view", refuse)
    response = phone.client.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    assert response.status_code == 304


def test_the_etag_depends_on_the_language(phone: Phone) -> None:
    view_token = started(phone)
    english = phone.client.get(f"/v/{view_token}/live").headers["ETag"]
    arabic = phone.client.get(f"/v/{view_token}/live", headers={"Accept-Language": "ar"}).headers[
        "ETag"
    ]
    assert english != arabic
    response = phone.client.get(
        f"/v/{view_token}/live", headers={"Accept-Language": "ar", "If-None-Match": english}
    )
    assert response.status_code == 200


def test_a_game_not_started_yet_can_be_followed(app: Flask, phone: Phone) -> None:
    phone.new_game("turkish-king")
    view_token = phone.row().view_token
    response = app.test_client().get(f"/v/{view_token}")
    assert response.status_code == 200
    assert "has not started yet" in response.get_data(as_text=True)
    phone.choose_first(2)
    live = app.test_client().get(f"/v/{view_token}/live")
    assert "declares" in live.get_data(as_text=True)


def test_the_game_page_shares_the_view_link_as_a_qr_code(phone: Phone) -> None:
    view_token = started(phone)
    html = phone.game_page().get_data(as_text=True)
    assert f"http://localhost/v/{view_token}" in html
    # the code is an image loaded when the Share section is opened, not part of the page
    img = re.search(r'<img class="qr-code" src="([^"]+)"[^>]*loading="lazy"', html)
    assert img is not None and "<svg" not in html.split('class="share"')[1].split("</section>")[0]
    response = phone.client.get(img.group(1))
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" ') and "viewBox" in svg
    assert "style" not in svg and "width=" not in svg.split(">", 1)[0]
    assert phone.client.get(f"/v/{view_token}x/qr.svg").status_code == 404
    assert f"/g/{phone.token}/export.json" in html and f"/g/{phone.token}/export.csv" in html


@pytest.mark.parametrize("url", ["game", "view"])
def test_pages_carry_no_inline_style(phone: Phone, url: str) -> None:
    view_token = started(phone)
    response = phone.game_page() if url == "game" else phone.client.get(f"/v/{view_token}")
    html = response.get_data(as_text=True)
    assert not re.search(r"\sstyle\s*=", html)
    assert "<style" not in html
    assert "style-src 'self'" in response.headers["Content-Security-Policy"]


def rotate(deal: dict[str, Any], shift: int) -> dict[str, Any]:
    """The same deal with every seat moved `shift` places (so each kingdom differs)."""
    if deal["contract"] == "trix":
        return {"contract": "trix", "order": [(seat + shift) % 4 for seat in deal["order"]]}
    return {**deal, "king_of_hearts": (deal["king_of_hearts"] + shift) % 4}


def test_the_chart_is_on_the_game_page_and_the_finished_game(phone: Phone) -> None:
    phone.new_game("trix-complex", "solo", first=0)
    deals = [
        {"contract": "trix", "order": [0, 1, 2, 3]},
        {
            "contract": "complex",
            "tricks": [4, 3, 3, 3],
            "diamonds": [4, 3, 3, 3],
            "queens": {"S": 0, "H": 1, "D": 2, "C": 3},
            "king_of_hearts": 0,
        },
    ]
    for kingdom in range(4):
        for deal in deals:
            phone.enter(rotate(deal, kingdom))
    html = phone.game_page().get_data(as_text=True)
    assert "Final standings" in html
    assert 'class="chart running-totals"' in html
    caption = re.search(r"<figcaption[^>]*>([^<]*)</figcaption>", html)
    assert caption is not None and caption.group(1).startswith("After deal 8 of 8:")
    totals = dict(zip(phone.row().players, totals_shown(phone.game_page()), strict=True))
    for name, total in totals.items():
        assert f"{name} {total}" in caption.group(1)  # written as the score cards write it


def test_the_chart_follows_the_page_direction(phone: Phone) -> None:
    view_token = started(phone)
    html = phone.client.get(f"/v/{view_token}", headers={"Accept-Language": "ar"}).get_data(
        as_text=True
    )
    assert 'dir="rtl"' in html
    assert 'class="chart running-totals"' in html


def test_home_links_to_backup_and_import(client: FlaskClient) -> None:
    links = page(client.get("/")).links
    assert "/import" in links


@pytest.mark.browser
def test_a_viewers_phone_follows_the_game_without_reloading(
    app: Flask, phone: Phone, browser: Any
) -> None:
    """In Chromium: the view page's htmx poll brings in a new deal; 204s swap nothing."""
    import threading

    from werkzeug.serving import make_server

    view_token = started(phone)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    statuses: list[int] = []
    problems: list[str] = []
    try:
        context = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            viewer = context.new_page()
            viewer.on("response", lambda r: statuses.append(r.status) if "/live" in r.url else None)
            viewer.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            viewer.goto(f"http://127.0.0.1:{server.server_port}/v/{view_token}")
            viewer.evaluate("window.notReloaded = true")
            viewer.wait_for_timeout(3500)  # at least one poll while nothing changed
            assert viewer.locator(".history tbody tr:not(.deal-details)").count() == 2
            phone.enter({"contract": "ltoosh", "tricks": [4, 3, 3, 3]})
            viewer.locator(".history tbody tr:not(.deal-details)").nth(2).wait_for(timeout=8000)
            assert viewer.evaluate("window.notReloaded") is True
            assert viewer.locator("div.live").count() == 1
            assert viewer.locator("svg.running-totals").count() == 1
        finally:
            context.close()
    finally:
        server.shutdown()
        thread.join(timeout=5)
    assert 204 in statuses and 200 in statuses
    assert problems == []


def test_the_charts_caption_keeps_each_minus_before_its_digits(phone: Phone) -> None:
    """The Arabic catalogue isolates each total left to right in the chart's words, so the
    caption reads "−250", not "250−" (Chromium measures the same); English needs no marks."""
    record = json.loads((DATA / "trix-partnership-complete.json").read_text())
    phone.load(record)
    phone.client.get("/lang/ar")
    html = phone.game_page().get_data(as_text=True)
    caption = html.split('<figcaption class="muted">', 1)[1].split("</figcaption>", 1)[0]
    assert "\u2066−250\u2069" in caption and "\u2066+250\u2069" in caption
    phone.client.get("/lang/en")
    html = phone.game_page().get_data(as_text=True)
    assert "\u2066" not in html.split('<figcaption class="muted">', 1)[1].split("<", 1)[0]
