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
from tests.conftest import Phone, page, snapshot

DATA = Path(__file__).parent.parent / "data"
COMPLETE = sorted(DATA.glob("*-complete.json"))
KINDS = {
    (json.loads(path.read_text())["game"], json.loads(path.read_text())["mode"])
    for path in COMPLETE
}


def upload(
    client: FlaskClient, body: str | bytes, *, csrf: bool = True, filename: str = "games.json"
) -> TestResponse:
    """Post a file on the import page as a browser would (multipart, with the form's token)."""
    data: dict[str, Any] = {
        "file": (io.BytesIO(body if isinstance(body, bytes) else body.encode()), filename)
    }
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
    assert {
        ("trix", "solo"),
        ("trix", "partnership"),
        ("trix-complex", "solo"),
        ("trix-complex", "partnership"),
        ("turkish-king", "solo"),
    } == KINDS


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
    rows = list(csv.reader(io.StringIO(text[len(BOM) :])))
    header, deals, totals = rows[0], rows[1:-1], rows[-1]
    assert header[5:9] == list(record.game.players)
    assert len(deals) == len(result.deals) == record.game.definition.deals_total
    assert [int(cell) for cell in totals[5:9]] == list(result.totals)
    assert [int(cell) for cell in deals[-1][9:13]] == list(result.totals)  # running totals
    if result.team_totals is not None:
        assert [int(cell) for cell in totals[13:15]] == list(result.team_totals)
    else:
        assert len(totals) == 13


def test_a_game_played_on_the_phone_round_trips(phone: Phone) -> None:
    phone.new_game("trix", "partnership", name="Thursday", first=2)
    phone.enter({"contract": "king-of-hearts", "taker": 1, "doubled_by": 2})
    phone.enter({"contract": "diamonds", "counts": [3, 4, 5, 1]})
    first = export(phone.client, phone.token).get_data(as_text=True)
    record = load_record(first)
    assert record.name == "Thursday" and record.created_at and record.updated_at
    assert len(record.game.deals) == 2
    copy = imported_token(upload(phone.client, first))
    assert export(phone.client, copy).get_data(as_text=True) == first
    # the copy is a game of its own: its scorekeeper's page works and lists both deals
    shown = phone.client.get(f"/g/{copy}")
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


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"not json", "not a Scorekeeper game record"),
        (b"[]", "not a Scorekeeper game record"),
        (b'{"format": "scorekeeper-game/1", "game": "chess"}', "Mode is missing"),
        (b'[{"format": "scorekeeper-game/2"}]', "Record 1 of 1"),
    ],
)
def test_refused_files(app: Flask, client: FlaskClient, body: bytes, expected: str) -> None:
    response = upload(client, body)
    assert response.status_code == 422
    assert expected in page(response).text
    assert snapshot(app) == []


