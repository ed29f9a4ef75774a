"""Issue 44 item 11: a game's time is shown where it was played, not in the server's zone: a
game begun at 01:50 +03:00 was listed as 10:50 PM the day before on a server in UTC.

The zone is the offset the phone sent when it began the game (static/js/app.js keeps it in a
cookie), or the offset an imported record's `created_at` was written with."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.conftest import Phone, page
from tests.web.test_export_import import export, imported_token, upload

DATA = Path(__file__).parent.parent / "data"
RIYADH = 180  # minutes east of UTC


@pytest.fixture(autouse=True)
def server_in_utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The server's zone is UTC here (the reporter's), whatever this machine's is."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _listed(client: FlaskClient) -> list[tuple[str, str]]:
    """(datetime attribute, text) of each game's time on the home page's list."""
    html = client.get("/").get_data(as_text=True)
    return re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', html)


def test_an_imported_game_is_listed_at_its_own_offset(client: FlaskClient) -> None:
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    record["created_at"] = "2025-03-01T01:50:00+03:00"
    token = imported_token(upload(client, json.dumps(record)))
    assert _listed(client) == [("2025-03-01T01:50+03:00", "Mar 1, 2025, 1:50\u202fAM")]
    exported = json.loads(export(client, token).get_data(as_text=True))
    assert exported["created_at"] == "2025-03-01T01:50:00+03:00"  # the same place, both ways


def test_a_game_begun_on_a_phone_is_listed_in_the_phones_zone(phone: Phone) -> None:
    phone.client.set_cookie("utc_offset", str(RIYADH))
    phone.new_game()
    assert phone.row().utc_offset == RIYADH
    ((stamp, _),) = _listed(phone.client)
    assert stamp.endswith("+03:00"), stamp


@pytest.mark.parametrize("sent", ["", "abc", "99999", "-1081", "1e3", "+60"])
def test_an_offset_no_zone_has_leaves_the_servers_zone(phone: Phone, sent: str) -> None:
    phone.client.set_cookie("utc_offset", sent)
    phone.new_game()  # begun all the same
    assert phone.row().utc_offset is None


def test_a_rematch_is_played_where_the_phone_asking_is(phone: Phone) -> None:
    phone.client.set_cookie("utc_offset", "-300")
    phone.load(json.loads((DATA / "trix-solo-complete.json").read_text()))
    fields = page(phone.game_page()).hidden("/again")
    again = phone.client.post(f"{phone.url}/again", data=fields)
    assert again.status_code == 303, again.status_code
    phone.token = again.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    assert phone.row().utc_offset == -300
