"""Fuzzing: hypothesis-generated requests to every route — random methods, fields, types, sizes
and encodings (invalid UTF-8 included), with and without a valid CSRF token. Never a 500 (the test
app propagates exceptions, so any crash fails the test), and a refused request (4xx) leaves every
stored game exactly as it was."""

from __future__ import annotations

import io
import json
import os
import weakref
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, quote_from_bytes

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.routing import Rule

from scorekeeper.rules import CONTRACTS
from scorekeeper.web.forms import chip_groups
from tests.conftest import Phone, snapshot
from tests.security.helpers import STATE_CHANGING, Games, routes, seed_games

FUZZ_EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "300"))
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")
FIELD_NAMES = sorted(
    {
        "csrf_token",
        "contract",
        "number",
        "version",
        "editing",
        "seat",
        "name",
        "notes",
        "game",
        "mode",
        "doubling",
        "doubled_self_take",
        "swap_diamonds_ltoosh",
        "code",
        "next",
        "file",
        *(f"player_{seat}" for seat in range(4)),
        *(
            name
            for contract in CONTRACTS
            for group in chip_groups(contract)
            for name in group.names
        ),
    }
)
NASTY_TEXT = (
    "<script>alert(1)</script>",
    "\u202eevil",
    "\x00",
    "\ud7ff\ufffd",
    "-1",
    "0",
    "99999999999999999999",
    "1e9",
    "NaN",
    "None",
    "null",
    "[]",
    "{}",
    "' OR 1=1 --",
    "../../etc/passwd",
    "=cmd|' /C calc'!A0",
    " ",
    "\r\n",
    "%00",
    "%ff",
    "²",
    "٣",
    "１",
    "1" * 5000,
    "0" * 50 + "1",
    "+1",
    " 1",
    "1_0",
)


@dataclass
class Fuzzed:
    """The run's figures, for the report."""

    requests: int = 0
    refused: int = 0
    statuses: dict[int, int] = field(default_factory=dict)


SCALAR: st.SearchStrategy[str] = st.one_of(  # a field value: plausible, nasty, random, long
    st.sampled_from(
        [
            "0",
            "1",
            "2",
            "3",
            "4",
            "13",
            "",
            "S",
            "H",
            "D",
            "C",
            "y",
            "trix",
            "solo",
            "partnership",
            "net",
            "full",
            *CONTRACTS,
        ]
    ),
    st.sampled_from(NASTY_TEXT),
    st.text(max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.integers(min_value=1, max_value=300_000).map(lambda n: "x" * n),
)
SMALL = st.integers(min_value=0, max_value=8).map(str)
DEAL_FIELDS = st.one_of(
    [  # a deal form that is nearly right: real contract and chips
        st.fixed_dictionaries(
            {
                "contract": st.just(contract),
                "number": SMALL,
                "version": SMALL,
                **{
                    name: st.one_of(
                        st.sampled_from([str(c) for c in group.choices]), st.just(""), SCALAR
                    )
                    for group in chip_groups(contract)
                    for name in group.names
                },
            },
            optional={"editing": st.sampled_from(["1", "2", "3", "4", "0", "x", ""])},
        )
        for contract in sorted(CONTRACTS)
    ]
)
ANY_FIELDS = st.dictionaries(
    st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=12)),
    st.one_of(SCALAR, st.lists(SCALAR, min_size=2, max_size=3)),
    max_size=12,
)
KNOWN_TOKEN = st.sampled_from(["@playing", "@view", "@fresh"])  # resolved when sent
TOKEN = st.one_of(
    KNOWN_TOKEN,
    KNOWN_TOKEN,
    KNOWN_TOKEN,
    KNOWN_TOKEN,
    st.text(min_size=1, max_size=70).map(lambda text: quote(text, safe="")),
    st.binary(min_size=1, max_size=30).map(lambda raw: quote_from_bytes(raw, safe="")),
)
NUMBER = st.one_of(st.integers(min_value=0, max_value=6), st.integers(min_value=0, max_value=2**40))
STATIC_FILE = st.sampled_from(["css/app.css", "js/htmx-2.0.11.min.js", "../secret_key", "nope"])
QUERY = st.dictionaries(
    st.sampled_from(["contract", "editing", "next", "seat", "x"]), SCALAR, max_size=3
)
HEADERS = st.fixed_dictionaries(
    {},
    optional={
        "HX-Request": st.sampled_from(["true", "false", ""]),
        "HX-Boosted": st.just("true"),
        "If-None-Match": st.one_of(
            st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=20),
            st.just('"2-en"'),
        ),
        "Accept-Language": st.sampled_from(["ar", "tr", "en", "xx", "*", "ar;q=x"]),
        "Content-Type": st.sampled_from(
            [
                "text/plain",
                "multipart/form-data",
                "application/x-www-form-urlencoded; charset=latin1",
            ]
        ),
    },
)
CSRF = st.sampled_from(["none", "form", "form", "header", "header", "garbage"])
ENCODING = st.sampled_from(["form", "form", "multipart", "json", "bytes", "latin1", "none"])
RAW = st.binary(max_size=200)


