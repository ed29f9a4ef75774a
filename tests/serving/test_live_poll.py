"""The live-poll shortcut answers exactly as Flask would, and only when nothing changed."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
from flask import Flask

from scorekeeper.serving.live_poll import LivePollShortcut
from tests.conftest import Phone

IGNORED = {"Date", "Set-Cookie", "Content-Length"}


def _started(phone: Phone) -> str:
    phone.new_game("turkish-king", first=0)
    return str(phone.row().view_token)


def _headers(response: Any) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k not in IGNORED}


def _shortcut(app: Flask) -> LivePollShortcut:
    assert isinstance(app.wsgi_app, LivePollShortcut)
    return app.wsgi_app


@pytest.mark.parametrize("conditional", ["if-none-match", "query"])
def test_an_unchanged_game_gets_flasks_own_answer_without_flask(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch, conditional: str
) -> None:
    view_token = _started(phone)
    etag = phone.client.get(f"/v/{view_token}/live").headers["ETag"]
    tag = etag.removeprefix("W/").strip('"')
    url = f"/v/{view_token}/live" + ("" if conditional == "if-none-match" else f"?v={tag}")
    headers = {"If-None-Match": etag} if conditional == "if-none-match" else {}
    by_flask = phone.client.get(url, headers=headers)  # the first one teaches the headers
    assert by_flask.status_code in (204, 304)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Flask answered")

    shortcut = _shortcut(app)
    monkeypatch.setattr(shortcut, "wsgi_app", refuse)
    by_shortcut = phone.client.get(url, headers=headers)
    assert by_shortcut.status_code == by_flask.status_code
    assert _headers(by_shortcut) == _headers(by_flask)
    assert by_shortcut.get_data() == b""


def test_a_changed_game_or_an_unknown_link_goes_to_flask(app: Flask, phone: Phone) -> None:
    view_token = _started(phone)
    etag = phone.client.get(f"/v/{view_token}/live").headers["ETag"]
    phone.client.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    fields = {"csrf_token": phone.csrf(), "version": str(phone.row().version), "name": "Friday"}
    assert phone.client.post(f"/g/{phone.token}/notes", data=fields).status_code == 303
    changed = phone.client.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and "Friday" in changed.get_data(as_text=True)
    assert phone.client.get("/v/nope/live", headers={"If-None-Match": etag}).status_code == 404


def test_the_access_code_still_applies(app: Flask, phone: Phone) -> None:
    view_token = _started(phone)
    etag = phone.client.get(f"/v/{view_token}/live").headers["ETag"]
    phone.client.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    app.config["ACCESS_CODE"] = "a code for the evening"
    stranger = app.test_client()
    response = stranger.get(f"/v/{view_token}/live", headers={"If-None-Match": etag})
    assert response.status_code == 303 and "/access" in response.headers["Location"]


@pytest.mark.parametrize(
    ("cookie", "accept"),
    [
        (None, None),
        (None, "ar"),
        (None, "tr-TR,tr;q=0.9,en;q=0.5"),
        (None, "de, fr;q=0.8"),
        ("ar", "en"),
        ("tr", None),
        ("xx", "ar;q=0.2, tr;q=0.4"),
        ("", "*"),
    ],
)
def test_the_shortcut_reads_the_language_as_flask_does(
    app: Flask,
    phone: Phone,
    monkeypatch: pytest.MonkeyPatch,
    cookie: str | None,
    accept: str | None,
) -> None:
    """Its ETag carries the reader's language: the same tag Flask gives for these headers,
    so a poll in the language it was rendered in is a 304 and in another is a 200."""
    view_token = _started(phone)
    client = app.test_client()
    if cookie is not None:
        client.set_cookie("lang", cookie)
    headers = {"Accept-Language": accept} if accept else {}
    etag = client.get(f"/v/{view_token}/live", headers=headers).headers["ETag"]
    client.get(f"/v/{view_token}/live", headers={**headers, "If-None-Match": etag})

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("Flask answered")

    with monkeypatch.context() as patch:
        patch.setattr(_shortcut(app), "wsgi_app", refuse)
        same = client.get(f"/v/{view_token}/live", headers={**headers, "If-None-Match": etag})
        assert same.status_code == 304 and same.headers["ETag"] == etag
    other = "ar" if not etag.endswith('-ar"') else "en"
    client.set_cookie("lang", other)
    assert (
        client.get(f"/v/{view_token}/live", headers={**headers, "If-None-Match": etag}).status_code
        == 200
    )


# --- a scorekeeping page's follow poll (`/g/<token>/live?v=`) -------------------------------

HTMX = {"HX-Request": "true"}


def _follow_url(html: str) -> str:
    found = re.search(r'<div id="follow"[^>]* hx-get="([^"]+)"', html)
    assert found, "the page does not follow the game"
    return found.group(1).replace("&amp;", "&")


class _Counted:
    """The Flask app behind the shortcut, counting the requests that reach it."""

    def __init__(self, wsgi_app: Any) -> None:
        self.wsgi_app = wsgi_app
        self.calls = 0

    def __call__(self, environ: Any, start_response: Any) -> Any:
        self.calls += 1
        return self.wsgi_app(environ, start_response)


def _counted(app: Flask, monkeypatch: pytest.MonkeyPatch) -> _Counted:
    shortcut = _shortcut(app)
    counted = _Counted(shortcut.wsgi_app)
    monkeypatch.setattr(shortcut, "wsgi_app", counted)
    return counted


def test_an_unchanged_follow_poll_is_answered_without_flask(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _follow_url(phone.game_page().get_data(as_text=True))
    counted = _counted(app, monkeypatch)
    by_flask = phone.client.get(url, headers=HTMX)  # the first one teaches the headers
    assert by_flask.status_code == 204 and counted.calls == 1
    for _ in range(3):
        by_shortcut = phone.client.get(url, headers=HTMX)
        assert by_shortcut.status_code == 204 and by_shortcut.get_data() == b""
        assert _headers(by_shortcut) == _headers(by_flask)
    open_form = phone.client.get(url + "&number=1", headers=HTMX)  # a deal form is open
    assert open_form.status_code == 204
    assert counted.calls == 1
    assert "ETag" not in by_shortcut.headers  # as Flask's own answer to this route


def test_a_changed_game_reaches_flask_and_is_followed(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _follow_url(phone.game_page().get_data(as_text=True))
    phone.client.get(url, headers=HTMX)
    counted = _counted(app, monkeypatch)
    other = Phone(app, app.test_client())
    other.token = phone.token
    other.enter({"contract": "diamonds", "counts": [5, 4, 3, 1]})
    calls = counted.calls
    changed = phone.client.get(url, headers=HTMX)
    html = changed.get_data(as_text=True)
    assert changed.status_code == 200 and counted.calls == calls + 1
    assert "Deal 2 of 20" in html and _follow_url(html) != url
    moved = phone.client.get(url + "&number=1", headers=HTMX)  # its open form is told
    assert "Deal 1 was saved on another phone" in moved.get_data(as_text=True)
    assert counted.calls == calls + 2
    assert phone.client.get(_follow_url(html), headers=HTMX).status_code == 204
    assert counted.calls == calls + 2


def test_a_follow_poll_flask_would_not_answer_204_goes_to_flask(
    app: Flask, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _follow_url(phone.game_page().get_data(as_text=True))
    phone.client.get(url, headers=HTMX)
    counted = _counted(app, monkeypatch)
    plain = phone.client.get(url)  # not htmx: the browser is sent to the game page
    assert plain.status_code in (302, 303) and plain.headers["Location"].endswith(phone.url)
    boosted = phone.client.get(url, headers={**HTMX, "HX-Boosted": "true"})
    assert boosted.status_code in (302, 303)
    assert (
        phone.client.get(url.replace(phone.token, "A" * len(phone.token)), headers=HTMX).status_code
        == 404
    )
    assert phone.client.get(url.split("?")[0], headers=HTMX).status_code == 200
    assert counted.calls == 4


def test_the_access_code_still_applies_to_the_follow_poll(app: Flask, phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    url = _follow_url(phone.game_page().get_data(as_text=True))
    phone.client.get(url, headers=HTMX)
    app.config["ACCESS_CODE"] = "a code for the evening"
    stranger = app.test_client()
    response = stranger.get(url, headers=HTMX)
    assert response.status_code != 204 and "/access" in response.headers.get(
        "HX-Redirect", response.headers.get("Location", "")
    )


def test_the_quick_answer_on_the_event_loop_never_touches_the_database(
    app: Flask, phone: Phone
) -> None:
    """The server asks the quick answer on its event loop (serving/gateway.py): a read there
    that waits (SQLite's busy wait, a slow PostgreSQL) would stall every connection of the
    worker. It answers from what this process keeps (PostgreSQL's listener, SQLite's marks),
    else nothing, and a thread answers; no statement runs on the asking thread."""
    from sqlalchemy import event
    from werkzeug.test import EnvironBuilder

    from scorekeeper.store.db import db

    view_token = _started(phone)
    shortcut = _shortcut(app)
    url = f"/v/{view_token}/live"
    etag = phone.client.get(url).headers["ETag"]
    # the first teaches Flask's headers; the second is read (and kept, when listening)
    for _ in range(2):
        assert phone.client.get(url, headers={"If-None-Match": etag}).status_code == 304
        versions = shortcut.versions
        assert versions is not None
        listens = versions.listens
        if listens:  # PostgreSQL: a read is kept once the listener listens
            assert versions.wait_listening(30.0)
    other = _started(phone)  # polled by nobody yet: nothing kept of it
    asking = threading.get_ident()
    statements: list[str] = []

    def counted(connection: Any, cursor: Any, statement: str, *args: Any) -> None:
        if threading.get_ident() == asking:
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", counted)
    try:
        for token in (view_token, other):
            environ = EnvironBuilder(
                path=f"/v/{token}/live", headers={"If-None-Match": etag}
            ).get_environ()
            answer = shortcut.quick_answer(environ)
            kept = (listens or versions.marks is not None) and token == view_token
            assert (answer is not None and answer[0] == 304) if kept else answer is None
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    assert statements == []
    # and the thread's answer still reads what memory does not know
    assert phone.client.get(url, headers={"If-None-Match": etag}).status_code == 304
