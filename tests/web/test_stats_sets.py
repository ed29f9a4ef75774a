"""A table's statistics add up on screen (issue 24 item 6): each figure says which games it
counts, and one kind of game played gives one standings table, not two identical ones."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import page
from tests.web.table_phone import TablePhone, record_data


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


def _captions(html: str) -> list[str]:
    """The standings tables' captions (the nights' tables have their own)."""
    standings = html.split('aria-labelledby="standings-title"', 1)[1].split("</section>", 1)[0]
    return re.findall(r"<caption>([^<]*)</caption>", standings)


def test_one_kind_played_one_standings_table_and_each_set_named(phone: TablePhone) -> None:
    complete = record_data("trix-complex-partnership-complete.json")
    phone.create_table()
    assert (
        phone.import_records([complete, {**complete, "deals": complete["deals"][:5]}]).status_code
        == 303
    )
    html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
    assert _captions(html) == ["Trix Complex"]  # not "All games" beside the same table
    text = page(phone.client.get(f"{phone.table_url}/stats")).text
    # standings, wins over time, streaks, partnerships: the finished game; contracts: all deals
    assert text.count("Points and wins count the 1 finished game.") == 4
    assert text.count("Counts every deal of the 2 games, finished or not.") == 1


def test_two_kinds_keep_the_all_games_table(phone: TablePhone) -> None:
    phone.create_table()
    assert (
        phone.import_records(
            [record_data("trix-solo-complete.json"), record_data("trix-complex-solo-complete.json")]
        ).status_code
        == 303
    )
    html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
    assert _captions(html) == ["All games", "Trix", "Trix Complex"]
    assert (
        "Points and wins count the 2 finished games."
        in page(phone.client.get(f"{phone.table_url}/stats")).text
    )