def request_strategy(rules: list[Rule]) -> st.SearchStrategy[dict[str, Any]]:
    """One request: route, path, method, query, fields in some encoding, headers, CSRF."""
    changing = [rule for rule in rules if (rule.methods or set()) & STATE_CHANGING]
    pick_rule = st.one_of(st.sampled_from(rules), st.sampled_from(changing))
    any_method = st.sampled_from(METHODS)
    methods = {
        id(rule): st.one_of(*[st.sampled_from(sorted(rule.methods or METHODS))] * 3, any_method)
        for rule in rules
    }
    fields = st.one_of(DEAL_FIELDS, ANY_FIELDS)

    @st.composite
    def draw_request(draw: st.DrawFn) -> dict[str, Any]:
        rule = draw(pick_rule)
        values: dict[str, Any] = {}
        for name in sorted(rule.arguments):
            if name == "filename":
                values[name] = draw(STATIC_FILE)
            elif name in ("number", "player_id"):  # numbers (the `number` converter)
                values[name] = draw(NUMBER)
            else:
                values[name] = draw(TOKEN)
        return {
            "rule": rule,
            "values": values,
            "method": draw(methods[id(rule)]),
            "query": draw(QUERY),
            "fields": draw(fields),
            "csrf": draw(CSRF),
            "encoding": draw(ENCODING),
            "headers": draw(HEADERS),
            "raw": draw(RAW),
            "upload": draw(RAW),
        }

    return draw_request()


def url_of(request: dict[str, Any], games: Games) -> str:
    """The drawn path, its tokens resolved; percent-encoded garbage (invalid UTF-8) kept."""
    known = {"@playing": games.playing, "@view": games.playing_view, "@fresh": games.fresh}
    values = {
        name: known.get(value, value) if isinstance(value, str) else value
        for name, value in request["values"].items()
    }
    built = request["rule"].build(values, append_unknown=False)
    assert built is not None
    return str(built[1]).replace("%25", "%")


_CSRF: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def csrf_of(phone: Phone) -> str:
    """The browser's CSRF token (it lasts as long as its session: read it once)."""
    if phone.client not in _CSRF:
        _CSRF[phone.client] = phone.csrf()
    return _CSRF[phone.client]


def send(phone: Phone, request: dict[str, Any], games: Games) -> Any:
    """Send a drawn request the way its encoding says, with the CSRF token it drew."""
    fields: dict[str, Any] = dict(request["fields"])
    headers = dict(request["headers"])
    token = csrf_of(phone) if request["csrf"] in ("form", "header") else "garbage.token"
    if request["csrf"] in ("form", "garbage"):
        fields["csrf_token"] = token
    elif request["csrf"] == "header":
        headers["X-CSRFToken"] = token
    kwargs: dict[str, Any] = {"query_string": request["query"], "headers": headers}
    encoding = request["encoding"]
    if encoding == "form":
        headers.pop("Content-Type", None)
        kwargs["data"] = fields
    elif encoding == "multipart":
        headers.pop("Content-Type", None)
        kwargs["data"] = {**fields, "file": (io.BytesIO(request["upload"]), "game.json")}
        kwargs["content_type"] = "multipart/form-data"
    elif encoding == "json":
        kwargs["data"] = json.dumps(fields)
        kwargs["content_type"] = "application/json"
    elif encoding == "bytes":  # not UTF-8 at all, labelled as a form
        kwargs["data"] = b"contract=\xff\xfe&" + request["raw"] + b"&csrf_token=" + token.encode()
        kwargs["content_type"] = headers.pop("Content-Type", "application/x-www-form-urlencoded")
    elif encoding == "latin1":
        body = "&".join(
            f"{quote(str(k), encoding='latin-1', errors='replace')}="
            f"{quote(str(v), encoding='latin-1', errors='replace')}"
            for k, v in fields.items()
        )
        kwargs["data"] = body.encode("latin-1", errors="replace")
        kwargs["content_type"] = "application/x-www-form-urlencoded; charset=latin-1"
    return phone.client.open(url_of(request, games), method=request["method"], **kwargs)


def fuzz(app: Flask, phone: Phone, max_examples: int) -> Fuzzed:
    """Run the fuzzer against the app; seed games again whenever a request deleted one."""
    figures = Fuzzed()
    holder: dict[str, Games] = {"games": seed_games(phone, deals=3)}
    requests = st.lists(request_strategy(routes(app)), min_size=1, max_size=3)

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(requests)
    def run(drawn: list[dict[str, Any]]) -> None:
        games = holder["games"]
        for request in drawn:
            before = snapshot(app)
            response = send(phone, request, games)
            status = response.status_code
            response.close()  # (a streamed export left open would pop its context later)
            figures.requests += 1
            figures.statuses[status] = figures.statuses.get(status, 0) + 1
            assert status < 500, (status, request)
            if 400 <= status < 500:
                figures.refused += 1
                assert snapshot(app) == before, (status, request)
        tokens = {row["token"] for row in snapshot(app)}
        if games.playing not in tokens or games.fresh not in tokens:
            holder["games"] = seed_games(phone, deals=3)

    run()
    return figures


def test_fuzz_every_route(app: Flask, phone: Phone) -> None:
    figures = fuzz(app, phone, max_examples=FUZZ_EXAMPLES)
    assert figures.requests >= FUZZ_EXAMPLES
    assert {200, 400, 404} <= set(figures.statuses), figures.statuses
    print(
        f"\nfuzz: {figures.requests} requests, {figures.refused} refused (4xx) with every "
        f"game unchanged; statuses {dict(sorted(figures.statuses.items()))}"
    )


def test_fuzz_behind_the_access_code(app: Flask, phone: Phone) -> None:
    """With an access code set, a browser without it changes nothing, whatever it sends."""
    games = seed_games(phone, deals=3)
    app.config["ACCESS_CODE"] = "correct horse"
    stranger = type(phone)(app, app.test_client())
    before = snapshot(app)
    count = 0

    @settings(
        max_examples=100, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(request_strategy(routes(app)))
    def run(request: dict[str, Any]) -> None:
        nonlocal count
        request = {**request, "csrf": "none" if request["csrf"] != "garbage" else "garbage"}
        response = send(stranger, request, games)
        count += 1
        assert response.status_code < 500
        assert snapshot(app) == before

    run()
    assert count >= 100