def test_a_derived_value_that_does_not_match_is_refused(app: Flask, client: FlaskClient) -> None:
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
    response = client.post(
        "/import",
        data={"csrf_token": form.hidden("/import")["csrf_token"]},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422


def test_backup_holds_every_game_this_browser_sees(app: Flask, client: FlaskClient) -> None:
    records = [json.loads(path.read_text()) for path in COMPLETE]
    assert upload(client, json.dumps(records)).status_code == 303
    home = client.get("/").get_data(as_text=True)
    assert "/backup.json" in home and "/import" in home

    response = client.get("/backup.json")
    assert response.status_code == 200
    assert response.is_streamed  # a record at a time, the games read as it is sent
    assert response.headers["Content-Disposition"].startswith(
        "attachment; filename=scorekeeper-backup-"
    )
    backup = json.loads(response.get_data(as_text=True))
    assert sorted(entry["game"] + entry["mode"] for entry in backup) == sorted(
        entry["game"] + entry["mode"] for entry in records
    )
    for entry in backup:
        load_record(json.dumps(entry))

    # another phone sees none of them, and restores the backup whole
    other = app.test_client()
    assert json.loads(other.get("/backup.json").get_data(as_text=True)) == []
    assert upload(other, response.get_data()).status_code == 303
    restored = json.loads(other.get("/backup.json").get_data(as_text=True))
    key = lambda entry: entry["created_at"] + entry["game"] + entry["mode"]  # noqa: E731
    assert sorted(restored, key=key) == sorted(backup, key=key)
    assert len(snapshot(app)) == 2 * len(records)


def test_an_export_names_no_link(app: Flask, client: FlaskClient) -> None:
    token = imported_token(upload(client, (DATA / "trix-solo-complete.json").read_bytes()))
    row = snapshot(app)[0]
    for kind in ("json", "csv"):
        body = export(client, token, kind).get_data(as_text=True)
        assert row["token"] not in body and row["view_token"] not in body


def test_an_unstarted_game_has_no_export_yet(phone: Phone) -> None:
    phone.new_game("turkish-king")
    assert phone.client.get(f"{phone.url}/export.json").status_code == 404
    assert json.loads(phone.client.get("/backup.json").get_data(as_text=True)) == []


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


# --- what one import may hold, and how often --------------------------------------------------


def minimal_record(number: int) -> dict[str, Any]:
    """The smallest record a file can hold many of: a game not played yet."""
    return {
        "format": "scorekeeper-game/1",
        "game": "trix",
        "mode": "solo",
        "players": ["Rami", "Lina", "Omar", f"Dana {number}"],
        "first": 0,
        "deals": [],
    }


def from_address(app: Flask, address: str) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_an_import_over_the_record_cap_is_refused_whole(app: Flask, client: FlaskClient) -> None:
    from scorekeeper.web.views.imports import IMPORT_MAX_RECORDS

    body = json.dumps([minimal_record(n) for n in range(IMPORT_MAX_RECORDS + 1)])
    response = upload(client, body)
    assert response.status_code == 413
    assert (
        f"Nothing was imported. The file holds {IMPORT_MAX_RECORDS + 1} games; one import "
        f"takes at most {IMPORT_MAX_RECORDS}."
    ) in page(response).text
    assert snapshot(app) == []
    assert (
        upload(
            client, json.dumps([minimal_record(n) for n in range(IMPORT_MAX_RECORDS)])
        ).status_code
        == 303
    )
    assert len(snapshot(app)) == IMPORT_MAX_RECORDS


def test_an_import_over_the_deal_cap_is_refused_whole(app: Flask, client: FlaskClient) -> None:
    from scorekeeper.web.views.imports import IMPORT_MAX_DEALS

    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record["deals"] = record["deals"] * (IMPORT_MAX_DEALS // 20 // 2 + 1)
    response = upload(client, json.dumps([record, record]))
    assert response.status_code == 413
    assert (
        f"The file holds {2 * len(record['deals'])} deals; one import takes at most "
        f"{IMPORT_MAX_DEALS}."
    ) in page(response).text
    assert snapshot(app) == []


def test_an_import_over_the_byte_cap_is_refused_with_a_message(
    app: Flask, client: FlaskClient
) -> None:
    from scorekeeper.web.views.imports import IMPORT_MAX_BYTES

    record = json.loads((DATA / "turkish-king-complete.json").read_text())
    for body in (
        json.dumps([record]).ljust(IMPORT_MAX_BYTES + 1),  # the file alone is over
        json.dumps([record]).ljust(3 * IMPORT_MAX_BYTES),
    ):  # the request is, too
        response = upload(client, body)
        assert response.status_code == 413
        assert "Nothing was imported. The file is larger than 2 MB" in page(response).text
        assert snapshot(app) == []
    client.set_cookie("lang", "ar")
    response = upload(client, json.dumps([record]).ljust(3 * IMPORT_MAX_BYTES))
    assert response.status_code == 413
    assert "Nothing was imported" not in page(response).text


def test_the_largest_import_accepted_in_one_request(app: Flask, client: FlaskClient) -> None:
    """A backup of 500 complete games (the largest kind, as the app writes backups) goes in."""
    from scorekeeper.rules.record import dump_record
    from scorekeeper.web.views.imports import IMPORT_MAX_BYTES, IMPORT_MAX_RECORDS

    records = [load_record(path.read_bytes()) for path in COMPLETE]
    largest = max(
        (dump_record(record, derived=True) for record in records),
        key=lambda entry: len(json.dumps(entry, separators=(",", ":"))),
    )
    body = json.dumps([largest] * IMPORT_MAX_RECORDS, ensure_ascii=False, separators=(",", ":"))
    assert len(body.encode()) < IMPORT_MAX_BYTES
    assert upload(client, body).status_code == 303
    assert len(snapshot(app)) == IMPORT_MAX_RECORDS


def test_imports_per_address_per_hour(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted in the database: a few imports an hour from one address, then a message; another
    address is not held up, and the hour slides."""
    from scorekeeper.store import limits

    clock = [1_800_000_000.0]
    monkeypatch.setattr(limits, "now", lambda: clock[0])
    phone = from_address(app, "198.51.100.30")
    for number in range(limits.IMPORT_REQUESTS.per_address - 1):
        assert upload(phone, json.dumps(minimal_record(number))).status_code == 303
    assert upload(phone, b"not json").status_code == 422  # a refused import counts too
    stored = len(snapshot(app))
    response = upload(phone, json.dumps(minimal_record(99)))
    assert response.status_code == 429
    assert "This network has imported too often in the last hour" in page(response).text
    assert len(snapshot(app)) == stored
    assert (
        upload(from_address(app, "198.51.100.31"), json.dumps(minimal_record(99))).status_code
        == 303
    )
    clock[0] += limits.IMPORT_REQUESTS.window + 1
    assert upload(phone, json.dumps(minimal_record(99))).status_code == 303


def test_games_imported_per_address_per_hour(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.store import limits
    from scorekeeper.web.views.imports import IMPORT_MAX_RECORDS

    monkeypatch.setattr(limits, "IMPORTED_GAMES_PER_HOUR", 2 * IMPORT_MAX_RECORDS - 10)
    phone = from_address(app, "198.51.100.40")
    full = json.dumps([minimal_record(n) for n in range(IMPORT_MAX_RECORDS)])
    assert upload(phone, full).status_code == 303
    response = upload(phone, full)
    assert response.status_code == 429
    assert (
        f"With this file, this network would import more than {2 * IMPORT_MAX_RECORDS - 10} "
        "games within an hour"
    ) in page(response).text
    assert len(snapshot(app)) == IMPORT_MAX_RECORDS
    assert upload(phone, json.dumps([minimal_record(n) for n in range(10)])).status_code == 303


# --- imported text is judged as the forms judge it --------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"players": ["Rami", "\u202eLina", "Omar", "Dana"]},
            "2nd player: a name cannot hold control characters or direction overrides",
        ),
        (
            {"players": ["Rami", "Lina", "Om\u0000ar", "Dana"]},
            "3rd player: a name cannot hold control characters or direction overrides",
        ),
        (
            {"players": ["\u001b[31mRami", "Lina", "Omar", "Dana"]},
            "1st player: a name cannot hold control characters or direction overrides",
        ),
        (
            {"players": ["Rami", "Lina", "Omar", "\u200b\u2060 "]},
            "4th player: every player needs a name",
        ),
        ({"notes": "x" * 2001}, "Notes: at most 2000 characters"),
        ({"name": "x" * 81}, "Name: at most 80 characters"),
        (
            {"created_at": "0001-01-01T00:00:00+14:00"},
            "must be a date and time with its UTC offset",
        ),
    ],
)
def test_imported_text_is_refused_as_the_forms_refuse_it(
    app: Flask, client: FlaskClient, change: dict[str, Any], expected: str
) -> None:
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record.update(change)
    response = upload(client, json.dumps(record))
    assert response.status_code == 422
    text = page(response).text
    assert "Nothing was imported" in text and expected in text
    assert snapshot(app) == []


def test_imported_notes_are_cleaned_as_the_forms_clean_them(
    app: Flask, client: FlaskClient
) -> None:
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record.update(name=" Friday\u202e night\u0000 ", notes="one\r\n\u2066two\u001b")
    imported_token(upload(client, json.dumps(record)))
    row = snapshot(app)[0]
    assert (row["name"], row["notes"]) == ("Friday night", "one\ntwo")


@pytest.mark.parametrize("stamp", ["0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59+00:00"])
def test_timestamps_at_the_edges_of_the_years_round_trip(client: FlaskClient, stamp: str) -> None:
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record.update(created_at=stamp, updated_at=stamp)
    token = imported_token(upload(client, json.dumps(record)))
    exported = json.loads(export(client, token).get_data(as_text=True))
    assert (exported["created_at"], exported["updated_at"]) == (stamp, stamp)


@pytest.mark.parametrize(
    ("body", "english"),
    [
        (b"not json", "Expecting value"),  # the parser's own words
        (
            json.dumps(
                {
                    "format": "scorekeeper-game/1",
                    "game": "trix",
                    "mode": "solo",
                    "first": 0,
                    "deals": [],
                }
            ),
            "Players",
        ),  # a record's key
    ],
)
def test_a_refusal_in_arabic_has_no_english_in_it(
    client: FlaskClient, body: str | bytes, english: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ar"
    response = upload(client, body)
    assert response.status_code == 422
    refusal = page(response).text.split("لم يُستورد شيء")[1]
    assert english not in refusal and english.lower() not in refusal


def test_one_person_in_two_unicode_forms_is_refused_in_the_readers_words(
    client: FlaskClient,
) -> None:
    # "Émile" composed and with a combining accent: one person, as the statistics count them
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record["players"] = ["\u00c9mile", "Lina", "Omar", "E\u0301mile"]
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ar"
    response = upload(client, json.dumps(record))
    assert response.status_code == 422
    assert "لا يجوز أن يحمل لاعبان الاسم نفسه" in page(response).text
