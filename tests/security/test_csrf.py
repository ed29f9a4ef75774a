"""CSRF: every state-changing route refuses a request without a valid token, htmx included."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import Phone, make_app, page, snapshot
from tests.security.helpers import post_routes, seed_games, url_for_rule

WRONG_TOKEN = (
    "IjAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAi.aw1N7w.AAAAAAAAAAAAAAAAAAAAAAAAAAA"
)


def plausible_form(token: str) -> dict[str, str]:
    """Fields a real form would carry, so only the CSRF token is missing."""
    return {
        "seat": "1",
        "version": "3",
        "number": "2",
        "contract": "diamonds",
        "counts-0": "4",
        "counts-1": "3",
        "counts-2": "3",
        "counts-3": "3",
        "name": "renamed",
        "notes": "changed",
        "game": "trix",
        "mode": "solo",
        "player_0": "A",
        "player_1": "B",
        "player_2": "C",
        "player_3": "D",
        "doubled_self_take": "net",
        "code": "x",
        "token": token,
    }


def test_there_are_post_routes_to_check(app: Flask) -> None:
    names = {rule.endpoint for rule in post_routes(app)}
    assert {
        "games.new_game",
        "games.choose_first",
        "games.undo",
        "games.notes",
        "games.delete",
        "deals.preview",
        "deals.save_deal",
    } <= names


@pytest.mark.parametrize(
    "how", ["no token", "wrong token in form", "wrong token in header", "token of another browser"]
)
def test_every_post_route_refuses_without_a_valid_token(app: Flask, phone: Phone, how: str) -> None:
    games = seed_games(phone)
    other = app.test_client()
    other_token = page(other.get("/")).csrf_token
    before = snapshot(app)
    attacker = app.test_client()  # a fresh browser: no session, like a cross-site request
    client: FlaskClient = attacker if how != "token of another browser" else phone.client
    for rule in post_routes(app):
        for token in (games.playing, games.fresh):
            for method in sorted((rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"}):
                data = plausible_form(token)
                headers = {}
                if how == "wrong token in form":
                    data["csrf_token"] = WRONG_TOKEN
                elif how == "wrong token in header":
                    headers = {"HX-Request": "true", "X-CSRFToken": WRONG_TOKEN}
                elif how == "token of another browser":
                    headers = {"HX-Request": "true", "X-CSRFToken": other_token}
                url = url_for_rule(rule, token, number=1)
                response = client.open(url, method=method, data=data, headers=headers)
                assert response.status_code == 400, (how, method, url, response.status_code)
    assert snapshot(app) == before


def test_htmx_token_in_hx_headers_is_accepted(app: Flask, phone: Phone) -> None:
    """htmx sends the token from <body hx-headers>; Flask-WTF reads X-CSRFToken."""
    games = seed_games(phone)
    token = phone.csrf()
    data = {
        "contract": "diamonds",
        "number": "3",
        "version": str(phone.row().version),
        "entry_key": "3f6c2a1e-8b4d-4c7e-9a2f-5d1b7e0c4a68",  # (every form has one)
        "counts-0": "4",
        "counts-1": "3",
        "counts-2": "3",
        "counts-3": "3",
    }
    response = phone.client.post(
        f"/g/{games.playing}/deal/preview",
        data=data,
        headers={"HX-Request": "true", "X-CSRFToken": token},
    )
    assert response.status_code == 200
    without = phone.client.post(
        f"/g/{games.playing}/deal/preview", data=data, headers={"HX-Request": "true"}
    )
    assert without.status_code == 400
    saved = phone.client.post(f"/g/{games.playing}/deal", data=data, headers={"X-CSRFToken": token})
    assert saved.status_code == 303
    assert phone.row().deal_count == 3


def test_get_never_changes_state(app: Flask, phone: Phone) -> None:
    """Following a link (GET) to a state-changing URL changes nothing."""
    games = seed_games(phone)
    before = snapshot(app)
    for rule in post_routes(app):
        response = phone.client.get(url_for_rule(rule, games.playing) + "?seat=1&version=3")
        assert response.status_code < 500, rule.rule
    assert snapshot(app) == before


def test_forms_work_over_https_without_a_referer(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Browsers send no Referer (Referrer-Policy: no-referrer), so HTTPS must not demand one;
    the token still has to be there."""
    monkeypatch.setenv("SCOREKEEPER_HTTPS", "1")
    app = make_app(tmp_path, database_uri)
    client = app.test_client()
    https = {"base_url": "https://localhost"}
    form = page(client.get("/new", **https))
    data = {
        **form.hidden("/new"),
        "game": "trix",
        "mode": "solo",
        "doubled_self_take": "net",
        "player_0": "A",
        "player_1": "B",
        "player_2": "C",
        "player_3": "D",
    }
    assert client.post("/new", data=data, **https).status_code == 303
    del data["csrf_token"]
    assert client.post("/new", data=data, **https).status_code == 400
