"""A table's page tells its games apart (date, winner, totals on each card), and its next game
starts with the last four already seated (issue 24 item 7)."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import load_record, replay
from scorekeeper.words.dates import day_text
from tests.conftest import Page, page, signed
from tests.web.table_phone import TablePhone, record_data, sent
from tests.web.test_tables import seated

PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


def _cards(phone: TablePhone) -> list[str]:
    html = phone.client.get(phone.table_url).get_data(as_text=True)
    return [Page(card).text for card in re.findall(r"<li><a href=\"/g/.*?</a></li>", html, re.S)]


def test_each_card_has_its_date_winner_and_totals(phone: TablePhone) -> None:
    record = record_data("trix-solo-complete.json")
    result = replay(load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game)
    phone.create_table()
    phone.pick(PLAYERS, game="trix", mode="solo")
    phone.play(record)
    phone.rematch()
    phone.choose_first(0)
    phone.enter(record["deals"][0])
    playing, finished = _cards(phone)
    created = day_text(phone.row().created_at, "en")  # the server's zone, the reader's words
    assert created in playing and created in finished
    order = sorted(range(4), key=lambda seat: -result.totals[seat])
    shown = " · ".join(f"{PLAYERS[seat]} {signed(result.totals[seat])}" for seat in order)
    assert shown in finished  # highest first
    best = PLAYERS[order[0]]
    assert f"Winner: {best}" in finished
    assert "Winner" not in playing and "1 of 20 played" in playing


def test_a_partnership_card_shows_the_teams_totals(phone: TablePhone) -> None:
    record = record_data("trix-partnership-complete.json")
    phone.create_table()
    phone.import_records([record])
    (card,) = _cards(phone)
    players = record["players"]
    result = replay(load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game)
    assert result.team_totals is not None
    for team, (first, second) in enumerate(((0, 2), (1, 3))):
        assert f"{players[first]} & {players[second]} {signed(result.team_totals[team])}" in card


def test_the_next_game_has_the_last_four_seated_and_starts_in_one_tap(phone: TablePhone) -> None:
    phone.create_table()
    phone.pick(["Omar", "Rami", "Dana", "Lina"], game="turkish-king", mode="solo")
    offered = phone.new_game_page()
    assert seated(offered) == ["Omar", "Rami", "Dana", "Lina"]
    data = {**sent(page(offered), f"{phone.table_url}/new"), "start": "1"}
    started = phone.client.post(f"{phone.table_url}/new", data=data)
    assert started.status_code == 303
    phone.token = started.headers["Location"].rsplit("/", 1)[-1]
    assert phone.row().players == ["Omar", "Rami", "Dana", "Lina"]
    assert phone.row().game == "turkish-king"
    # a seat is freed with one tap, and another player takes it
    freed = phone.tap(phone.new_game_page(), remove="3")
    assert seated(freed) == ["Omar", "Rami", "Dana"]
