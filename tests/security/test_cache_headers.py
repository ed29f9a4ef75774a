"""Capability pages (anything under a game's or a view link's token, and the pages that list
such links) are never kept by a shared or back-button cache; served over HTTPS, every answer
tells the browser to stay on HTTPS."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import Phone, make_app
from tests.security.helpers import route_urls, seed_games

CAPABILITY_ARGS = {"token", "view_token"}


def test_capability_pages_and_fragments_are_not_stored(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    checked = 0
    for rule, url in route_urls(app, games):
        if not CAPABILITY_ARGS & set(rule.arguments):
            continue
        for method in sorted((rule.methods or set()) - {"OPTIONS"}):
            for headers in ({}, {"HX-Request": "true"}):
                response = phone.client.open(url, method=method, headers=headers)
                assert response.headers.get("Cache-Control") == "no-store", (
                    method,
                    url,
                    headers,
                    response.status_code,
                )
                checked += 1
    assert checked > 40  # pages, fragments, exports, forms: every route with a token


def test_pages_listing_capability_links_are_not_stored(phone: Phone) -> None:
    seed_games(phone)
    for url in ("/", "/backup.json", "/new"):  # /new: the names this browser played with
        response = phone.client.get(url)
        assert response.status_code == 200
        assert response.headers.get("Cache-Control") == "no-store", url


def test_the_live_poll_shortcut_is_not_stored_either(app: Flask, phone: Phone) -> None:
    """The unchanged poll is answered before Flask once a first one has passed through."""
    games = seed_games(phone)
    viewer = app.test_client()
    url = f"/v/{games.playing_view}/live"
    first = viewer.get(url, headers={"HX-Request": "true"})
    assert first.headers.get("Cache-Control") == "no-store"
    tag = first.headers["ETag"]
    bare = tag.removeprefix("W/").strip('"')
    for _ in range(3):  # through Flask, then from the shortcut
        unchanged = viewer.get(url, headers={"HX-Request": "true", "If-None-Match": tag})
        assert unchanged.status_code == 304
        assert unchanged.headers.get("Cache-Control") == "no-store"
        empty = viewer.get(f"{url}?v={bare}", headers={"HX-Request": "true"})
        assert empty.status_code == 204
        assert empty.headers.get("Cache-Control") == "no-store"


def test_other_pages_keep_their_caching(phone: Phone) -> None:
    rules = phone.client.get("/rules/trix")
    assert rules.status_code == 200
    assert rules.headers.get("Cache-Control") != "no-store"
    static = phone.client.get("/static/css/app.css")
    assert "max-age=31536000" in static.headers.get("Cache-Control", "")


def test_no_hsts_over_plain_http(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    for _, url in route_urls(app, games):
        assert "Strict-Transport-Security" not in phone.client.get(url).headers, url


def test_hsts_on_every_answer_over_https(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HTTPS", "1")
    app = make_app(tmp_path, database_uri)
    client = app.test_client()
    client.environ_base["wsgi.url_scheme"] = "https"  # the session cookie is Secure now
    phone = Phone(app, client)
    games = seed_games(phone)
    urls = [url for _, url in route_urls(app, games)]
    live = f"/v/{games.playing_view}/live"
    tag = phone.client.get(live).headers["ETag"]
    seen = set()
    for url in [*urls, "/nowhere"]:
        response = phone.client.get(url)
        seen.add(response.status_code)
        assert response.headers.get("Strict-Transport-Security", "").startswith(
            "max-age=31536000"
        ), url
    for _ in range(3):  # the live poll's shortcut copies Flask's headers, this one too
        response = phone.client.get(live, headers={"If-None-Match": tag})
        assert response.status_code == 304
        assert "max-age=31536000" in response.headers.get("Strict-Transport-Security", "")
    assert {200, 404} <= seen
