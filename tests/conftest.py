"""Fixtures for the web tests: the app on a migrated database, a client, and a `Phone` helper.

The schema is always created through the committed Alembic migration (``flask_migrate.upgrade``),
so the migration is tested too. CSRF stays on: the helpers read the token from the rendered form
or from the ``hx-headers`` attribute on ``<body>``, as a browser would.

When ``TEST_POSTGRES_URL`` names a PostgreSQL server, every test using ``app`` runs twice, on
SQLite and on a fresh PostgreSQL database created for the session (and dropped at its end).

Hypothesis runs under one of two profiles, chosen by ``HYPOTHESIS_PROFILE``: ``explore`` (the
default: new random examples each run, remembered failures replayed first) for local runs, and
``ci`` (``scripts/test`` chooses it): the same examples every run (``derandomize``), no example
database, no health check that times the machine. Neither has a deadline: a busy machine is
slow, not wrong.
"""

from __future__ import annotations

import gc
import json
import os
import secrets
import shutil
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from hypothesis import HealthCheck, settings
from jinja2 import FileSystemBytecodeCache
from werkzeug.test import TestResponse

from scorekeeper import create_app
from scorekeeper.settings import database_url

settings.register_profile("explore", deadline=None, derandomize=False)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))

# Python's cycle collector: a test process holds some 120,000 long-lived objects (the collected
# tests, the package, its libraries), and with the default thresholds every full collection
# scanned them all again: a tenth of a web test's processor time went to the collector. Those
# objects are set aside once the tests are collected (`gc.freeze`), and the young generation
# is collected less often (every 10,000 new objects rather than 700): the collector's share of
# a run of web tests fell from 3.5 s to 1.9 s of 34 (measured with `gc.callbacks`).
gc.set_threshold(10_000, 10, 10)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "").strip()
BACKENDS = ["sqlite", "postgresql"] if POSTGRES_URL else ["sqlite"]


# --- databases -------------------------------------------------------------------------------


def _sqlalchemy_url(url: str) -> str:
    """The app's own mapping of a DATABASE_URL (postgresql:// → postgresql+psycopg://)."""
    saved = os.environ.get("DATABASE_URL")
    os.environ["DATABASE_URL"] = url
    try:
        return database_url("/nonexistent")
    finally:
        if saved is None:
            del os.environ["DATABASE_URL"]
        else:
            os.environ["DATABASE_URL"] = saved


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return parts._replace(path="/" + name).geturl()


# Each test has an app of its own, and each app's Jinja compiled again every template it
# rendered: 0.2-0.5 s for a test's first pages (issue 31). Jinja's own bytecode cache, in its
# folder of the system's temporary files, compiles each template once for every test and worker:
# keyed by the template's name and its source's checksum (an edited one recompiles), each file
# written whole before it is renamed into place (two workers at once read one or the other).
_TEMPLATES = FileSystemBytecodeCache()


def _make_app(instance_path: Path, uri: str, **extra: Any) -> Flask:
    config: dict[str, Any] = {
        "TESTING": True,
        "INSTANCE_PATH": str(instance_path),
        "SQLALCHEMY_DATABASE_URI": uri,
        "SECRET_KEY": secrets.token_hex(32),
    }
    config.update(extra)
    app = create_app(config)
    app.jinja_env.bytecode_cache = _TEMPLATES
    return app


def _migrate(app: Flask) -> None:
    from flask_migrate import upgrade

    with app.app_context():
        upgrade()


def _dispose(app: Flask) -> None:
    from scorekeeper.store.db import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(autouse=True)
def _no_operator_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """An access code set in the shell running the tests must not lock the test apps."""
    monkeypatch.delenv("SCOREKEEPER_ACCESS_CODE", raising=False)


