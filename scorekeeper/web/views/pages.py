"""Pages around the games: the language switch and the rules of each game.

The rules page says what the app enforces and which house rules a game uses; every number on it
comes from the engine (a sample deal scored by the contract's own scorer), none is typed here.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from ...rules import CONTRACTS, GAMES, HouseRules
from ...rules.examples import contract_numbers, doubling_scores
from ...rules.games import (
    NEGATIVES_PER_PLAYER,
    PLAYS_PER_NEGATIVE,
    TRUMPS_PER_PLAYER,
    TURKISH_KING,
)
from ...store.games import house_rules_of
from ...words.labels import CONTRACT_CHECKS, CONTRACT_NOTES, CONTRACT_SCORES, contract_native_name
from ..assets import PUBLIC_ENDPOINTS
from ..languages import (
    LANGUAGE_COOKIE,
    LANGUAGE_NAMES,
    LANGUAGE_PARAMETER,
    LANGUAGES,
    asked_language,
    direction,
    use_words_of,
)
from ..links import local_path
from ..present import rule_text
from .common import game_or_404

bp = Blueprint("pages", __name__)

mimetypes.add_type("application/manifest+json", ".webmanifest")

LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365 * 2

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
    return [ContractRule(contract_id, contract_native_name(contract_id),
                         CONTRACTS[contract_id].kind,
                         rule_text(CONTRACT_SCORES[contract_id],
                                   contract_numbers(contract_id, rules)))
            for contract_id in GAMES[game].contracts]


def contract_notes(game: str, rules: HouseRules) -> list[Markup]:
    """The notes under the table of scores for the contracts of `game`."""
    return [rule_text(CONTRACT_NOTES[contract_id], contract_numbers(contract_id, rules))
            for contract_id in GAMES[game].contracts if contract_id in CONTRACT_NOTES]


def contract_checks(game: str) -> list[Markup]:
    """What the app checks in the deals of `game`'s contracts (a Trix game's), in order."""
    contracts = GAMES[game].contracts
    return [rule_text(text, {}) for contract_id, texts in CONTRACT_CHECKS.items()
            if contract_id in contracts for text in texts]


def _rules_page(game: str, rules: HouseRules | None, row: Any = None) -> str:
    use_words_of(game)
    definition = GAMES[game]
    shown = rules or HouseRules()
    return render_template(
        "pages/rules.html", game_id=game, definition=definition, row=row, house_rules=rules,
        shown_rules=shown,
        contracts=contract_rules(game, shown), notes=contract_notes(game, shown),
        checks=contract_checks(game), doubling=doubling_scores(shown),
        quotas={"trumps": TRUMPS_PER_PLAYER, "negatives": NEGATIVES_PER_PLAYER,
                "plays": PLAYS_PER_NEGATIVE},
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
    _remember_language(response, code)
    return response


def _remember_language(response: Response, code: str) -> None:
    """The long-lived cookie that keeps the reader's language."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE", False))
    response.set_cookie(LANGUAGE_COOKIE, code, max_age=LANGUAGE_COOKIE_AGE, samesite="Lax",
                        httponly=True, secure=secure)


@bp.after_app_request
def _remember_asked_language(response: Response) -> Response:
    """A link with `?lang=xx` opens in that language and keeps it, as the switch does."""
    asked = asked_language()
    if (asked is not None and request.endpoint != "pages.set_language"
            and request.cookies.get(LANGUAGE_COOKIE) != asked):
        _remember_language(response, asked)
    return response


@bp.after_app_request
def _vary_on_language(response: Response) -> Response:
    """Pages differ by the reader's language: caches must key on what chooses it."""
    if request.endpoint in PUBLIC_ENDPOINTS:
        return response  # the same for every reader (the manifest's language is in its URL)
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


@bp.app_context_processor
def _languages() -> dict[str, Any]:
    """The language switch in the header: every language, and this page to come back to."""
    if request.method == "GET":
        # the switch must win over a `?lang=` the address came with, so it goes from `here`
        query = urlencode([(key, value) for key, value in request.args.items(multi=True)
                            if key != LANGUAGE_PARAMETER])
        here = f"{request.path}?{query}" if query else request.path
    elif request.view_args and "token" in request.view_args:
        here = url_for("games.game_page", token=request.view_args["token"])
    else:
        here = url_for("games.home")
    return {"language_names": LANGUAGE_NAMES, "language_return": here,
            "language_links": _language_links(request.script_root, here)}


@lru_cache(maxsize=256)
def _language_links(script_root: str, here: str) -> tuple[tuple[str, str, str, str], ...]:
    """(code, name, switch link, direction) per language; the links depend on the page only
    (the paths and query strings come from clients: the cache is bounded)."""
    return tuple((code, name, url_for("pages.set_language", code=code, next=here),
                  direction(code)) for code, name in LANGUAGE_NAMES.items())
