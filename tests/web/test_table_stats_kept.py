"""A table's statistics are kept per game version: after a save the page shows the new figures,
and only the saved game is read from the database and replayed again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlalchemy import delete, event

from scorekeeper.rules.record import load_records
from scorekeeper.stats import compute, to_json
from scorekeeper.store.db import db
from scorekeeper.store.models import FiguresRow, GameRow
from scorekeeper.web import caches
from scorekeeper.words.stats_export import stats_csv
from tests.conftest import page
from tests.web.table_phone import TablePhone, record_data
from tests.web.test_table_stats import FILES, expected_rows, standings_shown

QUEENS_EDITED = {"contract": "queens", "takers": {"S": 1, "H": 2, "D": 2, "C": 3}}
"""Deal 1 of trix-solo-complete.json with the Q♠ to Lina instead of Rami."""
NAMES = ("Rami", "Lina", "Omar", "Dana", "Sami", "Maya")


@pytest.fixture
def phone(app: Flask, client: FlaskClient) -> TablePhone:
    caches.forget_statistics()
    return TablePhone(app, client)


def with_games(phone: TablePhone, count: int) -> TablePhone:
    """A table of `count` finished games of the three kinds, six people rotating through the
    seats; the Trix solo game first."""
    phone.create_table("Majlis")
    records = []
    for number in range(count):
        record = record_data(FILES[number % len(FILES)])
        record["players"] = [NAMES[(number + seat) % len(NAMES)] for seat in range(4)]
        record["created_at"] = f"2026-02-{1 + number:02d}T20:00:00Z"
        records.append(record)
    assert phone.import_records(records).status_code == 303
    return phone


def expected(phone: TablePhone) -> dict[str, Any]:
    """The statistics of the table's exported records, computed afresh."""
    exported = phone.client.get(f"{phone.table_url}/games.json").get_data(as_text=True)
    return to_json(compute(load_records(exported)))


def shown_standings(phone: TablePhone, caption: str = "Trix") -> list[list[str]]:
    """A standings table as shown: Trix's by default (all games together have no points: the
    table plays King too)."""
    html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
    return standings_shown(html, caption)


def assert_page_agrees(phone: TablePhone) -> None:
    figures = expected(phone)
    assert shown_standings(phone, "All games") == expected_rows(figures["players"])
    assert shown_standings(phone) == expected_rows(figures["standings"]["trix"])
    exported = phone.client.get(f"{phone.table_url}/games.json").get_data(as_text=True)
    csv = phone.client.get(f"{phone.table_url}/stats.csv").get_data(as_text=True)
    assert csv == stats_csv(compute(load_records(exported)))


def test_the_page_after_an_edit_shows_the_new_figures(phone: TablePhone) -> None:
    with_games(phone, 4)
    before = shown_standings(phone)
    assert_page_agrees(phone)
    phone.token = phone.game_tokens()[0]
    phone.edit(1, QUEENS_EDITED)
    after = shown_standings(phone)
    assert after != before  # Rami no longer pays for the Q♠, Lina does
    assert_page_agrees(phone)


def test_the_page_after_a_new_deal_shows_it(phone: TablePhone) -> None:
    with_games(phone, 4)
    assert expected(phone)["games"] == 4
    assert_page_agrees(phone)
    game = record_data("trix-solo-complete.json")
    phone.pick(["Rami", "Lina", "Omar", "Dana"], game="trix", mode="solo")
    phone.choose_first(game["first"])
    phone.enter(game["deals"][0])
    assert expected(phone)["games"] == 5
    assert_page_agrees(phone)
    deals_before = expected(phone)["players"][0]["contracts"]
    phone.enter(game["deals"][1])
    assert expected(phone)["players"][0]["contracts"] != deals_before
    assert_page_agrees(phone)


@dataclass
class Reads:
    """What one request read from the games table and replayed for the statistics."""

    rows: list[int]
    replayed: int = 0


