"""How much body each request takes, judged from its head (`scorekeeper.serving.bodies`): a file
on the import pages, a form's worth elsewhere, nothing for a route the app does not have or for
a browser without the server's access code (sent to the code page first, its body unread)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from werkzeug.test import EnvironBuilder

from scorekeeper.serving.bodies import BodyLimits
from scorekeeper.serving.gateway import BODY_LIMIT
from scorekeeper.web.views.imports import IMPORT_MAX_BYTES, UPLOAD_BODY
from tests.conftest import Phone

CODE = "correct horse battery staple 1931"


def head(method: str, path: str, cookie: str = "") -> dict[str, Any]:
    """A request's environ before its body is read."""
    headers = {"Cookie": cookie} if cookie else {}
    environ: dict[str, Any] = EnvironBuilder(
        method=method, path=path, headers=headers, data=b""
    ).get_environ()
    return environ


def test_the_app_offers_its_limits_to_the_server(app: Flask) -> None:
    assert isinstance(app.extensions[BODY_LIMIT], BodyLimits)


def test_only_the_pages_that_take_a_file_take_more_than_a_form(app: Flask) -> None:
    limit = app.extensions[BODY_LIMIT]
    form = app.config["MAX_CONTENT_LENGTH"]
    assert UPLOAD_BODY > IMPORT_MAX_BYTES > form
    assert limit(head("POST", "/import")) == UPLOAD_BODY
    assert limit(head("POST", "/t/AAAAAAAAAAAAAAAAAAAAAA/import")) == UPLOAD_BODY
    for path in ("/new", "/g/AAAAAAAAAAAAAAAAAAAAAA/deal", "/tables/new"):
        assert limit(head("POST", path)) == form, path
    assert limit(head("POST", "/nowhere")) == 0  # 404, from the head
    assert limit(head("PUT", "/import")) == 0  # 405


def test_without_the_access_code_no_body_is_taken_but_the_codes(app: Flask, phone: Phone) -> None:
    app.config["ACCESS_CODE"] = CODE
    limit = app.extensions[BODY_LIMIT]
    assert limit(head("POST", "/import")) == 0
    assert limit(head("POST", "/new")) == 0
    assert limit(head("POST", "/access")) == app.config["MAX_CONTENT_LENGTH"]  # the code itself
    # once this browser has given the code, its session says so
    page = phone.client.get("/access")
    token = page.get_data(as_text=True).split('name="csrf_token" type="hidden" value="')[1]
    answer = phone.client.post(
        "/access", data={"code": CODE, "csrf_token": token.split('"')[0], "next": ""}
    )
    assert answer.status_code == 303
    cookie = phone.client.get_cookie("session")
    assert cookie is not None
    assert limit(head("POST", "/import", f"session={cookie.value}")) == UPLOAD_BODY


@pytest.mark.parametrize("htmx", [False, True])
def test_a_post_without_the_access_code_goes_to_the_code_page_unread(
    app: Flask, htmx: bool
) -> None:
    """What the app answers when the server has not read the body: the code page, not a
    refused form (the access code is judged before the form's token)."""
    app.config["ACCESS_CODE"] = CODE
    headers = {"HX-Request": "true"} if htmx else {}
    answer = app.test_client().post("/new", data=b"", headers=headers)
    if htmx:
        assert (answer.status_code, answer.headers["HX-Redirect"]) == (403, "/access")
    else:
        assert (answer.status_code, answer.headers["Location"]) == (303, "/access")
