"""docs/operations.md's recipe for the internet, run as written (issue 45, item 3): its
Caddyfile in front of two `scorekeeper serve` with its environment, on the suite's PostgreSQL
(SQLite shared by both where the suite runs without PostgreSQL). Caddy's certificate comes from
its internal CA (`local_certs`) instead of Let's Encrypt; nothing else differs.

Through Caddy: HTTPS with HSTS and Secure cookies; plain HTTP sent to HTTPS; each phone's address
counted apart (SCOREKEEPER_PROXIES=1: without it every phone is Caddy's 127.0.0.1 and one
guesser's wrong codes hold back everyone); view links in https://; pages still served with one
of the two app servers stopped. And SCOREKEEPER_PROXIES itself: off, a forwarded address is
not believed; a value that is not a count is refused in a sentence."""

from __future__ import annotations

import http.client
import os
import re
import signal
import ssl
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask, request

from scorekeeper.settings import SetupError, proxies_in_front
from tests.caddy import HTTPSTo, caddy_or_skip, running
from tests.conftest import POSTGRES_URL, make_app
from tests.servers import ROOT, free_port, serving

OPERATIONS = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
NAME = "scorekeeper.test"
CODE = "7301 4482 9921 0573"
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
RECORD = ROOT / "tests" / "data" / "trix-solo-complete.json"


def _recipe() -> tuple[str, dict[str, str], list[list[str]]]:
    """The recipe's Caddyfile, the environment its app servers get, and their commands."""
    caddyfile = re.findall(r"^```caddyfile\n(.*?)^```$", OPERATIONS, re.S | re.M)
    assert len(caddyfile) == 1, "docs/operations.md has one Caddyfile"
    blocks = re.findall(r"^```sh\n(.*?)^```$", OPERATIONS, re.S | re.M)
    servers = [block for block in blocks if "scorekeeper serve --host 127.0.0.1" in block]
    assert len(servers) == 1, "docs/operations.md starts the app servers in one block"
    environ: dict[str, str] = {}
    commands: list[list[str]] = []
    for line in servers[0].splitlines():
        if line.startswith("export "):  # NAME=VALUE … [# a comment]
            for part in line.split("#", 1)[0].split()[1:]:
                name, _, value = part.partition("=")
                environ[name] = value
        elif line.startswith("scorekeeper serve "):
            commands.append(line.split()[2:])
    return caddyfile[0], environ, commands


