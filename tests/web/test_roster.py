"""Players are people: renaming one through the roster page changes every game of the table,
merging two entries asks first; every game still replays through the engine afterwards."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import load_record, replay
from tests.conftest import page, totals_shown
from tests.web.table_phone import TablePhone, record_data
from tests.web.test_tables import all_rows

PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


def player_ids(phone: TablePhone) -> dict[str, int]:
    html = phone.client.get(f"{phone.table_url}/players").get_data(as_text=True)
    found = re.findall(
        r'/players/(\d+)/rename".*?<input[^>]*name="name"[^>]*value="([^"]*)"', html, re.S
    )
    return {name: int(player_id) for player_id, name in found}


def rename(phone: TablePhone, player_id: int, name: str, version: int | None = None) -> object:
    roster = page(phone.client.get(f"{phone.table_url}/players"))
    fields = roster.hidden(f"/players/{player_id}/rename")
    if version is not None:
        fields["version"] = str(version)
    return phone.client.post(
        f"{phone.table_url}/players/{player_id}/rename", data={**fields, "name": name}
    )


def every_game_replays(phone: TablePhone) -> list[tuple[str, ...]]:
    """Each game's JSON export from its own link, replayed by the engine."""
    players = []
    for game in phone.games_json():
        assert replay(load_record(__import__("json").dumps(game)).game).finished
        players.append(tuple(game["players"]))
    return players


@pytest.fixture
def two_games(phone: TablePhone) -> TablePhone:
    record = record_data("trix-solo-complete.json")
    phone.create_table()
    phone.import_records([record, {**record, "players": ["Rami", "Lina", "Omar", "Dina"]}])
    phone.token = phone.game_tokens()[-1]
    return phone


def test_renaming_a_player_renames_them_in_every_game(two_games: TablePhone) -> None:
    phone = two_games
    totals = totals_shown(phone.game_page())
    ids = player_ids(phone)
    response = rename(phone, ids["Omar"], "  Omar Kassem ")
    assert response.status_code == 303  # type: ignore[attr-defined]
    assert every_game_replays(phone) == [
        ("Rami", "Lina", "Omar Kassem", "Dana"),
        ("Rami", "Lina", "Omar Kassem", "Dina"),
    ]
    game = phone.game_page()
    assert "Omar Kassem" in page(game).text and totals_shown(game) == totals
    assert "Omar Kassem" in page(phone.client.get(f"{phone.table_url}/stats")).text


def test_a_rename_to_anothers_name_is_refused_with_a_hint_to_merge(two_games: TablePhone) -> None:
    phone = two_games
    ids = player_ids(phone)
    before = all_rows(phone.app)
    response = rename(phone, ids["Dina"], "dana")
    assert response.status_code == 409  # type: ignore[attr-defined]
    assert "Dana is already on the roster" in page(response).text  # type: ignore[arg-type]
    assert all_rows(phone.app) == before


@pytest.mark.parametrize("name", ["", "   ", "x" * 41])
def test_a_bad_name_is_refused(two_games: TablePhone, name: str) -> None:
    phone = two_games
    before = all_rows(phone.app)
    response = rename(phone, player_ids(phone)["Rami"], name)
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert all_rows(phone.app) == before


def test_a_stale_rename_changes_nothing(two_games: TablePhone) -> None:
    phone = two_games
    ids = player_ids(phone)
    version = phone.table_row().version
    assert rename(phone, ids["Rami"], "Rami A.").status_code == 303  # type: ignore[attr-defined]
    before = all_rows(phone.app)
    response = rename(phone, ids["Lina"], "Lena", version)
    assert response.status_code == 303  # type: ignore[attr-defined]
    assert "changed on another phone" in page(phone.client.get(phone.table_url)).text
    assert all_rows(phone.app) == before


