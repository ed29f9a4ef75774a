"""The language switch and the rules pages (scorekeeper.views.pages), through the test client."""

from __future__ import annotations

import dataclasses

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import CONTRACTS, GAMES, Deal, HouseRules, QueenOfDiamonds
from scorekeeper.rules.examples import adds_up_to_zero, deal_total, doubling_scores
from scorekeeper.rules.house_rules import ComplexTricks
from scorekeeper.words.contracts import score_numbers


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/rules/trix", "/rules/trix"),
        ("/g/abc?x=1", "/g/abc?x=1"),
        ("", "/"),
        ("//evil.example/", "/"),
        ("https://evil.example/", "/"),
        ("/\\evil.example", "/"),
        ("javascript:alert(1)", "/"),
    ],
)
def test_the_switch_goes_back_to_this_site_only(
    client: FlaskClient, target: str, expected: str
) -> None:
    response = client.get("/lang/tr", query_string={"next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == expected


def test_the_choice_is_remembered_for_long(client: FlaskClient) -> None:
    response = client.get("/lang/ar", query_string={"next": "/"})
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=ar;") and "Max-Age=63072000" in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    page = client.get("/", headers={"Accept-Language": "tr"})
    assert '<html lang="ar" dir="rtl">' in page.get_data(as_text=True)
    assert "Accept-Language" in page.headers["Vary"] and "Cookie" in page.headers["Vary"]


def test_unknown_languages_and_games_are_not_found(client: FlaskClient) -> None:
    assert client.get("/lang/fr").status_code == 404
    assert client.get("/rules/poker").status_code == 404
    assert client.get("/g/nothing-here/rules").status_code == 404


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("language", ["en", "ar", "tr"])
def test_every_rules_page_in_every_language(client: FlaskClient, game: str, language: str) -> None:
    client.set_cookie("lang", language)
    html = client.get(f"/rules/{game}").get_data(as_text=True)
    assert f'<html lang="{language}"' in html
    assert f'href="/rules/{game}"' not in html  # the other games are linked, not this one
    assert html.count("<tr>") == 1 + len(GAMES[game].contracts)


def test_scores_on_the_rules_page_come_from_the_engine() -> None:
    def each(game: str, rules: HouseRules) -> dict[str, int]:
        return {
            contract: score_numbers(contract, rules)["score"] for contract in GAMES[game].contracts
        }

    trix = each("trix", HouseRules())
    assert trix["king-of-hearts"] == -75 and trix["queens"] == -25
    assert trix["diamonds"] == -10 and trix["ltoosh"] == -15
    places = score_numbers("trix", HouseRules())
    assert [places[place] for place in ("first", "second", "third", "fourth")] == [
        200,
        150,
        100,
        50,
    ]
    swapped = each("trix", HouseRules(swap_diamonds_ltoosh=True))
    assert swapped["diamonds"] == -15 and swapped["ltoosh"] == -10
    assert each("turkish-king", HouseRules()) == {
        "trump": 50,
        "no-king": -320,
        "no-queens": -100,
        "no-boys": -60,
        "no-hearts": -30,
        "no-last-two": -180,
        "no-tricks": -50,
    }
    assert score_numbers("complex", HouseRules()) == {
        "score": -15,
        "trick": -15,
        "diamond": -10,
        "queen": -25,
        "king": -75,
        "both": -35,
    }
    assert doubling_scores(HouseRules()) == {
        "king_taker": -150,
        "king_doubler": 75,
        "queen_taker": -50,
        "queen_doubler": 25,
        "king_self": -75,
        "queen_self": -25,
        "queen_diamond": -60,
        "queen_diamond_doubler": 25,
        "queen_diamond_self": -35,
    }
    full = doubling_scores(HouseRules(doubled_self_take="full"))
    assert full["king_self"] == -150 and full["queen_self"] == -50
    # docs/rules.md, Trix Complex: "whole" doubles all 35 of the Q♦; a doubler taking it nets −35
    # ("net") or loses −70 ("full")
    whole = doubling_scores(HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE))
    assert (
        whole["queen_diamond"],
        whole["queen_diamond_doubler"],
        whole["queen_diamond_self"],
    ) == (-70, 35, -35)
    whole_full = doubling_scores(
        HouseRules(doubled_queen_of_diamonds=QueenOfDiamonds.WHOLE, doubled_self_take="full")
    )
    assert whole_full["queen_diamond_self"] == -70


def test_a_games_rules_show_its_house_rules(phone) -> None:  # type: ignore[no-untyped-def]
    phone.new_game("trix", doubling=False, first=0)
    html = phone.client.get(phone.url + "/rules").get_data(as_text=True)
    assert "Doubling is switched off in this game" in html
    assert "This game&#39;s house rules" in html or "This game's house rules" in html
    game_page = phone.client.get(phone.url).get_data(as_text=True)
    assert phone.url + "/rules" in game_page


def test_what_a_deal_adds_up_to_is_the_engines() -> None:
    rules = HouseRules()
    assert {
        contract: deal_total(contract, rules) for contract in GAMES["turkish-king"].contracts
    } == {
        "trump": 650,
        "no-king": -320,
        "no-queens": -400,
        "no-boys": -480,
        "no-hearts": -390,
        "no-last-two": -360,
        "no-tricks": -650,
    }
    assert deal_total("trix", rules) == 500 and deal_total("complex", rules) == -500
    assert deal_total("complex", HouseRules(complex_tricks=ComplexTricks.PENALTY)) is None


def test_which_games_add_up_to_zero() -> None:
    assert all(adds_up_to_zero(game, HouseRules()) for game in GAMES)
    assert adds_up_to_zero("trix", HouseRules(swap_diamonds_ltoosh=True))
    assert not adds_up_to_zero("trix-complex", HouseRules(complex_tricks=ComplexTricks.PENALTY))


def test_the_zero_sum_follows_the_contracts(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Turkish King adds up to zero because its negatives, each played twice, cost what its
    trumps give: the rules page says so only while the engine's contracts still do."""
    shown = "Over a complete game the scores add up to zero."
    assert shown in client.get("/rules/turkish-king").get_data(as_text=True)
    king = GAMES["turkish-king"]
    # a seventh negative: which six are played twice decides the total
    with monkeypatch.context() as patch:
        patch.setitem(
            GAMES,
            "turkish-king",
            dataclasses.replace(king, contracts=(*king.contracts, "diamonds")),
        )
        assert not adds_up_to_zero("turkish-king", HouseRules())

    # a negative that costs less
    def cheaper(deal: Deal, rules: HouseRules) -> tuple[int, ...]:
        return tuple(-90 * count for count in deal.counts("counts"))

    monkeypatch.setitem(
        CONTRACTS, "no-queens", dataclasses.replace(CONTRACTS["no-queens"], score=cheaper)
    )
    assert not adds_up_to_zero("turkish-king", HouseRules())
    assert shown not in client.get("/rules/turkish-king").get_data(as_text=True)
