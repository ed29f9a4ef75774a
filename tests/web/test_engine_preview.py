"""The engine in the phone paints what the server's preview paints: for the same taps on the same
game, the worker's answer (scorekeeper.phone.worker, run here in CPython) is the very HTML of
the server's preview fragment (the same templates, rendered by the same Jinja with the same
template words: the deal's scores, how many values are left, each field's running sum and
messages, every reason Save is refused and whether it is enabled, the doubles noted, the chips
the app filled in and its marks), with the address a reload keeps, and the deal a save stores.

The games and taps are the parity test's (scorekeeper.phone.cases): every contract of
the registry, its sample deal and a deal it accepts, refusals, doubles and a correction, under
several house rules. tests/browser/test_engine.py checks that the worker under Pyodide answers
the same as here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import pytest

from scorekeeper.phone import cases
from scorekeeper.phone.worker import SERVER, Engine
from scorekeeper.rules import Game, dump_deal, dump_record, evaluate, replay
from scorekeeper.rules.record import Record
from scorekeeper.store.games import find_game
from scorekeeper.web.forms import make_deal_form
from scorekeeper.web.views.common import game_view
from tests.conftest import Phone

SAVE = re.compile(r'<button [^>]*id="deal-save"[^>]*>')


class BothSides:
    """Asks the server's preview and the phone's engine the same, and says where they differ."""

    def __init__(self, phone: Phone, engine: Engine, language: str) -> None:
        self.phone, self.engine, self.language = phone, engine, language
        self.csrf = phone.csrf()
        self.compared = 0

    def ask(self, message: Mapping[str, Any]) -> dict[str, Any]:
        assert message["op"] == "preview"
        said = self.engine.preview(str(message["key"]), message["fields"])
        sent = dict(message["fields"])
        response = self.phone.client.post(
            f"/g/{message['key']}/deal/preview",
            data=sent,
            headers={
                "HX-Request": "true",
                "X-CSRFToken": self.csrf,
                "Accept-Language": self.language,
            },
        )
        if said == SERVER:
            return said
        assert response.status_code == 200, (response.status_code, sent)
        html = response.get_data(as_text=True)
        assert said["html"] == html, json.dumps({"sent": sent, "phone": said["html"]})
        save = SAVE.search(html)
        assert save is not None and ("disabled" not in save.group(0)) == said["ok"], sent
        address = response.headers.get("HX-Replace-Url")
        assert said["address"] == (None if address is None else urlsplit(address).query), sent
        assert said["deal"] == self.stored(sent, said["ok"]), sent
        self.compared += 1
        return dict(said)

    def stored(self, sent: Mapping[str, str], ok: bool) -> dict[str, Any] | None:
        """What the server's save stores for these fields (its form, then the engine's parse),
        nothing written; None where Save is off."""
        if not ok:
            return None
        app = self.phone.app
        with app.test_request_context(method="POST", data=dict(sent)):
            view = game_view(find_game(self.phone.token))  # type: ignore[arg-type]
            form = make_deal_form(sent["contract"], meta={"csrf": False})
            form.fill_in(view.game.house_rules)
            entry = form.entry()
            index = entry.number - 1 if entry.correction else None
            evaluation = evaluate(view.result, entry.raw, index, replay_after=False)
        assert evaluation.ok and evaluation.deal is not None
        return dump_deal(evaluation.deal)


def _stored(phone: Phone, game: Game) -> tuple[str, int]:
    record = dump_record(Record(game))
    phone.load({k: v for k, v in record.items() if k != "format"})
    return phone.token, phone.row().version


@pytest.mark.parametrize("language", ["en", "ar", "tr", "ru", "hi"])
def test_the_phone_says_what_the_server_paints(phone: Phone, language: str) -> None:
    compared = 0
    for held in cases.games().values():
        token, version = _stored(phone, held)
        engine = Engine(language)
        engine.hold(token, dump_record(Record(held)), version)
        sides = BothSides(phone, engine, language)
        rules = held.house_rules
        for contract in held.definition.contracts:
            for raw in (
                cases.accepted_deal(contract, rules),
                cases.sample_deal(contract),
            ):
                cases.enter(sides, token, held, raw, version=version)
        step = replay(held).next
        if step is not None:
            doubled = cases.doubled_deal(held, step.contracts)
            if doubled is not None:
                cases.enter(sides, token, held, doubled, version=version)
        if held.deals:
            first = dump_deal(held.deals[0])
            cases.enter(sides, token, held, first, corrects=1, version=version)
        compared += sides.compared
    assert compared > 150  # taps judged on both sides, not passed to the server
