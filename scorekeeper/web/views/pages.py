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
from werkzeug.wrappers import Response

from ...rules import CONTRACTS, GAMES, Deal, HouseRules
from ...rules.contracts import (
    COMPLEX_DIAMOND,
    COMPLEX_TRICK,
    KING_OF_HEARTS_PENALTY,
    QUEEN_PENALTY,
)
from ...rules.games import (
    NEGATIVES_PER_PLAYER,
    PLAYS_PER_NEGATIVE,
    TRUMPS_PER_PLAYER,
    TURKISH_KING,
)
from ...store.games import house_rules_of
from ...words.labels import contract_native_name
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
from .common import game_or_404

bp = Blueprint("pages", __name__)

mimetypes.add_type("application/manifest+json", ".webmanifest")

LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365 * 2

# One sample deal per contract: seat 0 takes one of what is counted (or the card, or first
# place). Scoring it with the contract's scorer gives the per-item score the rules page shows.
_ONE = (1, 0, 0, 0)
_SAMPLES: dict[str, dict[str, Any]] = {
    "king-of-hearts": {"taker": 0},
    "queens": {"takers": {"S": 0, "H": 1, "D": 1, "C": 1}},
    "diamonds": {"counts": _ONE},
    "ltoosh": {"tricks": _ONE},
    "trix": {"order": (0, 1, 2, 3)},
    "trump": {"suit": "S", "tricks": _ONE},
    "no-king": {"taker": 0},
    "no-queens": {"counts": _ONE},
    "no-boys": {"counts": _ONE},
    "no-hearts": {"counts": _ONE},
    "no-last-two": {"last_two": (0, 1)},
    "no-tricks": {"tricks": _ONE},
}


@dataclass(frozen=True)
class ContractRule:
    """One row of the rules page: the contract, its home name, and what it scores."""

    id: str
    native: str
    kind: str
    each: int
    """The score for one item taken (one card, one trick, one of the last two tricks)."""
    places: tuple[int, ...] = ()
    """Trix: the score for 1st, 2nd, 3rd and 4th place."""


def contract_rules(game: str, rules: HouseRules) -> list[ContractRule]:
    """The contracts of `game` with the scores the engine gives them under `rules`."""
    rows = []
    for contract_id in GAMES[game].contracts:
        contract = CONTRACTS[contract_id]
        if contract_id == "complex":
            rows.append(ContractRule(contract_id, contract_native_name(contract_id),
                                     contract.kind, 0))
            continue
        scores = contract.score(Deal(contract_id, _SAMPLES[contract_id]), rules)
        if contract_id == "trix":
            rows.append(ContractRule(contract_id, contract_native_name(contract_id),
                                     contract.kind, 0, tuple(scores)))
        else:
            rows.append(ContractRule(contract_id, contract_native_name(contract_id),
                                     contract.kind, scores[0]))
    return rows


def doubling_scores(rules: HouseRules) -> dict[str, int]:
    """What doubling does under `rules`, each number scored by the engine.

    `king_taker`/`king_doubler`: the K♥ doubled by one player, taken by another; the same for a
    queen; `*_self`: the doubler took their own card; `queen_diamond`, `queen_diamond_doubler`:
    a doubled Q♦ in Complex taken by another player, `queen_diamond_self` by its doubler.
    """
    def score(contract: str, values: dict[str, Any]) -> tuple[int, ...]:
        return tuple(CONTRACTS[contract].score(Deal(contract, values), rules))

    others = {"H": 2, "D": 2, "C": 2}
    king = score("king-of-hearts", {"taker": 0, "doubled_by": 1})
    queen = score("queens", {"takers": {"S": 0, **others}, "doubled_by": {"S": 1}})
    complex_values: dict[str, Any] = {
        "tricks": (0, 0, 0, 0), "diamonds": (1, 0, 0, 0),
        "queens": {"S": 2, "H": 2, "C": 2, "D": 0}, "king_of_hearts": 2, "doubled_by": {"D": 1}}
    queen_diamond = score("complex", complex_values)
    own_queen_diamond = score("complex", {**complex_values, "doubled_by": {"D": 0}})
    return {
        "king_taker": king[0], "king_doubler": king[1],
        "queen_taker": queen[0], "queen_doubler": queen[1],
        "king_self": score("king-of-hearts", {"taker": 0, "doubled_by": 0})[0],
        "queen_self": score("queens", {"takers": {"S": 0, **others},
                                       "doubled_by": {"S": 0}})[0],
        "queen_diamond": queen_diamond[0], "queen_diamond_doubler": queen_diamond[1],
        "queen_diamond_self": own_queen_diamond[0],
    }


def _rules_page(game: str, rules: HouseRules | None, row: Any = None) -> str:
    use_words_of(game)
    definition = GAMES[game]
    shown = rules or HouseRules()
    return render_template(
        "pages/rules.html", game_id=game, definition=definition, row=row, house_rules=rules,
        shown_rules=shown,
        contracts=contract_rules(game, shown),
        doubling=doubling_scores(shown),
        penalties={"king": KING_OF_HEARTS_PENALTY, "queen": QUEEN_PENALTY,
                   "complex_trick": COMPLEX_TRICK, "complex_diamond": COMPLEX_DIAMOND},
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