def test_merging_asks_first_then_every_game_follows(two_games: TablePhone) -> None:
    phone = two_games
    ids = player_ids(phone)
    choose = page(phone.client.get(f"{phone.table_url}/players/{ids['Dina']}/merge"))
    assert "Who else is" in choose.text
    confirm_url = f"{phone.table_url}/players/{ids['Dina']}/merge?into={ids['Dana']}"
    assert any(link.replace("&amp;", "&") == confirm_url for link in choose.links)
    confirm = page(phone.client.get(confirm_url))
    assert "Merge Dina into Dana" in confirm.text
    assert all_rows(phone.app)["players"] and len(player_ids(phone)) == 5  # nothing yet
    fields = confirm.hidden(f"/players/{ids['Dina']}/merge")
    response = phone.client.post(f"{phone.table_url}/players/{ids['Dina']}/merge", data=fields)
    assert response.status_code == 303
    assert sorted(player_ids(phone)) == sorted(PLAYERS)
    assert every_game_replays(phone) == [tuple(PLAYERS)] * 2
    assert "2 games" in page(phone.client.get(phone.table_url)).text


def test_two_people_of_one_game_cannot_be_merged(two_games: TablePhone) -> None:
    phone = two_games
    ids = player_ids(phone)
    url = f"{phone.table_url}/players/{ids['Rami']}/merge"
    confirm = page(phone.client.get(f"{url}?into={ids['Lina']}"))
    assert "cannot be merged" in confirm.text and confirm.forms == []
    before = all_rows(phone.app)
    response = phone.client.post(
        url,
        data={
            "csrf_token": confirm.csrf_token,
            "into": str(ids["Lina"]),
            "version": str(phone.table_row().version),
        },
    )
    assert response.status_code == 303
    assert all_rows(phone.app) == before


@pytest.mark.parametrize("query", ["into=999999", "into=x", "into=SELF"])
def test_merge_into_nobody_is_404(two_games: TablePhone, query: str) -> None:
    phone = two_games
    ids = player_ids(phone)
    query = query.replace("SELF", str(ids["Rami"]))
    response = phone.client.get(f"{phone.table_url}/players/{ids['Rami']}/merge?{query}")
    assert response.status_code == 404


@pytest.mark.parametrize("into", ["", "999999", "abc"])
def test_a_tampered_merge_is_400(two_games: TablePhone, into: str) -> None:
    phone = two_games
    ids = player_ids(phone)
    before = all_rows(phone.app)
    response = phone.client.post(
        f"{phone.table_url}/players/{ids['Dina']}/merge",
        data={"csrf_token": phone.csrf(), "into": into, "version": str(phone.table_row().version)},
    )
    assert response.status_code == 400
    assert all_rows(phone.app) == before


def test_another_tables_player_is_404(two_games: TablePhone) -> None:
    phone = two_games
    ids = player_ids(phone)
    first_table = phone.table_token
    phone.create_table("Other")
    assert phone.table_token != first_table
    assert phone.client.get(f"{phone.table_url}/players/{ids['Rami']}/merge").status_code == 404
    response = phone.client.post(
        f"{phone.table_url}/players/{ids['Rami']}/rename",
        data={"csrf_token": phone.csrf(), "name": "X", "version": "1"},
    )
    assert response.status_code == 404


def test_a_refused_renames_address_reloaded_goes_back_to_the_roster(two_games: TablePhone) -> None:
    """A refused rename leaves its address in the browser (a boosted form's URL); reloading it
    must not be a 405 page."""
    phone = two_games
    rami = player_ids(phone)["Rami"]
    assert rename(phone, rami, "Lina").status_code == 409  # refused: Lina is on the roster
    response = phone.client.get(f"{phone.table_url}/players/{rami}/rename")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"{phone.table_url}/players")


def test_a_merge_page_reopened_after_the_merge_says_so(two_games: TablePhone) -> None:
    """Reopening (or confirming twice) a merge that is done: the roster, saying it was merged
    (it was a 404)."""
    phone = two_games
    ids = player_ids(phone)
    page = f"{phone.table_url}/players/{ids['Dina']}/merge"
    form = {
        "csrf_token": phone.csrf(),
        "into": str(ids["Dana"]),
        "version": str(phone.table_row().version),
    }
    assert phone.client.post(page, data=form).status_code == 303
    before = all_rows(phone.app)
    for method in ("get", "post"):
        response = (
            phone.client.get(f"{page}?into={ids['Dana']}")
            if method == "get"
            else phone.client.post(page, data=form)
        )
        assert response.status_code == 303
        assert response.headers["Location"].endswith(f"{phone.table_url}/players")
        shown = phone.client.get(response.headers["Location"]).get_data(as_text=True)
        assert "merged into another entry" in shown
    assert all_rows(phone.app) == before