@contextmanager
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Reads]:
    """Count the game rows loaded from the database and the games whose figures were made."""
    reads = Reads([])
    made = caches.game_figures

    def figures(record: Any) -> Any:
        reads.replayed += 1
        return made(record)

    def loaded(row: GameRow, _context: Any) -> None:
        reads.rows.append(row.id)

    monkeypatch.setattr(caches, "game_figures", figures)
    event.listen(GameRow, "load", loaded)
    try:
        yield reads
    finally:
        event.remove(GameRow, "load", loaded)
        monkeypatch.setattr(caches, "game_figures", made)


def test_after_a_save_only_the_saved_game_is_read_and_replayed(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_games(phone, 12)
    caches.forget_statistics()
    with phone.app.app_context():  # no figures anywhere (the import stored them)
        db.session.execute(delete(FiguresRow))
        db.session.commit()
    with counted(monkeypatch) as cold:
        assert phone.client.get(f"{phone.table_url}/stats").status_code == 200
    assert (len(cold.rows), cold.replayed) == (12, 12)
    with counted(monkeypatch) as unchanged:
        assert phone.client.get(f"{phone.table_url}/stats").status_code == 200
    assert (unchanged.rows, unchanged.replayed) == ([], 0)

    phone.token = phone.game_tokens()[0]
    phone.edit(1, QUEENS_EDITED)
    saved = phone.row().id
    with counted(monkeypatch) as after_save:
        assert phone.client.get(f"{phone.table_url}/stats").status_code == 200
    assert (after_save.rows, after_save.replayed) == ([saved], 1)
    assert_page_agrees(phone)


def test_figures_evicted_from_a_small_cache_are_read_from_the_database(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_games(phone, 6)
    monkeypatch.setattr(caches, "_figures", caches.Kept(2))
    assert_page_agrees(phone)
    phone.token = phone.game_tokens()[0]
    phone.edit(1, QUEENS_EDITED)
    with counted(monkeypatch) as after_save:
        assert_page_agrees(phone)
    assert after_save.replayed == 1  # the saved game; the evicted ones come from the database
    assert len(caches._figures) == 2


@contextmanager
def contents_made(app: Flask) -> Iterator[list[tuple[str, bool]]]:
    """The statistics page's contents rendered meanwhile: (language, viewing) of each."""
    made: list[tuple[str, bool]] = []

    def rendered(sender: Flask, template: Any, context: dict[str, Any], **extra: Any) -> None:
        if template.name == "pages/table_stats.html" and context.get("content_only"):
            made.append((context["lang"], context["viewing"]))

    template_rendered.connect(rendered, app)
    try:
        yield made
    finally:
        template_rendered.disconnect(rendered, app)


def test_the_pages_content_is_made_once_per_versions_and_language(phone: TablePhone) -> None:
    """Later readers get the content as made (the page around it is theirs: their own token);
    another language, the view link or a saved deal make it again, with what changed."""
    with_games(phone, 6)
    url = f"{phone.table_url}/stats"
    with contents_made(phone.app) as made:
        first = phone.client.get(url).get_data(as_text=True)
        again = phone.client.get(url).get_data(as_text=True)
        other = phone.app.test_client().get(url).get_data(as_text=True)  # another browser
    assert made == [("en", False)]
    body = first.split("<h1>", 1)[1]  # (the first carries the import's flash message)
    assert again.split("<h1>", 1)[1] == body == other.split("<h1>", 1)[1]
    assert (
        page(phone.client.get(url)).csrf_token != page(phone.app.test_client().get(url)).csrf_token
    )  # each reader's page carries its own token
    with contents_made(phone.app) as made:
        arabic = phone.client.get(url, headers={"Accept-Language": "ar"}).get_data(as_text=True)
        phone.client.get(url, headers={"Accept-Language": "ar"})
        viewed = phone.client.get(f"/v/t/{phone.table_row().view_token}/stats")
    assert made == [("ar", False), ("en", True)]
    assert 'lang="ar"' in arabic and "الترتيب" in arabic
    assert viewed.status_code == 200
    phone.token = phone.game_tokens()[0]
    phone.edit(1, QUEENS_EDITED)
    with contents_made(phone.app) as made:
        assert_page_agrees(phone)  # the new figures
        phone.client.get(url)
    assert made == [("en", False)]
