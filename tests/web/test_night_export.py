"""A table's export keeps where its nights began ("Start a new night"), and a table's import
puts them back, all or nothing: a restored table shows the nights the first one showed, and
`scorekeeper stats` of the export agrees."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.record import load_records
from scorekeeper.stats import compute, to_json
from tests.conftest import page
from tests.web.table_phone import TablePhone
from tests.web.test_nights import _now_game


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


def nights_of(phone: TablePhone) -> list[dict[str, Any]]:
    response = phone.client.get(f"{phone.table_url}/stats.json")
    nights: list[dict[str, Any]] = json.loads(response.get_data(as_text=True))["nights"]
    return nights


def a_table_with_a_night_started_on_purpose(phone: TablePhone) -> list[dict[str, Any]]:
    """Two games, "Start a new night", a third game (all begun within minutes): two nights."""
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    _now_game(phone, ["Rami", "Lina", "Omar", "Sami"])
    fields = page(phone.client.get(phone.table_url)).hidden("/night")
    assert phone.client.post(f"{phone.table_url}/night", data=fields).status_code == 303
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    nights = nights_of(phone)
    assert [night["games"] for night in nights] == [2, 1]
    return nights


def test_a_restored_table_keeps_where_its_nights_began(phone: TablePhone) -> None:
    nights = a_table_with_a_night_started_on_purpose(phone)
    exported = phone.games_json()
    # the night is written on the game it was started after, and only there
    assert ["night_started_at" in record for record in exported] == [False, True, False]
    assert exported[1]["night_started_at"] >= exported[1]["created_at"]
    # the export alone gives the same nights (as `scorekeeper stats` reads them)
    alone = to_json(compute(load_records(json.dumps(exported))))["nights"]
    assert json.loads(json.dumps(alone)) == nights
    # restored into a new table: the same nights, and the same export again
    phone.create_table("Majlis again")
    assert phone.import_records(exported).status_code == 303
    assert nights_of(phone) == nights
    again = phone.games_json()
    assert [record.get("night_started_at") for record in again] == [
        record.get("night_started_at") for record in exported
    ]
    # the restored table knows the night was started after its second game, and only it
    from scorekeeper.store.nights import started_after
    from scorekeeper.store.tables import find_table, table_games

    with phone.app.app_context():
        table = find_table(phone.table_token)
        assert table is not None
        assert [started_after(table, game) for game in table_games(table)] == [False, True, False]


@pytest.mark.parametrize("stamp", ["yesterday", "", 20250301, "10000-01-01T00:00:00+00:00"])
def test_a_bad_night_start_refuses_the_whole_import(phone: TablePhone, stamp: object) -> None:
    a_table_with_a_night_started_on_purpose(phone)
    exported = phone.games_json()
    exported[1]["night_started_at"] = stamp
    phone.create_table("Majlis again")
    answer = phone.import_records(exported)
    assert answer.status_code == 422
    assert "night_started_at" in answer.get_data(as_text=True)
    assert phone.games_json() == [] and nights_of(phone) == []  # nothing of it stored


def test_a_night_started_after_a_game_not_begun_is_kept_on_the_game_before(
    phone: TablePhone,
) -> None:
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    phone.pick(["Rami", "Lina", "Omar", "Sami"])  # a game whose first king is not chosen yet
    fields = page(phone.client.get(phone.table_url)).hidden("/night")
    assert phone.client.post(f"{phone.table_url}/night", data=fields).status_code == 303
    assert [("night_started_at" in record) for record in phone.games_json()] == [True]
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    nights = nights_of(phone)
    assert [night["games"] for night in nights] == [1, 1]
    exported = phone.games_json()
    phone.create_table("Majlis again")
    assert phone.import_records(exported).status_code == 303
    assert nights_of(phone) == nights
