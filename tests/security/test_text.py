"""Player names and notes: length limits; control characters and bidi overrides refused in
player names, stripped from the game's name and notes; always escaped wherever they are shown."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from flask import Flask

from tests.conftest import Phone, page
from tests.security.helpers import TRIX_KINGDOM

SCRIPT = "<script>alert(1)</script>"
IMAGE = '<img src=x onerror="alert(2)">'
BIDI = "\u202eevil"
QUOTES = """x" onmouseover="alert(3)"""
APOSTROPHES = "y' onfocus='alert(4)"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, _ in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
        src = dict(attrs).get("src") or ""
        ours = src.startswith("/static/") or (  # or the view link's QR code, drawn by the app
            tag == "img" and re.fullmatch(r"/v/[A-Za-z0-9_-]+/qr\.svg", src) is not None
        )
        if tag in ("script", "img") and not ours:
            self.found.append(f"<{tag}>")


def injected_markup(html: str) -> list[str]:
    """Event-handler attributes and scripts or images not from our static files."""
    parser = _Tags()
    parser.feed(html)
    return parser.found


def pages_showing_names(phone: Phone) -> list[str]:
    """Every page on which the game's names or notes appear."""
    view_token = phone.row().view_token
    urls = ["/", phone.url, f"/v/{view_token}", f"{phone.url}/deal?contract=diamonds"]
    html = []
    for url in urls:
        response = phone.client.get(url)
        assert response.status_code == 200, url
        html.append(response.get_data(as_text=True))
    return html


def test_markup_in_names_and_notes_shows_as_text(app: Flask, phone: Phone) -> None:
    phone.new_game(players=(SCRIPT, IMAGE, QUOTES, APOSTROPHES), name=SCRIPT, first=0)
    phone.enter(TRIX_KINGDOM[0])
    phone.enter(TRIX_KINGDOM[1])  # two deals: the running-totals chart (SVG) is drawn
    fields = page(phone.game_page()).hidden("/notes")
    response = phone.client.post(
        f"{phone.url}/notes", data={**fields, "name": IMAGE, "notes": SCRIPT + "\n" + IMAGE}
    )
    assert response.status_code == 303
    for html in pages_showing_names(phone):
        assert "<script>alert" not in html
        assert "<img src=x" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert not injected_markup(html)
    text = page(phone.game_page()).text
    assert SCRIPT in text and IMAGE in text  # shown, as text


@pytest.mark.parametrize(
    "name", [BIDI, "Li\u0000na", "Lina\u001b[31m", "\u2066Omar\u2069", "\u200b", " \u2060\u3164 "]
)
def test_the_new_game_form_refuses_names_a_record_refuses(
    app: Flask, phone: Phone, name: str
) -> None:
    """A player's name with a control character or bidi override, or with nothing visible, is
    refused by the form as by the record (docs/record-format.md), with the field named."""
    from tests.conftest import snapshot

    form = page(phone.client.get("/new"))
    response = phone.client.post(
        "/new",
        data={
            "csrf_token": form.csrf_token,
            "game": "trix",
            "mode": "solo",
            "doubled_self_take": "net",
            "player_0": "Rami",
            "player_1": name,
            "player_2": "Omar",
            "player_3": "Dana",
        },
    )
    assert response.status_code == 422
    text = page(response).text
    assert (
        "2nd player: a name cannot hold control characters" in text
        or "2nd player: every player needs a name" in text
    )
    assert snapshot(app) == []


def test_bidi_overrides_and_control_characters_are_stripped(app: Flask, phone: Phone) -> None:
    phone.new_game(
        players=("Rami", "Lina", "Omar", "Da\u200fna"), name="Friday\u202d night\x00", first=0
    )
    row = phone.row()
    assert row.players == ["Rami", "Lina", "Omar", "Da\u200fna"]  # a mark, not an override
    assert row.name == "Friday night"
    fields = page(phone.game_page()).hidden("/notes")
    phone.client.post(
        f"{phone.url}/notes",
        data={**fields, "name": "", "notes": "line one\n\u202eline \u2067two\x07"},
    )
    assert phone.row().notes == "line one\nline two"
    for html in pages_showing_names(phone):
        for char in "\u202a\u202b\u202c\u202d\u202e\u0000\u001b":  # (the app writes none)
            assert char not in html
        # isolates are the app's own, around names and signed numbers: never a player's
        for isolate in "\u2066\u2067\u2068\u2069":
            assert f"Da{isolate}" not in html and f"line {isolate}" not in html


def test_joined_arabic_text_survives_cleaning(phone: Phone) -> None:
    """Zero-width joiners belong to real names; only controls go."""
    phone.new_game(players=("رامي", "لينا", "عمر", "می\u200cخواهم"))
    assert phone.row().players == ["رامي", "لينا", "عمر", "می\u200cخواهم"]


@pytest.mark.parametrize(
    ("field", "value"), [("player_0", "x" * 41), ("name", "x" * 81)], ids=["player", "name"]
)
def test_new_game_length_limits(app: Flask, phone: Phone, field: str, value: str) -> None:
    form = page(phone.client.get("/new"))
    data = {
        "csrf_token": form.csrf_token,
        "game": "trix",
        "mode": "solo",
        "doubled_self_take": "net",
        "player_0": "A",
        "player_1": "B",
        "player_2": "C",
        "player_3": "D",
        field: value,
    }
    response = phone.client.post("/new", data=data)
    assert response.status_code == 422
    from tests.conftest import snapshot

    assert snapshot(app) == []


@pytest.mark.parametrize(
    ("field", "value"), [("name", "x" * 81), ("notes", "x" * 2001)], ids=["name", "notes"]
)
def test_notes_length_limits(phone: Phone, field: str, value: str) -> None:
    phone.new_game(first=0)
    before = phone.row()
    fields = page(phone.game_page()).hidden("/notes")
    response = phone.client.post(f"{phone.url}/notes", data={**fields, field: value})
    assert response.status_code in (303, 422)  # refused: the form again, or a message
    after = phone.row()
    assert (after.name, after.notes, after.version) == (before.name, before.notes, before.version)
