"""Starting a game: the new-game form, then who was dealt the 7♥ (or declares first)."""

from __future__ import annotations

import pytest

from scorekeeper.rules.games import GameDef
from tests.conftest import Phone, page


@pytest.mark.parametrize(
    ("game", "question"),
    [
        ("trix", "Who was dealt the 7♥?"),
        ("trix-complex", "Who was dealt the 7♥?"),
        ("turkish-king", "Who declares first?"),
    ],
)
def test_first_chooser_is_asked_with_four_buttons(phone: Phone, game: str, question: str) -> None:
    phone.new_game(game, "solo", ("Rami", "Lina", "Omar", "Dana"))
    asked = page(phone.game_page())
    assert question in asked.text
    seats = [
        field.get("value")
        for field in asked.form("/first")["inputs"]
        if field.get("name") == "seat"
    ]
    assert seats == ["0", "1", "2", "3"]
    # no deal can be entered yet
    response = phone.client.get(f"{phone.url}/deal?contract=trix")
    assert response.status_code == 303


@pytest.mark.parametrize(
    ("game", "question", "hint"),
    [
        ("trix", "Who declares first?", "The table picks who declares first."),
        ("turkish-king", "Who was dealt the 7♥?", "That player is king of the first kingdom"),
    ],
)
def test_the_question_is_the_game_definitions(
    phone: Phone, monkeypatch: pytest.MonkeyPatch, game: str, question: str, hint: str
) -> None:
    """The page asks what the game's definition says starts it, not what its id suggests: with
    the definitions turned round, each game is asked the other's question."""
    turned = property(lambda definition: definition.kingdoms == 0)
    monkeypatch.setattr(GameDef, "first_is_dealt_seven_of_hearts", turned)
    phone.new_game(game, "solo", ("Rami", "Lina", "Omar", "Dana"))
    text = page(phone.game_page()).text
    assert question in text and hint in text


def test_choosing_the_first_king_starts_the_first_kingdom(phone: Phone) -> None:
    phone.new_game("trix", "partnership", ("Rami", "Lina", "Omar", "Dana"), first=2)
    text = page(phone.game_page()).text
    assert "Kingdom 1 of 4 · Deal 1 of 20" in text
    assert "Omar is king and chooses" in text
    assert "Rami & Omar" in text and "Lina & Dana" in text


def test_house_rules_are_stored_as_chosen(phone: Phone) -> None:
    phone.new_game(
        "trix", "solo", doubling=False, doubled_self_take="full", swap_diamonds_ltoosh=True
    )
    assert phone.row().house_rules == {
        "doubling": False,
        "doubled_self_take": "full",
        "swap_diamonds_ltoosh": True,
    }


def test_house_rules_that_do_not_apply_are_not_stored(phone: Phone) -> None:
    from scorekeeper.rules import HouseRules

    phone.new_game(
        "turkish-king",
        "solo",
        doubling=False,
        doubled_self_take="full",
        swap_diamonds_ltoosh=True,
        first=0,
    )
    assert phone.record().game.house_rules == HouseRules()
    phone.new_game("trix-complex", "solo", doubling=False, swap_diamonds_ltoosh=True, first=0)
    assert phone.record().game.house_rules == HouseRules(doubling=False)


def test_new_game_form_keeps_what_was_typed_when_refused(phone: Phone) -> None:
    form = page(phone.client.get("/new"))
    response = phone.client.post(
        "/new",
        data={
            "csrf_token": form.hidden("/new")["csrf_token"],
            "game": "turkish-king",
            "mode": "partnership",
            "player_0": "Ayşe",
            "player_1": "Can",
            "player_2": "Ece",
            "player_3": "Efe",
            "doubled_self_take": "net",
        },
    )
    assert response.status_code == 422
    refused = page(response)
    assert "Turkish King is played solo only." in refused.text
    values = {field.get("name"): field.get("value") for field in refused.form("/new")["inputs"]}
    assert values["player_0"] == "Ayşe" and values["player_3"] == "Efe"
