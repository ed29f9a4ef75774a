"""Contract names and the short form of a deal's takes (scorekeeper.words)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pytest

from scorekeeper.rules import CONTRACTS, GAMES, SUITS, Deal, parse_deal
from scorekeeper.words.catalogue import Words, read_catalogue
from scorekeeper.words.labels import (
    contract_label,
    contract_native_name,
    game_label,
    suit_label,
    suit_symbol,
    team_label,
)
from scorekeeper.words.takes import short_takes

PLAYERS = ("Rami", "Lina", "Omar", "Dana")


def make_deal(game: str, raw: Mapping[str, object]) -> Deal:
    deal, problems = parse_deal(GAMES[game], raw)
    assert deal is not None, problems
    return deal


def bracket(text: str) -> str:
    """A stand-in translation that shows which strings went through `translate`."""
    return f"[{text}]"


TAKES: list[tuple[str, dict[str, Any], str]] = [
    ("trix", {"contract": "king-of-hearts", "taker": 1}, "K♥ Lina"),
    ("trix", {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2}, "K♥ Lina (×2\u00a0Omar)"),
    (
        "trix",
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}, "doubled_by": {"H": 0}},
        "Q♠ Rami · Q♥ Lina (×2\u00a0Rami) · Q♦ Lina · Q♣ Dana",
    ),
    ("trix", {"contract": "diamonds", "counts": [3, 4, 5, 1]}, "3 · 4 · 5 · 1"),
    ("trix", {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}, "4 · 3 · 3 · 3"),
    ("trix", {"contract": "trix", "order": [2, 0, 3, 1]}, "Omar › Rami › Dana › Lina"),
    (
        "trix-complex",
        {
            "contract": "complex",
            "tricks": [4, 3, 3, 3],
            "diamonds": [3, 4, 5, 1],
            "queens": {"S": 0, "H": 1, "D": 2, "C": 3},
            "king_of_hearts": 3,
            "doubled_by": {"KH": 0, "C": 1},
        },
        "Tricks 4 · 3 · 3 · 3 / ♦ 3 · 4 · 5 · 1 / Q♠ Rami · Q♥ Lina · Q♦ Omar · "
        "Q♣ Dana (×2\u00a0Lina) / K♥ Dana (×2\u00a0Rami)",
    ),
    ("turkish-king", {"contract": "trump", "suit": "S", "tricks": [0, 4, 9, 0]}, "♠ 0 · 4 · 9 · 0"),
    ("turkish-king", {"contract": "no-king", "taker": 3}, "K♥ Dana"),
    ("turkish-king", {"contract": "no-queens", "counts": [1, 2, 0, 1]}, "1 · 2 · 0 · 1"),
    ("turkish-king", {"contract": "no-boys", "counts": [2, 0, 3, 3]}, "2 · 0 · 3 · 3"),
    ("turkish-king", {"contract": "no-hearts", "counts": [0, 9, 1, 3]}, "0 · 9 · 1 · 3"),
    ("turkish-king", {"contract": "no-last-two", "last_two": [1, 1]}, "12: Lina · 13: Lina"),
    ("turkish-king", {"contract": "no-last-two", "last_two": [0, 3]}, "12: Rami · 13: Dana"),
    ("turkish-king", {"contract": "no-tricks", "tricks": [6, 0, 2, 5]}, "6 · 0 · 2 · 5"),
]


@pytest.mark.parametrize(
    ("game", "raw", "expected"),
    TAKES,
    ids=[f"{raw['contract']}-{i}" for i, (_, raw, _) in enumerate(TAKES)],
)
def test_short_takes(game: str, raw: Mapping[str, object], expected: str) -> None:
    assert short_takes(make_deal(game, raw), PLAYERS) == expected


def test_every_contract_has_a_short_form_case() -> None:
    assert {str(raw["contract"]) for _, raw, _ in TAKES} == set(CONTRACTS)


def test_short_takes_words_go_through_translate() -> None:
    king = make_deal("trix", {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2})
    assert short_takes(king, PLAYERS, bracket) == "[{card} {taker} (×2\u00a0{doubler})]".format(
        card="[K♥]", taker="Lina", doubler="Omar"
    )
    complex_deal = make_deal(
        "trix-complex",
        {
            "contract": "complex",
            "tricks": [4, 3, 3, 3],
            "diamonds": [3, 4, 5, 1],
            "queens": {"S": 0, "H": 1, "D": 2, "C": 3},
            "king_of_hearts": 3,
        },
    )
    assert short_takes(complex_deal, PLAYERS, bracket).startswith("[Tricks 4 · 3 · 3 · 3]")
    last_two = make_deal("turkish-king", {"contract": "no-last-two", "last_two": [0, 3]})
    assert short_takes(last_two, PLAYERS, bracket) == "[12: Rami] · [13: Dana]"


@pytest.mark.parametrize("language", ["ar", "en", "tr", "ru", "hi"])
def test_a_doubled_cards_bracket_never_breaks_inside(language: str) -> None:
    """At 360 px the Arabic history broke «(×2 ليلى)» after «(×2» (issue 44, item 7): the
    bracket holds no space a line may break at, even around a name of several words."""
    players = ("سامي", "ليلى", "أبو سامي", "مريم")
    king = make_deal("trix", {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2})
    text = short_takes(king, players, Words(read_catalogue(language), "trix").translate)
    brackets = re.findall(r"\([^()]*\)", text)
    assert brackets and "أبو\u00a0سامي" in brackets[0], text
    breakable = [bracket for bracket in brackets if re.search(r"\s", bracket.replace("\u00a0", ""))]
    assert breakable == []


def test_short_takes_uses_the_names_given() -> None:
    order = make_deal("trix", {"contract": "trix", "order": [0, 1, 2, 3]})
    assert short_takes(order, ("سامي", "ليلى", "يوسف", "مريم")) == "سامي › ليلى › يوسف › مريم"


ENGLISH = {
    "king-of-hearts": "King of Hearts",
    "queens": "Queens",
    "diamonds": "Diamonds",
    "ltoosh": "Ltoosh",
    "trix": "Trix",
    "complex": "Complex",
    "trump": "Trump",
    "no-king": "No King of Hearts",
    "no-queens": "No Queens",
    "no-boys": "No Boys",
    "no-hearts": "No Hearts",
    "no-last-two": "No Last Two",
    "no-tricks": "No Tricks",
}


@pytest.mark.parametrize("contract_id", sorted(CONTRACTS))
def test_contract_label(contract_id: str) -> None:
    assert contract_label(contract_id) == ENGLISH[contract_id]
    assert contract_label(contract_id, bracket) == f"[{ENGLISH[contract_id]}]"
    assert contract_native_name(contract_id)


def test_unknown_contract_label_falls_back_to_its_id() -> None:
    assert contract_label("poker") == "poker"


def test_native_names_follow_the_rules() -> None:
    assert contract_native_name("no-king") == "Rıfkı"
    assert contract_native_name("king-of-hearts") == "شيخ الكبة"


def test_suits_and_games_and_teams() -> None:
    assert [suit_label(suit) for suit in SUITS] == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert suit_label("H", bracket) == "[Hearts]"
    assert "".join(suit_symbol(suit) for suit in SUITS) == "♠♥♦♣"
    assert [game_label(g) for g in GAMES] == ["Trix", "Trix Complex", "Turkish King"]
    assert game_label("trix-complex", bracket) == "[Trix Complex]"
    assert team_label(PLAYERS, 0) == "Rami & Omar"
    assert team_label(PLAYERS, 1) == "Lina & Dana"
    assert team_label(PLAYERS, 1, bracket) == "[Lina & Dana]"
