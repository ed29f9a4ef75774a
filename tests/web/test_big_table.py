"""A table of any size: its page (and its view link) lists the latest games a page at a time,
each card read from its row (no game replayed on the request), "More games" brings the older
ones (htmx, or a page of its own without JavaScript); a page number from anywhere is a page or
a 400; renaming or merging a player leaves every game's stored figures usable, so the next
statistics page replays nothing. Counted, never timed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import update

from scorekeeper.rules import replay as engine_replay
from scorekeeper.stats import figures as stats_figures
from scorekeeper.store import games as store_games
from scorekeeper.store.db import db
from scorekeeper.store.games import find_game
from scorekeeper.store.models import GameRow
from scorekeeper.web import caches
from scorekeeper.web.views.tables import GAMES_A_PAGE
from tests.conftest import page
from tests.web.table_phone import TablePhone, record_data
from tests.web.test_roster import player_ids, rename
from tests.web.test_table_stats import FILES
from tests.web.test_table_stats_kept import NAMES, assert_page_agrees, counted, phone, with_games

__all__ = ["phone"]

MORE = GAMES_A_PAGE + 3


def _unfinished(number: int) -> dict[str, Any]:
    """A game in play: the first three deals of a finished one."""
    record = record_data(FILES[0])
    record["deals"] = record["deals"][:3]
    record["players"] = [NAMES[(number + seat) % len(NAMES)] for seat in range(4)]
    record["created_at"] = f"2026-03-01T20:{number:02d}:00Z"
    return record


def _big_table(phone: TablePhone) -> list[str]:
    """A table of MORE finished games, then two in play begun minutes apart (tonight's
    night): its games' links, oldest first."""
    with_games(phone, MORE)
    assert phone.import_records([_unfinished(1), _unfinished(2)]).status_code == 303
    return phone.game_tokens()


def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, every way a request could replay a game raises instead."""

    def refused(*_args: Any) -> Any:
        raise AssertionError("a game was replayed")

    for module in (caches, stats_figures, store_games):
        monkeypatch.setattr(module, "replay", refused)
    monkeypatch.setattr(caches, "game_figures", refused)


def _links(html: str) -> list[str]:
    """The game links a page lists, in order."""
    return re.findall(r'href="/(?:g|v)/([A-Za-z0-9_-]+)"', html)


def test_the_page_lists_the_latest_games_and_more_brings_the_rest(phone: TablePhone) -> None:
    tokens = _big_table(phone)
    newest = list(reversed(tokens))
    html = phone.client.get(phone.table_url).get_data(as_text=True)
    shown = _links(html)
    assert set(shown) == set(newest[:GAMES_A_PAGE])  # the latest page: in play, then finished
    assert shown[:2] == newest[:2]
    more = re.search(r'href="([^"]*\?page=2)" hx-get="([^"]*)"', html)
    assert more is not None
    page_link, fragment = (link.replace("&amp;", "&") for link in more.groups())
    assert fragment == f"{phone.table_url}/games?page=2"

    rest = phone.client.get(fragment, headers={"HX-Request": "true"})
    assert rest.status_code == 200
    assert _links(rest.get_data(as_text=True)) == newest[GAMES_A_PAGE:]
    assert "?page=3" not in rest.get_data(as_text=True)  # the last of them

    without_js = phone.client.get(page_link).get_data(as_text=True)  # a page of its own
    assert _links(without_js) == newest[GAMES_A_PAGE:]
    assert "Earlier games" in without_js and "?page=3" not in without_js


def test_the_view_link_pages_the_same_and_changes_nothing(phone: TablePhone) -> None:
    tokens = _big_table(phone)
    with phone.app.app_context():
        views = {}
        for token in tokens:
            row = find_game(token)
            assert row is not None
            views[token] = row.view_token
        view = phone.table_row().view_token
    newest = [views[token] for token in reversed(tokens)]
    html = phone.client.get(f"/v/t/{view}").get_data(as_text=True)
    assert set(_links(html)) == set(newest[:GAMES_A_PAGE])
    assert f'hx-get="/v/t/{view}/games?page=2"' in html
    assert f'href="/v/t/{view}?page=2"' in html
    rest = phone.client.get(f"/v/t/{view}/games?page=2").get_data(as_text=True)
    assert _links(rest) == newest[GAMES_A_PAGE:]
    assert phone.table_url not in rest  # nothing of the scorekeeper's links


def test_the_table_page_replays_no_game(phone: TablePhone, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh process (nothing kept) shows the page, its view, the older games and tonight's
    night (two games in play) with every replay refused."""
    _big_table(phone)
    caches.clear()
    no_replay(monkeypatch)
    view = phone.table_row().view_token
    for url in (
        phone.table_url,
        f"{phone.table_url}?page=2",
        f"{phone.table_url}/games?page=2",
        f"/v/t/{view}",
        f"/v/t/{view}/games?page=2",
    ):
        answer = phone.client.get(url)
        assert answer.status_code == 200, url
    html = phone.client.get(phone.table_url).get_data(as_text=True)
    assert 'id="night"' in html  # tonight's night, from the cards too
    assert "card-totals" in html and "Winner" in html


