"""The two house rules docs/rules.md added (`doubled_queen_of_diamonds`, `winners`) in the web app:
offered on the new-game page, shown on the rules pages, carried in exports, refused on import
when their value is not one of the choices; a "positive" game's standings; each game's own help.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import GAMES
from tests.conftest import Phone, page, snapshot
from tests.rules.builders import COMPLEX, TRIX, TWO_ABOVE_ZERO, raw_record
from tests.translations.catalogues import TRANSLATED
from tests.web.test_export_import import export, imported_token, upload

# seat 0 takes the Q♦ alone in its one trick; seat 3 doubles it (docs/rules.md, Trix Complex)
QUEEN_OF_DIAMONDS_DOUBLED = {
    "contract": "complex",
    "tricks": [1, 4, 4, 4],
    "diamonds": [1, 4, 4, 4],
    "queens": {"S": 1, "H": 2, "D": 0, "C": 3},
    "king_of_hearts": 1,
    "doubled_by": {"D": 3},
}


def text_of(client: FlaskClient, url: str, language: str = "en") -> str:
    """The page's words as read: tags dropped (not spaced), entities decoded."""
    client.set_cookie("lang", language)
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return plain(response.get_data(as_text=True))


def plain(html: str) -> str:
    body = html[html.index("<main") :] if "<main" in html else html
    return " ".join(unescape(re.sub(r"<[^>]+>", "", body)).split())


# --- the new-game page -----------------------------------------------------------------------


def test_the_new_game_page_offers_both_rules_with_their_defaults(client: FlaskClient) -> None:
    form = page(client.get("/new"))
    radios = {(radio["name"], radio["value"]) for radio in form.radios}
    assert {
        ("doubled_queen_of_diamonds", "queen"),
        ("doubled_queen_of_diamonds", "whole"),
        ("winners", "highest"),
        ("winners", "positive"),
    } <= radios
    # without JavaScript the form sends what is checked: the defaults
    checked = form.checked("/new")
    assert checked["doubled_queen_of_diamonds"] == "queen" and checked["winners"] == "highest"
    text = plain(client.get("/new").get_data(as_text=True))
    assert "A doubled Q♦ in Complex" in text and "(−70 / +35)" in text
    assert "Trix Complex only. The Q♦ is a diamond and a queen" in text
    assert "House rule (Turkish King)" in text and "everyone above zero" in text
    assert "Many Turkish tables count everyone who ends above zero as out" in text


@pytest.mark.parametrize("language", TRANSLATED)  # every language of LANGUAGES but English
def test_the_new_game_page_offers_them_in_every_language(
    client: FlaskClient, language: str
) -> None:
    text = text_of(client, "/new", language)
    for english in (
        "A doubled Q♦ in Complex",
        "everyone above zero",
        "Who wins",
        "House rule (Turkish King)",
    ):
        assert english not in text, (language, english)
    # the numbers as written (a right-to-left catalogue isolates each, so its minus leads)
    plain = text.translate(dict.fromkeys((0x2066, 0x2069)))
    assert "−70 / +35" in plain and "−60 / +25" in plain


def test_whole_is_kept_for_trix_complex_and_carried_in_its_export(phone: Phone) -> None:
    phone.new_game("trix-complex", doubled_queen_of_diamonds="whole", winners="positive", first=0)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    # Turkish King's rule does not reach a Trix Complex game
    assert record["house_rules"] == {
        "doubling": True,
        "doubled_self_take": "net",
        "doubled_queen_of_diamonds": "whole",
        "complex_tricks": "every",
    }
    text = text_of(phone.client, phone.url + "/rules")
    assert "doubles the whole card (−70 / +35)" in text
    assert "its taker scores −70 and the doubler +35; a doubler who takes it scores −35" in text


def test_positive_is_kept_for_turkish_king_and_carried_in_its_export(phone: Phone) -> None:
    phone.new_game("turkish-king", doubled_queen_of_diamonds="whole", winners="positive", first=0)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    assert record["house_rules"] == {"winners": "positive"}
    text = text_of(phone.client, phone.url + "/rules")
    assert "Who wins everyone above zero" in text
    assert "Everyone whose total is above zero wins" in text


def test_the_defaults_when_a_page_sent_neither(phone: Phone) -> None:
    phone.new_game("turkish-king", first=0)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    assert record["house_rules"] == {"winners": "highest"}


@pytest.mark.parametrize(
    ("name", "value"), [("winners", "most"), ("winners", ""), ("doubled_queen_of_diamonds", "half")]
)
def test_a_choice_not_offered_is_refused_and_nothing_saved(
    app: Flask, client: FlaskClient, name: str, value: str
) -> None:
    form = page(client.get("/new"))
    data = {
        **form.checked("/new"),
        "game": "turkish-king",
        name: value,
        "player_0": "Rami",
        "player_1": "Lina",
        "player_2": "Omar",
        "player_3": "Dana",
    }
    response = client.post("/new", data=data)
    if value == "":
        # an empty value is a form from before the rule: the default
        assert response.status_code == 303
        return
    assert response.status_code == 422
    assert snapshot(app) == []


# --- the rules pages -------------------------------------------------------------------------


def test_turkish_king_shows_its_house_rule(client: FlaskClient) -> None:
    text = text_of(client, "/rules/turkish-king")
    assert "no house rules" not in text
    assert "Who wins the highest total" in text


