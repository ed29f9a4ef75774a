"""Conversations with the engine in the phone that go through every path it answers: each
contract of the registry entered tap by tap (its sample deal, and a deal it accepts), deals it
refuses (too many counts, a player placed twice, a closed contract, a finished game), doubles,
a correction of a past deal, the game's parts with pending deals (and the panel of what waits
for the player), a deal entered after one pending (what the phone does with no network), a
blank form; in each language.

Two users: the parity test, which sends the same messages to the worker in Chromium and
compares its answers with these (made in-process by the same module), and the runtime's
vendoring script, which runs them under Pyodide to learn which standard-library modules the
engine imports (``scripts/vendor_pyodide.py``). Nothing here is part of the app.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from html import unescape
from typing import Any, Protocol

from ..rules import (
    CONTRACTS,
    GAMES,
    ComplexTricks,
    Game,
    HouseRules,
    Winners,
    dump_deal,
    dump_record,
    evaluate,
    record_from_json,
    replay,
)
from ..rules.deal import FieldKind, FieldSpec
from ..rules.record import Record
from ..words.deal_form import chip_groups, chip_text, chip_values
from ..words.page import called_by
from . import render
from .worker import Engine, answer

PLAYERS = ("Rami", "Lina", "Omar", "Alexandrina Konstantinopolskaya")
"""Four names, one long enough to have shorter forms on a chip."""


def _spread(total: int, maximum: int) -> list[int]:
    """`total` over the four seats as evenly as the counts' `maximum` allows."""
    counts = [total // 4 + (1 if seat < total % 4 else 0) for seat in range(4)]
    return [min(count, maximum) for count in counts]


def _accepted_value(spec: FieldSpec) -> Any:
    match spec.kind:
        case FieldKind.SEAT:
            return 1
        case FieldKind.OPTIONAL_SEAT | FieldKind.OPTIONAL_CARD_SEATS:
            return None
        case FieldKind.COUNTS:
            return _spread(spec.total, spec.maximum)
        case FieldKind.ORDER:
            return [2, 0, 3, 1]
        case FieldKind.SEAT_PAIR:
            return [1, 1]
        case FieldKind.SUIT:
            return "H"
        case FieldKind.CARD_SEATS:
            return {card: index % 4 for index, card in enumerate(spec.cards)}


def accepted_deal(contract: str, rules: HouseRules) -> dict[str, Any]:
    """A deal of `contract` the engine accepts under `rules` (no doubles)."""
    raw: dict[str, Any] = {"contract": contract}
    for spec in CONTRACTS[contract].specs(rules):
        value = _accepted_value(spec)
        if value is not None:
            raw[spec.name] = value
    return raw


def sample_deal(contract: str) -> dict[str, Any]:
    """A contract's own sample deal (the rules page's), as a raw deal: often refused as a
    whole deal (a count of 1 of 13), which is a case too."""
    raw: dict[str, Any] = {"contract": contract}
    for name, value in CONTRACTS[contract].sample.items():
        raw[name] = list(value) if isinstance(value, tuple) else value
    return raw


def _record(game: Game) -> dict[str, Any]:
    return dump_record(Record(game))


def _played(game: Game, deals: int) -> Game:
    """`game` with `deals` accepted deals more, each of the first contract open."""
    current = replay(game)
    for _ in range(deals):
        assert current.next is not None
        contract = current.next.contracts[0]
        record = _record(current.game)
        record["deals"] = [*record["deals"], accepted_deal(contract, game.house_rules)]
        current = replay(record_from_json(record).game)
    return current.game


def games() -> dict[str, Game]:
    """The games the conversations are held in: each game and mode, house rules that change
    the form (a ceiling on Complex's tricks, swapped scores, no doubling), games in progress
    (closed contracts, Turkish King's quotas) and a finished one."""
    rules = HouseRules
    made = {
        "trix": Game("trix", "solo", PLAYERS, 0),
        "trix-partnership": Game(
            "trix", "partnership", PLAYERS, 2, rules(swap_diamonds_ltoosh=True)
        ),
        "trix-no-doubling": Game("trix", "solo", PLAYERS, 1, rules(doubling=False)),
        "trix-complex": Game("trix-complex", "solo", PLAYERS, 3),
        "trix-complex-penalty": Game(
            "trix-complex", "partnership", PLAYERS, 0, rules(complex_tricks=ComplexTricks.PENALTY)
        ),
        "turkish-king": Game("turkish-king", "solo", PLAYERS, 1, rules(winners=Winners.POSITIVE)),
    }
    made["trix-started"] = _played(made["trix"], 3)
    made["turkish-started"] = _played(made["turkish-king"], 9)
    made["trix-finished"] = _played(made["trix-no-doubling"], GAMES["trix"].deals_total)
    return made


class Conversation:
    """Messages and the engine's answers, in order, as the in-process engine gives them."""

    def __init__(self, language: str) -> None:
        self.said: list[tuple[str, str]] = []
        self.engine: Engine | None = None
        self.ask({"op": "start", "language": language})

    def ask(self, message: Mapping[str, Any]) -> dict[str, Any]:
        text = json.dumps(message, ensure_ascii=False)
        self.engine, said = answer(self.engine, text)
        self.said.append((text, said))
        reply: dict[str, Any] = json.loads(said)
        return reply


FORM_KEY = "3f6c2a1e-8b4d-4c7e-9a2f-5d1b7e0c4a68"
"""The entry key a form carries (every form the app renders has one: ``store.entries``)."""


def _form_fields(contract: str) -> dict[str, str]:
    """What a fresh form sends before a tap: the "nobody" chips checked."""
    return {
        name: ""
        for group in chip_groups(contract)
        if group.spec.kind in (FieldKind.OPTIONAL_SEAT, FieldKind.OPTIONAL_CARD_SEATS)
        for name in group.names
    }


class Asker(Protocol):
    """Whoever is asked: the in-process engine (:class:`Conversation`), or a test's pair of
    the engine and the server."""

    def ask(self, message: Mapping[str, Any]) -> dict[str, Any]: ...


def enter(
    talk: Asker,
    key: str,
    held: Game,
    raw: Mapping[str, Any],
    *,
    corrects: int | None = None,
    version: int = 1,
    pending: list[dict[str, Any]] | None = None,
) -> None:
    """Tap a raw deal's values into a form, one chip at a time, as a player would (a value
    the app has filled in already is not tapped), each tap asking for the preview (of the
    deal after `pending` ones, which the phone keeps for the server, when given)."""
    contract = str(raw["contract"])
    kept = {} if pending is None else {"pending": pending}
    state = {
        "contract": contract,
        "number": str(corrects or len(held.deals) + len(pending or ()) + 1),
        "version": str(version),
        "autofilled": "",
        "entry_key": FORM_KEY,
        **({} if corrects is None else {"editing": str(corrects)}),
        **_form_fields(contract),
    }
    taps = chip_values(contract, raw)
    for name, value in taps.items():
        if value is None or state.get(name) == chip_text(value):
            continue
        state[name] = chip_text(value)
        said = talk.ask({"op": "preview", "key": key, "fields": list(state.items()), **kept})
        if not said.get("local"):
            return
        marks, rows = painted_state(said["html"])
        state["autofilled"] = marks
        for chip, shown in rows.items():
            if shown == "" and chip not in _form_fields(contract):
                state.pop(chip, None)  # a required row the app cleared: nothing checked
            else:
                state[chip] = shown


MARKS = re.compile(r'id="deal-filled" value="([^"]*)"')
ROW = re.compile(
    r'<fieldset class="chip-row[^"]*" id="r-([^"]+)" hx-swap-oob="true">(.*?)</fieldset>', re.S
)
CHECKED = re.compile(r'<input type="radio" name="[^"]+" value="([^"]*)" checked')


def painted_state(html: str) -> tuple[str, dict[str, str]]:
    """What a preview's HTML puts in the form, as the page has it after the swap: the marks of
    what the app filled in, and the value each row it drew again now has checked ("": none)."""
    marks = MARKS.search(html)
    assert marks is not None, html
    rows = {}
    for name, row in ROW.findall(html):
        checked = CHECKED.search(row)
        rows[unescape(name)] = unescape(checked.group(1)) if checked else ""
    return unescape(marks.group(1)), rows


def conversation(language: str) -> Conversation:
    """The whole conversation in `language`: every game held, then talked about."""
    talk = Conversation(language)
    for key, held in games().items():
        talk.ask(
            {"op": "game", "key": key, "version": 1, "record": _record(held), "page": page(key)}
        )
        talk.ask({"op": "view", "key": key, "pending": [], "csrf": "t0k3n"})
        step = replay(held).next
        contracts = held.definition.contracts
        for contract in contracts:
            enter(talk, key, held, accepted_deal(contract, held.house_rules))
            enter(talk, key, held, sample_deal(contract))
        if step is not None:
            first = accepted_deal(step.contracts[0], held.house_rules)
            spec = CONTRACTS[first["contract"]].specs(held.house_rules)[0]
            if spec.kind == FieldKind.COUNTS:  # one count too many
                enter(talk, key, held, {**first, spec.name: [spec.maximum, spec.maximum, 1, 0]})
            if spec.kind == FieldKind.ORDER:  # a player placed twice
                enter(talk, key, held, {**first, spec.name: [0, 0, 1, 2]})
            doubled = doubled_deal(held, step.contracts)
            if doubled is not None:
                enter(talk, key, held, doubled)
            talk.ask({"op": "view", "key": key, "pending": [first]})
            talk.ask({"op": "view", "key": key, "pending": [first, first]})
            talk.ask({"op": "view", "key": key, "pending": [first], "waiting": 3})
            number = len(held.deals) + 1
            mine = [
                {"key": "k1", "number": number, "deal": first},
                {"key": "k2", "number": number + 1, "deal": {"contract": "?"}},
            ]
            for blocked in (
                {"key": "k1", "outcome": "conflict", "message": "<b>taken</b>", "number": number},
                {"key": "k2", "outcome": "too-late", "message": None, "number": number},
            ):
                talk.ask(
                    {
                        "op": "view",
                        "key": key,
                        "pending": [],
                        "waiting": 2,
                        "entries": mine,
                        "blocked": blocked,
                        "in_game": first,
                        "stopped": "access",
                        "secure": False,
                    }
                )
            after = evaluate(replay(held), first).after
            if after is not None and after.next is not None:  # a deal after one kept
                following = accepted_deal(after.next.contracts[0], held.house_rules)
                enter(talk, key, held, following, pending=[first])
            for contract in contracts:
                talk.ask({"op": "form", "key": key, "pending": [], "contract": contract})
        if held.deals:  # a correction of the first deal, and a form older than the game
            enter(talk, key, held, dump_deal(held.deals[0]), corrects=1)
            enter(talk, key, held, accepted_deal(contracts[0], held.house_rules), version=0)
    return talk


def page(token: str) -> dict[str, Any]:
    """A game's page as the server describes it to the phone (``scorekeeper.phone.render.Page``)
    with stand-ins for its routes and files: one for each the phone's templates call (the
    parity of the worker across runtimes needs the same page on both, not the server's)."""
    endpoints, statics = called_by(map(render.template_source, render.TEMPLATES))
    return {
        "row": {"token": token, "table_id": None, "name": "Friday <night>"},
        "share_title": "Friday <night> · 1 December 2026",
        "share_file": "friday-night-2026-12-01.png",
        "links": {name: f"/{name}" for name in endpoints},  # (every value in the query)
        "static": {name: f"/static/{name}?v=1" for name in statics},
    }


def doubled_deal(held: Game, open_contracts: list[str]) -> dict[str, Any] | None:
    """A deal of an open contract with a card doubled by the player who took it, where the
    game doubles."""
    if not held.house_rules.doubling:
        return None
    for contract in open_contracts:
        definition = CONTRACTS[contract]
        name = definition.doubles_field
        if name is None:
            continue
        raw = accepted_deal(contract, held.house_rules)
        spec = definition.field(name)
        raw[name] = 3 if spec.kind == FieldKind.OPTIONAL_SEAT else {spec.cards[0]: 3}
        return raw
    return None


def transcript(language: str) -> list[tuple[str, str]]:
    """Every message and its answer (JSON texts), in `language`."""
    return conversation(language).said
