"""A phone at a table that plays together: creates the table, picks seats from its roster by
taps (the buttons of the new-game form, as a browser without JavaScript sends them), rematches."""

from __future__ import annotations

import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import Page, Phone, page

DATA = Path(__file__).resolve().parent.parent / "data"
CHIP = re.compile(
    r'<button type="submit" name="add" value="(p\d+)" class="chip big"><bdi>'
    r"([^<]*)</bdi></button>"
)


def record_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def sent(form: Page, action: str) -> dict[str, str]:
    """What submitting the form sends: hidden fields, checked radios and checkboxes, texts."""
    values: dict[str, str] = {}
    for field in form.form(action)["inputs"]:
        kind, name = field.get("type", "text"), field.get("name")
        if not name or field["tag"] == "button":
            continue
        if kind in ("radio", "checkbox"):
            if "checked" in field:
                values[name] = field.get("value") or "y"
        else:
            values[name] = field.get("value", "")
    return values


class TablePhone(Phone):
    """A `Phone` (one game at a time) at one of the app's tables, with the table's own pages."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        super().__init__(app, client)
        self.table_token = ""

    @property
    def table_url(self) -> str:
        return f"/t/{self.table_token}"

    def create_table(self, name: str = "Thursdays at Karim's") -> TestResponse:
        form = page(self.client.get("/tables/new"))
        response = self.client.post(
            "/tables/new", data={**sent(form, "/tables/new"), "table_name": name}
        )
        assert response.status_code == 303, response.get_data(as_text=True)
        self.table_token = response.headers["Location"].split("/t/", 1)[1].split("/")[0]
        return response

    def table_row(self) -> Any:
        from scorekeeper.store.db import db
        from scorekeeper.store.tables import find_table

        with self.app.app_context():
            table = find_table(self.table_token)
            assert table is not None
            db.session.expunge(table)
            return table

    def new_game_page(self) -> TestResponse:
        response = self.client.get(f"{self.table_url}/new")
        assert response.status_code == 200
        return response

    @staticmethod
    def chips(response: TestResponse) -> dict[str, str]:
        """The roster's names offered on the page (name → button value)."""
        return {
            unescape(name): value for value, name in CHIP.findall(response.get_data(as_text=True))
        }

    def tap(self, response: TestResponse, **button: str) -> TestResponse:
        """Submit the new-game form of the table with one button (and any typed text)."""
        form = page(response)
        action = f"{self.table_url}/new"
        data = {**sent(form, action), **button}
        return self.client.post(action, data=data)

    def cleared(self, response: TestResponse) -> TestResponse:
        """Free the seats the page filled with the last game's four (one tap each)."""
        while sent(page(response), f"{self.table_url}/new").get("seat_0"):
            response = self.tap(response, remove="0")
            assert response.status_code == 200
        return response

    def pick(self, names: list[str], untick: tuple[str, ...] = (), **setup: str) -> TestResponse:
        """Tap the four players in order (a roster chip, or typing a newcomer), then Start
        (with `setup` chosen and the `untick` boxes unticked)."""
        response = self.cleared(self.new_game_page())
        for name in names:
            offered = self.chips(response)
            if name in offered:
                response = self.tap(response, add=offered[name])
            else:
                response = self.tap(response, add="new", newcomer=name)
            assert response.status_code == 200, response.get_data(as_text=True)
        form = page(response)
        action = f"{self.table_url}/new"
        data = {**sent(form, action), **setup, "start": "1"}
        for name in untick:
            data.pop(name, None)
        response = self.client.post(action, data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.token = response.headers["Location"].rsplit("/", 1)[-1]
        return response

    def play(self, record: dict[str, Any]) -> TestResponse:
        """Choose the record's first seat and enter every deal by taps."""
        self.choose_first(record["first"])
        response = self.game_page()
        for deal in record["deals"]:
            response = self.enter(deal)
        return response

    def rematch(self) -> TestResponse:
        fields = page(self.game_page()).hidden("/rematch")
        response = self.client.post(f"{self.url}/rematch", data=fields)
        assert response.status_code == 303, response.get_data(as_text=True)
        self.token = response.headers["Location"].rsplit("/", 1)[-1]
        return response

    def games_json(self) -> list[dict[str, Any]]:
        response = self.client.get(f"{self.table_url}/games.json")
        assert response.status_code == 200
        data: list[dict[str, Any]] = json.loads(response.get_data(as_text=True))
        return data

    def import_records(self, records: list[dict[str, Any]]) -> TestResponse:
        """Upload records on the table's import page."""
        form = page(self.client.get(f"{self.table_url}/import"))
        data = {
            "csrf_token": form.hidden("/import")["csrf_token"],
            "file": (io.BytesIO(json.dumps(records).encode()), "games.json"),
        }
        return self.client.post(
            f"{self.table_url}/import", data=data, content_type="multipart/form-data"
        )

    def game_tokens(self) -> list[str]:
        """The scorekeeper links of the table's games, oldest first."""
        from scorekeeper.store.db import db
        from scorekeeper.store.tables import find_table, table_games

        with self.app.app_context():
            table = find_table(self.table_token)
            assert table is not None
            tokens = [row.token for row in table_games(table)]
            db.session.remove()
            return tokens
