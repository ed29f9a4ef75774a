"""Security headers on every response (errors, static files, 304s and redirects included),
and the session cookie's flags."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import Phone, make_app
from tests.security.helpers import route_urls, seed_games


def assert_secured(response: TestResponse, what: str) -> None:
    """The headers every response must carry."""
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}
    assert directives.get("default-src") == ["'self'"], (what, policy)
    assert directives.get("frame-ancestors") == ["'none'"], (what, policy)
    for directive in ("script-src", "style-src"):  # no inline script or style is needed
        assert "'unsafe-inline'" not in directives.get(directive, []), (what, policy)
    # the engine in the phone compiles WebAssembly, never text: no eval of strings
    assert "'unsafe-eval'" not in directives.get("script-src", []), (what, policy)
    assert directives.get("worker-src") == ["'self'"], (what, policy)
    assert response.headers.get("X-Content-Type-Options") == "nosniff", what
    assert response.headers.get("Referrer-Policy") == "no-referrer", what


def test_every_route_and_method(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    client = phone.client
    seen: set[int] = set()
    for rule, url in route_urls(app, games):
        for method in sorted(rule.methods or ()):
            for headers in ({}, {"HX-Request": "true"}):
                response = client.open(url, method=method, headers=headers)
                response.close()  # (a streamed export unread: closed here, inside its request)
                seen.add(response.status_code)
                assert response.status_code < 500, (method, url)
                assert_secured(response, f"{method} {url} {headers}")
    assert {200, 303, 400, 404} <= seen, seen  # pages, redirects and errors were all covered


def test_static_files_and_not_modified(client: FlaskClient) -> None:
    first = client.get("/static/css/app.css")
    assert first.status_code == 200
    assert_secured(first, "static")
    assert first.headers.get("ETag")
    again = client.get("/static/css/app.css", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert_secured(again, "static 304")
    missing = client.get("/static/nope.css")
    assert missing.status_code == 404
    assert_secured(missing, "static 404")


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("GET", "/no/such/page", 404),
        ("DELETE", "/", 405),
        ("POST", "/", 405),
        ("GET", "/g/" + "x" * 500, 404),
    ],
)
def test_error_pages(client: FlaskClient, method: str, url: str, status: int) -> None:
    response = client.open(url, method=method)
    assert response.status_code == status
    assert_secured(response, url)
    assert "text/html" in response.headers["Content-Type"]


def test_too_large_a_body_gets_a_page(app: Flask, phone: Phone) -> None:
    """Over MAX_CONTENT_LENGTH: 413 with the error page, not a 500, and nothing stored."""
    games = seed_games(phone)
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert limit and limit <= 1024 * 1024
    big = "x" * (limit + 1)
    for url in (f"/g/{games.playing}/notes", f"/g/{games.playing}/deal", "/new"):
        response = phone.client.post(url, data={"notes": big, "csrf_token": phone.csrf()})
        assert response.status_code == 413, url
        assert_secured(response, url)
        assert "too much" in response.get_data(as_text=True)
        raw = phone.client.post(
            url, data=big.encode(), headers={"Content-Type": "application/octet-stream"}
        )
        assert raw.status_code in (400, 413), url
    assert phone.row().notes is None


def test_server_error_page(app: Flask) -> None:
    """Even a crash gets the headers (and a page that says nothing was saved)."""
    app.config["PROPAGATE_EXCEPTIONS"] = False

    def crash() -> str:
        raise RuntimeError("boom")

    app.add_url_rule("/crash-for-test", "crash_for_test", crash)
    response = app.test_client().get("/crash-for-test")
    assert response.status_code == 500
    assert_secured(response, "500")
    assert "boom" not in response.get_data(as_text=True)


def test_redirects(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    response = phone.client.post(
        f"/g/{games.playing}/undo",
        data={"csrf_token": phone.csrf(), "number": "99", "version": "1"},
    )
    assert response.status_code == 303
    assert_secured(response, "303")


def test_session_cookie_flags(client: FlaskClient) -> None:
    response = client.get("/new")
    cookie = next(
        value for value in response.headers.getlist("Set-Cookie") if value.startswith("session=")
    )
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags
    assert "samesite=lax" in flags
    assert "secure" not in flags  # plain HTTP on the local Wi-Fi: a Secure cookie would be lost


def test_session_cookie_secure_over_https(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HTTPS", "1")
    app = make_app(tmp_path, database_uri)
    response = app.test_client().get("/new", base_url="https://localhost")
    cookie = next(
        value for value in response.headers.getlist("Set-Cookie") if value.startswith("session=")
    )
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert {"secure", "httponly", "samesite=lax"} <= set(flags)


def test_live_poll_not_modified_and_no_content(app: Flask, phone: Phone) -> None:
    """The view page's poll answers 304/204 while nothing changed: those carry headers too."""
    games = seed_games(phone)
    viewer = app.test_client()
    url = f"/v/{games.playing_view}/live"
    first = viewer.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    assert_secured(first, "live 200")
    tag = first.headers["ETag"]
    unchanged = viewer.get(url, headers={"HX-Request": "true", "If-None-Match": tag})
    assert unchanged.status_code == 304
    assert_secured(unchanged, "live 304")
    bare = tag.removeprefix("W/").strip('"')
    empty = viewer.get(f"{url}?v={bare}", headers={"HX-Request": "true"})
    assert empty.status_code == 204
    assert_secured(empty, "live 204")
    unknown = viewer.get(f"/v/{games.playing}/live", headers={"If-None-Match": tag})
    assert unknown.status_code == 404
    assert_secured(unknown, "live 404")


def test_live_poll_behind_the_access_code(app: Flask, phone: Phone) -> None:
    """The poll's shortcut must not skip the access code."""
    games = seed_games(phone)
    url = f"/v/{games.playing_view}/live"
    tag = phone.client.get(url).headers["ETag"]
    app.config["ACCESS_CODE"] = "correct horse"
    stranger = app.test_client()
    for headers in ({}, {"If-None-Match": tag}):
        response = stranger.get(url, headers=headers)
        assert response.status_code == 303
        assert_secured(response, "live behind code")


def test_static_files_carry_no_session_cookie(client: FlaskClient) -> None:
    """Static files are cached publicly for a year: they must never carry the session."""
    for _ in range(2):  # a new browser, then one with a session (and its CSRF token)
        response = client.get("/static/css/app.css")
        assert response.status_code == 200
        assert not [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
        assert client.get("/new").status_code == 200


class _InlineCode(HTMLParser):
    """What a strict CSP would block: style attributes, event handlers, inline scripts/styles."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        self.found += [
            f"<{tag} {name}>" for name in names if name == "style" or name.startswith("on")
        ]
        if tag == "script" and "src" not in names and dict(attrs).get("type") != "application/json":
            self.found.append("<script> inline")
        if tag == "style":
            self.found.append("<style>")


def test_pages_need_no_inline_script_or_style(app: Flask, phone: Phone) -> None:
    """Every page works under the strict policy: nothing inline for the CSP to block."""
    games = seed_games(phone, deals=5)
    checked = 0
    for rule, url in route_urls(app, games):
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        for headers in ({}, {"HX-Request": "true"}):
            response = phone.client.get(url, headers=headers)
            if response.status_code != 200 or not response.mimetype.endswith("html"):
                response.close()  # (a streamed export unread: closed here, inside its request)
                continue
            parser = _InlineCode()
            parser.feed(response.get_data(as_text=True))
            assert not parser.found, (url, headers, parser.found)
            checked += 1
    assert checked >= 10
