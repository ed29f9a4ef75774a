"""Who gets in: unguessable links, a 404 that says nothing, a home page listing only this
browser's games, and the optional server-wide access code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import Phone, make_app, page, snapshot
from tests.security.helpers import GARBAGE_TOKEN, routes, seed_games, url_for_rule

CODE = "blue tiger 42"


def test_links_are_unguessable(phone: Phone) -> None:
    tokens = set()
    for _ in range(5):
        phone.new_game()
        row = phone.row()
        for token in (row.token, row.view_token):
            assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", token)  # ≥ 128 bits of base64url
            assert not token.isdigit()
            tokens.add(token)
    assert len(tokens) == 10


def test_unknown_token_is_a_404_that_says_nothing(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    bodies = set()
    for rule in routes(app):
        if "token" not in rule.arguments and "view_token" not in rule.arguments:
            continue
        near_miss = games.playing[:-1] + ("A" if games.playing[-1] != "A" else "B")
        for token in (GARBAGE_TOKEN, near_miss, "1", "x" * 200):
            url = url_for_rule(rule, token)
            method = "GET" if "GET" in (rule.methods or ()) else "POST"
            response = phone.client.open(url, method=method, headers={"X-CSRFToken": phone.csrf()})
            assert response.status_code == 404, (method, url)
            text = page(response).text
            assert token not in text
            bodies.add((response.mimetype, text))
    # the same page whatever the token (the sync of pending deals, a script's: the same JSON)
    assert sorted(kind for kind, _ in bodies) == ["application/json", "text/html"]


def test_home_lists_only_this_browsers_games(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    mine = phone.client.get("/").get_data(as_text=True)
    assert games.playing in mine and games.fresh in mine
    stranger = app.test_client().get("/").get_data(as_text=True)
    for token in (games.playing, games.fresh, games.playing_view):
        assert token not in stranger
    assert "Rami" not in stranger and "Ana" not in stranger


def test_opening_a_link_adds_the_game_to_home(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
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


def test_access_code_is_asked_once_per_browser(app: Flask, phone: Phone) -> None:
    games = seed_games(phone)
    app.config["ACCESS_CODE"] = CODE
    stranger = app.test_client()
    before = snapshot(app)
    for url in ("/", "/new", f"/g/{games.playing}", f"/v/{games.playing_view}", "/nope"):
        response = stranger.get(url)
        assert response.status_code == 303, url
        assert response.headers["Location"].startswith("/access"), url
    for url in (f"/g/{games.playing}/deal", f"/g/{games.playing}/notes", "/new"):
        response = stranger.post(
            url,
            data={
                "csrf_token": page(stranger.get("/access")).csrf_token,
                "name": "x",
                "notes": "x",
            },
        )
        assert response.status_code == 303, url
    htmx = stranger.post(
        f"/g/{games.playing}/deal/preview",
        headers={"HX-Request": "true", "X-CSRFToken": page(stranger.get("/access")).csrf_token},
    )
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


@pytest.mark.parametrize(
    "target",
    ["//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "evil"],
)
def test_no_open_redirect_after_the_code(app: Flask, target: str) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    form = page(client.get("/access"))
    response = client.post("/access", data={**form.hidden("/access"), "code": CODE, "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_access_code_from_the_environment(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_ACCESS_CODE", CODE)
    app = make_app(tmp_path, database_uri)
    client = app.test_client()
    assert client.get("/").status_code == 303
    assert enter_code(client, CODE).status_code == 303
    assert client.get("/").status_code == 200


def test_links_with_impossible_tokens_are_404s(app: Flask, phone: Phone) -> None:
    """A NUL byte or invalid UTF-8 in a link is a 404 like any unknown token (PostgreSQL would
    refuse to compare a NUL; the fuzzer found that 500)."""
    seed_games(phone)
    for rule in routes(app):
        if not rule.arguments & {"token", "view_token"}:
            continue
        for raw in ("%00", "abc%00def", "%ff%fe", "%E2%80%AEevil", "..", "a b"):
            url = url_for_rule(rule, "PLACEHOLDER").replace("PLACEHOLDER", raw)
            for headers in ({}, {"If-None-Match": 'W/"3-en"'}):
                method = "GET" if "GET" in (rule.methods or ()) else "POST"
                response = phone.client.open(
                    url + "?v=3-en", method=method, headers={**headers, "X-CSRFToken": phone.csrf()}
                )
                assert response.status_code == 404, (method, url)


# --- guessing the code: limits kept in the database ---------------------------------------------


class Clock:
    """The limits' clock, moved by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from scorekeeper.store import limits

        self.now = 1_800_000_000.0
        monkeypatch.setattr(limits, "now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += seconds


def client_at(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def limit_rows(app: Flask) -> tuple[int, int]:
    from sqlalchemy import func, select

    from scorekeeper.store.db import db
    from scorekeeper.store.limits import LimitEvent, LimitSlot

    with app.app_context():
        counts = (
            db.session.scalar(select(func.count()).select_from(LimitEvent)) or 0,
            db.session.scalar(select(func.count()).select_from(LimitSlot)) or 0,
        )
        db.session.remove()
    return counts


def test_wrong_codes_from_one_address_are_capped(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond the allowance an address gets one check per interval; the rest are not checked
    at all (429), so they learn nothing, right code or not."""
    from scorekeeper.store.limits import WRONG_CODES

    clock = Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    guesser = client_at(app, "198.51.100.9")
    for guess in range(WRONG_CODES.per_address):
        assert enter_code(guesser, f"guess {guess}").status_code == 422
    assert enter_code(guesser, "one more").status_code == 422  # the address's slot
    refused = enter_code(guesser, "and another")
    assert refused.status_code == 429
    assert "Wait a few seconds" in page(refused).text
    assert refused.headers["Retry-After"] == "6"
    assert enter_code(guesser, CODE).status_code == 429  # not checked: the slot is taken
    assert guesser.get("/").status_code == 303
    neighbour = client_at(app, "192.0.2.7")  # another address is not held up
    assert enter_code(neighbour, CODE).status_code == 303
    clock.advance(WRONG_CODES.address_interval)
    assert enter_code(guesser, CODE).status_code == 303
    assert guesser.get("/").status_code == 200


def test_a_right_code_from_an_address_that_guessed_wrong_is_let_in(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone behind the same address (NAT, a proxy) guessed wrong all they may: the host's
    right code still gets in, with no lock to wait out."""
    from scorekeeper.store.limits import WRONG_CODES

    Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    for guess in range(WRONG_CODES.per_address):
        assert enter_code(client_at(app, "203.0.113.5"), f"guess {guess}").status_code == 422
    host = client_at(app, "203.0.113.5")
    assert enter_code(host, CODE).status_code == 303
    assert host.get("/").status_code == 200


def test_rotating_addresses_do_not_keep_an_honest_user_out(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,000 addresses guess at once: nothing they spend is anyone else's, so the host's right
    code, from any other address, gets in on the first try; each guesser keeps its own limit."""
    from scorekeeper.store.limits import WRONG_CODES

    Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    guesser = app.test_client()
    form = page(guesser.get("/access")).hidden("/access")
    statuses = [
        guesser.post(
            "/access",
            data={**form, "code": f"guess {n}"},
            environ_overrides={"REMOTE_ADDR": f"10.{n // 250}.{n % 250}.1"},
        ).status_code
        for n in range(1000)
    ]
    assert statuses == [422] * 1000  # each checked: one guess per address is within its limit
    honest = client_at(app, "192.0.2.44")
    assert enter_code(honest, CODE).status_code == 303
    assert honest.get("/").status_code == 200
    one = client_at(app, "10.0.0.1")  # a guesser is held to its own allowance
    for guess in range(WRONG_CODES.per_address - 1):
        assert enter_code(one, f"again {guess}").status_code == 422
    assert enter_code(one, "the slot").status_code == 422
    assert enter_code(one, "too many").status_code == 429


def test_addresses_in_one_ipv6_network_count_as_one(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.store.limits import WRONG_CODES, address_key

    assert address_key("2001:db8:1:2::7") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("2001:db8:1:2::7") != address_key("2001:db8:1:3::7")
    assert address_key("::ffff:192.0.2.1") == address_key("192.0.2.1") == "192.0.2.1"
    Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    for guess in range(WRONG_CODES.per_address + 1):
        assert (
            enter_code(client_at(app, f"2001:db8:1:2::{guess + 1:x}"), f"guess {guess}").status_code
            == 422
        )
    assert enter_code(client_at(app, "2001:db8:1:2::abcd"), "guess").status_code == 429
    assert enter_code(client_at(app, "2001:db8:1:3::1"), "guess").status_code == 422


def test_two_app_instances_on_one_database_share_the_count(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two workers (or hosts) behind a load balancer: guesses spread over them add up."""
    from scorekeeper.store.limits import WRONG_CODES

    Clock(monkeypatch)
    first = make_app(tmp_path / "one", database_uri, ACCESS_CODE=CODE)
    second = make_app(tmp_path / "two", database_uri, ACCESS_CODE=CODE)
    apps = (first, second)
    for guess in range(WRONG_CODES.per_address + 1):
        client = client_at(apps[guess % 2], "198.51.100.20")
        assert enter_code(client, f"guess {guess}").status_code == 422
    for app in apps:
        assert enter_code(client_at(app, "198.51.100.20"), "guess").status_code == 429


def test_the_counts_stay_small(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows older than the window are deleted as new ones come; refused guesses add none."""
    from scorekeeper.store.limits import WRONG_CODES

    clock = Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    for n in range(200):  # a guess a second from a new address, for 200 s
        enter_code(client_at(app, f"10.1.{n // 250}.{n % 250}"), "guess")
        clock.advance(1.0)
    events, slots = limit_rows(app)
    assert events <= 200
    assert slots == 1  # the queue of wrong answers, for everyone
    clock.advance(WRONG_CODES.window + 1)
    enter_code(client_at(app, "10.2.0.1"), "guess")
    assert limit_rows(app) == (1, 1)


def test_the_code_page_can_be_read_in_another_language(app: Flask) -> None:
    app.config["ACCESS_CODE"] = CODE
    client = app.test_client()
    response = client.get("/lang/ar?next=/access")
    assert response.status_code in (302, 303)
    assert "lang=ar" in response.headers.get("Set-Cookie", "")
    assert 'dir="rtl"' in client.get("/access").get_data(as_text=True)


def test_guesses_at_the_same_moment_do_not_slip_past_together(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many workers asking at once: a wrong code is counted before it is checked, so no more
    than the allowance (and one slot) are checked however the requests interleave."""
    import threading

    from scorekeeper.store import limits

    Clock(monkeypatch)
    tight = limits.Limit(
        "code",
        window=300.0,
        per_address=50,
        everyone=5,
        address_interval=6.0,
        everyone_interval=60.0,
    )
    barrier = threading.Barrier(12)
    tickets: list[int | None] = []

    def guess(number: int) -> None:
        with app.app_context():
            barrier.wait()
            tickets.append(limits.reserve(tight, f"10.3.0.{number}"))
            limits.db.session.remove()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    granted = [ticket for ticket in tickets if ticket is not None]
    assert 1 <= len(granted) <= tight.everyone + 1
    assert limit_rows(app)[0] == len(granted)  # the refused left no row


# --- the code's strength -------------------------------------------------------------------------


STRONG = "7301 4482 9921 0573"


def test_a_new_code_is_strong_and_speakable() -> None:
    from scorekeeper.store.limits import STRONG_CODE_GUESSES, code_guesses, new_code

    codes = {new_code() for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert re.fullmatch(r"\d{4} \d{4} \d{4} \d{4}", code)  # digits read out in 4 groups
        assert code_guesses(code) >= STRONG_CODE_GUESSES


@pytest.mark.parametrize(
    "code", ["blue tiger 42", "1234", "password1234", "000000000000", "Scorekeeper2026"]
)
def test_a_weak_code_is_refused_at_start_with_a_strong_one_offered(
    tmp_path: Path, database_uri: str, code: str
) -> None:
    from scorekeeper.settings import SetupError

    with pytest.raises(SetupError, match="too easy to guess") as refused:
        make_app(tmp_path, database_uri, TESTING=False, ACCESS_CODE=code)
    offered = re.search(r"SCOREKEEPER_ACCESS_CODE='([\d ]+)'", str(refused.value))
    assert offered is not None
    assert make_app(
        tmp_path / "offered", database_uri, TESTING=False, ACCESS_CODE=offered.group(1)
    ).config["ACCESS_CODE"] == offered.group(1)


def test_a_weak_code_starts_when_the_operator_insists(
    tmp_path: Path, database_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        make_app(
            tmp_path / "config",
            database_uri,
            TESTING=False,
            ACCESS_CODE=CODE,
            WEAK_ACCESS_CODE=True,
        ).config["ACCESS_CODE"]
        == CODE
    )
    monkeypatch.setenv("SCOREKEEPER_WEAK_ACCESS_CODE", "1")
    assert (
        make_app(tmp_path / "env", database_uri, TESTING=False, ACCESS_CODE=CODE).config[
            "ACCESS_CODE"
        ]
        == CODE
    )


@pytest.mark.parametrize(
    "typed",
    [
        "7301448299210573",
        "7301-4482-9921-0573",
        " 7301 4482  9921 0573 ",
        "٧٣٠١ ٤٤٨٢ ٩٩٢١ ٠٥٧٣",
        "७३०१ ४४८२ ९९२१ ०५७३",
        "７３０１ ４４８２ ９９２１ ０５７３",
    ],
)
def test_the_code_is_compared_as_read_out(app: Flask, typed: str) -> None:
    """Groups, hyphens and any script's digits (an Arabic or Hindi keyboard's) do not matter."""
    app.config["ACCESS_CODE"] = STRONG
    client = app.test_client()
    assert enter_code(client, typed).status_code == 303
    assert client.get("/").status_code == 200
    assert enter_code(app.test_client(), "7301 4482 9921 0574").status_code == 422


def test_the_attackers_expected_time_is_years() -> None:
    from scorekeeper.store.limits import STRONG_CODE_GUESSES, years_to_guess

    assert years_to_guess(STRONG_CODE_GUESSES) > 15


def test_the_service_worker_and_the_engine_answer_without_the_code(
    app: Flask, phone: Phone
) -> None:
    """A browser fetches a service worker's script without the code's cookie: behind a code,
    /sw.js and the engine's files (the package's own code, no game, no secret) answer; a game
    page, its record and its offline kit still ask for the code."""
    games = seed_games(phone)
    html = phone.client.get(f"/g/{games.playing}").get_data(as_text=True)
    found = re.search(r'data-engine="([^"]+)"', html)
    assert found, "the game page names the engine's config"
    config_url = found.group(1).replace("&amp;", "&")
    app.config["ACCESS_CODE"] = CODE
    stranger = app.test_client()
    assert stranger.get("/sw.js").status_code == 200
    config = stranger.get(config_url)
    assert config.status_code == 200, config_url
    files = config.get_json()["files"]
    engine_files = [url for url in files if "/engine/" in url]
    assert any("/engine/bundle/" in url for url in engine_files)
    assert any("/engine/runtime/" in url for url in engine_files)
    for url in engine_files:
        answer = stranger.get(url)
        assert answer.status_code == 200, url
        answer.close()
    game = f"/g/{games.playing}"
    for url in (game, f"{game}/deal/record", f"{game}/offline"):
        response = stranger.get(url)
        assert response.status_code == 303 and response.headers["Location"].startswith("/access")


def test_the_language_switch_is_not_kept(client: FlaskClient) -> None:
    """Its Location may carry a game's token: no cache keeps it."""
    response = client.get("/lang/ar?next=/g/abcdefghijklmnop")
    assert response.status_code == 303
    assert response.headers["Cache-Control"] == "no-store"
