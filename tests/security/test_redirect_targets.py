"""Where a redirect goes back to comes from the visitor (`?next=`, a form field, the path asked
for before the access code): whatever it is, the answer is a 303 to a path on this site whose
Location header every server accepts (printable ASCII, no line break), never a 500."""

from __future__ import annotations

import string
from urllib.parse import quote

import pytest
from flask import Flask, request
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import TestResponse

from scorekeeper.web.access import OPEN_ENDPOINTS
from tests.conftest import page

CODE = "correct horse"
NASTY = [
    "/%0aX",
    "/%0d%0aSet-Cookie:%20x=1",
    "/%00",
    "/%7f",
    "/%e2%80%a8",
    "/%c2%85",
    "/%ff%fe",
    "/%",
    "/%zz",
    "//evil.example",
    "/%2f%2fevil.example",
    "/\\evil.example",
    "/%5cevil.example",
    "http://evil.example/",
    "/" + "a" * 5000,
    "/?next=/%0a",
    "%0a/",
    "/%09x",
    "/%e2%80%ae",
]
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
# a path after the site's "/": one starting with "/" would make "//…", which a client reads as
# another host (a network-path reference), not a path on this site
paths = texts.map(lambda text: text.lstrip("/"))
settings_ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def assert_local(response: TestResponse, what: object) -> None:
    assert response.status_code == 303, (what, response.status_code)
    location = response.headers["Location"]
    assert location.startswith("/") and not location.startswith(("//", "/\\")), (what, location)
    assert all(char in string.printable and char not in "\r\n\t\x0b\x0c" for char in location), (
        what,
        location,
    )


@pytest.mark.parametrize("target", NASTY)
def test_language_switch_back_to_any_target(app: Flask, target: str) -> None:
    response = app.test_client().get(f"/lang/en?next={target}")
    assert_local(response, target)


@given(target=texts)
@settings_
def test_language_switch_back_to_any_text(app: Flask, target: str) -> None:
    response = app.test_client().get("/lang/ar?next=" + quote(target, safe=""))
    assert_local(response, target)


@pytest.mark.parametrize("target", NASTY)
def test_access_code_page_back_to_any_target(app: Flask, target: str) -> None:
    client = app.test_client()
    assert_local(client.get(f"/access?next={target}"), target)  # no code set: straight back
    app.config["ACCESS_CODE"] = CODE
    form = page(client.get(f"/access?next={target}"))
    response = client.post("/access", data={**form.hidden("/access"), "code": CODE})
    assert_local(response, target)


@given(target=texts)
@settings_
def test_access_code_form_back_to_any_text(app: Flask, target: str) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    form = page(client.get("/access"))
    response = client.post("/access", data={**form.hidden("/access"), "code": CODE, "next": target})
    assert_local(response, target)


@given(path=paths)
@settings_
def test_any_path_asked_for_before_the_code(app: Flask, path: str) -> None:
    app.config["ACCESS_CODE"] = CODE
    asked = "/" + quote(path, safe="/?=&")
    response = app.test_client().get(asked)
    if response.status_code != 303:  # only a route open without the code answers itself
        with app.test_request_context(asked):
            endpoint = request.url_rule.endpoint if request.url_rule else None
        assert endpoint in OPEN_ENDPOINTS and response.status_code < 500, (path, endpoint)
        return
    assert_local(response, path)
