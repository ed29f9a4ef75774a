"""A table's statistics page, its CSV and its games' JSON agree with the statistics computed
from the exported records (and with `scorekeeper stats`); importing records into a table."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import escape, unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.record import load_records
from scorekeeper.stats import compute, to_json
from scorekeeper.words.stats_export import stats_csv
from tests.conftest import page
from tests.web.table_phone import TablePhone, record_data
from tests.web.test_roster import player_ids
from tests.web.test_tables import all_rows

FILES = (
    "trix-solo-complete.json",
    "trix-partnership-complete.json",
    "turkish-king-complete.json",
    "trix-complex-partnership-complete.json",
)


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


@pytest.fixture
def played(phone: TablePhone) -> TablePhone:
    """A table with four finished games of three kinds, one of them renamed to share players."""
    phone.create_table("Majlis")
    records = [record_data(name) for name in FILES]
    records[2] = {**records[2], "players": ["Rami", "Ayşe", "omar ", "Can"]}
    response = phone.import_records(records)
    assert response.status_code == 303, response.get_data(as_text=True)
    return phone


def standings_shown(html: str, caption: str) -> list[list[str]]:
    """The rows of the standings table with this caption: name, points, wins, rate, games,
    finished (as shown)."""
    table = html.split(f"<caption>{caption}</caption>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th scope=\"row\"><bdi>([^<]*)</bdi></th>(.*?)</tr>", table, re.S)
    return [
        [
            unescape(name),
            *[
                re.sub(r"<[^>]+>", "", cell)
                for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)
            ],
        ]
        for name, cells in rows
    ]


def shown(value: int) -> str:
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def expected_rows(players: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [
            p["name"],
            *([] if p["points"] is None else [shown(p["points"])]),  # Trix and King: none
            str(p["wins"]),
            "–" if p["win_rate"] is None else str(round(p["win_rate"] * 100)),
            str(p["games"]),
            str(p["finished"]),
        ]
        for p in players
    ]


def test_the_statistics_page_agrees_with_the_exported_records(played: TablePhone) -> None:
    response = played.client.get(f"{played.table_url}/games.json")
    assert response.is_streamed  # a record at a time, the games read as it is sent
    exported = response.get_data(as_text=True)
    expected = to_json(compute(load_records(exported)))
    assert [p["name"] for p in expected["players"]][:1] and expected["games"] == 4
    html = played.client.get(f"{played.table_url}/stats").get_data(as_text=True)
    assert standings_shown(html, "All games") == expected_rows(expected["players"])
    # Trix and King are played here: all games together count no points (never added up)
    assert all(player["points"] is None for player in expected["players"])
    together = html.split("<caption>All games</caption>", 1)[1].split("</thead>", 1)[0]
    assert ">Points<" not in together
    assert "Trix and King points are never added up" in html
    for game, caption in (
        ("trix", "Trix"),
        ("turkish-king", "Turkish King"),
        ("trix-complex", "Trix Complex"),
    ):
        assert standings_shown(html, caption) == expected_rows(expected["standings"][game])
    text = page(played.client.get(f"{played.table_url}/stats")).text
    for pair in expected["partnerships"]:
        assert f"{pair['names'][0]} & {pair['names'][1]}" in text
    assert "Wins over time" in text and "<svg" in html
    # the same figures from the command anyone can run
    command = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "stats", "-"],
        input=exported.encode(),
        capture_output=True,
        check=True,
    )
    assert json.loads(command.stdout)["players"] == expected["players"]


def test_a_partnership_is_named_in_the_readers_words(played: TablePhone) -> None:
    # the one wording of a team (labels.pair_label), each name isolated: Arabic joins with "و"
    exported = played.client.get(f"{played.table_url}/games.json").get_data(as_text=True)
    pairs = to_json(compute(load_records(exported)))["partnerships"]
    arabic = played.client.get(f"{played.table_url}/stats", headers={"Accept-Language": "ar"})
    html = arabic.get_data(as_text=True)
    for pair in pairs:
        first, second = (escape(name) for name in pair["names"])
        assert f"<bdi>{first}</bdi> و<bdi>{second}</bdi>" in html
        assert f"<bdi>{first}</bdi> &amp; <bdi>{second}</bdi>" not in html


def test_the_csv_is_the_statistics_of_the_exported_records(played: TablePhone) -> None:
    exported = played.client.get(f"{played.table_url}/games.json").get_data(as_text=True)
    response = played.client.get(f"{played.table_url}/stats.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert "majlis-standings-" in response.headers["Content-Disposition"]
    assert response.get_data(as_text=True) == stats_csv(compute(load_records(exported)))
    view_token = played.table_row().view_token
    assert played.client.get(f"/v/t/{view_token}/stats.csv").get_data() == response.get_data()
    for part in ("standings", "contracts", "partnerships"):  # each table its own file
        one = played.client.get(f"{played.table_url}/stats/{part}.csv")
        assert one.status_code == 200 and f"majlis-{part}-" in one.headers["Content-Disposition"]
        assert one.get_data(as_text=True) == stats_csv(compute(load_records(exported)), table=part)
        assert played.client.get(f"/v/t/{view_token}/stats/{part}.csv").get_data() == (
            one.get_data()
        )
    assert played.client.get(f"{played.table_url}/stats/nothing.csv").status_code == 404


def test_names_of_one_person_are_one_player(played: TablePhone) -> None:
    text = page(played.client.get(f"{played.table_url}/players")).text
    assert text.count("Omar") == 1 and "4 games" in text  # "omar " of the King game is Omar


def test_an_empty_table_has_no_statistics_yet(phone: TablePhone) -> None:
    phone.create_table()
    response = phone.client.get(f"{phone.table_url}/stats")
    assert response.status_code == 200
    assert "No games yet" in page(response).text


def test_statistics_follow_a_rename(played: TablePhone) -> None:
    before = played.client.get(f"{played.table_url}/stats").get_data(as_text=True)
    assert "Rami" in before
    rami = player_ids(played)["Rami"]
    fields = page(played.client.get(f"{played.table_url}/players")).hidden(
        f"/players/{rami}/rename"
    )
    played.client.post(
        f"{played.table_url}/players/{rami}/rename", data={**fields, "name": "Rami Haddad"}
    )
    after = played.client.get(f"{played.table_url}/stats").get_data(as_text=True)
    assert "Rami Haddad" in after and ">Rami<" not in after


def test_a_refused_import_says_why_and_stores_nothing(phone: TablePhone) -> None:
    phone.create_table()
    before = all_rows(phone.app)
    good = record_data("trix-solo-complete.json")
    bad = {**good, "deals": [*good["deals"][:3], {"contract": "diamonds", "counts": [5, 5, 5, 5]}]}
    response = phone.import_records([good, bad])
    assert response.status_code == 422
    assert "Nothing was imported. Record 2 of 2" in page(response).text
    assert all_rows(phone.app) == before
    not_json = phone.import_records([])
    assert not_json.status_code == 422 and all_rows(phone.app) == before


def test_imported_games_join_the_table(phone: TablePhone) -> None:
    phone.create_table()
    phone.pick(["Ayşe", "Ali", "Veli", "Ece"], game="turkish-king")
    response = phone.import_records([record_data("turkish-king-complete.json")])
    assert response.status_code == 303
    names = page(phone.client.get(phone.table_url)).text
    for name in ("Ayşe", "Ali", "Mehmet", "Zeynep", "Can"):
        assert name in names
    assert len(phone.game_tokens()) == 2


def test_a_tables_import_keeps_the_import_pages_caps(phone: TablePhone) -> None:
    """The table's import page is an import page: the same caps a request, the same hourly
    allowance per address (else a table link would be a way around them)."""
    from scorekeeper.store.limits import IMPORT_REQUESTS
    from scorekeeper.web.views.imports import IMPORT_MAX_RECORDS

    phone.create_table()
    before = all_rows(phone.app)
    minimal = {
        "format": "scorekeeper-game/1",
        "game": "trix",
        "mode": "solo",
        "players": ["Rami", "Lina", "Omar", "Dana"],
        "first": 0,
        "deals": [],
    }
    response = phone.import_records([minimal] * (IMPORT_MAX_RECORDS + 1))
    assert response.status_code == 413
    assert f"one import takes at most {IMPORT_MAX_RECORDS}" in page(response).text
    assert all_rows(phone.app) == before
    for _ in range(IMPORT_REQUESTS.per_address - 1):
        phone.import_records([])
    response = phone.import_records([minimal])
    assert response.status_code == 429
    assert all_rows(phone.app) == before


def test_a_table_named_in_arabic_keeps_its_name_in_the_download(phone: TablePhone) -> None:
    """Two tables named in Arabic get two statistics files, not one "table-statistics" each."""
    from urllib.parse import quote

    phone.create_table("خميس كريم")
    response = phone.client.get(f"{phone.table_url}/stats.csv")
    disposition = response.headers["Content-Disposition"]
    assert "filename=table-standings-" in disposition  # the ASCII fallback
    assert "filename*=UTF-8''" + quote("خميس-كريم-Standings-", safe="") in disposition
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