def test_trix_complex_shows_its_queen_of_diamonds_rule_and_why(client: FlaskClient) -> None:
    text = text_of(client, "/rules/trix-complex")
    assert "A doubled Q♦ in Complex doubles its queen part (−60 / +25)" in text
    assert "its taker scores −60 and the doubler +25; a doubler who takes it scores −35" in text
    assert (
        "Why: doubling is of the queens and the K♥ (the Complex text names no doubling of "
        "diamonds), so the Q♦'s −10 as a diamond stays single."
    ) in text
    assert "the score list is used, so each kingdom adds up to zero" in text
    assert "A doubled Q♦ in Complex" not in text_of(client, "/rules/trix")


def test_a_whole_game_with_full_self_take_shows_minus_70(phone: Phone) -> None:
    phone.new_game(
        "trix-complex", doubled_queen_of_diamonds="whole", doubled_self_take="full", first=0
    )
    text = text_of(phone.client, phone.url + "/rules")
    assert "a doubler who takes it scores −70" in text


HEART_LEAD = "a heart may not be led until hearts have been discarded"
SEVENS = (
    "Trix: rows start from the jacks and build up to the ace and down to the 2; a card goes "
    "only next to its neighbour in rank. A player who can place a card must; otherwise "
    "pass. Some tables build from the 7s instead, as in Sevens: then the holder of the 7♥ "
    "places first. The scoring is the same."
)
TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_game_shows_its_own_help(client: FlaskClient, game: str) -> None:
    text = text_of(client, f"/rules/{game}")
    turkish = game == "turkish-king"
    assert (HEART_LEAD in text) == turkish
    assert ("then the holder of the 7♥ places first" in text) == (not turkish)


@pytest.mark.parametrize("language", TRANSLATED)  # every language of LANGUAGES but English
def test_the_heart_rule_is_turkish_kings_in_every_language(
    client: FlaskClient, language: str
) -> None:
    from babel.support import Translations

    words = Translations.load(str(TRANSLATIONS), [language])
    heart = words.gettext(
        "No King of Hearts and No Hearts: a heart may not be led until hearts "
        "have been discarded, unless the leader holds only hearts."
    )
    sevens = words.gettext(SEVENS)
    assert heart != sevens and language not in ("en",)
    assert heart in text_of(client, "/rules/turkish-king", language)
    assert sevens not in text_of(client, "/rules/turkish-king", language)
    for game in ("trix", "trix-complex"):
        trix = text_of(client, f"/rules/{game}", language)
        assert heart not in trix and sevens in trix


# --- a "positive" game's standings -----------------------------------------------------------


def positive_game(client: FlaskClient, rule: str = "positive") -> str:
    record = raw_record("turkish-king", TWO_ABOVE_ZERO, house_rules={"winners": rule})
    return imported_token(upload(client, json.dumps(record)))


def standings_of(client: FlaskClient, token: str, language: str = "en") -> str:
    client.set_cookie("lang", language)
    html = client.get(f"/g/{token}").get_data(as_text=True)
    found = re.search(r'<ol class="standings">(.*?)</ol>', html, flags=re.S)
    assert found, "no final standings"
    return plain(found.group(1))


def test_positive_standings_say_who_is_above_and_below_zero(client: FlaskClient) -> None:
    # totals: Rami −250, Lina +330, Omar −360, Dana +280
    text = standings_of(client, positive_game(client))
    assert text == (
        "Lina +330 above zero Winner Dana +280 above zero Winner "
        "Rami −250 below zero Omar −360 below zero"
    )
    assert "Everyone above zero wins." in text_of(client, f"/g/{positive_game(client)}")


def test_highest_standings_say_nothing_of_zero(client: FlaskClient) -> None:
    text = standings_of(client, positive_game(client, "highest"))
    assert text == "Lina +330 Winner Dana +280 Rami −250 Omar −360"


@pytest.mark.parametrize(
    ("language", "above", "below"),
    [
        ("tr", "çıktı", "battı"),
        ("ar", "فوق الصفر", "تحت الصفر"),
        ("ru", "в плюсе", "в минусе"),
        ("hi", "शून्य से ऊपर", "शून्य से नीचे"),
    ],
)
def test_positive_standings_in_every_language(
    client: FlaskClient, language: str, above: str, below: str
) -> None:
    text = standings_of(client, positive_game(client), language)
    assert text.count(above) == 2 and text.count(below) == 2


# --- import ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "message"),
    [
        ("turkish-king", {"winners": "most"}, "house_rules.winners must be highest or positive"),
        (
            "trix-complex",
            {"doubled_queen_of_diamonds": "half"},
            "house_rules.doubled_queen_of_diamonds must be queen or whole",
        ),
        ("trix", {"winners": "positive"}, "house_rules.winners does not apply to this game"),
        (
            "turkish-king",
            {"doubled_queen_of_diamonds": "whole"},
            "house_rules.doubled_queen_of_diamonds does not apply to this game",
        ),
    ],
)
def test_import_refuses_a_bad_rule_and_stores_nothing(
    app: Flask, client: FlaskClient, game: str, rules: dict[str, str], message: str
) -> None:
    deals = [TRIX, COMPLEX] if game == "trix-complex" else []
    response = upload(client, json.dumps(raw_record(game, deals, house_rules=rules)))
    assert response.status_code == 422
    assert message[:1].upper() + message[1:] in page(response).text
    assert snapshot(app) == []


def test_import_keeps_whole_and_scores_it(client: FlaskClient) -> None:
    record = raw_record(
        "trix-complex",
        [TRIX, QUEEN_OF_DIAMONDS_DOUBLED],
        house_rules={"doubled_queen_of_diamonds": "whole"},
    )
    token = imported_token(upload(client, json.dumps(record)))
    exported = json.loads(export(client, token).get_data(as_text=True))
    assert exported["house_rules"]["doubled_queen_of_diamonds"] == "whole"
    scores = exported["deals"][1]["scores"]
    assert (scores[0], scores[3]) == (-15 - 70, -125 + 35)
