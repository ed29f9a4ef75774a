"""Pages around the games: the language switch and the rules of each game.

The rules page says what the app enforces and which house rules a game uses; every number on it
comes from the engine (a sample deal scored by the contract's own scorer), none is typed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ...rules import CONTRACTS, GAMES, HouseRules
from ...rules.examples import adds_up_to_zero, count_totals, doubling_scores
from ...rules.games import TURKISH_KING
from ...store.games import house_rules_of
from ...words import counts
from ...words.contracts import CONTRACT_WORDS, score_numbers
from ..languages import LANGUAGES, gettext, plural_form, remember_language, use_words_of
from ..links import local_path
from ..present import contract_name, count_text, rule_text, text_names
from .common import game_or_404

bp = Blueprint("pages", __name__)


@dataclass(frozen=True)
class ContractRule:
    """One row of the rules page: the contract, its home name, and how it scores."""

    id: str
    native: str
    kind: str
    score: Markup
    """The sentence saying what it scores, in the reader's language, the engine's numbers."""


def contract_rules(game: str, rules: HouseRules) -> list[ContractRule]:
    """The contracts of `game` with the scores the engine gives them under `rules`."""
    return [
        ContractRule(
            contract_id,
            CONTRACT_WORDS[contract_id].native,
            CONTRACTS[contract_id].kind,
            rule_text(
                CONTRACT_WORDS[contract_id].score_for(rules), score_numbers(contract_id, rules)
            ),
        )
        for contract_id in GAMES[game].contracts
    ]


def contract_notes(game: str, rules: HouseRules) -> list[Markup]:
    """The notes under the table of scores for the contracts of `game`."""
    notes = [
        (contract_id, CONTRACT_WORDS[contract_id].note_for(rules))
        for contract_id in GAMES[game].contracts
    ]
    return [
        rule_text(text, score_numbers(contract_id, rules))
        for contract_id, text in notes
        if text is not None
    ] + [
        Markup.escape(
            gettext(
                "One of the rule texts calls %(contract)s %(name)s; it is not %(other)s.",
                contract=contract_name(contract_id),
                name=text.name,
                other=contract_name(text.unlike),
            )
        )
        for contract_id in GAMES[game].contracts
        for text in text_names(contract_id)
        if text.unlike in GAMES[game].contracts
    ]


def contract_checks(game: str, rules: HouseRules) -> list[Markup]:
    """What the app checks in the deals of `game`'s contracts (a Trix game's), in order."""
    totals = count_totals(game, rules, ceilings=True)
    return [
        count_text(text, totals)
        for contract_id in GAMES[game].contracts
        for text in CONTRACT_WORDS[contract_id].checks_for(rules)
    ]


def _rules_page(game: str, rules: HouseRules | None, row: Any = None) -> str:
    use_words_of(game)
    definition = GAMES[game]
    shown = rules or HouseRules()
    return render_template(
        "pages/rules.html",
        game_id=game,
        definition=definition,
        row=row,
        house_rules=rules,
        shown_rules=shown,
        contracts=contract_rules(game, shown),
        notes=contract_notes(game, shown),
        checks=contract_checks(game, shown),
        counts_add_up=counts.counts_add_up(game, shown, gettext, plural_form),
        doubling=doubling_scores(shown),
        zero_sum=adds_up_to_zero(game, shown),
        turkish=game == TURKISH_KING,
    )


@bp.get("/rules/<game>")
def rules(game: str) -> str:
    """The rules of a game as the app enforces them, with the default house rules."""
    if game not in GAMES:
        abort(404)
    return _rules_page(game, None)


@bp.get("/g/<token:token>/rules")
def game_rules(token: str) -> str:
    """The rules of one game, with the house rules its table chose."""
    row = game_or_404(token)
    return _rules_page(row.game, house_rules_of(row), row)


@bp.get("/lang/<code>")
def set_language(code: str) -> Response:
    """Remember the reader's language in a long-lived cookie and go back to the page.

    A plain link (GET), so it works without JavaScript or a form: it changes nothing but a
    display preference of this browser.
    """
    if code not in LANGUAGES:
        abort(404)
    response = redirect(local_path(request.args.get("next"), url_for("games.home")), 303)
    remember_language(response, code)
    response.headers["Cache-Control"] = "no-store"  # (its Location may name a game's token)
    return response
