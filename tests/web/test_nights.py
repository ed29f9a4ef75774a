"""A table of 8 people over 100 games shows its nights, ratings and rivals: the same the
statistics compute from the table's exported records (and `scorekeeper stats --ratings`
prints); a night started on purpose; the night of "same four again" outside a table; the
ratings switch and the night button refuse what no page sends."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.record import load_records
from scorekeeper.stats import compute, to_json
from scorekeeper.words.night_share import points_text
from tests.conftest import Phone, page
from tests.web.table_phone import TablePhone, record_data

TEMPLATES = (
    "trix-solo-complete.json",
    "trix-partnership-complete.json",
    "turkish-king-complete.json",
    "trix-complex-partnership-complete.json",
)
PEOPLE = ("Rami", "Lina", "Omar", "Dana", "Sami", "Maya", "Karim", "Nour")


def hundred_games(start: datetime) -> list[dict[str, Any]]:
    """100 finished games of 8 people, four a night (an hour and a half apart), a week apart."""
    templates = [record_data(name) for name in TEMPLATES]
    games = []
    for number in range(100):
        record = dict(templates[number % 4])
        step = 1 + number % 3
        record["players"] = [PEOPLE[(number * 3 + seat * step) % 8] for seat in range(4)]
        if len(set(record["players"])) < 4:
            record["players"] = [PEOPLE[(number + seat * 2) % 8] for seat in range(4)]
        night, game = divmod(number, 4)
        moment = start + timedelta(days=7 * night, minutes=90 * game)
        record["created_at"] = moment.isoformat()
        record.pop("updated_at", None)
        games.append(record)
    return games


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    return TablePhone(app, client)


@pytest.fixture
def table(phone: TablePhone) -> TablePhone:
    phone.create_table("Majlis")
    answer = phone.import_records(hundred_games(datetime(2025, 1, 2, 19, 0, tzinfo=UTC)))
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return phone


def exported(phone: TablePhone, *, rated: bool = False) -> dict[str, Any]:
    """What the statistics compute from the table's own export (another path than the page's
    stored figures)."""
    records = load_records(json.dumps(phone.games_json()))
    return json.loads(json.dumps(to_json(compute(records, rated=rated))))


def section(html: str, section_id: str) -> str:
    return html.split(f'id="{section_id}"', 1)[1].split("</section>", 1)[0]


def rows(html: str) -> list[list[str]]:
    """Each body row of the tables in `html`: its cells' text."""
    body = "".join(re.findall(r"<tbody>(.*?)</tbody>", html, re.S))
    return [
        [
            unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def night_rows(night: dict[str, Any]) -> list[list[str]]:
    """A night's standings as the page shows them: place, name, points, wins, games."""
    standings = night["standings"]
    shown = []
    for player in standings:
        place = 1 + sum(1 for other in standings if other["points"] > player["points"])
        points = points_text(round(player["points"] * 2))
        shown.append(
            [str(place), player["name"], points, str(player["wins"]), str(player["games"])]
        )
    return shown


def rivals_text(rivals: list[dict[str, Any]]) -> str:
    """A rivals cell as the page shows it: everyone tied, then their (equal) figures."""
    if not rivals:
        return "–"
    names = ", ".join(rival["name"] for rival in rivals)
    first = rivals[0]
    return f"{names} {first['ahead']} ahead · {first['behind']} behind · {first['level']} level"


def day_in_english(stamp: str) -> str:
    """A night's day as an English page says it ("Mar 6, 2025"), in the server's zone."""
    began = datetime.fromisoformat(stamp).astimezone()
    return f"{began:%b} {began.day}, {began.year}"


def test_a_hundred_games_show_their_nights_rivals_and_ratings(table: TablePhone) -> None:
    expected = exported(table)
    assert [night["games"] for night in expected["nights"]] == [4] * 25
    html = table.client.get(f"{table.table_url}/stats").get_data(as_text=True)
    nights = section(html, "nights")
    shown_nights = re.findall(r"<details class=\"night\"", nights)
    assert len(shown_nights) == len(expected["nights"])
    # newest first, each night's table as the statistics compute it from the export
    for block, night in zip(
        nights.split('<details class="night"')[1:], reversed(expected["nights"]), strict=True
    ):
        assert f"Night of {day_in_english(night['first'])}" in block  # as game cards say it
        assert rows(block) == night_rows(night)
    # rivals: each player's two rivals, as computed
    for mode, data in expected["rivals"].items():
        shown = rows(section(html, f"rivals-{mode}").split("<h3")[0])
        for player, cells in zip(data["players"], shown, strict=True):
            assert cells[0] == player["name"]
            assert cells[1:3] == [rivals_text(player["beats"]), rivals_text(player["beaten_by"])]
            assert not {r["key"] for r in player["beats"]} & {r["key"] for r in player["beaten_by"]}
    assert "Who takes what" in html
    # ratings are off until a phone turns them on
    assert "Ratings are off for this table." in section(html, "ratings")
    assert table.client.get(f"{table.table_url}/stats/ratings.csv").status_code == 404
    switch = page(table.client.get(f"{table.table_url}/stats")).hidden("/ratings")
    assert switch["ratings"] == "on"
    answer = table.client.post(f"{table.table_url}/ratings", data=switch)
    assert answer.status_code == 303
    html = table.client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "Ratings are on for this table." in html
    rated = exported(table, rated=True)["ratings"]
    assert rows(section(html, "ratings")) == [
        [entry["name"], str(entry["rating"]), str(entry["games"])] for entry in rated
    ]
    assert all(entry["rating"] is not None for entry in rated)  # 8 people, 100 games: all shown
    # the JSON export is `scorekeeper stats --ratings` of the exported games
    stats = json.loads(table.client.get(f"{table.table_url}/stats.json").get_data(as_text=True))
    assert stats == exported(table, rated=True)
    viewed = table.client.get(f"/v/t/{table.table_row().view_token}/stats.json")
    assert json.loads(viewed.get_data(as_text=True)) == stats
    # the CSV files
    nights_csv = table.client.get(f"{table.table_url}/stats/nights.csv").get_data(as_text=True)
    assert nights_csv.count("\n") == 1 + sum(len(n["standings"]) for n in expected["nights"])
    ratings_csv = table.client.get(f"{table.table_url}/stats/ratings.csv").get_data(as_text=True)
    assert ratings_csv.splitlines()[1] == (
        f"{rated[0]['name']},{rated[0]['rating']},{rated[0]['games']}"
    )
    for part in ("rivals", "leaders"):
        assert table.client.get(f"{table.table_url}/stats/{part}.csv").status_code == 200


def test_the_table_page_shows_the_last_night_and_its_share(table: TablePhone) -> None:
    expected = exported(table)["nights"][-1]
    html = table.client.get(table.table_url).get_data(as_text=True)
    night = section(html, "night")
    assert "The last night" in night  # long ago: over
    assert rows(night) == night_rows(expected)
    share = unescape(re.search(r'data-share="([^"]*)"', night).group(1))  # type: ignore[union-attr]
    assert share.splitlines()[0] == f"Majlis · Night of {day_in_english(expected['first'])}"
    assert 'class="start-night"' not in night  # over: the next game starts one anyway


def _now_game(phone: TablePhone, players: list[str]) -> None:
    """A game of the table begun now, finished from a record's deals."""
    phone.pick(players)
    record = record_data("trix-solo-complete.json")
    from scorekeeper.rules import load_record, replay
    from scorekeeper.store.games import find_game, set_first, write_deals

    game = load_record(json.dumps({**record, "players": players})).game
    with phone.app.app_context():
        row = find_game(phone.token)
        assert row is not None
        set_first(row, game.first, row.version)
        write_deals(row, replay(game), row.version)


def test_a_night_started_on_purpose(phone: TablePhone) -> None:
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    _now_game(phone, ["Rami", "Lina", "Omar", "Sami"])
    night = section(phone.client.get(phone.table_url).get_data(as_text=True), "night")
    assert "Tonight" in night and "2 games" in night and 'class="start-night"' in night
    fields = page(phone.client.get(phone.table_url)).hidden("/night")
    answer = phone.client.post(f"{phone.table_url}/night", data=fields)
    assert answer.status_code == 303
    shown = phone.client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "A new night starts with the next game." in shown
    assert 'class="start-night"' not in section(shown, "night")
    again = phone.client.post(f"{phone.table_url}/night", data=fields)  # a second tap
    assert "already started" in phone.client.get(again.headers["Location"]).get_data(as_text=True)
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    night = section(phone.client.get(phone.table_url).get_data(as_text=True), "night")
    assert "Tonight" in night and "1 game" in night
    stats = json.loads(phone.client.get(f"{phone.table_url}/stats.json").get_data(as_text=True))
    assert [night["games"] for night in stats["nights"]] == [2, 1]
    # the first game's page shows its own night: the two games before the new night
    first = phone.game_tokens()[0]
    fragment = phone.client.get(f"/g/{first}/night", headers={"HX-Request": "true"})
    assert fragment.status_code == 200
    assert len(rows(fragment.get_data(as_text=True))) == 5  # Rami Lina Omar Dana Sami


PARTNERSHIP_NIGHT = {
    "en": "each winner gets 2½, each loser ½, and all four 1½",
    "ar": "لكلّ فائز 2½، ولكلّ خاسر ½، وللأربعة 1½",
    "tr": "her kazanan 2½, her kaybeden ½",
    "ru": "каждому победителю 2½, каждому проигравшему ½",
    "hi": "हर जीतने वाले को 2½, हर हारने वाले को ½",
}


@pytest.mark.parametrize("language", sorted(PARTNERSHIP_NIGHT))
def test_the_pages_say_what_a_partnership_game_gives_a_night(
    phone: TablePhone, language: str
) -> None:
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    phone.client.set_cookie("lang", language)
    for url in (phone.table_url, f"{phone.table_url}/stats", f"/g/{phone.game_tokens()[0]}/night"):
        html = unescape(phone.client.get(url).get_data(as_text=True))
        assert PARTNERSHIP_NIGHT[language] in html, url


def _finish(phone: Phone, record: dict[str, Any]) -> None:
    from scorekeeper.rules import load_record, replay
    from scorekeeper.store.games import find_game, set_first, write_deals

    game = load_record(json.dumps(record)).game
    with phone.app.app_context():
        row = find_game(phone.token)
        assert row is not None
        set_first(row, game.first, row.version)
        write_deals(row, replay(game), row.version)


def test_same_four_again_continues_the_night_outside_a_table(phone: Phone) -> None:
    record = record_data("trix-solo-complete.json")
    phone.load(record)
    alone = phone.client.get(f"{phone.url}/night", headers={"HX-Request": "true"})
    assert alone.status_code == 204  # one game is no night yet
    assert "only one of its night" in phone.client.get(f"{phone.url}/night").get_data(as_text=True)
    first = phone.token
    fields = page(phone.game_page()).hidden("/again")
    phone.token = (
        phone.client.post(f"{phone.url}/again", data=fields).headers["Location"].rsplit("/", 1)[-1]
    )
    _finish(phone, record)
    for token in (first, phone.token):  # each game of the night shows it
        fragment = phone.client.get(f"/g/{token}/night", headers={"HX-Request": "true"})
        html = fragment.get_data(as_text=True)
        # Rami won both (260): 3 + 3; Dana 2 + 2; Omar 1 + 1; Lina 0
        assert rows(html) == [
            ["1", "Rami", "6", "2", "2"],
            ["2", "Dana", "4", "0", "2"],
            ["3", "Omar", "2", "0", "2"],
            ["4", "Lina", "0", "0", "2"],
        ]
        assert "Share the night" in html
    page_html = phone.client.get(f"/g/{phone.token}/night").get_data(as_text=True)  # no JS
    assert "Standings of the night" in page_html and "Rami" in page_html
    unfinished = phone.client.get(f"/g/{phone.token}")
    assert unfinished.status_code == 200


HOSTILE = [
    {},
    {"ratings": "yes"},
    {"ratings": "on"},
    {"ratings": "on", "version": ""},
    {"ratings": "on", "version": "-1"},
    {"ratings": "on", "version": "1.0"},
    {"ratings": "on", "version": "١"},
    {"ratings": "on", "version": "9" * 40},
    {"ratings": "on\x00", "version": "1"},
    {"ratings": "ON", "version": "1"},
    {"ratings": ["on", "off"], "version": "1"},
    {"ratings": "on", "version": ["1", "2"]},
    {"ratings": "<script>", "version": "1"},
]


@pytest.mark.parametrize("data", HOSTILE, ids=range(len(HOSTILE)))
def test_the_ratings_switch_refuses_what_no_page_sends(
    phone: TablePhone, data: dict[str, Any]
) -> None:
    phone.create_table("Majlis")
    before = phone.table_row()
    csrf = page(phone.client.get(phone.table_url)).csrf_token
    answer = phone.client.post(f"{phone.table_url}/ratings", data={**data, "csrf_token": csrf})
    assert answer.status_code == 400
    after = phone.table_row()
    assert (after.ratings, after.version) == (before.ratings, before.version)


def test_the_writes_need_their_forms_token(phone: TablePhone) -> None:
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    version = phone.table_row().version
    assert phone.client.post(f"{phone.table_url}/night").status_code == 400
    refused = phone.client.post(
        f"{phone.table_url}/ratings", data={"ratings": "on", "version": str(version)}
    )
    assert refused.status_code == 400
    assert phone.table_row().ratings is False
    stats = json.loads(phone.client.get(f"{phone.table_url}/stats.json").get_data(as_text=True))
    assert [night["games"] for night in stats["nights"]] == [1]
    # a view link offers neither
    viewed = phone.client.get(f"/v/t/{phone.table_row().view_token}").get_data(as_text=True)
    assert 'class="start-night"' not in viewed
    stats_page = phone.client.get(f"/v/t/{phone.table_row().view_token}/stats")
    assert "Turn ratings on" not in stats_page.get_data(as_text=True)


def test_a_second_reader_of_the_kept_statistics_turns_ratings_on_with_their_own_token(
    phone: TablePhone,
) -> None:
    """The statistics' content is kept for every reader: the switch's form token is not in it
    (it would be the first reader's) but in the page around it, so another phone's tap works."""
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    assert page(phone.client.get(f"{phone.table_url}/stats")).hidden("/ratings")["ratings"] == "on"
    other = phone.app.test_client()
    switch = page(other.get(f"{phone.table_url}/stats")).hidden("/ratings")
    assert set(switch) == {"csrf_token", "ratings", "version"}
    answer = other.post(f"{phone.table_url}/ratings", data=switch)
    assert answer.status_code == 303
    assert phone.table_row().ratings is True


def test_every_id_on_the_statistics_page_is_its_own(phone: TablePhone) -> None:
    """The switch's hidden field once took the id of the ratings section ("#ratings")."""
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    _now_game(phone, ["Rami", "Lina", "Omar", "Sami"])
    for _ in range(2):  # ratings off, then on
        html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert "ratings" in ids and len(ids) == len(set(ids)), sorted(ids)
        switch = page(phone.client.get(f"{phone.table_url}/stats")).hidden("/ratings")
        assert phone.client.post(f"{phone.table_url}/ratings", data=switch).status_code == 303


def test_every_scrolling_table_is_reached_and_named(phone: TablePhone) -> None:
    """A table wider than the phone scrolls in its box: the keyboard reaches the box and a
    screen reader names it (the nights', ratings', rivals' and leaders' tables as the others)."""
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    _now_game(phone, ["Rami", "Lina", "Omar", "Sami"])
    switch = page(phone.client.get(f"{phone.table_url}/stats")).hidden("/ratings")
    assert phone.client.post(f"{phone.table_url}/ratings", data=switch).status_code == 303
    for address in (f"{phone.table_url}/stats", phone.table_url):
        html = phone.client.get(address).get_data(as_text=True)
        boxes = re.findall(r'<div class="table-scroll"[^>]*>', html)
        assert len(boxes) >= (4 if address.endswith("/stats") else 1), address
        for box in boxes:
            assert 'tabindex="0"' in box and 'role="group"' in box, box
            assert "aria-label=" in box or "aria-labelledby=" in box, box


def test_a_stale_switch_says_so_and_changes_nothing(phone: TablePhone) -> None:
    phone.create_table("Majlis")
    _now_game(phone, ["Rami", "Lina", "Omar", "Dana"])
    old = page(phone.client.get(f"{phone.table_url}/stats")).hidden("/ratings")
    phone.client.post(f"{phone.table_url}/ratings", data=old)  # on
    off = page(phone.client.get(f"{phone.table_url}/stats")).hidden("/ratings")
    assert off["ratings"] == "off"
    phone.client.post(f"{phone.table_url}/ratings", data=off)  # off again
    answer = phone.client.post(f"{phone.table_url}/ratings", data=old)  # a page left open
    shown = phone.client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "The table changed on another phone" in shown
    assert phone.table_row().ratings is False


def test_same_four_again_after_a_long_pause_is_another_night(phone: Phone) -> None:
    from sqlalchemy import update

    from scorekeeper.store.db import db
    from scorekeeper.store.models import GameRow

    record = record_data("trix-solo-complete.json")
    phone.load(record)
    first = phone.token
    fields = page(phone.game_page()).hidden("/again")
    answer = phone.client.post(f"{phone.url}/again", data=fields)
    phone.token = answer.headers["Location"].rsplit("/", 1)[-1]
    _finish(phone, record)
    with phone.app.app_context():  # the rematch tapped now, played the next day
        later = datetime.now(UTC) + timedelta(hours=7)
        db.session.execute(
            update(GameRow).where(GameRow.token == phone.token).values(created_at=later)
        )
        db.session.commit()
        db.session.remove()
    for token in (first, phone.token):
        alone = phone.client.get(f"/g/{token}/night", headers={"HX-Request": "true"})
        assert alone.status_code == 204


ARABIC_MONTHS = ("يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر")
ARABIC_MONTHS += ("أكتوبر", "نوفمبر", "ديسمبر")


def test_a_nights_day_is_said_in_the_readers_words(table: TablePhone) -> None:
    """Not an ISO date: the day as the table's game cards say it, in the reader's language."""
    expected = exported(table)["nights"][-1]
    html = table.client.get(table.table_url, headers={"Accept-Language": "ar"})
    night = section(html.get_data(as_text=True), "night")
    began = datetime.fromisoformat(expected["first"]).astimezone()
    assert f"{began.day} {ARABIC_MONTHS[began.month - 1]} {began.year}" in night
    assert expected["first"][:10] not in night