# Speed (issue 31): migrating a database costs ~0.3 s and emptying PostgreSQL's with TRUNCATE
# ~0.3 s (a new file for each table), on each of some 1,300 tests. So the migration runs once a
# session into a template: SQLite's file is copied for each test, and PostgreSQL's one database
# is emptied after each test by DELETE in foreign-key order and its sequences set back to 1
# (what TRUNCATE … RESTART IDENTITY did, in a tenth of the time). Each session — and each
# pytest-xdist worker, a session of its own — has its own template and its own database.


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database built by the committed migration, for each test to copy."""
    folder = tmp_path_factory.mktemp("sqlite-template")
    path = folder / "scorekeeper.sqlite"
    app = _make_app(folder / "instance", "sqlite:///" + str(path))
    _migrate(app)
    _dispose(app)
    with sqlite3.connect(path) as connection:  # the write-ahead log into the file, emptied
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.close()
    return path


_MIGRATED: set[str] = set()
"""The database URIs copied from the migrated template (`make_app` need not migrate them)."""


@dataclass
class PostgresDatabase:
    """The session's PostgreSQL database, migrated: its URI, and how to empty it again (every
    table of the migrated schema but Alembic's, children first; every sequence back to 1)."""

    uri: str
    engine: Any
    tables: list[str]
    sequences: list[str]

    def empty(self) -> None:
        from sqlalchemy import text

        with self.engine.begin() as connection:
            for table in self.tables:
                connection.execute(text(f'DELETE FROM "{table}"'))
            for sequence in self.sequences:
                connection.execute(text("SELECT setval(:name, 1, false)"), {"name": sequence})


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresDatabase]:
    """A fresh PostgreSQL database for this session (dropped at its end), migrated."""
    if not POSTGRES_URL:
        pytest.fail("TEST_POSTGRES_URL is not set")
    import psycopg
    from sqlalchemy import MetaData, create_engine, text

    name = "scorekeeper_test_" + secrets.token_hex(6)
    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    uri = _sqlalchemy_url(_with_database(POSTGRES_URL, name))
    app = _make_app(tmp_path_factory.mktemp("pg-instance"), uri)
    _migrate(app)
    _dispose(app)
    engine = create_engine(uri)
    schema = MetaData()
    schema.reflect(engine)
    with engine.connect() as connection:
        sequences = connection.execute(
            text(
                "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) "
                "FROM pg_sequences ORDER BY 1"
            )
        )
        database = PostgresDatabase(
            uri,
            engine,
            [t.name for t in reversed(schema.sorted_tables) if t.name != "alembic_version"],
            list(sequences.scalars()),
        )
    try:
        yield database
    finally:
        engine.dispose()
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def postgres_database(postgres: PostgresDatabase) -> str:
    """The session's PostgreSQL database, migrated; its SQLAlchemy URL."""
    return postgres.uri


