"""Export and import through the pages: JSON and CSV downloads, the backup, the import page.

Every complete game of every game × mode (``tests/data``) goes in through the import page, comes
out as JSON and CSV, and the JSON goes back in to an identical record; a bad record, alone or
among good ones, stores nothing.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.rules import load_record, replay
from scorekeeper.words.exports import BOM
from tests.conftest import Table, page, snapshot

DATA = Path(__file__).parent.parent / "data"
COMPLETE = sorted(DATA.glob("*-complete.json"))
KINDS = {(json.loads(path.read_text())["game"], json.loads(path.read_text())["mode"])
         for path in COMPLETE}


def upload(client: FlaskClient, body: str | bytes, *, csrf: bool = True,
           filename: str = "games.json") -> TestResponse:
    """Post a file on the import page as a browser would (multipart, with the form's token)."""
    data: dict[str, Any] = {"file": (io.BytesIO(body if isinstance(body, bytes)
                                                else body.encode()), filename)}
    if csrf:
        data["csrf_token"] = page(client.get("/import")).hidden("/import")["csrf_token"]
    return client.post("/import", data=data, content_type="multipart/form-data")


def imported_token(response: TestResponse) -> str:
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert "/g/" in location
    return location.rstrip("/").rsplit("/", 1)[-1]


def export(client: FlaskClient, token: str, kind: str = "json") -> TestResponse:
    response = client.get(f"/g/{token}/export.{kind}")
    assert response.status_code == 200, response.status_code
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    return response


def bad_deal(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its first diamonds-like deal made to add up wrong."""
    broken = json.loads(json.dumps(record))
    for deal in broken["deals"]:
        for key in ("counts", "tricks"):
            if key in deal:
                deal[key] = [deal[key][0] + 1, *deal[key][1:]]
                return broken
    raise AssertionError("no countable deal")


def test_every_game_and_mode_is_covered() -> None:
    assert {("trix", "solo"), ("trix", "partnership"), ("trix-complex", "solo"),
                     ("trix-complex", "partnership"), ("turkish-king", "solo")} == KINDS


@pytest.mark.parametrize("path", COMPLETE, ids=lambda p: p.stem)
def test_round_trip(client: FlaskClient, path: Path) -> None:
    original = load_record(path.read_bytes())
    token = imported_token(upload(client, path.read_bytes()))

    first = export(client, token).get_data(as_text=True)
    exported = load_record(first)  # the engine accepts the export, derived keys and all
    assert exported.game == original.game
    assert (exported.name, exported.notes) == (original.name, original.notes)
    if original.created_at is not None:
        assert exported.created_at is not None
        assert _instant(exported.created_at) == _instant(original.created_at)

    again = imported_token(upload(client, first))
    assert again != token
    second = export(client, again).get_data(as_text=True)
    assert second == first  # export → import → export gives back the same record
    assert load_record(second) == exported


def _instant(stamp: str) -> Any:
    from scorekeeper.store.games import parse_timestamp

    return parse_timestamp(stamp)


@pytest.mark.parametrize("path", COMPLETE, ids=lambda p: p.stem)
def test_csv_parses_and_its_totals_row_is_the_engines(client: FlaskClient, path: Path) -> None:
    record = load_record(path.read_bytes())
    result = replay(record.game)
    token = imported_token(upload(client, path.read_bytes()))

    response = export(client, token, "csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"].startswith("attachment; filename=")
    text = response.get_data().decode("utf-8")
    assert text.startswith(BOM)
    rows = list(csv.reader(io.StringIO(text[len(BOM):])))
    header, deals, totals = rows[0], rows[1:-1], rows[-1]
    assert header[5:9] == list(record.game.players)
    assert len(deals) == len(result.deals) == record.game.definition.deals_total
    assert [int(cell) for cell in totals[5:9]] == list(result.totals)
    assert [int(cell) for cell in deals[-1][9:13]] == list(result.totals)  # running totals
    if result.team_totals is not None:
        assert [int(cell) for cell in totals[13:15]] == list(result.team_totals)
    else:
        assert len(totals) == 13


def test_a_game_played_on_the_phone_round_trips(table: Table) -> None:
    table.new_game("trix", "partnership", name="Thursday", first=2)
    table.enter({"contract": "king-of-hearts", "taker": 1, "doubled_by": 2})
    table.enter({"contract": "diamonds", "counts": [3, 4, 5, 1]})
    first = export(table.client, table.token).get_data(as_text=True)
    record = load_record(first)
    assert record.name == "Thursday" and record.created_at and record.updated_at
    assert len(record.game.deals) == 2
    copy = imported_token(upload(table.client, first))
    assert export(table.client, copy).get_data(as_text=True) == first
    # the copy is a game of its own: its scorekeeper's page works and lists both deals
    shown = table.client.get(f"/g/{copy}")
    assert shown.status_code == 200
    assert "Thursday" in shown.get_data(as_text=True)


def test_a_record_with_one_bad_deal_stores_nothing(app: Flask, client: FlaskClient) -> None:
    record = json.loads((DATA / "trix-partnership-complete.json").read_text())
    before = snapshot(app)
    response = upload(client, json.dumps(bad_deal(record)))
    assert response.status_code == 422
    message = page(response).text
    assert "Nothing was imported" in message
    assert "Deal 3 (Ltoosh)" in message  # which deal
    assert "Tricks" in message and "14" in message and "13" in message  # which rule
    assert snapshot(app) == before


def test_several_records_with_one_bad_store_nothing(app: Flask, client: FlaskClient) -> None:
    good = [json.loads(path.read_text()) for path in COMPLETE]
    bad = bad_deal(good[1])
    before = snapshot(app)
    response = upload(client, json.dumps([good[0], bad, *good[2:]]))
    assert response.status_code == 422
    message = page(response).text
    assert f"Record 2 of {len(good)}" in message
    assert snapshot(app) == before
    # and the same file without the bad record goes in whole
    response = upload(client, json.dumps(good))
    assert response.status_code == 303
    assert len(snapshot(app)) == len(good)


@pytest.mark.parametrize(("body", "expected"), [
    (b"not json", "not a Scorekeeper game record"),
    (b"[]", "not a Scorekeeper game record"),
    (b'{"format": "scorekeeper-game/1", "game": "chess"}', "Mode is missing"),
    (b'[{"format": "scorekeeper-game/2"}]', "Record 1 of 1"),
])
def test_refused_files(app: Flask, client: FlaskClient, body: bytes, expected: str) -> None:
    response = upload(client, body)
    assert response.status_code == 422
    assert expected in page(response).text
    assert snapshot(app) == []


def test_a_derived_value_that_does_not_match_is_refused(app: Flask,
                                                       client: FlaskClient) -> None:
    token = imported_token(upload(client, (DATA / "turkish-king-complete.json").read_bytes()))
    exported = json.loads(export(client, token).get_data(as_text=True))
    exported["deals"][4]["scores"][0] += 10
    before = snapshot(app)
    response = upload(client, json.dumps(exported))
    assert response.status_code == 422
    assert "Deal 5" in page(response).text
    assert snapshot(app) == before


def test_import_needs_the_forms_token(app: Flask, client: FlaskClient) -> None:
    response = upload(client, (DATA / "turkish-king-complete.json").read_bytes(), csrf=False)
    assert response.status_code == 400
    assert snapshot(app) == []


def test_import_page_works_without_a_file(client: FlaskClient) -> None:
    form = page(client.get("/import"))
    assert form.form("/import")["method"] == "post"
    response = client.post("/import", data={"csrf_token": form.hidden("/import")["csrf_token"]},
                           content_type="multipart/form-data")
    assert response.status_code == 422


def test_backup_holds_every_game_this_browser_sees(app: Flask, client: FlaskClient) -> None:
    records = [json.loads(path.read_text()) for path in COMPLETE]
    assert upload(client, json.dumps(records)).status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert "/backup.json" in home and "/import" in home

    response = client.get("/backup.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith(
        "attachment; filename=scorekeeper-backup-")
    backup = json.loads(response.get_data(as_text=True))
    assert sorted(entry["game"] + entry["mode"] for entry in backup) == sorted(
        entry["game"] + entry["mode"] for entry in records)
    for entry in backup:
        load_record(json.dumps(entry))

    # another phone sees none of them, and restores the backup whole
    other = app.test_client()
    assert json.loads(other.get("/backup.json").get_data(as_text=True)) == []
    assert upload(other, response.get_data()).status_code == 303
    restored = json.loads(other.get("/backup.json").get_data(as_text=True))
    key = (lambda entry: entry["created_at"] + entry["game"] + entry["mode"])  # noqa: E731
    assert sorted(restored, key=key) == sorted(backup, key=key)
    assert len(snapshot(app)) == 2 * len(records)


def test_an_export_names_no_link(app: Flask, client: FlaskClient) -> None:
    token = imported_token(upload(client, (DATA / "trix-solo-complete.json").read_bytes()))
    row = snapshot(app)[0]
    for kind in ("json", "csv"):
        body = export(client, token, kind).get_data(as_text=True)
        assert row["token"] not in body and row["view_token"] not in body


def test_an_unstarted_game_has_no_export_yet(table: Table) -> None:
    table.new_game("turkish-king")
    assert table.client.get(f"{table.url}/export.json").status_code == 404
    assert json.loads(table.client.get("/backup.json").get_data(as_text=True)) == []


def test_a_backup_larger_than_a_form_imports(app: Flask, client: FlaskClient) -> None:
    record = json.loads((DATA / "turkish-king-complete.json").read_text())
    body = json.dumps([record] * 120, indent=2)
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]  # the import page allows more
    assert upload(client, body).status_code == 303
    assert len(snapshot(app)) == 120


def test_the_refusal_is_in_the_readers_language(client: FlaskClient) -> None:
    record = json.loads((DATA / "trix-partnership-complete.json").read_text())
    client.set_cookie("lang", "ar")
    response = upload(client, json.dumps([record, bad_deal(record)]))
    assert response.status_code == 422
    text = page(response).text
    assert "Nothing was imported" not in text
    assert "2" in text and "3" in text
