"""Can still win? The game page's outlook under the totals (rules/outlook.py in words): the range
each player or team can still add, who can no longer reach the leader, a decided game; sent again
out of band when a deal is saved in place; gone once the game is over."""

from __future__ import annotations

from typing import Any

from tests.conftest import Page, Phone
from tests.rules.builders import COMPLEX_KINGDOM, PLAYERS, TRIX_KINGDOM, TURKISH_NEGATIVES
from tests.web.test_inline_deal import choose, oob, save_inline

SWEEP = {"contract": "trump", "suit": "S", "tricks": [13, 0, 0, 0]}


def _record(game: str, deals: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    return {"game": game, "mode": "solo", "players": PLAYERS, "first": 0, "deals": deals, **top}


def _outlook(phone: Phone) -> str:
    html = phone.game_page().get_data(as_text=True)
    start = html.index('<section class="outlook"')
    return Page(html[start : html.index("</section>", start)]).text


def test_a_new_game_says_what_each_player_can_still_add(phone: Phone) -> None:
    phone.load(_record("trix", TRIX_KINGDOM[:1]))
    said = _outlook(phone)
    assert "Each player can still add" in said
    assert "Can no longer" not in said and "Decided" not in said


def test_players_out_of_reach_and_a_decided_game_are_said(phone: Phone) -> None:
    # Turkish King: seat 0 took every trick of six trumps, three deals left
    deals = [*(TURKISH_NEGATIVES * 2)[:-1], *[SWEEP] * 6]
    phone.load(_record("turkish-king", deals))
    said = _outlook(phone)
    assert "Each player can still add \u2066−650\u2069 to \u2066+1300\u2069." in said
    assert "Decided: the win goes to \u2068Rami\u2069." in said
    # under "positive", who is sure to finish above zero and who can no longer
    phone.load(_record("turkish-king", deals, house_rules={"winners": "positive"}))
    said = _outlook(phone)
    assert "Sure to finish above zero: \u2068Rami\u2069." in said


def test_out_of_reach_players_are_listed(phone: Phone) -> None:
    # seat 0 swept four trumps: seats 1-3 are 2600 behind with 1300 + 650 still to gain on it
    deals = [*(TURKISH_NEGATIVES * 2)[:-1], *[SWEEP] * 4, *[{**SWEEP, "tricks": [0, 13, 0, 0]}] * 2]
    phone.load(_record("turkish-king", deals))
    said = _outlook(phone)
    assert "Can no longer reach the leader:" in said


def test_a_partnership_speaks_of_teams(phone: Phone) -> None:
    phone.load({**_record("trix-complex", COMPLEX_KINGDOM), "mode": "partnership"})
    assert "Each team can still add" in _outlook(phone)


def test_a_finished_game_has_no_outlook(phone: Phone) -> None:
    phone.load(_record("trix", TRIX_KINGDOM * 4))
    html = phone.game_page().get_data(as_text=True)
    assert '<section class="outlook" id="outlook" aria-label="Can still win?" hidden>' in html


def test_a_deal_saved_in_place_sends_the_outlook_again(phone: Phone) -> None:
    phone.load(_record("trix", TRIX_KINGDOM[:1]))
    before = _outlook(phone)
    response = save_inline(phone, choose(phone, "queens"), TRIX_KINGDOM[1])
    sent = oob(response.get_data(as_text=True), "outlook")
    after = Page(sent[: sent.index("</section>")]).text
    assert "Each player can still add" in after and after != before
