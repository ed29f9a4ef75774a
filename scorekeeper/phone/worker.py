"""The engine in the phone: what the Web Worker (``static/js/engine-worker.js``) asks, answered
by this package's own engine under Pyodide, as JSON with every word in the page's language.

The worker imports this module from the bundle the server makes of the installed package
(:mod:`scorekeeper.serving.engine`) and hands every message to :func:`answer` as JSON text; the
page's script only moves values between the page and the worker and paints what comes back.
The server stays the authority: a save is judged there again, and whatever the phone cannot
judge alone (a form the game moved on under, a value no chip offers, a finished game) is
answered ``{"local": false}``, so the page asks the server as it would without the engine.

Messages (each an object with ``op``; answers are objects):

- ``{"op": "start", "language": "ar"}``: read the language's catalogue → ``{"language"}``.
- ``{"op": "game", "key": token, "version": n, "record": {...}, "page": {...}}``: hold a
  game (a record, ``scorekeeper-game/1``) at the version the server gave, with what the server
  says of its page (:class:`scorekeeper.phone.render.Page`; optional: a deal form's taps need
  none) → ``{"key", "version", "deals"}``.
- ``{"op": "preview", "key": token, "fields": [[name, value], ...], "pending": [...]}``: a
  deal form's fields as the browser would post them → ``{"local", "html", "ok", "address",
  "deal"}``: the HTML the server's preview sends for them (the same templates, rendered by
  :mod:`scorekeeper.phone.render`), whether Save is on, the address a reload keeps, and the deal
  as a record holds it once it may be saved (what the phone keeps when it saves with no
  network); with `pending` (optional): a form for the deal after those the phone keeps.
- ``{"op": "view", "key": token, "pending": [deal, ...], "csrf": token, "waiting": n,
  "entries": [...], "blocked": {...}, "in_game": deal, "stopped": why, "secure": bool,
  "version": n}``: the game with deals not yet sent (raw deals, as a record holds them) →
  ``{"html", "refused", "waiting", "stored", "deals"}``: the game's parts as the server renders
  them, with the panel of what the phone keeps (``fragments/kept_view.html``; the fields after
  `csrf` are :class:`scorekeeper.phone.view.Kept`'s, all optional), the first pending deal the
  engine refuses (its index and why), how many deals wait in a sentence.
- ``{"op": "form", "key": token, "pending": [...], "contract": id}``: a blank deal form for
  `contract` as the next deal → :func:`scorekeeper.phone.view.blank_form`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from ..rules import Replay, dump_deal, evaluate, record_from_json, replay
from ..words import deal_form, deal_words
from ..words.catalogue import Words, read_catalogue
from ..words.deal_form import chip_groups, chip_text
from . import render
from . import view as game_view
from .render import Page, environment_of

SERVER: dict[str, Any] = {"local": False}
"""The answer when the phone cannot judge alone: the page asks the server, as without it."""
MAX_NUMBER_DIGITS = 12
"""As the web form reads its numbers (`scorekeeper.web.forms.NumberField`)."""


@dataclass(frozen=True)
class Held:
    """A game the phone holds: the engine's replay of its record, at the server's version,
    and what the server said of its page."""

    version: int
    result: Replay
    page: Page = field(default_factory=lambda: Page(row={}))


class Engine:
    """The phone's engine: one language, the games it was given."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.catalogue = read_catalogue(language)
        self.games: dict[str, Held] = {}
        self.pending: tuple[tuple[str, int, str], Held | None] | None = None
        """The last game replayed with deals the phone keeps (by game, version and deals)."""

    def words(self, result: Replay) -> Words:
        """The game's words in the page's language."""
        return Words(self.catalogue, result.game.kind, self.language)

    def hold(
        self,
        key: str,
        record: Mapping[str, Any],
        version: int,
        page: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Hold a game's record (checked by the engine's loader) at the server's `version`,
        with what the server says of its `page`."""
        result = replay(record_from_json(record).game)
        self.games[key] = Held(version, result, Page.of(page or {}))
        # the preview's templates compiled now, while the page waits for nothing (once a
        # language and game's words), not at the first tap
        env = environment_of(self.words(result))
        for name in render.TEMPLATES:
            env.get_template(name)
        return {"key": key, "version": version, "deals": len(result.deals)}

    def preview(
        self, key: str, fields: Sequence[Sequence[str]], pending: Sequence[Mapping[str, Any]] = ()
    ) -> dict[str, Any]:
        """What a tap shows in a deal form (the next deal after `pending` ones, deals the phone
        keeps for the server), or :data:`SERVER`."""
        held = self.games.get(key)
        if held is None:
            return SERVER
        if pending:
            held = self._with_pending(key, held, pending)
            if held is None:
                return SERVER
        return preview(held, dict((name, value) for name, value in fields), self.words)

    def _with_pending(
        self, key: str, held: Held, pending: Sequence[Mapping[str, Any]]
    ) -> Held | None:
        """The held game with `pending` deals entered (replayed once for the taps of a form:
        the last one is kept), at the version they were entered on; None if one is refused."""
        asked = (key, held.version, json.dumps(pending, sort_keys=True))
        if self.pending is None or self.pending[0] != asked:
            result, refused = game_view.with_pending(held.result, pending, self.words(held.result))
            self.pending = (asked, None if refused else Held(held.version, result))
        return self.pending[1]

    def view(
        self,
        key: str,
        pending: Sequence[Mapping[str, Any]],
        csrf: str = "",
        kept: game_view.Kept | None = None,
    ) -> dict[str, Any]:
        """The game's parts with `pending` deals after the stored ones, as the server renders
        them, and the panel of what the phone `kept` (`csrf`: the page's token, for its
        forms)."""
        held = self.games[key]
        words = self.words(held.result)
        row = {**held.page.row, "version": held.version}
        context, refused, waiting = game_view.kept_view(held.result, pending, words, row, kept)
        page = replace(held.page, csrf=csrf)
        return {
            "html": render.render(environment_of(words), render.VIEW, context, page),
            "refused": refused,
            "waiting": waiting,
            "stored": len(held.result.deals),
            "deals": len(context["result"].deals),
        }

    def form(self, key: str, pending: Sequence[Mapping[str, Any]], contract: str) -> dict[str, Any]:
        """A blank deal form for `contract` as the next deal after `pending` ones."""
        held = self.games[key]
        return game_view.blank_form(held.result, pending, contract, self.words(held.result))


def _number(sent: Mapping[str, str], name: str) -> int | None:
    """A number the app wrote into the form, as the web form reads it; -1 for anything else."""
    raw = sent.get(name, "")
    if raw == "":
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_NUMBER_DIGITS):
        return -1
    return int(raw)


def preview(
    held: Held, sent: Mapping[str, str], words_of: Callable[[Replay], Words]
) -> dict[str, Any]:
    """What the server's preview (``scorekeeper.web.views.deals.preview``) paints for the same
    fields, from the same calls: the form's values filled in, the deal judged when every value
    is there, each field's messages; :data:`SERVER` where the server must say it."""
    result = held.result
    game = result.game
    contract = sent.get("contract", "")
    number, version, corrects = (_number(sent, name) for name in ("number", "version", "editing"))
    if contract not in game.definition.contracts or number is None or -1 in (number, corrects):
        return SERVER  # not a form this game made: the server refuses it
    if version != held.version:
        return SERVER  # a form the game moved on under (or a game that moved): the server says
    if corrects is None and result.next is None:
        return SERVER  # the game is over: the server says so
    if corrects is not None and not 1 <= corrects <= len(game.deals):
        return SERVER
    values: dict[str, Any] = {}
    for name, choices in ((n, g.choices) for g in chip_groups(contract) for n in g.names):
        try:
            values[name] = deal_form.chip_value(choices, sent.get(name, ""))
        except ValueError:
            return SERVER  # a value no chip offers: the server refuses it
    rules = game.house_rules
    filled = deal_form.fill_in(contract, values, sent.get("autofilled", ""), rules)
    left = deal_form.unset(contract, filled.values)
    evaluation = None
    if not left:
        index = None if corrects is None else corrects - 1
        evaluation = evaluate(result, filled.entry.raw, index, replay_after=False)
    words = words_of(result)
    errors = deal_words.deal_messages(
        filled.entry.problems,
        evaluation,
        contract,
        game.players,
        rules,
        words.translate,
        words.plural,
    )
    context = {
        "players": game.players,
        "contract": contract,
        "corrects": corrects,
        "groups": chip_groups(contract),
        "unset": list(left),
        "filled": filled.changed,
        "sums": filled.entry.sums,
        "outdated": False,
        "evaluation": evaluation,
        "errors": errors,
        "doubling": rules.doubling,
        "values": filled.values,
        "filled_now": filled.by_app,
        "autofilled": filled.marks,
        "sent": frozenset(sent),
        "is_htmx": True,
    }
    return {
        "local": True,
        "html": render.render(environment_of(words), render.PREVIEW, context),
        "ok": evaluation is not None and evaluation.ok,
        "address": _address(contract, filled) if corrects is None and rules.doubling else None,
        # what a save with no network keeps, as the game record holds it (the server judges it
        # again when it is sent)
        "deal": dump_deal(evaluation.deal)
        if evaluation is not None and evaluation.ok and evaluation.deal is not None
        else None,
    }