@pytest.fixture
def database(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The database both app servers share: the suite's PostgreSQL (emptied after), else a
    SQLite file."""
    if not POSTGRES_URL:
        yield "sqlite:///" + str(tmp_path / "shared.sqlite")
        return
    postgres = request.getfixturevalue("postgres")
    yield postgres.uri
    postgres.empty()


def _from(source: str, port: int, trusting: ssl.SSLContext) -> HTTPSTo:
    """A connection to Caddy for NAME from the local address `source` (a phone's own)."""
    connection = HTTPSTo(NAME, port, trusting)
    connection.source_address = (source, 0)
    return connection


def _ask(
    connection: http.client.HTTPConnection,
    method: str,
    path: str,
    cookie: str = "",
    form: dict[str, str] | None = None,
    **headers: str,
) -> tuple[http.client.HTTPResponse, str]:
    sent = {"Cookie": cookie} if cookie else {}
    sent.update({name.replace("_", "-"): value for name, value in headers.items()})
    body = None
    if form is not None:
        body = urlencode(form)
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body, headers=sent)
    answer = connection.getresponse()
    return answer, answer.read().decode("utf-8", "replace")


def _code(source: str, port: int, trusting: ssl.SSLContext, code: str, **headers: str) -> Any:
    """Enter an access code from `source`: the answer to the post, and the session cookie."""
    connection = _from(source, port, trusting)
    try:
        page, body = _ask(connection, "GET", "/access")
        assert page.status == 200, page.status
        assert page.getheader("Strict-Transport-Security") == "max-age=31536000"
        set_cookie = page.getheader("Set-Cookie") or ""
        assert "; Secure" in set_cookie, set_cookie
        cookie = set_cookie.split(";", 1)[0]
        found = TOKEN.search(body)
        assert found is not None
        form = {"csrf_token": found.group(1), "code": code, "next": ""}
        answer, _ = _ask(connection, "POST", "/access", cookie, form, **headers)
        return answer, (answer.getheader("Set-Cookie") or cookie).split(";", 1)[0]
    finally:
        connection.close()


def _addresses_counted(uri: str) -> set[str]:
    from sqlalchemy import create_engine, text

    engine = create_engine(uri)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT DISTINCT address FROM limit_events"))
            return set(rows.scalars())
    finally:
        engine.dispose()


@pytest.mark.slow
def test_the_recipe_for_the_internet(tmp_path: Path, database: str) -> None:
    caddy_or_skip()
    caddyfile, environ, commands = _recipe()
    assert environ["SCOREKEEPER_HTTPS"] == "1" and environ["SCOREKEEPER_PROXIES"] == "1"
    assert environ["DATABASE_URL"].startswith("postgresql://") and "SECRET_KEY" in environ
    assert [command[:4] for command in commands] == [
        ["--host", "127.0.0.1", "--port", "8001"],
        ["--host", "127.0.0.1", "--port", "8002"],
    ]
    environ.update(
        DATABASE_URL=database,
        SECRET_KEY="the-same-long-random-key-for-both-" + "k" * 20,
        SCOREKEEPER_ACCESS_CODE=CODE,
    )
    with ExitStack() as stack:
        ports, processes = [], []
        for number, command in enumerate(commands):
            instance = tmp_path / f"app-{number}"
            instance.mkdir()
            port, process = stack.enter_context(serving(instance, tuple(command[4:]), **environ))
            ports.append(port)
            processes.append(process)
        site = (
            caddyfile.replace("scores.example.org", NAME)
            .replace("127.0.0.1:8001", f"127.0.0.1:{ports[0]}")
            .replace("127.0.0.1:8002", f"127.0.0.1:{ports[1]}")
        )
        proxy = stack.enter_context(
            running(
                tmp_path / "caddy",
                site,
                name=NAME,
                https_port=free_port(),
                http_port=free_port(),
            )
        )
        trusting = ssl.create_default_context(cafile=proxy.root)

        plain = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=10)
        answer, _ = _ask(plain, "GET", "/access", Host=NAME)
        plain.close()
        assert answer.status in (301, 308)
        assert answer.getheader("Location") == f"https://{NAME}/access"

        # a guesser at 127.0.0.5 (claiming to be another address) and an honest phone
        for number in range(11):
            answer, _ = _code(
                "127.0.0.5",
                proxy.https_port,
                trusting,
                f"guess {number}",
                X_Forwarded_For="127.0.0.9",
            )
            assert answer.status in (422, 429), answer.status
        answer, cookie = _code("127.0.0.6", proxy.https_port, trusting, CODE)
        counted = _addresses_counted(database)
        assert answer.status == 303, (answer.status, counted)  # in at once, not held back
        assert counted == {"127.0.0.5"}  # not Caddy's, nor the address the guesser claimed

        # a game's page says its view link in https://
        imported = subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", "import", str(RECORD)],
            env={
                **os.environ,
                **environ,
                "SCOREKEEPER_INSTANCE": str(tmp_path / "app-0"),
                "PYTHONPATH": str(ROOT),
            },
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert imported.returncode == 0, imported.stderr
        from sqlalchemy import create_engine, text

        engine = create_engine(database)
        with engine.connect() as connection:
            token, view = connection.execute(text("SELECT token, view_token FROM games")).one()
        engine.dispose()
        for stopped in (False, True):
            if stopped:  # one app server stopped (a release, say): the other answers
                os.killpg(processes[0].pid, signal.SIGTERM)
                processes[0].wait(30)
            for _ in range(4):  # in turn: two of them to the stopped server first
                connection = _from("127.0.0.6", proxy.https_port, trusting)
                page, body = _ask(connection, "GET", f"/g/{token}", cookie)
                connection.close()
                assert page.status == 200, (stopped, page.status)
                assert f"https://{NAME}:{proxy.https_port}/v/{view}" in body


def _seen(tmp_path: Path, database_uri: str, proxies: int) -> str:
    """The address and scheme the app sees of a request from 127.0.0.1 forwarded for
    203.0.113.7 over HTTPS."""
    app: Flask = make_app(tmp_path, database_uri, PROXIES=proxies)

    @app.get("/seen")
    def seen() -> str:
        return f"{request.remote_addr} {request.scheme}"

    answer = app.test_client().get(
        "/seen",
        headers={"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )
    return answer.get_data(as_text=True)


def test_behind_a_proxy_the_forwarded_address_and_scheme_count(
    tmp_path: Path, database_uri: str
) -> None:
    assert _seen(tmp_path, database_uri, proxies=1) == "203.0.113.7 https"


def test_with_no_proxy_a_forwarded_address_is_not_believed(
    tmp_path: Path, database_uri: str
) -> None:
    assert _seen(tmp_path, database_uri, proxies=0) == "127.0.0.1 http"


@pytest.mark.parametrize(("given", "proxies"), [("", 0), ("0", 0), (" 2 ", 2)])
def test_scorekeeper_proxies_is_a_count(
    monkeypatch: pytest.MonkeyPatch, given: str, proxies: int
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PROXIES", given)
    assert proxies_in_front() == proxies


@pytest.mark.parametrize("given", ["yes", "-1", "1.5"])
def test_scorekeeper_proxies_not_a_count_is_refused_in_a_sentence(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PROXIES", given)
    with pytest.raises(SetupError, match="SCOREKEEPER_PROXIES must be how many proxies"):
        proxies_in_front()
