"""A game's history is rendered once per process and version and reused: never across
languages, links or changed deals, and the kept history is what the template would write."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.web import caches
from tests.conftest import Phone

DATA = Path(__file__).resolve().parent.parent / "data"


def history(html: str) -> str:
    return html.split('<tbody id="history-rows">', 1)[1].split("</tbody>", 1)[0]


def deals(rows: str) -> list[str]:
    """Per deal, its two table rows (the numbers, then who chose and the takes)."""
    parts = rows.split("</tr>")
    return [parts[i] + "</tr>" + parts[i + 1] for i in range(0, len(parts) - 1, 2)]


def loaded(phone: Phone, deals: int = 8) -> Phone:
    record = json.loads((DATA / "trix-partnership-complete.json").read_text())
    phone.load({**record, "deals": record["deals"][:deals]})
    return phone


def test_a_cached_row_is_what_the_template_writes(phone: Phone) -> None:
    loaded(phone)
    caches.clear()
    cold = phone.game_page().get_data(as_text=True)
    warm = phone.game_page().get_data(as_text=True)
    assert history(cold) == history(warm)
    assert history(cold).count("<tr>") == 8


def test_rows_follow_the_language(phone: Phone) -> None:
    loaded(phone)
    english = history(phone.game_page().get_data(as_text=True))
    phone.client.get("/lang/ar")
    arabic = history(phone.game_page().get_data(as_text=True))
    phone.client.get("/lang/en")
    again = history(phone.game_page().get_data(as_text=True))
    assert ">Edit</a>" in english and ">Edit</a>" not in arabic
    assert "المملكة" in arabic and english == again


def test_view_link_rows_have_no_edit_link_and_links_carry_their_own_token(phone: Phone) -> None:
    first = loaded(phone)
    page = first.game_page().get_data(as_text=True)
    view = re.search(r'href="[^"]*(/v/[^"]+)"', page)
    assert view
    viewer = history(first.client.get(view.group(1)).get_data(as_text=True))
    assert "Edit" not in viewer and "/deal/" not in viewer
    other_token = first.token
    loaded(phone)  # the same deals in another game: its rows link to itself
    second = history(phone.game_page().get_data(as_text=True))
    assert phone.token != other_token
    assert f"/g/{phone.token}/deal/1/edit" in second and other_token not in second


def test_after_an_edit_every_row_is_what_a_fresh_render_shows(phone: Phone) -> None:
    loaded(phone, deals=3)
    before = history(phone.game_page().get_data(as_text=True))
    phone.edit(1, {"contract": "queens", "takers": {"S": 1, "H": 1, "D": 2, "C": 3}})
    warm = history(phone.game_page().get_data(as_text=True))
    caches.clear()
    cold = history(phone.game_page().get_data(as_text=True))
    assert warm == cold != before
    # deal 1 changed and so did every running total after it; deal 2's own score did not
    old_rows, new_rows = deals(before), deals(warm)
    assert old_rows[0] != new_rows[0] and old_rows[2] != new_rows[2]
    score = re.compile(r'<span class="score">([^<]*)</span>')
    assert score.findall(old_rows[1]) == score.findall(new_rows[1])


def test_the_cache_stays_bounded(phone: Phone, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(caches, "_histories", caches.Kept(2))
    for _ in range(3):
        loaded(phone)
        phone.game_page()
    assert len(caches._histories) == 2


def test_replays_are_kept_by_token_and_version(
    app: Any, phone: Phone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game page, previews and saves of one state replay it once; any write is a new
    version, so a new replay (a stale one would show the wrong totals)."""
    from scorekeeper.store.games import find_game
    from scorekeeper.web.views import common

    loaded(phone, deals=3)
    replays: list[int] = []
    real = caches.replay
    monkeypatch.setattr(caches, "replay", lambda game: replays.append(1) or real(game))
    with app.test_request_context():
        row = find_game(phone.token)
        first = common.game_view(row)
        again = common.game_view(row)
        assert again.result is first.result and len(replays) == 1
        row.version += 1  # what any write does
        assert common.game_view(row).result is not first.result and len(replays) == 2
    # another game with the same deals and version has its own replay
    other = loaded(phone, deals=3)
    with app.test_request_context():
        assert common.game_view(find_game(other.token)).game.players == first.game.players
        assert len(replays) == 3
    monkeypatch.setattr(caches, "_replays", caches.Kept(2))
    with app.test_request_context():
        row = find_game(phone.token)
        for _ in range(3):
            row.version += 5  # a state not replayed yet: kept, and the oldest ones dropped
            common.game_view(row)
    assert len(caches._replays) == 2


def test_a_trump_row_names_its_suit_once(phone: Phone) -> None:
    record = json.loads((DATA / "turkish-king-complete.json").read_text())
    trump = next(i for i, deal in enumerate(record["deals"]) if deal["contract"] == "trump")
    phone.load({**record, "deals": record["deals"][: trump + 1]})
    rows = deals(history(phone.game_page().get_data(as_text=True)))
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[record["deals"][trump]["suit"]]
    assert rows[trump].count(symbol) == 1
