"""A table plays together: created, seats picked from its roster by taps, rematches; its view
link changes nothing; bad input is a 4xx with nothing half-saved."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from scorekeeper.rules import load_record, replay
from tests.conftest import page, snapshot, totals_shown
from tests.web.table_phone import TablePhone, record_data, sent

SEAT_NAME = re.compile(r'class="seat-name"[^>]*>(?:<bdi>)?([^<]*)<')
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


def all_rows(app: Flask) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the schema."""
    from sqlalchemy import text

    from scorekeeper.store.db import db

    with app.app_context():
        found = {
            name: [
                dict(row) for row in db.session.execute(text(f"SELECT * FROM {name}")).mappings()
            ]
            for name in ("games", "tables", "players", "seats")
        }
        db.session.remove()
    return {
        name: [{key: str(value) for key, value in row.items()} for row in rows]
        for name, rows in found.items()
    }


def seated(response: Any) -> list[str]:
    """The names in the seats of a table's new-game page, in order of play."""
    return [unescape(name) for name in SEAT_NAME.findall(response.get_data(as_text=True))]


def test_a_table_plays_three_games_in_a_row_by_taps(phone: TablePhone) -> None:
    record = record_data("trix-solo-complete.json")
    phone.create_table()
    assert phone.chips(phone.new_game_page()) == {}  # nobody yet: everyone is a newcomer
    phone.pick(PLAYERS, game="trix", mode="solo")
    first = phone.play(record)
    assert "Rematch" in first.get_data(as_text=True)
    assert totals_shown(first) == totals_shown(first)  # the game page renders when finished

    # game 2: one tap
    phone.rematch()
    asked = page(phone.game_page())
    assert "Who was dealt the 7♥?" in asked.text
    second = phone.play(record)
    assert totals_shown(second) == totals_shown(first)

    # game 3: the four tapped from the roster, the last game's setup already chosen
    offered = phone.new_game_page()
    assert seated(offered) == PLAYERS  # the last four already seated (issue 24 item 7)
    assert phone.chips(offered) == {}
    setup = sent(page(offered), f"{phone.table_url}/new")
    assert setup["game"] == "trix" and setup["mode"] == "solo" and setup["doubling"] == "y"
    phone.pick(PLAYERS)
    assert phone.row().players == PLAYERS and phone.row().table_id is not None
    third = phone.play(record)
    assert totals_shown(third) == totals_shown(first)

    games = phone.games_json()
    assert len(games) == 3 and all(game["players"] == PLAYERS for game in games)
    table_page = page(phone.client.get(phone.table_url)).text
    assert "3 games" in table_page and "Thursdays at Karim's" in table_page


def test_the_last_games_setup_is_preselected(phone: TablePhone) -> None:
    phone.create_table()
    phone.pick(
        PLAYERS, ("doubling",), game="trix-complex", mode="partnership", doubled_self_take="full"
    )
    setup = sent(page(phone.new_game_page()), f"{phone.table_url}/new")
    assert (setup["game"], setup["mode"], setup["doubled_self_take"]) == (
        "trix-complex",
        "partnership",
        "full",
    )
    assert "doubling" not in setup  # not ticked in that game


def test_a_tapped_player_takes_the_next_seat_and_can_be_removed(phone: TablePhone) -> None:
    phone.create_table()
    phone.pick(PLAYERS)
    response = phone.cleared(phone.new_game_page())
    chips = phone.chips(response)
    response = phone.tap(response, add=chips["Omar"])
    response = phone.tap(response, add=chips["Rami"])
    assert set(phone.chips(response)) == {"Lina", "Dana"}  # a seated player is not offered
    seats = sent(page(response), f"{phone.table_url}/new")
    assert (seats["seat_0"], seats["seat_1"], seats["seat_2"]) == (chips["Omar"], chips["Rami"], "")
    response = phone.tap(response, remove="0")
    assert sent(page(response), f"{phone.table_url}/new")["seat_0"] == chips["Rami"]
    # a newcomer typed like a seated player is refused; one typed like a roster name is them
    refused = phone.tap(response, add="new", newcomer=" rami ")
    assert refused.status_code == 422 and "already has a seat" in page(refused).text
    response = phone.tap(response, add="new", newcomer="LINA")
    response = phone.tap(response, add="new", newcomer="Zeynep")
    response = phone.tap(response, add=chips["Dana"])
    start = phone.client.post(
        f"{phone.table_url}/new",
        data={**sent(page(response), f"{phone.table_url}/new"), "start": "1"},
    )
    assert start.status_code == 303
    phone.token = start.headers["Location"].rsplit("/", 1)[-1]
    assert phone.row().players == ["Rami", "Lina", "Zeynep", "Dana"]  # the roster's spelling


