"""The new-game page offers the names this browser has played with, one tap each (issue 15,
item 11): as buttons that work without JavaScript and as the fields' suggestion list."""

from __future__ import annotations

import re

from flask import Flask

from tests.conftest import Phone, page


def suggestions(html: str) -> list[str]:
    return re.findall(r'<button type="submit" name="suggest" value="([^"]*)"', html)


def test_no_suggestions_before_a_game_and_no_autocomplete_off(phone: Phone) -> None:
    html = phone.client.get("/new").get_data(as_text=True)
    assert suggestions(html) == [] and "<datalist" not in html
    assert 'autocomplete="off"' not in html


def test_names_of_this_browsers_games_are_offered_newest_first(app: Flask, phone: Phone) -> None:
    phone.new_game(players=("Rami", "Lina", "Omar", "Dana"))
    phone.new_game(players=("Ayşe", "rami", "Can", "Ece"))
    html = phone.client.get("/new").get_data(as_text=True)
    assert suggestions(html) == ["Ayşe", "rami", "Can", "Ece", "Lina", "Omar", "Dana"]
    assert html.count('list="known-names"') == 4 and '<option value="Ayşe">' in html
    # another browser has played with nobody
    assert suggestions(app.test_client().get("/new").get_data(as_text=True)) == []


def test_a_tapped_name_takes_the_first_empty_seat_without_javascript(phone: Phone) -> None:
    phone.new_game(players=("Rami", "Lina", "Omar", "Dana"))
    form = page(phone.client.get("/new"))
    data = {
        "csrf_token": form.hidden("/new")["csrf_token"],
        "game": "trix",
        "mode": "solo",
        "doubled_self_take": "net",
        "player_0": "Zeynep",
        "player_1": "",
        "player_2": "",
        "player_3": "",
    }
    response = phone.client.post("/new", data={**data, "suggest": "Omar"})
    assert response.status_code == 200
    values = {
        field["name"]: field.get("value")
        for field in page(response).form("/new")["inputs"]
        if field.get("name", "").startswith("player_")
    }
    assert values == {"player_0": "Zeynep", "player_1": "Omar", "player_2": "", "player_3": ""}
    assert "Omar" not in suggestions(response.get_data(as_text=True))  # seated already
    # the same name twice, or a name too long, seats nobody
    again = phone.client.post("/new", data={**data, "player_1": "Omar", "suggest": "omar"})
    seated = [
        field.get("value")
        for field in page(again).form("/new")["inputs"]
        if field.get("name", "").startswith("player_")
    ]
    assert seated == ["Zeynep", "Omar", "", ""]
    long = phone.client.post("/new", data={**data, "suggest": "x" * 41})
    assert long.status_code == 200 and 'value="xxxxxxxx' not in long.get_data(as_text=True)


def test_the_rosters_of_this_browsers_tables_are_offered_too(phone: Phone) -> None:
    from tests.web.table_phone import TablePhone, record_data

    at_a_table = TablePhone(phone.app, phone.client)  # the same browser, at a table
    at_a_table.create_table()
    at_a_table.import_records([record_data("turkish-king-complete.json")])  # no game remembered
    html = phone.client.get("/new").get_data(as_text=True)
    assert sorted(suggestions(html)) == sorted(["Ayşe", "Mehmet", "Zeynep", "Can"])
