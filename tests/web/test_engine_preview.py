"""The engine in the phone says what the server's preview paints: for the same taps on the same
game, the worker's answer (scorekeeper.phone.worker, run here in CPython) equals what the
server's preview fragment shows, read back from its HTML: the deal's scores by seat, how many
values are left, each field's running sum and messages, every reason Save is refused and
whether it is enabled, the doubles noted, the chips the app filled in and its marks, and the
address a reload keeps.

The games and taps are the parity test's (scorekeeper.phone.cases): every contract of
the registry, its sample deal and a deal it accepts, refusals, doubles and a correction, under
several house rules. tests/browser/test_engine.py checks that the worker under Pyodide answers
the same as here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from html.parser import HTMLParser
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

VOID = frozenset({"input", "br", "img", "meta", "link", "hr"})


class Node:
    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag, self.attrs, self.children = tag, attrs, []  # type: ignore[var-annotated]

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def find(self, predicate: Any) -> list[Node]:
        found = [self] if predicate(self) else []
        for child in self.children:
            if isinstance(child, Node):
                found += child.find(predicate)
        return found


class Tree(HTMLParser):
    """A fragment as a tree (the app's markup is regular: void elements never closed)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {key: value or "" for key, value in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and self.stack[-1].tag == tag:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def _by_id(tree: Tree, name: str) -> Node | None:
    found = tree.root.find(lambda node: node.attrs.get("id") == name)
    return found[0] if found else None


def _box(node: Node) -> dict[str, Any]:
    sums = node.find(lambda n: n.tag == "p" and "sum" in n.attrs.get("class", "").split())
    return {
        "sum": None
        if not sums
        else {
            "text": sums[0].text(),
            "over": "over" in sums[0].attrs["class"].split(),
            "ltr": sums[0].attrs.get("dir") == "ltr",
        },
        "messages": [
            n.text() for n in node.find(lambda n: n.tag == "p" and n.attrs.get("class") == "error")
        ],
    }


def _card(item: Node) -> str:
    return "".join(c for c in item.children if isinstance(c, str)).strip()


def _name(item: Node) -> str:
    return item.find(lambda n: n.tag == "bdi" and n is not item)[0].text()


def painted(html: str, headers: Mapping[str, str], sent: Mapping[str, str]) -> dict[str, Any]:
    """What the server's preview fragment paints, in the worker's answer's shape."""
    tree = Tree(html)
    top = [c for c in tree.root.children if isinstance(c, Node) and "hx-swap-oob" not in c.attrs]
    body = Node("body", {})
    body.children = top
    scores = [
        {
            "name": {
                "text": (bdi := item.find(lambda n: n.tag == "bdi")[0]).text(),
                "wider": json.loads(bdi.attrs.get("data-forms", "[]")),
            },
            "score": item.find(lambda n: n.tag == "strong")[0].text(),
        }
        for item in body.find(lambda n: n.tag == "li")
    ]
    hints = body.find(lambda n: n.tag == "p" and n.attrs.get("class") == "hint")
    save = _by_id(tree, "deal-save")
    reasons = _by_id(tree, "save-reasons")
    note = _by_id(tree, "doubled-note")
    filled = _by_id(tree, "deal-filled")
    assert save is not None and reasons is not None and filled is not None
    boxes = {
        node.attrs["id"].removeprefix("e-"): _box(node)
        for node in tree.root.find(lambda n: n.attrs.get("id", "").startswith("e-"))
    }
    chips = {}
    for row in tree.root.find(lambda n: n.attrs.get("id", "").startswith("r-")):
        checked = row.find(lambda n: n.tag == "input" and "checked" in n.attrs)
        chips[row.attrs["id"].removeprefix("r-")] = {
            "value": checked[0].attrs["value"] if checked else "",
            "by_app": bool(checked) and "data-filled" in checked[0].attrs,
        }
    doubled = None
    if note is not None:
        items = [c for c in note.children if isinstance(c, Node) and c.tag == "bdi"]
        before = note.children[: note.children.index(items[0])] if items else []
        label = "".join(c for c in before if isinstance(c, str)).strip()
        doubled = {
            "label": label,
            "items": [[_card(item), _name(item)] for item in items],
        }
    address = headers.get("HX-Replace-Url")
    return {
        "local": True,
        "scores": scores or None,
        "left": hints[0].text() if hints else "",
        "reasons": [p.text() for p in reasons.find(lambda n: n.tag == "p")],
        "ok": "disabled" not in save.attrs,
        "boxes": boxes,
        "doubled": doubled,
        "autofilled": filled.attrs.get("value", ""),
        "chips": chips,
        "address": None if address is None else urlsplit(address).query,
    }


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
        server = painted(response.get_data(as_text=True), response.headers, sent)
        said = dict(said)
        assert said.pop("deal") == self.stored(sent, said["ok"]), sent
        if said["doubled"] is not None and not said["doubled"]["items"]:
            said = {**said, "doubled": {**said["doubled"], "label": ""}}
        assert said == server, json.dumps({"sent": sent, "phone": said, "server": server})
        self.compared += 1
        return said

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


@pytest.mark.parametrize("language", ["en", "ar", "ru"])
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
