"""Text is text: a lone surrogate (JSON's unpaired "\\ud800", which no UTF-8 page, file or
database can hold) is refused wherever text enters — both import pages, `scorekeeper import`
and `scorekeeper check`, the forms, renames and table names — and a game stored with one before
(or one whose deals no longer replay) never takes down the home page, the new-game page, the
backup or `scorekeeper export`."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.cli import main
from scorekeeper.rules.text import clean_text, has_lone_surrogate, name_problem, table_text
from tests.conftest import Phone, page, snapshot

DATA = Path(__file__).resolve().parent.parent / "data"
LONE = "a\ud800b"


def record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / "trix-solo-complete.json").read_text("utf-8"))
    data.update(changes)
    return data


def hostile_records() -> dict[str, dict[str, Any]]:
    """One record per place text can hide in (each written with JSON's ASCII escapes)."""
    plain = record()
    deal = dict(plain["deals"][0])
    deal["x\udc00"] = 1
    return {
        "player": record(players=["Rami", LONE, "Omar", "Dana"]),
        "notes": record(notes="ok " + LONE),
        "name": record(name=LONE),
        "deal key": record(deals=[deal, *plain["deals"][1:]]),
        "game": record(game="trix\ud800"),
    }


HOSTILE = hostile_records()
SAID = {
    "player": "2nd player: a name cannot hold control characters",
    "notes": "Notes holds a character that is not text",
    "name": "Name holds a character that is not text",
    "deal key": "holds a character that is not text",
    "game": "Game holds a character that is not text",
}


def upload(client: FlaskClient, url: str, data: Any) -> Any:
    form = page(client.get(url))
    body = json.dumps(data).encode()  # ensure_ascii: the surrogate travels as "\ud800"
    assert b"\\ud800" in body or b"\\udc00" in body
    return client.post(
        url,
        data={"csrf_token": form.csrf_token, "file": (io.BytesIO(body), "games.json")},
        content_type="multipart/form-data",
    )


@pytest.mark.parametrize("where", sorted(HOSTILE))
def test_the_import_page_refuses_a_lone_surrogate_with_a_sentence(
    app: Flask, client: FlaskClient, where: str
) -> None:
    before = snapshot(app)
    response = upload(client, "/import", HOSTILE[where])
    assert response.status_code == 422
    text = page(response).text
    assert "Nothing was imported." in text and SAID[where] in text, text[-600:]
    assert snapshot(app) == before


@pytest.mark.parametrize("where", ["player", "notes"])
def test_a_tables_import_page_refuses_it_too(app: Flask, client: FlaskClient, where: str) -> None:
    from scorekeeper.store.db import db
    from scorekeeper.store.tables import create_table

    with app.app_context():
        token = create_table("Majlis").token
        db.session.remove()
    response = upload(client, f"/t/{token}/import", [record(), HOSTILE[where]])
    assert response.status_code == 422
    assert SAID[where] in page(response).text
    assert snapshot(app) == []


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.setenv("SECRET_KEY", "cli-test-" + "k" * 40)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return folder


@pytest.mark.parametrize("where", sorted(HOSTILE))
def test_check_and_the_import_command_refuse_it_naming_the_field(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(HOSTILE[where]), encoding="ascii")
    assert main(["check", str(path)]) == 1
    said = capsys.readouterr().err
    field = {
        "player": "players[1]",
        "notes": "notes",
        "name": "name",
        "deal key": "deals[0].x\ufffd",
        "game": "game",
    }[where]
    assert said.startswith(field), said
    assert main(["import", str(path)]) == 1
    assert "nothing imported" in capsys.readouterr().err
    out = tmp_path / "all.json"
    assert main(["export", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == []


def test_the_cleaning_function_refuses_or_drops_a_lone_surrogate() -> None:
    assert clean_text(f" {LONE}\udfff ") == "ab"
    assert name_problem("players[0]", LONE) is not None
    assert name_problem("players[0]", "a\ufffdb") is None  # the replacement character is text
    assert table_text("notes", "x\ud83d\ude00")[1] is not None  # two halves are not a pair
    assert table_text("notes", "x\U0001f600") == ("x\U0001f600", None)
    assert table_text("notes", LONE) == ("ab", table_text("notes", LONE)[1])


def test_every_form_that_takes_text_cleans_or_refuses_it(app: Flask) -> None:
    """A browser cannot send one (its UTF-8 is decoded with replacement), so the forms are
    given one directly: none keeps it."""
    from scorekeeper.web.forms import NotesForm
    from scorekeeper.web.setup_forms import NewGameForm
    from scorekeeper.web.table_forms import PlayerNameForm, TableForm, TableGameForm

    with app.test_request_context(method="POST"):
        app.config["WTF_CSRF_ENABLED"] = False
        new = NewGameForm(
            formdata=MultiDict(
                {
                    "game": "trix",
                    "mode": "solo",
                    "doubled_self_take": "net",
                    "player_0": LONE,
                    "player_1": "Lina",
                    "player_2": "Omar",
                    "player_3": "Dana",
                    "table_name": LONE,
                    "name": LONE,
                }
            )
        )
        assert not new.validate()  # the name refused under its field, the others cleaned
        assert "cannot hold control characters" in " ".join(new.player_0.errors)
        assert not any(new[f"player_{seat}"].errors for seat in (1, 2, 3))
        assert new.table_name.data == "ab" and new.name.data == "ab"
        notes = NotesForm(formdata=MultiDict({"name": LONE, "notes": LONE, "version": "1"}))
        notes.validate()
        assert notes.notes.data == "ab" and notes.name.data == "ab"
        for form, field in (
            (TableForm(formdata=MultiDict({"table_name": LONE})), "table_name"),
            (PlayerNameForm(formdata=MultiDict({"name": LONE, "version": "1"})), "name"),
            (TableGameForm(formdata=MultiDict({"newcomer": LONE})), "newcomer"),
        ):
            form.validate()
            assert form[field].data == "ab", field
        app.config["WTF_CSRF_ENABLED"] = True


def test_a_surrogate_sent_as_utf8_bytes_reaches_no_page(phone: Phone) -> None:
    """What a browser or a script can send: UTF-8 of a surrogate (ED A0 80), read as U+FFFD."""
    form = page(phone.client.get("/new"))
    body = (
        "csrf_token=" + form.hidden("/new")["csrf_token"] + "&game=trix&mode=solo&"
        "doubled_self_take=net&player_0=a%ED%A0%80b&player_1=Lina&player_2=Omar&"
        "player_3=Dana&name=x%ED%A0%80&table_name=T%ED%A0%80"
    )
    response = phone.client.post(
        "/new", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 303
    token = response.headers["Location"].rsplit("/", 1)[-1]
    assert phone.client.get(f"/g/{token}").status_code == 200
    assert phone.client.get("/").status_code == 200
    assert not any(
        has_lone_surrogate(str(value)) for row in snapshot(phone.app) for value in row.values()
    )


# --- games stored before: never the end of a page that lists them -----------------------------


def stored_before(app: Flask) -> dict[str, str]:
    """Games as an older version could store them: one with a lone surrogate in a name, one
    whose deals no longer replay, one sound. Their tokens."""
    from scorekeeper.rules import HouseRules, load_record, replay
    from scorekeeper.store.db import db
    from scorekeeper.store.games import create_game, set_first, write, write_deals

    tokens = {}
    with app.app_context():
        for kind in ("surrogate", "damaged", "sound"):
            game = load_record(json.dumps(record())).game
            row = create_game(game.kind, game.mode, list(game.players), HouseRules(), None)
            set_first(row, game.first, row.version)
            write_deals(row, replay(game), row.version)
            if kind == "surrogate":
                write(row, row.version, players=["Rami", LONE, "Omar", "Dana"])
            elif kind == "damaged":
                write(row, row.version, deals=[{"contract": "ltoosh", "tricks": [9, 9, 9, 9]}])
            tokens[kind] = row.token
        db.session.remove()
    return tokens


def test_home_new_game_and_backup_draw_without_a_game_they_cannot_draw(
    app: Flask, client: FlaskClient
) -> None:
    tokens = stored_before(app)
    with client.session_transaction() as session:
        session["games"] = list(tokens.values())
    home = client.get("/")
    assert home.status_code == 200
    links = page(home).links
    assert f"/g/{tokens['sound']}" in links and f"/g/{tokens['surrogate']}" not in links
    assert client.get("/new").status_code == 200
    backup = client.get("/backup.json")
    assert backup.status_code == 200
    games = json.loads(backup.get_data(as_text=True))
    assert [game["players"][1] for game in games] == ["a\ufffdb", "Lina"]  # the damaged: out


def test_export_writes_the_whole_file_whatever_was_stored_before(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scorekeeper.cli.database import open_database

    stored_before(open_database()[0])
    out = tmp_path / "all.json"
    assert main(["export", str(out)]) == 0
    games = json.loads(out.read_text(encoding="utf-8"))
    assert [game["players"][1] for game in games] == ["a\ufffdb", "Lina"]
    assert "exported 2 games (1 damaged" in capsys.readouterr().err
    assert not (tmp_path / "all.json.part").exists()
