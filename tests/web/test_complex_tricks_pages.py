"""House rule `complex_tricks` (issue 22) in the web app: offered on the new-game page with its
one-line explanation, the Complex entry form under "penalty" (its tricks group, its running sum
"n / at most 13", nothing filled in, its refusals), the rules pages, export and import, the
statistics — in every language."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import load_record, replay
from tests.conftest import Phone, page, snapshot
from tests.rules.builders import TRIX, raw_record
from tests.rules.test_complex_tricks import FULL_HOUSE, WORKED
from tests.web.test_export_import import export, imported_token, upload
from tests.web.test_house_rule_pages import plain, text_of

LANGUAGES = ("ar", "tr", "ru", "hi")
TRIX_FIRST = {"contract": "trix", "order": [0, 1, 2, 3]}


def penalty_game(phone: Phone) -> None:
    phone.new_game("trix-complex", complex_tricks="penalty", first=0)
    phone.enter(TRIX_FIRST)


# --- the new-game page -----------------------------------------------------------------------


def test_the_new_game_page_offers_the_rule_with_its_explanation(client: FlaskClient) -> None:
    form = page(client.get("/new"))
    radios = {(radio["name"], radio["value"]) for radio in form.radios}
    assert {("complex_tricks", "every"), ("complex_tricks", "penalty")} <= radios
    assert form.checked("/new")["complex_tricks"] == "every"
    text = plain(client.get("/new").get_data(as_text=True))
    assert "Which tricks cost in Complex every trick only a trick that held a penalty card" in text
    assert (
        "with the second, the table taps only the tricks that held one, and a kingdom no "
        "longer adds up to zero"
    ) in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_new_game_page_offers_it_in_every_language(client: FlaskClient, language: str) -> None:
    text = text_of(client, "/new", language)
    for english in (
        "Which tricks cost in Complex",
        "only a trick that held a penalty card",
        "the table taps only the tricks",
    ):
        assert english not in text, (language, english)


def test_the_rule_is_kept_for_trix_complex_only(phone: Phone) -> None:
    phone.new_game("trix", complex_tricks="penalty", first=0)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    assert "complex_tricks" not in record["house_rules"]
    phone.new_game("trix-complex", complex_tricks="penalty", first=0)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    assert record["house_rules"]["complex_tricks"] == "penalty"


def test_a_choice_not_offered_is_refused_and_nothing_saved(app: Flask, client: FlaskClient) -> None:
    form = page(client.get("/new"))
    data = {
        **form.checked("/new"),
        "game": "trix-complex",
        "complex_tricks": "some",
        "player_0": "Rami",
        "player_1": "Lina",
        "player_2": "Omar",
        "player_3": "Dana",
    }
    assert client.post("/new", data=data).status_code == 422
    assert snapshot(app) == []


# --- the Complex entry form ------------------------------------------------------------------


def test_the_form_names_the_tricks_that_held_a_penalty_card(phone: Phone) -> None:
    penalty_game(phone)
    form = phone.open_deal("complex")
    assert "Tricks that held a penalty card" in form.text
    taps = {"tricks-0": "3", "tricks-1": "2", "tricks-2": "0"}
    preview = phone.preview(form, taps).get_data(as_text=True)
    assert "5 / at most 13" in plain(preview)
    # three counts do not say the fourth: nothing is filled in for the player
    assert 'name="tricks-3" value="8" checked' not in preview


def test_every_game_keeps_its_tricks_and_its_sum(phone: Phone) -> None:
    phone.new_game("trix-complex", first=0)
    phone.enter(TRIX_FIRST)
    form = phone.open_deal("complex")
    assert "Tricks that held a penalty card" not in form.text
    preview = phone.preview(form, {"tricks-0": "3", "tricks-1": "2", "tricks-2": "0"})
    assert "at most" not in plain(preview.get_data(as_text=True))


def test_the_worked_example_entered_by_taps_scores_as_written(phone: Phone) -> None:
    penalty_game(phone)
    phone.enter(WORKED)
    record = json.loads(export(phone.client, phone.token).get_data(as_text=True))
    assert record["deals"][1]["scores"] == [-155, -120, 0, -120]
    assert record["deals"][1]["tricks"] == [3, 2, 0, 1]


def test_refusals_name_the_field_as_the_form_does(phone: Phone) -> None:
    penalty_game(phone)
    form = phone.open_deal("complex")
    from tests.conftest import form_fields

    over = phone.save(form, form_fields({**FULL_HOUSE, "tricks": [5, 4, 4, 1]}))
    assert over.status_code == 422
    assert (
        "Tricks that held a penalty card add up to 14; there are at most 13 tricks."
        in page(over).text
    )
    empty = phone.save(form, form_fields({**WORKED, "tricks": [3, 2, 1, 1]}))
    assert empty.status_code == 422
    assert (
        "Tricks that held a penalty card (Omar): 1 trick held a penalty card, but the player "
        "took 0 penalty cards."
    ) in page(empty).text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_form_speaks_every_language(phone: Phone, language: str) -> None:
    penalty_game(phone)
    phone.client.set_cookie("lang", language)
    form = phone.open_deal("complex")
    assert "Tricks that held a penalty card" not in form.text
    preview = plain(phone.preview(form, {"tricks-0": "3"}).get_data(as_text=True))
    assert "at most" not in preview and "3" in preview


# --- the rules pages -------------------------------------------------------------------------


def test_the_rules_pages_show_the_rule(phone: Phone, client: FlaskClient) -> None:
    default = text_of(client, "/rules/trix-complex")
    assert "Which tricks cost in Complex every trick" in default
    assert "the score list is used, so each kingdom adds up to zero" in default
    penalty_game(phone)
    text = text_of(phone.client, phone.url + "/rules")
    assert "Which tricks cost in Complex only a trick that held a penalty card" in text
    assert "−15 a trick that held a penalty card (a diamond, a queen or the K♥)" in text
    assert "a kingdom no longer adds up to zero" in text
    assert "each kingdom adds up to zero" not in text
    assert (
        "Complex: each player's tricks that held a penalty card are 0 to 13, at most 13 in all"
    ) in text
    assert "each of those tricks held at least one of them" in text


# --- export and import -----------------------------------------------------------------------


def test_a_penalty_record_round_trips_through_export_and_import(client: FlaskClient) -> None:
    record = raw_record("trix-complex", [TRIX, WORKED], house_rules={"complex_tricks": "penalty"})
    token = imported_token(upload(client, json.dumps(record)))
    exported = export(client, token).get_data(as_text=True)
    data = json.loads(exported)
    assert data["house_rules"]["complex_tricks"] == "penalty"
    assert data["deals"][1]["scores"] == [-155, -120, 0, -120]
    again = imported_token(upload(client, exported))
    assert json.loads(export(client, again).get_data(as_text=True))["deals"] == data["deals"]
    assert replay(load_record(exported).game).totals == tuple(data["totals"])


def test_import_refuses_a_bad_value_and_stores_nothing(app: Flask, client: FlaskClient) -> None:
    record = raw_record("trix-complex", [TRIX, WORKED], house_rules={"complex_tricks": "some"})
    response = upload(client, json.dumps(record))
    assert response.status_code == 422
    assert snapshot(app) == []
    # and a penalty count under the default is refused as the wrong sum it is
    every = raw_record("trix-complex", [TRIX, WORKED])
    assert upload(client, json.dumps(every)).status_code == 422
    assert snapshot(app) == []
