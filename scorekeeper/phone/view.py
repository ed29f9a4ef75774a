"""A game as the phone shows it, computed by the engine in the phone from the stored record
plus the deals this phone has not sent yet: the context the game's parts are rendered with
(``fragments/kept_view.html``: the worker's ``view`` message, :mod:`scorekeeper.phone.worker`)
and a blank deal form's data (its ``form`` message). Every word in the page's language, every
number the engine's.

Names inside a sentence are isolated from the text around them
(:func:`scorekeeper.words.game_view.isolated`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Replay, evaluate, parse_deal
from ..rules.messages import N_, ngettext
from ..words import deal_words, labels
from ..words.catalogue import Words
from ..words.game_view import isolated, kingdom_grid, standings
from ..words.takes import short_takes

CANNOT_CHOOSE = N_("%(contract)s cannot be chosen now.")
KINGDOM = N_("Kingdom %(k)d")
DEAL = N_("Deal %(n)d")
KING = N_("King: %(name)s")
DECLARER = N_("Declarer: %(name)s")
WAITING = ngettext(
    "%(n)d deal on this phone is waiting for the server.",
    "%(n)d deals on this phone are waiting for the server.",
    "n",
)
"""How many deals the phone keeps that the server has not confirmed (sent or not yet)."""


def with_pending(
    result: Replay, pending: Sequence[Mapping[str, Any]], words: Words
) -> tuple[Replay, dict[str, Any] | None]:
    """The game with the `pending` deals entered in order, each judged as the next deal; the
    first the engine refuses stops there, with its number and why (in the reader's words)."""
    for index, raw in enumerate(pending):
        evaluation = evaluate(result, raw)
        if not evaluation.ok or evaluation.after is None:
            game = result.game
            contract = str(raw.get("contract", ""))
            messages = deal_words.deal_messages(
                (), evaluation, contract, game.players, game.house_rules, *words.callables()
            )
            refused = {"pending": index, "messages": [m for ms in messages.values() for m in ms]}
            return result, refused
        result = evaluation.after
    return result, None


@dataclass(frozen=True)
class Kept:
    """What the phone keeps of a game besides the deals it shows (static/js/offline.js says):
    how many deals wait for the server in all (`waiting`; None: those shown), every entry kept
    (`entries`: key, number, deal), the one that waits for the player (`blocked`: its key,
    outcome, message, number) and the deal in the game that stops it (`in_game`), whether
    sending stopped (`stopped`: "access", "reload"), whether the page is a secure context and
    whether the engine holds the game as the phone keeps it (`current`)."""

    waiting: int | None = None
    entries: Sequence[Mapping[str, Any]] = ()
    blocked: Mapping[str, Any] | None = None
    in_game: Mapping[str, Any] | None = None
    stopped: str | None = None
    secure: bool = True
    current: bool = True


def kept_view(
    stored: Replay,
    pending: Sequence[Mapping[str, Any]],
    words: Words,
    row: Mapping[str, Any],
    kept: Kept | None = None,
) -> tuple[dict[str, Any], dict[str, Any] | None, str]:
    """The context of ``fragments/kept_view.html`` for the game with `pending` deals after the
    `stored` ones (`row`: the game's row as the templates read it; `kept`: what the phone keeps
    and what waits for the player), the first pending deal the engine refused (its index and
    why) and the sentence saying how many deals wait for the server."""
    kept = kept or Kept()
    result, refused = with_pending(stored, pending, words)
    count = len(pending) if kept.waiting is None else kept.waiting
    waiting = words.plural(WAITING.singular, WAITING.plural, count) % {"n": count} if count else ""
    game = result.game
    blocked = kept.blocked
    mine = []
    if blocked is not None:
        entries = list(kept.entries)
        said = described(stored, [entry.get("deal", {}) for entry in entries], words)
        mine = [
            {"key": entry.get("key"), "number": entry.get("number"), **words_of}
            for entry, words_of in zip(entries, said, strict=True)
        ]
    numbers = {entry["key"]: entry["number"] for entry in mine}
    context = {
        "result": result,
        "game": game,
        "players": game.players,
        "definition": game.definition,
        "partnership": result.team_totals is not None,
        "row": row,
        "standings": standings(result),
        "grid": kingdom_grid(result) if game.definition.kingdoms else None,
        "stored": len(stored.deals),
        "last_kept": len(result.deals) if len(result.deals) > len(stored.deals) else None,
        "waiting": waiting,
        "blocked": blocked,
        "blocked_number": None
        if blocked is None
        else numbers.get(blocked.get("key")) or blocked.get("number"),
        "mine": mine,
        "in_game": None if kept.in_game is None else described(stored, [kept.in_game], words)[0],
        "stopped": kept.stopped,
        "secure": kept.secure,
        "current": kept.current,
    }
    return context, refused, waiting


def blank_form(
    stored: Replay, pending: Sequence[Mapping[str, Any]], contract: str, words: Words
) -> dict[str, Any]:
    """A new deal form for `contract` as the next deal after the `pending` ones: its number and
    its heading's words (what the kit's blank form leaves to fill in; its preview before the
    first tap is the worker's ``preview``); ``open`` false, with why, when it cannot be
    chosen."""
    result, refused = with_pending(stored, pending, words)
    translate = words.translate
    step = result.next
    if refused is not None or step is None or not step.is_open(contract):
        name = labels.contract_label(contract, translate)
        return {
            "open": False,
            "refused": refused,
            "message": translate(CANNOT_CHOOSE) % {"contract": name},
        }
    chooser = isolated(result.game.players[step.chooser])
    where = translate(DEAL) % {"n": step.number}
    if step.kingdom is not None:
        where = translate(KINGDOM) % {"k": step.kingdom + 1} + " · " + where
    return {
        "open": True,
        "number": step.number,
        "where": where,
        "roles": translate(KING if step.kingdom is not None else DECLARER) % {"name": chooser},
    }


def described(
    result: Replay, deals: Sequence[Mapping[str, Any]], words: Words
) -> list[dict[str, str]]:
    """Deals as a history row names them (the contract, what each player took), in the
    reader's words: a deal this phone kept beside another phone's in its place. A deal that
    does not parse has its contract's id alone."""
    game = result.game
    players = tuple(map(isolated, game.players))
    said = []
    for raw in deals:
        contract = str(raw.get("contract", ""))
        deal = parse_deal(game.definition, raw, game.house_rules)[0]
        said.append(
            {
                "name": labels.contract_label(contract, words.translate)
                if deal is not None
                else contract,
                "takes": "" if deal is None else short_takes(deal, players, words.translate),
            }
        )
    return said
