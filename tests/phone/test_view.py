"""The game as the phone's engine shows it with deals not yet sent (the worker's "view" and
"form" messages): the engine's replay of the record plus those deals, rendered by the server's
templates in the page's language (tests/web/test_engine_view.py holds it equal to the server's
page); a pending deal the engine refuses stops there, with why; the panel of what the phone
keeps."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from scorekeeper.phone.cases import PLAYERS, _played, accepted_deal
from scorekeeper.phone.view import Kept
from scorekeeper.phone.worker import SERVER, Engine
from scorekeeper.rules import Game, dump_deal, dump_record, replay, with_deal
from scorekeeper.rules.record import Record, record_from_json
from scorekeeper.serving.phone_page import phone_links
from scorekeeper.words.labels import signed

TRIX = Game("trix", "solo", PLAYERS, 1)
TURKISH = Game("turkish-king", "solo", PLAYERS, 0)


@pytest.fixture
def page(app: Flask) -> dict[str, Any]:
    """What the server says of a game's page, as its record answer does (the app's routes)."""
    with app.test_request_context():
        return {"row": {"token": "g", "table_id": None, "name": None}, **phone_links()}


def _engine(game: Game, language: str = "en", page: dict[str, Any] | None = None) -> Engine:
    engine = Engine(language)
    engine.hold("g", dump_record(Record(game)), 7, page)
    return engine


ROW = re.compile(r'<th scope="row" rowspan="2">(\d+)</th>')


def test_the_view_is_the_replay_of_the_record_and_the_pending_deals(page: dict[str, Any]) -> None:
    pending = [accepted_deal("diamonds", TRIX.house_rules), accepted_deal("trix", TRIX.house_rules)]
    view = _engine(TRIX, page=page).view("g", pending, "t0k3n")
    record = {**dump_record(Record(TRIX)), "deals": pending}
    expected = replay(record_from_json(record).game)
    assert (view["stored"], view["deals"], view["refused"]) == (0, 2, None)
    html = view["html"]
    scoreboard = html[
        html.index('id="scoreboard"') : html.index("</section>", html.index('id="scoreboard"'))
    ]
    totals = re.findall(r'<span class="total">([^<]+)</span>', scoreboard)
    assert totals == [signed(total) for total in expected.totals]
    assert ROW.findall(html) == ["1", "2"] and html.count("On this phone") == 2
    assert 'class="edit"' not in html  # the server has not seen them: nothing to edit there
    assert expected.next is not None
    assert f"<bdi>{PLAYERS[1]}</bdi> is king and chooses" in html
    closed = re.findall(r'<span class="button contract closed" aria-disabled="true">([^<]+)', html)
    assert closed == ["Diamonds", "Trix"]
    assert '<a class="button contract" href="/g/g/deal?contract=ltoosh"' in html
    assert 'data-kept="undo">Undo deal 2</button>' in html
    assert 'id="kept"' in html and "2 deals on this phone are waiting" in html


def test_a_refused_pending_deal_stops_the_view_there(page: dict[str, Any]) -> None:
    good = accepted_deal("diamonds", TRIX.house_rules)
    view = _engine(TRIX, "ar", page).view("g", [good, good])  # Diamonds twice in one kingdom
    assert view["deals"] == 1 and view["refused"]["pending"] == 1
    assert view["refused"]["messages"] and all(m for m in view["refused"]["messages"])
    assert "Diamonds" not in view["refused"]["messages"][0]  # said in Arabic
    assert ROW.findall(view["html"]) == ["1"]


def test_a_blank_form_for_the_next_deal() -> None:
    game = with_deal(
        TURKISH,
        record_from_json(
            {**dump_record(Record(TURKISH)), "deals": [accepted_deal("trump", TURKISH.house_rules)]}
        ).game.deals[0],
    )
    engine = _engine(game)
    form = engine.form("g", [], "no-hearts")
    assert form == {
        "open": True,
        "number": 2,
        "where": "Deal 2",
        "roles": "Declarer: \u2068Lina\u2069",
    }
    fields = [["contract", "no-hearts"], ["number", "2"], ["version", "7"], ["autofilled", ""]]
    blank = engine.preview("g", fields)["html"]  # before the first tap: the preview's words
    assert "4 values left to tap." in blank
    refused = engine.form("g", [accepted_deal("no-hearts", game.house_rules)], "no-hearts")
    assert refused["open"] is True  # another player declares it: still open
    assert engine.form("g", [], "nothing")["open"] is False


def test_the_view_counts_the_deals_the_phone_keeps_in_the_readers_words(
    page: dict[str, Any],
) -> None:
    deal = accepted_deal("diamonds", TRIX.house_rules)

    def waiting(language: str, pending: list[Any], count: int | None = None) -> str:
        view = _engine(TRIX, language, page).view("g", pending, "", Kept(waiting=count))
        assert (view["waiting"] in view["html"]) and (
            ('id="kept" role="status" hidden' in view["html"]) == (not view["waiting"])
        )
        return str(view["waiting"])

    assert waiting("en", []) == ""
    assert waiting("en", [deal]) == "1 deal on this phone is waiting for the server."
    # all it keeps, shown or not (those after one another phone's deal took its place)
    assert waiting("en", [deal], 3) == "3 deals on this phone are waiting for the server."
    russian = [waiting("ru", [deal], n) for n in (1, 3, 5)]
    assert len(set(russian)) == 3 and all("сдач" in said for said in russian)
    arabic = [waiting("ar", [deal], n) for n in (1, 2, 3, 11)]
    assert len(set(arabic)) == 4 and "waiting" not in arabic[0]


def test_the_view_names_undo_and_the_final_standings(page: dict[str, Any]) -> None:
    view = _engine(TURKISH, "ar", page).view("g", [accepted_deal("trump", TURKISH.house_rules)])
    undo = re.search(r'data-kept="undo">([^<]+)<', view["html"])
    assert undo is not None and "1" in undo[1] and "اليد" in undo[1]  # Turkish King's hand
    assert "Undo deal" not in _engine(TRIX, page=page).view("g", [])["html"]  # nothing to undo
    played = _played(TRIX, 19)
    last = accepted_deal(replay(played).next.contracts[0], TRIX.house_rules)  # type: ignore[union-attr]
    finished = _engine(played, page=page).view("g", [last])["html"]
    expected = replay(
        record_from_json(
            {
                **dump_record(Record(played)),
                "deals": [*[dump_deal(deal) for deal in played.deals], last],
            }
        ).game
    )
    assert '<section class="finished" id="play"' in finished and "Final standings" in finished
    assert 'id="night"' not in finished  # the night's standings wait for the server
    winners = re.findall(r'<li class="winner"><bdi>([^<]+)</bdi>', finished)
    assert winners == [PLAYERS[seat] for seat in expected.winners or ()]
    assert 'class="share-result"' in finished and "Same four again" in finished


def test_the_panel_names_the_deals_kept_here_and_the_choices(page: dict[str, Any]) -> None:
    """Another phone's deal took the place of one kept here: the panel lists this phone's deals
    as the history names them, the deal in the game, and the choices for the one that waits."""
    mine = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
    entries = [
        {"key": "k1", "number": 1, "deal": mine},
        {"key": "k2", "number": 2, "deal": {"contract": "nothing"}},
    ]
    stored = {"contract": "ltoosh", "tricks": [3, 3, 3, 4]}
    blocked = {
        "key": "k1",
        "outcome": "conflict",
        "message": "Deal 1 was entered on another phone.",
        "number": 1,
    }
    engine = _engine(TRIX, page=page)
    html = engine.view(
        "g", [], "", Kept(waiting=2, entries=entries, blocked=blocked, in_game=stored)
    )["html"]
    listed = '<li class="blocked"><strong>Deal 1: Diamonds</strong> <span class="takes">'
    assert listed + "3 · 4 · 5 · 1</span></li>" in html
    assert "<strong>Deal 2: nothing</strong>" in html  # not a deal: its id, nothing more
    assert "In the game: <strong>Ltoosh</strong>" in html
    assert 'data-kept="drop" data-key="k1">Drop my deal 1</button>' in html
    assert 'data-kept="next"' in html
    assert (
        'data-kept="next"'
        not in engine.view("g", [], "", Kept(entries=entries, blocked=blocked, current=False))[
            "html"
        ]
    )
    late = {"key": "k9", "outcome": "too-late", "message": None, "number": 3}
    html = engine.view("g", [], "", Kept(entries=entries, blocked=late))["html"]
    assert "Deal 3 reached the server before your undo" in html
    assert 'data-kept="undo-server" data-key="k9">Undo deal 3 in the game</button>' in html
    assert '<div class="row undo" id="undo" hx-swap-oob="true"></div>' in html
    access = engine.view("g", [mine], "", Kept(stopped="access"))["html"]
    assert '<a href="/access?next=/g/g">' in access
    assert "cannot be reloaded" in engine.view("g", [mine], "", Kept(secure=False))["html"]


def test_a_tap_after_deals_kept_here_is_judged_after_them() -> None:
    """The phone with no network: the form of the deal after those it keeps is judged on the
    game with them, and a deal it may save comes back as the record holds it."""
    engine = _engine(TRIX)
    kept = [accepted_deal("diamonds", TRIX.house_rules)]

    def fields(contract: str, **values: str) -> list[list[str]]:
        return [
            ["contract", contract],
            ["number", "2"],
            ["version", "7"],
            ["autofilled", ""],
            *[[name, value] for name, value in values.items()],
        ]

    again = engine.preview(
        "g", fields("diamonds", **{f"counts-{s}": "3" for s in range(3)}, **{"counts-3": "4"}), kept
    )
    assert again["local"] and not again["ok"] and again["deal"] is None  # played in this kingdom
    ltoosh = engine.preview(
        "g", fields("ltoosh", **{f"tricks-{s}": "3" for s in range(3)}, **{"tricks-3": "4"}), kept
    )
    assert ltoosh["ok"] and ltoosh["deal"] == {"contract": "ltoosh", "tricks": [3, 3, 3, 4]}
    alone = engine.preview(
        "g", fields("diamonds", **{f"counts-{s}": "3" for s in range(3)}, **{"counts-3": "4"})
    )
    assert alone["ok"]  # without them, Diamonds is open
    refused = engine.preview("g", fields("ltoosh"), [*kept, *kept])  # a kept deal refused
    assert refused == SERVER


def test_a_preview_rendered_in_the_phone_escapes_what_players_typed() -> None:
    """The phone renders the server's templates with autoescape on: a name is text, never
    markup (the parity test holds the rest equal to the server's HTML)."""
    hostile = ('<img src=x onerror="alert(1)">', "Lina & Omar", "Omar", 'Dana"><b>')
    engine = _engine(Game("trix", "solo", hostile, 0))
    fields = [
        ["contract", "diamonds"],
        ["number", "1"],
        ["version", "7"],
        ["autofilled", ""],
        ["counts-0", "5"],
        ["counts-1", "4"],
        ["counts-2", "3"],
    ]
    html = engine.preview("g", fields)["html"]
    # a refusal that names a player: the engine's message, text inside the template
    twice = [["contract", "trix"], ["number", "1"], ["version", "7"], ["autofilled", ""]]
    twice += [["order-0", "0"], ["order-1", "0"], ["order-2", "1"], ["order-3", "2"]]
    refused = engine.preview("g", twice)["html"]
    assert "alert(1)" in refused and "<img" not in refused, refused
    assert "<img" not in html and "<b>" not in html
    assert "&lt;img src=x onerror=" in html and "&lt;b&gt;" in html
    assert "Lina &amp; Omar" in html


def test_the_view_rendered_in_the_phone_escapes_what_players_typed(page: dict[str, Any]) -> None:
    hostile = ('<img src=x onerror="alert(1)">', "Lina & Omar", "Omar", 'Dana"><b>')
    game = Game("trix", "partnership", hostile, 0)
    deal = accepted_deal("diamonds", game.house_rules)
    entries = [{"key": "k1", "number": 1, "deal": deal}]
    blocked = {"key": "k1", "outcome": "conflict", "message": "<script>x</script>", "number": 1}
    view = _engine(game, page=page).view("g", [deal], "", Kept(entries=entries, blocked=blocked))
    html = view["html"]
    assert "<img" not in html and "<b>" not in html and "<script>" not in html
    assert "&lt;img src=x onerror=" in html and "&lt;script&gt;" in html
