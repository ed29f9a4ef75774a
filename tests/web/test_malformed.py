"""Malformed requests to every form and route: a 4xx with a message, never a 500, nothing saved.

Each case starts from the same state — a Trix solo game three deals in (king-of-hearts, diamonds,
queens of kingdom 1), a Turkish King game one hand in, a game whose first seat is not chosen yet,
and a finished game — sends one bad request, and compares every row of the database before and
after.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import Page, Phone, form_fields, page, snapshot
from tests.web.scripts import example

BAD_REQUEST = "The request could not be understood."
NOT_FOUND = "There is nothing here."
NOT_ALLOWED = "That action is not available here."
CSRF = "This form has expired or was not sent by this app."
NOT_A_CHOICE = "Not one of the choices offered."
NO_DEAL = "This game has no deal"

TRIX_DEALS = [
    {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2},
    {"contract": "diamonds", "counts": [3, 4, 5, 1]},
    {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}, "doubled_by": {"H": 0}},
]
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}
PLAYERS = {"player_0": "Rami", "player_1": "Lina", "player_2": "Omar", "player_3": "Dana"}


@dataclass
class State:
    """The games every case can aim at, and the client (with its session) that made them."""

    app: Flask
    client: FlaskClient
    trix: Phone
    king: Phone
    unstarted: Phone
    finished: Phone
    no_doubling: Phone

    def csrf(self) -> str:
        return page(self.client.get("/new")).csrf_token

    def deal_form(self, phone: Phone) -> dict[str, str]:
        """The hidden fields of a fresh form for the next deal (of a contract still open)."""
        contract = {"turkish-king": "no-tricks"}.get(phone.row().game, "ltoosh")
        return page(self.client.get(f"{phone.url}/deal?contract={contract}")).hidden("/deal")

    def save(self, phone: Phone, deal: dict[str, Any], **override: str) -> TestResponse:
        data = {**self.deal_form(phone), **form_fields(deal), **override}
        return self.client.post(f"{phone.url}/deal", data=data)

    def preview(self, phone: Phone, deal: dict[str, Any], **override: str) -> TestResponse:
        data = {**self.deal_form(phone), **form_fields(deal), **override}
        return self.client.post(
            f"{phone.url}/deal/preview", data=data, headers={"HX-Request": "true"}
        )

    def new_game(self, **fields: str) -> TestResponse:
        data = {
            "csrf_token": self.csrf(),
            "game": "trix",
            "mode": "solo",
            "doubled_self_take": "net",
            "doubling": "y",
            **PLAYERS,
        }
        data.update(fields)
        return self.client.post("/new", data={k: v for k, v in data.items() if v is not None})

    def post(self, phone: Phone, route: str, **fields: str) -> TestResponse:
        data = {"csrf_token": self.csrf(), **fields}
        return self.client.post(f"{phone.url}/{route}", data=data)


@pytest.fixture
def state(app: Flask, client: FlaskClient) -> State:
    # stored straight through the store: the forms are what the cases test, not the set-up
    trix = Phone(app, client)
    trix.load(
        {
            "game": "trix",
            "mode": "solo",
            "players": ["Rami", "Lina", "Omar", "Dana"],
            "first": 0,
            "deals": TRIX_DEALS,
        }
    )
    king = Phone(app, client)
    king.load(
        {
            "game": "turkish-king",
            "mode": "solo",
            "first": 2,
            "players": ["Ayşe", "Mehmet", "Zeynep", "Can"],
            "deals": [{"contract": "no-queens", "counts": [1, 2, 0, 1]}],
        }
    )
    unstarted = Phone(app, client)
    unstarted.new_game("trix-complex", "partnership")
    finished = Phone(app, client)
    finished.load(example("trix-complex-solo-complete"))
    no_doubling = Phone(app, client)
    no_doubling.new_game("trix", "partnership", doubling=False, first=3)
    return State(app, client, trix, king, unstarted, finished, no_doubling)


Case = tuple[str, Callable[[State], TestResponse], int, str]


# --- cases of one shape, as tables: (what the case is, the value sent) ----------------------

# choosing the first seat of the game not started yet: the seat is not a seat
BAD_SEATS = [
    ("7", "7"),
    ("x", "x"),
    ("-1", "-1"),
    ("superscript two", "²"),
    ("arabic-indic three", "٣"),
]
# saving the Trix game's next deal with one hidden field tampered with (field, value)
TAMPERED_DEAL_FIELDS = [
    ("number tampered high", "number", "99"),
    ("number zero", "number", "0"),
    ("number superscript", "number", "⁴"),
    ("version of 5000 digits", "version", "9" * 5000),
    ("editing superscript", "editing", "²"),
    ("number abc", "number", "abc"),
    ("number missing", "number", ""),
    ("version tampered high", "version", "999"),
    ("version abc", "version", "abc"),
]
# undoing the Trix game's last deal, named by something that is not its number
BAD_UNDO_NUMBERS = [
    ("number x", "x"),
    ("number 0", "0"),
    ("number -3", "-3"),
    ("number superscript", "³"),
]
# the edit link of a deal the Trix game does not have
MISSING_DEALS = [
    ("deal 99", "99"),
    ("deal of 5000 digits", "9" * 5000),
    ("deal in arabic-indic digits", "٣"),
    ("deal -1", "-1"),
    ("deal 0", "0"),
]
# a form posted to a game that does not exist, CSRF token and all (route → fields)
UNKNOWN_GAME_POSTS: list[tuple[str, str, dict[str, str]]] = [
    ("first", "first", {"seat": "1", "version": "1"}),
    ("deal", "deal", {**form_fields(LTOOSH), "number": "4", "version": "1"}),
    ("undo", "undo", {"number": "1", "version": "1"}),
    ("notes", "notes", {"notes": "x", "version": "1"}),
    ("delete", "delete", {}),
]
# a form posted without its CSRF token (which game, route, fields)
WITHOUT_CSRF: list[tuple[str, Callable[[State], Phone], str, dict[str, str]]] = [
    ("first", lambda s: s.unstarted, "first", {"seat": "1", "version": "1"}),
    ("undo", lambda s: s.trix, "undo", {"number": "3"}),
    ("notes", lambda s: s.trix, "notes", {"notes": "x"}),
    ("delete", lambda s: s.trix, "delete", {}),
]
# a route that only takes a POST, asked with a GET (which game, route)
POST_ONLY: list[tuple[str, Callable[[State], Phone], str]] = [
    ("first", lambda s: s.unstarted, "first"),
    ("undo", lambda s: s.trix, "undo"),
    ("notes", lambda s: s.trix, "notes"),
    ("preview", lambda s: s.trix, "deal/preview"),
]


def _seat(seat: str) -> Callable[[State], TestResponse]:
    return lambda s: s.post(s.unstarted, "first", seat=seat, version="1")


def _tampered(field: str, value: str) -> Callable[[State], TestResponse]:
    return lambda s: s.save(s.trix, LTOOSH, **{field: value})


def _undo(number: str) -> Callable[[State], TestResponse]:
    return lambda s: s.post(s.trix, "undo", number=number, version=str(s.trix.row().version))


def _edit_link(number: str) -> Callable[[State], TestResponse]:
    return lambda s: s.client.get(f"{s.trix.url}/deal/{number}/edit")


def _unknown_game(route: str, fields: dict[str, str]) -> Callable[[State], TestResponse]:
    return lambda s: s.client.post(
        f"/g/nosuchgame/{route}", data={"csrf_token": s.csrf(), **fields}
    )


def _without_csrf(
    phone: Callable[[State], Phone], route: str, fields: dict[str, str]
) -> Callable[[State], TestResponse]:
    return lambda s: s.client.post(f"{phone(s).url}/{route}", data=fields)


def _get(phone: Callable[[State], Phone], route: str) -> Callable[[State], TestResponse]:
    return lambda s: s.client.get(f"{phone(s).url}/{route}")


TABLES: list[Case] = [
    *((f"first: seat {name}", _seat(seat), 400, BAD_REQUEST) for name, seat in BAD_SEATS),
    *(
        (f"deal: {name}", _tampered(field, value), 400, BAD_REQUEST)
        for name, field, value in TAMPERED_DEAL_FIELDS
    ),
    *((f"undo: {name}", _undo(number), 400, BAD_REQUEST) for name, number in BAD_UNDO_NUMBERS),
    *((f"edit form: {name}", _edit_link(number), 404, NOT_FOUND) for name, number in MISSING_DEALS),
    *(
        (f"{name}: unknown game", _unknown_game(route, fields), 404, NOT_FOUND)
        for name, route, fields in UNKNOWN_GAME_POSTS
    ),
    *(
        (f"{name}: no csrf", _without_csrf(phone, route, fields), 400, CSRF)
        for name, phone, route, fields in WITHOUT_CSRF
    ),
    *((f"{name}: GET", _get(phone, route), 405, NOT_ALLOWED) for name, phone, route in POST_ONLY),
]

# --- cases of their own shape ------------------------------------------------------------------

CASES: list[Case] = [
    # the new-game form
    (
        "new: names missing",
        lambda s: s.new_game(player_0=None, player_1=None, player_2=None, player_3=None),
        422,
        "1st player: every player needs a name.",
    ),
    (
        "new: one name blank",
        lambda s: s.new_game(player_2="   "),
        422,
        "3rd player: every player needs a name.",
    ),
    (
        "new: same name twice",
        lambda s: s.new_game(player_3=" rami "),
        422,
        "4th player: two players cannot have the same name.",
    ),
    ("new: name too long", lambda s: s.new_game(player_1="x" * 41), 422, "40"),
    ("new: evening name too long", lambda s: s.new_game(name="x" * 81), 422, "80"),
    ("new: unknown game", lambda s: s.new_game(game="poker"), 422, "Not a valid choice"),
    ("new: game missing", lambda s: s.new_game(game=None), 422, "This field is required"),
    ("new: unknown mode", lambda s: s.new_game(mode="teams"), 422, "Not a valid choice"),
    (
        "new: turkish king in partnership",
        lambda s: s.new_game(game="turkish-king", mode="partnership"),
        422,
        "solo",
    ),
    (
        "new: unknown self-take rule",
        lambda s: s.new_game(doubled_self_take="half"),
        422,
        "Not a valid choice",
    ),
    ("new: no csrf", lambda s: s.new_game(csrf_token=""), 400, CSRF),
    # choosing the first seat
    ("first: seat missing", lambda s: s.post(s.unstarted, "first", version="1"), 400, BAD_REQUEST),
    ("first: version missing", lambda s: s.post(s.unstarted, "first", seat="1"), 400, BAD_REQUEST),
    # saving a deal
    (
        "deal: seat 7",
        lambda s: s.save(s.king, {"contract": "no-king", "taker": 7}),
        422,
        NOT_A_CHOICE,
    ),
    (
        "deal: count 14",
        lambda s: s.save(
            s.trix, LTOOSH, **{"tricks-0": "14", "tricks-1": "0", "tricks-2": "0", "tricks-3": "0"}
        ),
        422,
        NOT_A_CHOICE,
    ),
    ("deal: count abc", lambda s: s.save(s.trix, LTOOSH, **{"tricks-0": "abc"}), 422, NOT_A_CHOICE),
    ("deal: count -1", lambda s: s.save(s.trix, LTOOSH, **{"tricks-0": "-1"}), 422, NOT_A_CHOICE),
    (
        "deal: tricks add to 12",
        lambda s: s.save(s.trix, LTOOSH, **{"tricks-0": "3"}),
        422,
        "Tricks add up to 12; there are 13 tricks.",
    ),
    (
        "deal: doubling where it is switched off",
        lambda s: s.save(
            s.no_doubling,
            {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2},
            contract="king-of-hearts",
        ),
        422,
        "doubling is switched off",
    ),
    (
        "deal: a value missing",
        lambda s: s.save(s.trix, LTOOSH, **{"tricks-0": "", "tricks-1": ""}),
        422,
        "Tricks",
    ),
    (
        "deal: order not a permutation",
        lambda s: s.save(s.trix, {"contract": "trix", "order": [0, 1, 1, 3]}),
        422,
        "Finishing",
    ),
    (
        "deal: suit X",
        lambda s: s.save(s.king, {"contract": "trump", "suit": "X", "tricks": [4, 3, 3, 3]}),
        422,
        NOT_A_CHOICE,
    ),
    (
        "deal: contract not in game",
        lambda s: s.save(s.trix, {"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]}),
        400,
        BAD_REQUEST,
    ),
    (
        "deal: contract unknown",
        lambda s: s.save(s.trix, LTOOSH, contract="poker"),
        400,
        BAD_REQUEST,
    ),
    (
        "deal: contract already played",
        lambda s: s.save(s.trix, {"contract": "diamonds", "counts": [3, 4, 5, 1]}),
        422,
        "already",
    ),
    ("deal: editing 99", lambda s: s.save(s.trix, LTOOSH, editing="99"), 409, NO_DEAL),
    ("deal: editing 0", lambda s: s.save(s.trix, LTOOSH, editing="0"), 409, NO_DEAL),
    # a correction of a deal the game does not hold, that the engine would refuse anyway, or
    # with a value no chip offers: was an IndexError (a 500) drawing the form again
    (
        "deal: editing 4 refused",
        lambda s: s.save(s.trix, {"contract": "ltoosh", "tricks": [9, 3, 3, 3]}, editing="4"),
        409,
        NO_DEAL,
    ),
    (
        "deal: editing 4 tampered",
        lambda s: s.save(s.trix, LTOOSH, editing="4", **{"tricks-0": "abc"}),
        409,
        NO_DEAL,
    ),
    ("deal: editing abc", lambda s: s.save(s.trix, LTOOSH, editing="abc"), 400, BAD_REQUEST),
    ("deal: no csrf", lambda s: s.save(s.trix, LTOOSH, csrf_token=""), 400, CSRF),
    (
        "deal: game not started",
        lambda s: s.client.post(
            f"{s.unstarted.url}/deal",
            data={"csrf_token": s.csrf(), "contract": "trix", "number": "1", "version": "1"},
        ),
        400,
        BAD_REQUEST,
    ),
    (
        "deal: game finished",
        lambda s: s.client.post(
            f"{s.finished.url}/deal",
            data={
                "csrf_token": s.csrf(),
                **form_fields({"contract": "trix", "order": [0, 1, 2, 3]}),
                "number": "9",
                "entry_key": "3f6c2a1e-8b4d-4c7e-9a2f-5d1b7e0c4a68",
                "version": str(s.finished.row().version),
            },
        ),
        409,
        "the game is finished",
    ),
    (
        "deal: over-long token",
        lambda s: s.client.post("/g/" + "x" * 300 + "/deal", data={"csrf_token": s.csrf()}),
        404,
        NOT_FOUND,
    ),
    # previewing a deal (htmx)
    (
        "preview: seat 7",
        lambda s: s.preview(s.king, {"contract": "no-king", "taker": 7}),
        422,
        NOT_A_CHOICE,
    ),
    (
        "preview: count abc",
        lambda s: s.preview(s.trix, LTOOSH, **{"tricks-0": "abc"}),
        422,
        NOT_A_CHOICE,
    ),
    (
        "preview: contract not in game",
        lambda s: s.preview(s.trix, LTOOSH, contract="trump"),
        400,
        BAD_REQUEST,
    ),
    ("preview: editing 99", lambda s: s.preview(s.trix, LTOOSH, editing="99"), 409, NO_DEAL),
    ("preview: no csrf", lambda s: s.preview(s.trix, LTOOSH, csrf_token=""), 400, CSRF),
    (
        "preview: game finished",
        lambda s: s.client.post(
            f"{s.finished.url}/deal/preview",
            data={
                "csrf_token": s.csrf(),
                **form_fields({"contract": "trix", "order": [0, 1, 2, 3]}),
                "number": "9",
                "entry_key": "3f6c2a1e-8b4d-4c7e-9a2f-5d1b7e0c4a68",
                "version": "1",
            },
            headers={"HX-Request": "true"},
        ),
        409,
        "the game is finished",
    ),
    # the deal form's links
    ("deal form: contract missing", lambda s: s.client.get(f"{s.trix.url}/deal"), 400, BAD_REQUEST),
    (
        "deal form: contract not in game",
        lambda s: s.client.get(f"{s.trix.url}/deal?contract=trump"),
        400,
        BAD_REQUEST,
    ),
    (
        "deal form: unknown game",
        lambda s: s.client.get("/g/nosuchgame/deal?contract=trix"),
        404,
        NOT_FOUND,
    ),
    (
        "edit form: contract not in game",
        lambda s: s.client.get(f"{s.trix.url}/deal/1/edit?contract=trump"),
        400,
        BAD_REQUEST,
    ),
    (
        "edit form: game not started",
        lambda s: s.client.get(f"{s.unstarted.url}/deal/1/edit"),
        404,
        NOT_FOUND,
    ),
    # editing a deal
    (
        "edit: into a contract played later",
        lambda s: s.save(
            s.trix, {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}}, editing="1"
        ),
        422,
        "This change would make deal 3 illegal",
    ),
    (
        "edit: version stale",
        lambda s: s.save(
            s.trix, {"contract": "king-of-hearts", "taker": 0}, editing="1", version="2"
        ),
        303,
        "",
    ),
    # undo
    (
        "undo: number missing",
        lambda s: s.post(s.trix, "undo", version=str(s.trix.row().version)),
        400,
        BAD_REQUEST,
    ),
    ("undo: version missing", lambda s: s.post(s.trix, "undo", number="3"), 400, BAD_REQUEST),
    (
        "undo: game not started",
        lambda s: s.post(s.unstarted, "undo", number="1", version="1"),
        400,
        BAD_REQUEST,
    ),
    # name and notes
    (
        "notes: too long",
        lambda s: s.post(s.trix, "notes", notes="x" * 2001, version=str(s.trix.row().version)),
        422,
        "2000",
    ),
    (
        "notes: name too long",
        lambda s: s.post(s.trix, "notes", name="x" * 81, version=str(s.trix.row().version)),
        422,
        "80",
    ),
    ("notes: version missing", lambda s: s.post(s.trix, "notes", notes="ok"), 400, BAD_REQUEST),
    # pages and methods
    ("delete page: unknown game", lambda s: s.client.get("/g/nosuchgame/delete"), 404, NOT_FOUND),
    ("game page: unknown game", lambda s: s.client.get("/g/nosuchgame"), 404, NOT_FOUND),
    (
        "game page: POST",
        lambda s: s.client.post(s.trix.url, data={"csrf_token": s.csrf()}),
        405,
        NOT_ALLOWED,
    ),
    ("edit form: POST", lambda s: s.post(s.trix, "deal/1/edit"), 405, NOT_ALLOWED),
    ("home: POST", lambda s: s.client.post("/", data={"csrf_token": s.csrf()}), 405, NOT_ALLOWED),
    ("nowhere", lambda s: s.client.get("/nowhere"), 404, NOT_FOUND),
    *TABLES,
]


@pytest.mark.parametrize(
    ("case", "send", "status", "message"), CASES, ids=[case[0] for case in CASES]
)
def test_malformed_request(
    state: State, case: str, send: Callable[[State], TestResponse], status: int, message: str
) -> None:
    before = snapshot(state.app)
    response = send(state)
    assert response.status_code == status, (case, response.get_data(as_text=True)[-2000:])
    assert snapshot(state.app) == before
    if status == 303:
        return
    body = Page(response.get_data(as_text=True)).text
    assert message in body, body[-1500:]
