"""The exports as a browser downloads them: the file name in the game's own script (RFC 6266
``filename*``) beside an ASCII one, and an Arabic CSV without invisible direction marks."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import unquote

from flask.testing import FlaskClient

from tests.conftest import Phone

DATA = Path(__file__).parents[1] / "data"
BIDI_MARKS = set("\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _disposition(header: str) -> dict[str, str]:
    kind, *options = (part.strip() for part in header.split(";"))
    assert kind == "attachment"
    return {key: value.strip('"') for key, _, value in (o.partition("=") for o in options)}


def _loaded(phone: Phone, name: str | None, data: str = "trix-partnership-complete.json") -> str:
    record = json.loads((DATA / data).read_text())
    record["name"] = name
    phone.load(record)
    return phone.token


def test_an_arabic_name_is_kept_in_the_file_name(phone: Phone) -> None:
    _loaded(phone, "سهرة الجمعة")
    for kind in ("csv", "json"):
        response = phone.client.get(f"{phone.url}/export.{kind}")
        options = _disposition(response.headers["Content-Disposition"])
        assert options["filename"].isascii() and options["filename"].startswith("trix-")
        encoded = options["filename*"]
        assert encoded.startswith("UTF-8''") and encoded.isascii()
        name = unquote(encoded.removeprefix("UTF-8''"), encoding="utf-8")
        assert name.startswith("سهرة-الجمعة-") and name.endswith(f".{kind}")


def test_two_games_of_one_day_get_two_names(app: object, client: FlaskClient) -> None:
    first, second = Phone(app, client), Phone(app, client)  # type: ignore[arg-type]
    _loaded(first, "سهرة الجمعة")
    _loaded(second, "سهرة السبت")
    names = {
        _disposition(t.client.get(f"{t.url}/export.csv").headers["Content-Disposition"])[
            "filename*"
        ]
        for t in (first, second)
    }
    assert len(names) == 2


def test_an_ascii_name_needs_no_second_name(phone: Phone) -> None:
    _loaded(phone, "Friday at Rami's")
    options = _disposition(
        phone.client.get(f"{phone.url}/export.csv").headers["Content-Disposition"]
    )
    assert options["filename"].startswith("friday-at-ramis-")
    assert options.get("filename*", "UTF-8''Friday-at-Ramis").startswith("UTF-8''Friday")


def test_the_arabic_csv_has_no_invisible_marks(phone: Phone) -> None:
    _loaded(phone, None, "trix-complex-partnership-complete.json")
    response = phone.client.get(f"{phone.url}/export.csv", headers={"Accept-Language": "ar"})
    text = response.get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0][0] != "Deal"  # the Arabic catalogue was used
    assert "♥ " in text  # a take that names its taker
    assert not set(text) & BIDI_MARKS
    # no column another game would fill: every column has a value in some deal
    for column in range(len(rows[0])):
        assert any(row[column] for row in rows[1:-1]), rows[0][column]


def test_the_turkish_king_csv_has_no_kingdom_column(phone: Phone) -> None:
    _loaded(phone, None, "turkish-king-complete.json")
    header = next(
        csv.reader(
            io.StringIO(
                phone.client.get(f"{phone.url}/export.csv")
                .get_data(as_text=True)
                .removeprefix("\ufeff")
            )
        )
    )
    assert "Kingdom" not in header and "Trump suit" in header
