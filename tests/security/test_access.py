"""Who gets in: unguessable links, a 404 that says nothing, a home page listing only this
browser's games, and the optional server-wide access code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import Table, make_app, page, snapshot
from tests.security.helpers import GARBAGE_TOKEN, routes, seed_games, url_for_rule

CODE = "blue tiger 42"


def test_links_are_unguessable(table: Table) -> None:
    tokens = set()
    for _ in range(5):
        table.new_game()
        row = table.row()
        for token in (row.token, row.view_token):
            assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", token)  # ≥ 128 bits of base64url
            assert not token.isdigit()
            tokens.add(token)
    assert len(tokens) == 10


def test_unknown_token_is_a_404_that_says_nothing(app: Flask, table: Table) -> None:
    games = seed_games(table)
    bodies = set()
    for rule in routes(app):
        if "token" not in rule.arguments and "view_token" not in rule.arguments:
            continue
        near_miss = games.playing[:-1] + ("A" if games.playing[-1] != "A" else "B")
        for token in (GARBAGE_TOKEN, near_miss, "1", "x" * 200):
            url = url_for_rule(rule, token)
            method = "GET" if "GET" in (rule.methods or ()) else "POST"
            response = table.client.open(url, method=method,
                                         headers={"X-CSRFToken": table.csrf()})
            assert response.status_code == 404, (method, url)
            text = page(response).text
            assert token not in text
            bodies.add(text)
    assert len(bodies) == 1  # the same page whatever the token


def test_home_lists_only_this_browsers_games(app: Flask, table: Table) -> None:
    games = seed_games(table)
    mine = table.client.get("/").get_data(as_text=True)
    assert games.playing in mine and games.fresh in mine
    stranger = app.test_client().get("/").get_data(as_text=True)
    for token in (games.playing, games.fresh, games.playing_view):
        assert token not in stranger
    assert "Rami" not in stranger and "Ana" not in stranger


def test_opening_a_link_adds_the_game_to_home(app: Flask, table: Table) -> None:
    games = seed_games(table)
    friend = app.test_client()
    assert friend.get(f"/g/{games.playing}").status_code == 200
    home = friend.get("/").get_data(as_text=True)
    assert games.playing in home and games.fresh not in home


# --- the access code -------------------------------------------------------------------------


def enter_code(client: FlaskClient, code: str, next_path: str = "") -> TestResponse:
    form = page(client.get("/access" + (f"?next={next_path}" if next_path else "")))
    data = {**form.hidden("/access"), "code": code}
    return client.post("/access", data=data)


def test_without_a_code_the_server_is_open(client: FlaskClient) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/access").status_code == 303


def test_access_code_is_asked_once_per_browser(app: Flask, table: Table) -> None:
    games = seed_games(table)
    app.config["ACCESS_CODE"] = CODE
    stranger = app.test_client()
    before = snapshot(app)
    for url in ("/", "/new", f"/g/{games.playing}", f"/v/{games.playing_view}", "/nope"):
        response = stranger.get(url)
        assert response.status_code == 303, url
        assert response.headers["Location"].startswith("/access"), url
    for url in (f"/g/{games.playing}/deal", f"/g/{games.playing}/notes", "/new"):
        response = stranger.post(url, data={"csrf_token": page(stranger.get("/access"))
                                            .csrf_token, "name": "x", "notes": "x"})
        assert response.status_code == 303, url
    htmx = stranger.post(f"/g/{games.playing}/deal/preview",
                         headers={"HX-Request": "true",
                                  "X-CSRFToken": page(stranger.get("/access")).csrf_token})
    assert htmx.status_code == 403
    assert htmx.headers["HX-Redirect"].startswith("/access")
    assert stranger.get("/static/css/app.css").status_code == 200
    assert snapshot(app) == before

    wrong = enter_code(stranger, "blue tiger 43")
    assert wrong.status_code == 422
    assert "not the code" in wrong.get_data(as_text=True)
    assert stranger.get("/").status_code == 303

    right = enter_code(stranger, CODE, f"/g/{games.playing}")
    assert right.status_code == 303
    assert right.headers["Location"] == f"/g/{games.playing}"
    assert stranger.get("/").status_code == 200
    assert stranger.get(f"/g/{games.playing}").status_code == 200
    assert stranger.get(f"/g/{GARBAGE_TOKEN}").status_code == 404

    app.config["ACCESS_CODE"] = "a new code"  # changing the code asks every browser again
    assert stranger.get("/").status_code == 303


def test_session_remembers_a_fingerprint_not_the_code(app: Flask) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    enter_code(client, CODE)
    with client.session_transaction() as session:
        assert CODE not in repr(dict(session))
        session["access"] = True  # a forged value does not pass
    assert client.get("/").status_code == 303


def test_access_form_needs_csrf(app: Flask) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    response = client.post("/access", data={"code": CODE})
    assert response.status_code == 400
    assert client.get("/").status_code == 303


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example",
                                    "javascript:alert(1)", "evil"])
def test_no_open_redirect_after_the_code(app: Flask, target: str) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    form = page(client.get("/access"))
    response = client.post("/access", data={**form.hidden("/access"), "code": CODE,
                                            "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_access_code_from_the_environment(tmp_path: Path, database_uri: str,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_ACCESS_CODE", CODE)
    app = make_app(tmp_path, database_uri)
    client = app.test_client()
    assert client.get("/").status_code == 303
    assert enter_code(client, CODE).status_code == 303
    assert client.get("/").status_code == 200


def test_links_with_impossible_tokens_are_404s(app: Flask, table: Table) -> None:
    """A NUL byte or invalid UTF-8 in a link is a 404 like any unknown token (PostgreSQL would
    refuse to compare a NUL; the fuzzer found that 500)."""
    seed_games(table)
    for rule in routes(app):
        if not rule.arguments & {"token", "view_token"}:
            continue
        for raw in ("%00", "abc%00def", "%ff%fe", "%E2%80%AEevil", "..", "a b"):
            url = url_for_rule(rule, "PLACEHOLDER").replace("PLACEHOLDER", raw)
            for headers in ({}, {"If-None-Match": 'W/"3-en"'}):
                method = "GET" if "GET" in (rule.methods or ()) else "POST"
                response = table.client.open(url + "?v=3-en", method=method,
                                             headers={**headers, "X-CSRFToken": table.csrf()})
                assert response.status_code == 404, (method, url)


def test_guessing_the_code_is_slowed_down(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a few wrong codes from one address, even the right one waits a few minutes."""
    from scorekeeper.web import access

    app.config["ACCESS_CODE"] = CODE
    guesser = app.test_client()
    for guess in range(access.MAX_WRONG_CODES):
        assert enter_code(guesser, f"guess {guess}").status_code == 422
    blocked = enter_code(guesser, CODE)
    assert blocked.status_code == 429
    assert guesser.get("/").status_code == 303
    neighbour = app.test_client()
    neighbour.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert enter_code(neighbour, CODE).status_code == 303
    clock = access.time.monotonic() + access.WRONG_CODE_WINDOW + 1
    monkeypatch.setattr(access.time, "monotonic", lambda: clock)
    assert enter_code(guesser, CODE).status_code == 303


def test_the_code_page_can_be_read_in_another_language(app: Flask) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    response = client.get("/lang/ar?next=/access")
    assert response.status_code in (302, 303)
    assert "lang=ar" in response.headers.get("Set-Cookie", "")
    assert 'dir="rtl"' in client.get("/access").get_data(as_text=True)
