"""A game as its page shows it, computed by the engine in the phone from the stored record plus
the deals this phone has not sent yet: the totals, the history, what comes next and what
remains; and a blank deal form's data. Every word in the page's language, every number the
engine's (the worker's ``view`` and ``form`` messages, :mod:`scorekeeper.phone.worker`).

Names inside a sentence are isolated from the text around them
(:func:`scorekeeper.words.game_view.isolated`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules import ContractKind, Replay, evaluate, parse_deal
from ..rules.games import NEGATIVES_PER_PLAYER, PLAYS_PER_NEGATIVE, TRUMPS_PER_PLAYER
from ..rules.messages import N_, ngettext
from ..words import deal_form, deal_words, labels
from ..words.catalogue import Words
from ..words.game_view import isolated, kingdom_grid
from ..words.share import result_text
from ..words.takes import short_takes

WHERE_KINGDOM = N_("Kingdom %(k)d of %(total)d")
WHERE_DEAL = N_("Deal %(n)d of %(total)d")
KING_CHOOSES = N_("%(name)s is king and chooses")
DECLARES = N_("%(name)s declares")
DEALS = N_("Deals: %(name)s")
LEADS = N_("Leads: %(name)s")
MUST_NEGATIVE = N_("%(name)s has declared both trumps and must choose a negative contract.")
MUST_TRUMP = N_("%(name)s has declared three negatives and must choose trump.")
CANNOT_CHOOSE = N_("%(contract)s cannot be chosen now.")
FORCED = {ContractKind.NEGATIVE: MUST_NEGATIVE, ContractKind.TRUMP: MUST_TRUMP}
KINGDOM = N_("Kingdom %(k)d")
DEAL = N_("Deal %(n)d")
KING = N_("King: %(name)s")
DECLARER = N_("Declarer: %(name)s")
UNDO = N_("Undo deal %(n)d")
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


def game_view(
    stored: Replay,
    pending: Sequence[Mapping[str, Any]],
    words: Words,
    waiting: int | None = None,
) -> dict[str, Any]:
    """What the game page shows of the game with `pending` deals after the stored ones; how
    many deals the phone keeps for the server (`waiting`: all of them, shown or not; the
    pending ones by default), in a sentence."""
    result, refused = with_pending(stored, pending, words)
    kept = len(pending) if waiting is None else waiting
    game = result.game
    players = game.players
    translate = words.translate
    return {
        "stored": len(stored.deals),
        "deals": len(result.deals),
        "refused": refused,
        "finished": result.finished,
        "players": list(players),
        "totals": [labels.signed(total) for total in result.totals],
        "team_totals": None
        if result.team_totals is None
        else [labels.signed(total) for total in result.team_totals],
        "teams": None
        if result.team_totals is None
        else [labels.team_label(players, team, translate) for team in range(2)],
        "winners": None if result.winners is None else list(result.winners),
        "winning_teams": None if result.winning_teams is None else list(result.winning_teams),
        "history": [
            {
                "number": deal.number,
                "contract": deal.contract,
                "name": labels.contract_label(deal.contract, translate),
                "where": translate(KINGDOM) % {"k": deal.kingdom + 1}
                if deal.kingdom is not None
                else "",
                "chooser": players[deal.chooser],
                "takes": short_takes(deal.deal, tuple(map(isolated, players)), translate),
                "scores": [labels.signed(score) for score in deal.scores],
                "running": [labels.signed(total) for total in deal.running],
                "team_scores": None
                if result.team_totals is None
                else [labels.signed(score) for score in deal.team_scores],
                "team_running": None
                if result.team_totals is None
                else [labels.signed(total) for total in deal.team_running],
            }
            for deal in result.deals
        ],
        "next": _next_step(result, words),
        "grid": kingdom_grid(result) if result.game.definition.kingdoms else None,
        "quotas": None
        if result.quotas is None
        else [
            {
                "trumps": f"{quota.trumps}/{TRUMPS_PER_PLAYER}",
                "negatives": f"{quota.negatives}/{NEGATIVES_PER_PLAYER}",
            }
            for quota in result.quotas
        ],
        "negative_plays": None
        if result.negative_plays is None
        else [
            {
                "contract": contract,
                "name": labels.contract_label(contract, translate),
                "plays": f"{plays}/{PLAYS_PER_NEGATIVE}",
                "done": plays >= PLAYS_PER_NEGATIVE,
            }
            for contract, plays in result.negative_plays.items()
        ],
        "waiting": words.plural(WAITING.singular, WAITING.plural, kept) % {"n": kept}
        if kept
        else "",
        "undo": translate(UNDO) % {"n": len(result.deals)} if result.deals else "",
        "standings": None
        if result.winners is None
        else result_text(result, "", translate).split("\n")[1:],
    }


def _next_step(result: Replay, words: Words) -> dict[str, Any] | None:
    """The next step's words and menu (None once the game is finished)."""
    step = result.next
    if step is None:
        return None
    translate = words.translate
    definition = result.game.definition
    players = result.game.players
    chooser = isolated(players[step.chooser])
    where = translate(WHERE_DEAL) % {"n": step.number, "total": definition.deals_total}
    if step.kingdom is not None:
        kingdom = translate(WHERE_KINGDOM) % {"k": step.kingdom + 1, "total": definition.kingdoms}
        where = f"{kingdom} · {where}"
    roles = translate(LEADS) % {"name": isolated(players[step.leader])}
    if step.dealer is not None:
        roles = translate(DEALS) % {"name": isolated(players[step.dealer])} + " · " + roles
    forced = result.quotas[step.chooser].forced if result.quotas else None
    note = None if forced is None else FORCED.get(forced)
    return {
        "number": step.number,
        "kingdom": step.kingdom,
        "chooser": step.chooser,
        "where": where,
        "heading": translate(KING_CHOOSES if step.kingdom is not None else DECLARES)
        % {"name": chooser},
        "roles": roles,
        "note": "" if note is None else translate(note) % {"name": chooser},
        "options": [
            {
                "contract": option.contract,
                "name": labels.contract_label(option.contract, translate),
                "open": option.open,
                "reason": labels.reason_label(option.reason, translate),
            }
            for option in step.options
        ],
    }


def blank_form(
    stored: Replay, pending: Sequence[Mapping[str, Any]], contract: str, words: Words
) -> dict[str, Any]:
    """A new deal form for `contract` as the next deal after the `pending` ones: its heading,
    its chip groups with their words, and what it shows before the first tap (the running
    sums, how many values are left); ``open`` false, with why, when it cannot be chosen."""
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
    game = result.game
    players = game.players
    rules = game.house_rules
    filled = deal_form.fill_in(contract, {}, "", rules)
    chooser = isolated(players[step.chooser])
    where = translate(DEAL) % {"n": step.number}
    if step.kingdom is not None:
        where = translate(KINGDOM) % {"k": step.kingdom + 1} + " · " + where
    return {
        "open": True,
        "contract": contract,
        "name": labels.contract_label(contract, translate),
        "number": step.number,
        "where": where,
        "roles": translate(KING if step.kingdom is not None else DECLARER) % {"name": chooser},
        "doubling": rules.doubling,
        "groups": [
            {
                "name": group.spec.name,
                "kind": str(group.spec.kind),
                "label": labels.field_label(contract, group.spec.name, players, translate, rules),
                "chips": list(group.names),
                "choices": [deal_form.chip_text(choice) for choice in group.choices],
            }
            for group in deal_form.chip_groups(contract)
        ],
        "left": deal_words.left_to_tap(len(deal_form.unset(contract, filled.values)), words.plural),
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
