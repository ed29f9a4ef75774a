"""Capability pages (anything under a game's or a view link's token, and the pages that list
such links) are never kept by a shared or back-button cache; served over HTTPS, every answer
tells the browser to stay on HTTPS."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import Phone, make_app
from tests.security.helpers import route_urls, routes, seed_games, url_for_rule
from tests.web.table_phone import TablePhone, record_data

CAPABILITY_ARGS = {"token", "view_token"}
CARRIES_A_TOKEN = re.compile(r'name="csrf_token"|X-CSRFToken')
"""A page that holds this browser's CSRF token: a form's hidden field, or the body's
hx-headers that htmx sends with every request."""
LOCAL_LINK = re.compile(r'(?:href|hx-get)="(/[^"]*)"')


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


def _crawled(client: FlaskClient, seeds: list[str], limit: int = 800) -> dict[str, str]:
    """Every page reachable from `seeds` by its links (GET, as a page and as htmx asks for it):
    the Cache-Control of each answer that carries a CSRF token, by URL."""
    carrying: dict[str, str] = {}
    queue, seen = list(dict.fromkeys(seeds)), set(seeds)
    while queue:
        url = queue.pop(0)
        for headers in ({}, {"HX-Request": "true"}):
            response = client.get(url, headers=headers)
            body = response.get_data(as_text=True) if response.mimetype == "text/html" else ""
            response.close()  # (a streamed export unread: closed here, inside its request)
            if CARRIES_A_TOKEN.search(body):
                carrying[f"{url} {headers}"] = response.headers.get("Cache-Control", "")
            for link in LOCAL_LINK.findall(body.replace("&amp;", "&")):
                link = link.split("#", 1)[0]
                # (a language switch only sets a cookie and sends the browser back)
                if link and link not in seen and not link.startswith(("/static/", "/lang/")):
                    seen.add(link)
                    queue.append(link)
        assert len(seen) < limit, "the crawl does not end"
    return carrying


def test_every_page_carrying_a_csrf_token_is_not_stored(app: Flask, client: FlaskClient) -> None:
    """A kept copy of such a page hands this browser's token to whoever is served it next (a
    shared cache), or an outdated one back (the back button): every page that carries one,
    whatever its route, answers no-store."""
    phone = TablePhone(app, client)
    games = seed_games(phone)
    phone.create_table()
    phone.pick(["Rami", "Lina", "Omar", "Dana"])
    record = record_data("trix-solo-complete.json")
    phone.choose_first(record["first"])
    for deal in record["deals"][:3]:
        phone.enter(deal)
    table = phone.table_row()
    seeds = ["/"]
    for rule in routes(app):
        if "GET" not in (rule.methods or ()):
            continue
        kinds = rule.arguments - {"filename"}
        tokens = (
            [
                games.playing,
                games.playing_view,
                games.fresh,
                phone.token,
                table.token,
                table.view_token,
            ]
            if kinds
            else [""]
        )
        seeds += [url_for_rule(rule, token) for token in tokens]
    carrying = _crawled(client, seeds)
    stored = {url: cache for url, cache in carrying.items() if cache != "no-store"}
    assert not stored, stored
    paths = {urlsplit(url.split(" ", 1)[0]).path for url in carrying}
    # the crawl reached the pages of every kind, those without a capability token too
    assert {
        "/",
        "/new",
        "/import",
        "/tables/new",
        f"/t/{table.token}/import",
        f"/t/{table.token}/stats",
        "/rules/trix",
        f"/g/{phone.token}",
        f"/v/{games.playing_view}",
    } <= paths, sorted(paths)


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


def test_other_answers_keep_their_caching(phone: Phone) -> None:
    manifest = phone.client.get("/manifest/en.webmanifest")
    assert manifest.status_code == 200
    assert manifest.headers.get("Cache-Control") != "no-store"
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