@pytest.fixture(params=BACKENDS)
def database_uri(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A migrated, empty database: a copy of the session's migrated SQLite file in a temporary
    folder, or the session's PostgreSQL (emptied after the test)."""
    if request.param == "sqlite":
        path = tmp_path / "scorekeeper.sqlite"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        uri = "sqlite:///" + str(path)
        _MIGRATED.add(uri)
        yield uri
        _MIGRATED.discard(uri)
        return
    postgres: PostgresDatabase = request.getfixturevalue("postgres")
    yield postgres.uri
    postgres.empty()


def make_app(tmp_path: Path, database_uri: str, **config: Any) -> Flask:
    """Another app on the same database (for tests that need a second config)."""
    app = _make_app(tmp_path / "instance", database_uri, **config)
    if database_uri.startswith("sqlite") and database_uri not in _MIGRATED:
        _migrate(app)  # idempotent: the migration runs once per database
    return app


@pytest.fixture
def app(tmp_path: Path, database_uri: str) -> Iterator[Flask]:
    """The app with CSRF on, on a database built by the committed migration."""
    app = make_app(tmp_path, database_uri)
    yield app
    _dispose(app)


@pytest.fixture
def app_without_csrf(tmp_path: Path, database_uri: str) -> Iterator[Flask]:
    """The same app with CSRF checks off, for tests that post hand-made forms."""
    app = make_app(tmp_path, database_uri, WTF_CSRF_ENABLED=False)
    yield app
    _dispose(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> Phone:
    """A `Phone` driving the app as one phone at the card table does (one browser, its cookies)."""
    return Phone(app, client)


def snapshot(app: Flask) -> list[dict[str, Any]]:
    """Every row of the games table, to compare before and after (tables: tests/web/test_tables)."""
    from sqlalchemy import text

    from scorekeeper.store.db import db

    with app.app_context():
        rows = db.session.execute(text("SELECT * FROM games ORDER BY id")).mappings().all()
        result = [
            {
                key: (str(value) if key in ("created_at", "updated_at") else value)
                for key, value in row.items()
            }
            for row in rows
        ]
        db.session.remove()
    return result


# --- reading pages ---------------------------------------------------------------------------


class Page(HTMLParser):
    """What a test needs from a page: forms and their inputs, links, the CSRF header, text."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self.links: list[str] = []
        self.hx_headers: dict[str, str] = {}
        self.text_parts: list[str] = []
        self.radios: list[dict[str, str]] = []  # in a form or not (a preview's filled-in rows)
        self._form: dict[str, Any] | None = None
        self._owned: list[dict[str, str]] = []  # fields with a form="id" attribute
        self.feed(html)
        self.close()
        for field in self._owned:  # a browser sends them with the form of that id
            for form in self.forms:
                if form["id"] == field["form"]:
                    form["inputs"].append(field)
                    break

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "body" and "hx-headers" in a:
            self.hx_headers = json.loads(a["hx-headers"])
        elif tag == "form":
            self._form = {
                "action": a.get("action", ""),
                "method": a.get("method", "get"),
                "id": a.get("id", ""),
                "inputs": [],
            }
            self.forms.append(self._form)
        elif tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "input" and a.get("type") == "radio":
            self.radios.append(a)
        if tag in ("input", "button", "textarea") and a.get("form"):
            self._owned.append({"tag": tag, **a})  # its form named by id, wherever it is
        elif tag in ("input", "button", "textarea") and self._form is not None:
            self._form["inputs"].append({"tag": tag, **a})

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None

    def handle_data(self, data: str) -> None:
        self.text_parts.append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split())

    @property
    def csrf_token(self) -> str:
        """The token a browser would send: the body's hx-headers, else a form's hidden field."""
        if "X-CSRFToken" in self.hx_headers:
            return self.hx_headers["X-CSRFToken"]
        for form in self.forms:
            for field in form["inputs"]:
                if field.get("name") == "csrf_token":
                    return str(field.get("value", ""))
        raise AssertionError("no CSRF token on the page")

    def form(self, action_part: str) -> dict[str, Any]:
        """The first form whose action contains `action_part`."""
        for form in self.forms:
            if action_part in form["action"]:
                return form
        raise AssertionError(f"no form posting to {action_part!r}")

    def hidden(self, action_part: str) -> dict[str, str]:
        """A form's hidden fields, as a browser would send them."""
        return {
            field["name"]: field.get("value", "")
            for field in self.form(action_part)["inputs"]
            if field.get("type") == "hidden" and field.get("name")
        }

    def checked(self, action_part: str) -> dict[str, str]:
        """A form's checked radio buttons and hidden fields: what submitting it now sends."""
        values = self.hidden(action_part)
        for field in self.form(action_part)["inputs"]:
            if field.get("type") == "radio" and "checked" in field and field.get("value"):
                values[field["name"]] = field["value"]
        return values

    def checked_radios(self) -> dict[str, str]:
        """Every checked radio button of the page or fragment, in a form or not."""
        return {
            radio["name"]: radio["value"]
            for radio in self.radios
            if "checked" in radio and radio.get("value") and radio.get("name")
        }

    def link_with(self, **query: str) -> str:
        """The first link whose query string has these values."""
        for href in self.links:
            args = {k: v[0] for k, v in parse_qs(urlsplit(href).query).items()}
            if all(args.get(k) == v for k, v in query.items()):
                return href
        raise AssertionError(f"no link with {query}")


def page(response: TestResponse) -> Page:
    return Page(response.get_data(as_text=True))


def totals_shown(response: TestResponse) -> list[str]:
    """The four totals of the scoreboard, as shown (+75, −150, 0)."""
    import re

    html = response.get_data(as_text=True)
    board = html.split('class="totals"', 1)[1].split("</ol>", 1)[0]
    return re.findall(r'<span class="total">([^<]*)</span>', board)


def team_totals_shown(response: TestResponse) -> list[str]:
    import re

    html = response.get_data(as_text=True)
    board = html.split('class="teams"', 1)[1].split("</ol>", 1)[0]
    return re.findall(r'<span class="total">([^<]*)</span>', board)


def signed(value: int) -> str:
    """A score as the app shows it."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


# --- driving the app -------------------------------------------------------------------------


def form_fields(deal: Mapping[str, Any]) -> dict[str, str]:
    """A record's deal as the chips a player taps (field name → value; unset chips are "")."""
    from scorekeeper.rules.deal import FieldKind
    from scorekeeper.web.forms import chip_groups

    fields: dict[str, str] = {"contract": str(deal["contract"])}
    for group in chip_groups(str(deal["contract"])):
        value = deal.get(group.spec.name)
        if group.spec.kind in (FieldKind.COUNTS, FieldKind.ORDER, FieldKind.SEAT_PAIR):
            for name, key in zip(group.names, group.subjects, strict=True):
                fields[name] = "" if value is None else str(value[key])
        elif group.spec.kind in (FieldKind.CARD_SEATS, FieldKind.OPTIONAL_CARD_SEATS):
            for name, key in zip(group.names, group.subjects, strict=True):
                seat = (value or {}).get(key)
                fields[name] = "" if seat is None else str(seat)
        else:
            fields[group.names[0]] = "" if value is None else str(value)
    return fields


class Phone:
    """One phone at the card table (a test client and its cookies): starts a game and enters deals
    through the forms only. A table of the app (a group of players) is `TablePhone`'s."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.token = ""

    # pages
    @property
    def url(self) -> str:
        return f"/g/{self.token}"

    def game_page(self) -> TestResponse:
        response = self.client.get(self.url)
        assert response.status_code == 200, response.status_code
        return response

    def csrf(self) -> str:
        """A fresh CSRF token from the page's hx-headers, as htmx sends it."""
        return page(self.client.get("/")).csrf_token

    def row(self) -> Any:
        """The game's database row (detached)."""
        from scorekeeper.store.db import db
        from scorekeeper.store.games import find_game

        with self.app.app_context():
            row = find_game(self.token)
            assert row is not None
            db.session.expunge(row)
            return row

    def record(self) -> Any:
        """The stored game as a record (scorekeeper.store.games.record_of)."""
        from scorekeeper.store.games import find_game, record_of

        with self.app.app_context():
            row = find_game(self.token)
            assert row is not None
            return record_of(row)

    # setting up
    def new_game(
        self,
        game: str = "trix",
        mode: str = "solo",
        players: tuple[str, ...] = ("Rami", "Lina", "Omar", "Dana"),
        name: str = "",
        *,
        doubling: bool = True,
        doubled_self_take: str = "net",
        swap_diamonds_ltoosh: bool = False,
        first: int | None = None,
        doubled_queen_of_diamonds: str | None = None,
        winners: str | None = None,
        complex_tricks: str | None = None,
    ) -> TestResponse:
        """Fill in the new-game form and start; with `first`, also choose the first seat.
        The choices left at None are not sent (the default)."""
        form = page(self.client.get("/new"))
        data: dict[str, Any] = {
            "csrf_token": form.hidden("/new")["csrf_token"],
            "game": game,
            "mode": mode,
            "doubled_self_take": doubled_self_take,
            "name": name,
        }
        for seat, player in enumerate(players):
            data[f"player_{seat}"] = player
        if doubling:
            data["doubling"] = "y"
        if swap_diamonds_ltoosh:
            data["swap_diamonds_ltoosh"] = "y"
        if doubled_queen_of_diamonds is not None:
            data["doubled_queen_of_diamonds"] = doubled_queen_of_diamonds
        if winners is not None:
            data["winners"] = winners
        if complex_tricks is not None:
            data["complex_tricks"] = complex_tricks
        response = self.client.post("/new", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.token = response.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        if first is not None:
            return self.choose_first(first)
        return response

    def choose_first(self, seat: int) -> TestResponse:
        fields = page(self.game_page()).hidden("/first")
        response = self.client.post(f"{self.url}/first", data={**fields, "seat": str(seat)})
        assert response.status_code == 303, response.status_code
        return response

    def load(self, record: Mapping[str, Any]) -> None:
        """Store a game straight from a record (JSON dict), skipping the forms: for set-ups."""
        from scorekeeper.rules import HouseRules, load_record, replay
        from scorekeeper.store.games import create_game, find_game, set_first, write_deals

        game = load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game
        with self.app.app_context():
            row = create_game(
                game.kind,
                game.mode,
                list(game.players),
                HouseRules(**record.get("house_rules", {})),
                record.get("name"),
            )
            self.token = row.token
            set_first(row, game.first, row.version)
            write_deals(row, replay(game), row.version)
            assert find_game(self.token) is not None

    # deals
    def open_deal(self, contract: str) -> Page:
        """Tap the contract's button on the game page: the deal form."""
        href = page(self.game_page()).link_with(contract=contract)
        response = self.client.get(href)
        assert response.status_code == 200, (response.status_code, href)
        return page(response)

    def open_edit(self, number: int, contract: str | None = None) -> Page:
        """Tap "Edit" on a past deal (and optionally another contract)."""
        href = f"{self.url}/deal/{number}/edit"
        if contract is not None:
            href += f"?contract={contract}"
        response = self.client.get(href)
        assert response.status_code == 200, (response.status_code, href)
        return page(response)

    def preview(self, form: Page, taps: Mapping[str, str], *, htmx: bool = True) -> TestResponse:
        """What htmx posts as the player taps: the form's state plus the taps."""
        data = {**form.checked("/deal"), **taps}
        headers = {"HX-Request": "true", "X-CSRFToken": form.csrf_token} if htmx else {}
        return self.client.post(f"{self.url}/deal/preview", data=data, headers=headers)

    def save(self, form: Page, taps: Mapping[str, str]) -> TestResponse:
        """Submit the deal form (a plain POST) with these taps."""
        data = {**form.checked("/deal"), **taps}
        return self.client.post(f"{self.url}/deal", data=data)

    def enter(self, deal: Mapping[str, Any], *, blank: tuple[str, ...] = ()) -> TestResponse:
        """Choose the deal's contract, tap its values (leaving `blank` ones for the app to fill
        in), watch the preview, save; returns the game page after the redirect."""
        form = self.open_deal(str(deal["contract"]))
        return self._tap_and_save(form, deal, blank)

    def edit(self, number: int, deal: Mapping[str, Any]) -> TestResponse:
        """Edit a past deal into `deal` (which may change its contract)."""
        form = self.open_edit(number, str(deal["contract"]))
        return self._tap_and_save(form, deal, ())

    def _tap_and_save(
        self, form: Page, deal: Mapping[str, Any], blank: tuple[str, ...]
    ) -> TestResponse:
        wanted = form_fields(deal)
        taps = {**wanted, **{name: "" for name in blank}}
        preview = self.preview(form, taps)
        assert preview.status_code == 200, preview.get_data(as_text=True)
        # the preview sends back (out of band) the chip rows the app filled in
        shown = {
            **form.checked("/deal"),
            **taps,
            **Page(preview.get_data(as_text=True)).checked_radios(),
        }
        for name in blank:  # the app filled in what the other taps determine
            assert shown.get(name) == wanted[name], (name, shown.get(name), wanted[name])
        response = self.save(form, {**taps, **{name: shown[name] for name in blank}})
        assert response.status_code == 303, response.get_data(as_text=True)
        return self.client.get(response.headers["Location"])

    def undo(self) -> TestResponse:
        fields = page(self.game_page()).hidden("/undo")
        response = self.client.post(f"{self.url}/undo", data=fields)
        assert response.status_code == 303, response.status_code
        return self.client.get(response.headers["Location"])


# Debian's Chromium, in two builds of the same source. The pages are tested in its headless
# shell (package chromium-headless-shell: what Playwright itself runs when headless), which drew
# them for a third less of the machine than the whole browser in its new headless mode (issue
# 31: Chromium was half of the suite's processor time). Play with no network is tested in the
# whole browser (package chromium), as a phone has it: the shell has no Background Sync, so its
# service worker never sends the deals kept on the phone (tests/browser/test_offline.py). The
# benches, which time what a phone feels, use the whole browser too.
HEADLESS_SHELL = ("/usr/bin/chromium-headless-shell", "chromium-headless-shell")
WHOLE_CHROMIUM = ("/usr/bin/chromium", "chromium")


def pages_chromium(has: Callable[[str], bool] = os.path.exists) -> tuple[str, str]:
    """The build the pages are drawn in: the headless shell, else the whole browser (a machine
    where the shell cannot be installed: scripts/test-packages.sh goes on without it), else the
    shell, so that the failure names what to install."""
    if has(HEADLESS_SHELL[0]) or not has(WHOLE_CHROMIUM[0]):
        return HEADLESS_SHELL
    return WHOLE_CHROMIUM


def pytest_report_header() -> str | None:
    if pages_chromium() == WHOLE_CHROMIUM:
        return "pages drawn in the whole Chromium: no chromium-headless-shell (slower)"
    return None


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # WebAssembly by V8's baseline compiler alone: the phone's engine (Pyodide) boots in a test
    # for 1.7 CPU-seconds rather than 3.3, since a test's page never lives long enough for
    # optimised code to pay back its compiling (the same answers, sooner: ready in 1.0 s, not
    # 1.5). The benches, which time what a phone feels, keep Chromium's own tiers (bench/taps.py).
    "--js-flags=--liftoff-only",
]


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's sync API, one for the whole run (it allows one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


def _launch(playwright: Any, build: tuple[str, str]) -> Any:
    """One of Debian's Chromium builds, headless. Missing → fail with how to install it, never
    skip."""
    path, package = build
    if not Path(path).exists():
        pytest.fail(
            f"{path} is missing: install it with `apt-get install {package}` "
            "(Playwright's own browser download does not work here)"
        )
    return playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """Debian's headless Chromium shell (or its whole browser where the shell is missing), one
    for the whole run: the pages' tests."""
    chromium = _launch(playwright, pages_chromium())
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def whole_browser(playwright: Any) -> Iterator[Any]:
    """Debian's whole Chromium, headless, started for the first test that asks: a phone's
    service worker with Background Sync."""
    chromium = _launch(playwright, WHOLE_CHROMIUM)
    yield chromium
    chromium.close()