def _address(contract: str, filled: deal_form.FilledIn) -> str | None:
    """A new deal form's query string once doubles are noted (a reload keeps them), as the
    server's preview sets it (its new-deal address); None where it sets none."""
    values = filled.values
    doubles = [
        (name, chip_text(values[name]))
        for group in chip_groups(contract)
        if group.doubles
        for name in group.names
        if values.get(name) is not None
    ]
    if not any(group.doubles for group in chip_groups(contract)):
        return None
    return urlencode([("contract", contract), *doubles])


class Session:
    """One worker's engine across its messages: what the worker's script calls with each
    message's JSON text, for the answer's."""

    def __init__(self) -> None:
        self.engine: Engine | None = None

    def __call__(self, message: str) -> str:
        self.engine, said = answer(self.engine, message)
        return said


def answer(engine: Engine | None, message: str) -> tuple[Engine | None, str]:
    """The worker's one entry: a message as JSON text → the engine (made by "start") and the
    answer as JSON text."""
    asked = json.loads(message)
    op = asked["op"]
    if op == "start":
        engine = Engine(str(asked["language"]))
        return engine, json.dumps({"language": engine.language})
    if engine is None:
        raise ValueError("the engine is not started")
    match op:
        case "game":
            said = engine.hold(
                str(asked["key"]), asked["record"], int(asked["version"]), asked.get("page")
            )
        case "preview":
            said = engine.preview(str(asked["key"]), asked["fields"], asked.get("pending", []))
        case "view":
            said = engine.view(
                str(asked["key"]),
                asked.get("pending", []),
                str(asked.get("csrf", "")),
                _kept(asked),
            )
        case "form":
            said = engine.form(str(asked["key"]), asked.get("pending", []), str(asked["contract"]))
        case _:
            raise ValueError(f"unknown op {op!r}")
    return engine, json.dumps(said, ensure_ascii=False)


def _kept(asked: Mapping[str, Any]) -> game_view.Kept:
    """What a "view" message says the phone keeps besides the deals it shows."""
    waiting = asked.get("waiting")
    blocked = asked.get("blocked")
    return game_view.Kept(
        waiting=None if waiting is None else int(waiting),
        entries=list(asked.get("entries", [])),
        blocked=None if blocked is None else dict(blocked),
        in_game=asked.get("in_game"),
        stopped=None if asked.get("stopped") is None else str(asked["stopped"]),
        secure=bool(asked.get("secure", True)),
        current=bool(asked.get("current", True)),
    )