def test_a_newcomers_name_too_long_keeps_the_seats(phone: TablePhone) -> None:
    phone.create_table()
    response = phone.tap(phone.new_game_page(), add="new", newcomer="Ali")
    refused = phone.tap(response, add="new", newcomer="x" * 41)
    assert refused.status_code == 422
    assert sent(page(refused), f"{phone.table_url}/new")["seat_0"] == "nAli"
    assert "Ali" in page(refused).text


def test_start_with_fewer_than_four_is_refused(phone: TablePhone) -> None:
    phone.create_table()
    before = all_rows(phone.app)
    response = phone.tap(phone.tap(phone.new_game_page(), add="new", newcomer="Ali"), start="1")
    assert response.status_code == 422 and "Pick four players first." in page(response).text
    assert all_rows(phone.app)["games"] == before["games"]


@pytest.mark.parametrize(
    "button",
    [
        {"add": "p999999"},
        {"add": "x1"},
        {"remove": "3"},
        {"add": "p²"},
        {"add": "p" + "9" * 5000},
        {"remove": "٣"},
        {"remove": "-1"},
        {"seat_0": "p1x", "add": "new"},
        {"seat_0": "n", "add": "new"},
    ],
)
def test_tampered_seat_buttons_are_400(phone: TablePhone, button: dict[str, str]) -> None:
    phone.create_table()
    before = all_rows(phone.app)
    response = phone.tap(phone.new_game_page(), **button)
    assert response.status_code == 400
    assert all_rows(phone.app) == before


def test_a_new_game_can_start_a_table(phone: TablePhone) -> None:
    phone.new_game(players=("Rami", "Lina", "Omar", "Dana"))
    assert phone.row().table_id is None
    form = page(phone.client.get("/new"))
    data = {
        **sent(form, "/new"),
        "game": "trix",
        "mode": "solo",
        "table_name": "Majlis",
        **{f"player_{seat}": name for seat, name in enumerate(PLAYERS)},
    }
    response = phone.client.post("/new", data=data)
    assert response.status_code == 303
    phone.token = response.headers["Location"].rsplit("/", 1)[-1]
    assert phone.row().table_id is not None
    home = phone.client.get("/").get_data(as_text=True)
    assert "Majlis" in home


def test_a_table_needs_a_name(phone: TablePhone) -> None:
    form = page(phone.client.get("/tables/new"))
    for name in ("", "x" * 81):
        response = phone.client.post(
            "/tables/new", data={**sent(form, "/tables/new"), "table_name": name}
        )
        assert response.status_code == 422
    assert all_rows(phone.app)["tables"] == []


def test_a_rematch_tapped_twice_starts_one_game(phone: TablePhone) -> None:
    record = record_data("turkish-king-complete.json")
    phone.create_table()
    phone.pick(record["players"], game="turkish-king")
    phone.play(record)
    finished = phone.token
    fields = page(phone.game_page()).hidden("/rematch")
    first = phone.client.post(f"/g/{finished}/rematch", data=fields)
    second = phone.client.post(f"/g/{finished}/rematch", data=fields)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(phone.games_json()) == 1  # the rematch has no first declarer yet: no record
    assert len(all_rows(phone.app)["games"]) == 2
    phone.token = first.headers["Location"].rsplit("/", 1)[-1]
    again = phone.row()
    assert (again.game, again.mode, again.players, again.first_chooser) == (
        "turkish-king",
        "solo",
        record["players"],
        None,
    )


def test_no_rematch_for_an_unfinished_game_or_one_outside_a_table(phone: TablePhone) -> None:
    phone.create_table()
    phone.pick(PLAYERS)
    phone.choose_first(0)
    token = page(phone.game_page()).csrf_token
    assert phone.client.post(f"{phone.url}/rematch", data={"csrf_token": token}).status_code == 400
    phone.new_game(first=0)
    assert phone.client.post(f"{phone.url}/rematch", data={"csrf_token": token}).status_code == 404
    assert len(all_rows(phone.app)["games"]) == 2


# --- the view link ---------------------------------------------------------------------------


def table_rules(app: Flask) -> list[Rule]:
    return [
        rule for rule in app.url_map.iter_rules() if {"token", "view_token"} & set(rule.arguments)
    ]


def url_for_rule(rule: Rule, token: str) -> str:
    values: dict[str, Any] = {
        "token": token,
        "view_token": token,
        "number": 1,
        "player_id": 1,
        "part": "standings",
    }
    return rule.build({k: v for k, v in values.items() if k in rule.arguments})[1]


