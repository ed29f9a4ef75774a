"""History: edit a past deal (its takes or its contract), undo, delete, name and notes."""

from __future__ import annotations

import json

from flask import Flask
from flask.testing import FlaskCliRunner

from scorekeeper.rules import check_output, replay
from tests.conftest import Phone, form_fields, page, signed, snapshot, totals_shown
from tests.web.scripts import DATA, example

KH = {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2}
DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
QUEENS = {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}}


def three_deals(phone: Phone) -> None:
    phone.new_game("trix", "partnership", first=0)
    for deal in (KH, DIAMONDS, QUEENS):
        phone.enter(deal)


def test_edit_form_is_prefilled_and_offers_the_other_contracts(phone: Phone) -> None:
    three_deals(phone)
    form = phone.open_edit(2)
    assert form.checked("/deal") == {
        **form.hidden("/deal"),
        **{name: value for name, value in form_fields(DIAMONDS).items() if name != "contract"},
    }
    assert form.hidden("/deal")["editing"] == "2"
    assert "Deal 2 · editing" in form.text
    assert form.link_with(contract="ltoosh").endswith("/deal/2/edit?contract=ltoosh")


def test_edit_into_a_contract_not_yet_played_in_the_kingdom(phone: Phone) -> None:
    three_deals(phone)
    ltoosh = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}
    shown = phone.edit(3, ltoosh)
    assert "Deal 3 changed." in page(shown).text
    # queens is open again, ltoosh is now closed
    game = page(phone.game_page())
    game.link_with(contract="queens")
    assert all("contract=ltoosh" not in href for href in game.links)
    result = replay(phone.record().game)
    assert totals_shown(shown) == [signed(total) for total in result.totals]


def test_edit_of_the_last_deal_of_a_finished_game_changes_the_final_totals(phone: Phone) -> None:
    record = example("turkish-king-complete")
    phone.load(record)
    last = {"contract": "trump", "suit": "H", "tricks": [6, 0, 7, 0]}
    shown = phone.edit(20, last)
    result = replay(phone.record().game)
    assert result.finished
    assert totals_shown(shown) == [signed(total) for total in result.totals]
    before = json.loads((DATA / "turkish-king-complete.check.json").read_text())
    assert check_output(result)["totals"] != before["totals"]


def test_undo_back_to_the_start_and_play_again(phone: Phone) -> None:
    three_deals(phone)
    for number in (3, 2, 1):
        shown = phone.undo()
        assert f"Deal {number} was removed." in page(shown).text
    assert "No deals yet." in page(shown).text
    assert totals_shown(shown) == ["0", "0", "0", "0"]
    phone.enter(QUEENS)
    assert phone.row().deal_count == 1


def test_delete_after_confirming(phone: Phone) -> None:
    three_deals(phone)
    confirm = phone.client.get(f"{phone.url}/delete")
    assert confirm.status_code == 200 and phone.row().deal_count == 3
    fields = page(confirm).hidden("/delete")
    response = phone.client.post(f"{phone.url}/delete", data=fields)
    assert response.status_code == 303 and response.headers["Location"].endswith("/")
    assert "The game was deleted." in page(phone.client.get("/")).text
    assert snapshot(phone.app) == []
    assert phone.client.get(phone.url).status_code == 404


def test_name_and_notes(phone: Phone) -> None:
    three_deals(phone)
    fields = page(phone.game_page()).hidden("/notes")
    response = phone.client.post(
        f"{phone.url}/notes", data={**fields, "name": " Friday ", "notes": "at Lina's\nround 2"}
    )
    assert response.status_code == 303
    row = phone.row()
    assert (row.name, row.notes) == ("Friday", "at Lina's\nround 2")
    refused = phone.client.post(
        f"{phone.url}/notes", data={**page(phone.game_page()).hidden("/notes"), "notes": "x" * 2001}
    )
    assert refused.status_code == 422
    assert "2000" in page(refused).text
    assert phone.row().notes == "at Lina's\nround 2"


def test_closed_contract_link_says_why_in_words(phone: Phone) -> None:
    three_deals(phone)
    response = phone.client.get(f"{phone.url}/deal?contract=diamonds")
    assert response.status_code == 303
    shown = page(phone.client.get(response.headers["Location"])).text
    assert "Diamonds cannot be chosen now." in shown


def test_home_lists_games_in_progress_and_finished(phone: Phone) -> None:
    three_deals(phone)
    other = Phone(phone.app, phone.client)
    other.load({**example("trix-partnership-complete"), "name": "Last Friday"})
    other.game_page()  # opening a game's link puts it on this phone's home page
    home = page(phone.client.get("/")).text
    assert home.index("In progress") < home.index("Trix") < home.index("Finished")
    assert home.index("Finished") < home.index("Last Friday")


def test_migration_is_at_head_and_matches_the_models(app: Flask, runner: FlaskCliRunner) -> None:
    """The committed migration built the schema, and the models need no new one."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from scorekeeper.store.db import db

    assert runner.invoke(args=["db", "current"]).exit_code == 0
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        config = app.extensions["migrate"].migrate.get_config()
        head = ScriptDirectory.from_config(config).get_current_head()
        assert context.get_current_heads() == (head,)
        assert compare_metadata(context, db.metadata) == []


def test_closed_contracts_are_shown_with_the_reason(phone: Phone) -> None:
    three_deals(phone)
    html = phone.game_page().get_data(as_text=True)
    closed = html.count('class="button contract closed"')
    assert closed == 3 and html.count("played in this kingdom") == 3


def test_turkish_king_forced_choice_is_said_plainly(phone: Phone) -> None:
    record = example("turkish-king-complete")
    phone.load({**record, "deals": record["deals"][:14]})
    text = page(phone.game_page()).text
    assert "Ayşe has declared three negatives and must choose trump." in text
    assert "Ayşe 0/2 3/3" in text  # trumps x/2, negatives x/3
    assert "No Boys 2/2" in text