def test_a_game_stored_before_cards_is_replayed_once(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stored before cards were kept: the first page showing it makes its card (the
    same as a save would have written) and keeps it; the next process replays nothing."""
    tokens = _big_table(phone)
    phone.client.get(phone.table_url)  # (the import's message shown)
    with phone.app.app_context():
        expected = {token: _card(token) for token in tokens}
        db.session.execute(update(GameRow).values(card=None))
        db.session.commit()
    caches.clear()
    first = _lists(phone.client.get(phone.table_url).get_data(as_text=True))
    assert len(first) == 3  # in play, finished, the night
    with phone.app.app_context():
        kept = {token: _card(token) for token in tokens}
    shown = list(reversed(tokens))[:GAMES_A_PAGE]
    assert {token: kept[token] for token in shown} == {token: expected[token] for token in shown}
    caches.clear()
    no_replay(monkeypatch)
    assert _lists(phone.client.get(phone.table_url).get_data(as_text=True)) == first


def _lists(html: str) -> list[str]:
    """The page's lists of games and its night (not its form tokens, made afresh each time)."""
    return re.findall(
        r'<ul class="game-list">.*?</ul>|<section class="night".*?</section>', html, re.S
    )


def _card(token: str) -> Any:
    row = find_game(token)
    assert row is not None
    return row.card


def test_a_cards_totals_and_winners_are_the_engines(phone: TablePhone) -> None:
    tokens = _big_table(phone)
    with phone.app.app_context():
        for token in tokens:
            row = find_game(token)
            assert row is not None
            result = engine_replay(store_games.game_of(row))
            assert row.card == store_games.card_values(result)
    phone.token = tokens[-1]
    phone.enter(record_data(FILES[0])["deals"][3])  # a save rewrites the card
    with phone.app.app_context():
        row = find_game(tokens[-1])
        assert row is not None and row.deal_count == 4
        assert row.card == store_games.card_values(engine_replay(store_games.game_of(row)))


@pytest.mark.parametrize(
    "query",
    ["-1", "0", "abc", "1e3", "99999999999999999999", "2.5", " 2", "%00", "١", "", "+2"],
)
@pytest.mark.parametrize("where", ["page", "fragment", "view"])
def test_a_page_number_from_anywhere_is_a_page_or_a_400(
    phone: TablePhone, query: str, where: str
) -> None:
    phone.create_table()
    view = phone.table_row().view_token
    base = {
        "page": phone.table_url,
        "fragment": f"{phone.table_url}/games",
        "view": f"/v/t/{view}",
    }[where]
    assert phone.client.get(f"{base}?page={query}").status_code == 400


@pytest.mark.parametrize("where", ["page", "fragment"])
def test_a_page_past_the_last_is_empty(phone: TablePhone, where: str) -> None:
    with_games(phone, 3)
    base = phone.table_url if where == "page" else f"{phone.table_url}/games"
    answer = phone.client.get(f"{base}?page=999999")
    assert answer.status_code == 200
    assert _links(answer.get_data(as_text=True)) == []


def test_a_rename_then_the_statistics_replay_nothing(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who sat in every game renamed, then another merged into someone: the next
    statistics page (a fresh worker's) reads every game's stored figures, with the new names."""
    with_games(phone, 12)
    assert phone.client.get(f"{phone.table_url}/stats").status_code == 200
    ids = player_ids(phone)
    assert rename(phone, ids["Rami"], "Rami K.").status_code == 303  # type: ignore[attr-defined]
    caches.forget_statistics()  # (and another worker, that kept nothing)
    with counted(monkeypatch) as after_rename:
        html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
    assert after_rename.replayed == 0
    assert "Rami K." in html and ">Rami<" not in html
    caches.forget_statistics()
    assert_page_agrees(phone)


def test_a_merge_then_the_statistics_replay_nothing(
    phone: TablePhone, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_games(phone, 6)
    typed_otherwise = record_data(FILES[0])
    typed_otherwise["players"] = ["Rami", "Lina", "Omar", "Dina"]  # Dina is Dana
    typed_otherwise["created_at"] = "2026-02-20T20:00:00Z"
    assert phone.import_records([typed_otherwise]).status_code == 303
    assert phone.client.get(f"{phone.table_url}/stats").status_code == 200
    ids = player_ids(phone)
    merge = f"{phone.table_url}/players/{ids['Dina']}/merge"
    confirm = page(phone.client.get(f"{merge}?into={ids['Dana']}"))
    answer = phone.client.post(merge, data=confirm.hidden(f"/players/{ids['Dina']}/merge"))
    assert answer.status_code == 303
    caches.forget_statistics()
    with counted(monkeypatch) as after_merge:
        html = phone.client.get(f"{phone.table_url}/stats").get_data(as_text=True)
    assert after_merge.replayed == 0
    assert "Dina" not in html
    caches.forget_statistics()
    assert_page_agrees(phone)