def test_the_table_view_link_shows_and_changes_nothing(phone: TablePhone) -> None:
    record = record_data("trix-partnership-complete.json")
    phone.create_table("Majlis")
    phone.pick(record["players"], mode="partnership")
    phone.play(record)
    table = phone.table_row()
    view = phone.client.get(f"/v/t/{table.view_token}")
    assert view.status_code == 200
    shown = page(view)
    assert "Majlis" in shown.text and "Rami" in shown.text
    assert shown.forms == [] and table.token not in view.get_data(as_text=True)
    assert not any(link.startswith(("/g/", "/t/")) for link in shown.links)
    stats = phone.client.get(f"/v/t/{table.view_token}/stats")
    assert stats.status_code == 200 and table.token not in stats.get_data(as_text=True)
    exported = phone.client.get(f"/v/t/{table.view_token}/games.json")
    assert exported.get_data() == phone.client.get(f"{phone.table_url}/games.json").get_data()


def test_every_write_route_refuses_the_tables_view_token(app: Flask, phone: TablePhone) -> None:
    phone.create_table("Majlis")
    phone.pick(PLAYERS)
    phone.choose_first(1)
    table = phone.table_row()
    csrf = phone.csrf()
    writes = [
        rule for rule in table_rules(app) if rule.methods and set(WRITE_METHODS) & rule.methods
    ]
    assert {rule.endpoint for rule in writes} >= {
        "tables.table_game",
        "tables.rematch",
        "roster.rename",
        "roster.merge",
        "table_stats.import_page",
    }
    player_id = phone.chips(phone.cleared(phone.new_game_page()))["Rami"][1:]
    form = {
        "table_name": "hacked",
        "name": "hacked",
        "add": "new",
        "newcomer": "Eve",
        "start": "1",
        "into": "2",
        "version": str(table.version),
        "game": "trix",
        "mode": "solo",
        "csrf_token": csrf,
    }
    before = all_rows(app)
    for rule in table_rules(app):
        url = url_for_rule(rule, table.view_token).replace("/1/", f"/{player_id}/")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            response = phone.client.open(
                url, method=method, data=form, headers={"X-CSRFToken": csrf}
            )
            if method == "GET" or rule.rule.startswith("/v/"):
                assert response.status_code in (200, 404, 405), (method, url)
            else:
                assert response.status_code in (404, 405), (method, url, response.status_code)
    assert all_rows(app) == before
    # the same rename with the table's own token does reach the roster
    renamed = phone.client.post(f"{phone.table_url}/players/{player_id}/rename", data=form)
    assert renamed.status_code == 303
    assert "hacked" in page(phone.client.get(phone.table_url)).text


def test_nothing_under_v_t_accepts_a_write(app: Flask, phone: TablePhone) -> None:
    phone.create_table()
    view_token = phone.table_row().view_token
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/v/t/")]
    assert len(rules) >= 4
    for rule in rules:
        assert rule.methods is not None and rule.methods <= {"GET", "HEAD", "OPTIONS"}, rule
        url = rule.build({"view_token": view_token, "part": "standings"})[1]
        for method in WRITE_METHODS:
            assert phone.client.open(url, method=method).status_code == 405


def test_unknown_tables_are_404(client: FlaskClient) -> None:
    for url in (
        "/t/nope",
        "/t/nope/new",
        "/t/nope/stats",
        "/t/nope/players",
        "/v/t/nope",
        "/v/t/nope/stats",
        "/v/t/nope/games.json",
        "/t/" + "x" * 100,
    ):
        assert client.get(url).status_code == 404


def test_a_table_games_record_replays_with_its_names(phone: TablePhone) -> None:
    record = record_data("trix-solo-complete.json")
    phone.create_table()
    phone.pick(PLAYERS)
    phone.play(record)
    exported = phone.client.get(f"{phone.url}/export.json").get_data(as_text=True)
    assert replay(load_record(exported).game).finished
    assert snapshot(phone.app)[0]["table_id"] is not None


def test_two_seats_for_one_person_are_refused(phone: TablePhone) -> None:
    import unicodedata

    composed, decomposed = "José", unicodedata.normalize("NFD", "José")
    phone.create_table()
    response = phone.tap(phone.new_game_page(), add="new", newcomer=composed)
    refused = phone.tap(response, add="new", newcomer=decomposed)
    assert refused.status_code == 422 and "already has a seat" in page(refused).text
    # the new-game form keeping its four as a table says so too, and starts nothing
    before = all_rows(phone.app)
    form = page(phone.client.get("/new"))
    data = {
        **sent(form, "/new"),
        "game": "trix",
        "mode": "solo",
        "table_name": "Majlis",
        **{
            f"player_{seat}": name
            for seat, name in enumerate(["Lina", composed, "Omar", decomposed])
        },
    }
    response = phone.client.post("/new", data=data)
    assert response.status_code == 422
    assert "cannot have the same name" in page(response).text
    assert all_rows(phone.app) == before
