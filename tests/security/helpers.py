"""What the security tests share: a few stored games and every route of the app as a URL."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask
from werkzeug.routing import Rule

from tests.conftest import Phone

# One kingdom of Trix (king: seat 0), each deal legal after the ones before it.
TRIX_KINGDOM: tuple[dict[str, Any], ...] = (
    {"contract": "king-of-hearts", "taker": 1},
    {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 2, "C": 3}},
    {"contract": "diamonds", "counts": [4, 3, 3, 3]},
    {"contract": "ltoosh", "tricks": [4, 3, 3, 3]},
    {"contract": "trix", "order": [0, 1, 2, 3]},
)
GARBAGE_TOKEN = "AAAAAAAAAAAAAAAAAAAAAA"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Games:
    """Tokens of the stored games: one with deals, one waiting for its first chooser."""

    playing: str
    playing_view: str
    fresh: str


def seed_games(phone: Phone, deals: int = 2) -> Games:
    """Start two games through the forms; the first gets `deals` deals."""
    phone.new_game(players=("Rami", "Lina", "Omar", "Dana"), first=0)
    for deal in TRIX_KINGDOM[:deals]:
        phone.enter(deal)
    playing, playing_view = phone.token, phone.row().view_token
    phone.new_game(players=("Ana", "Ben", "Cem", "Dua"))
    fresh = phone.token
    phone.token = playing
    return Games(playing, playing_view, fresh)


def url_for_rule(rule: Rule, token: str, number: int = 1) -> str:
    """The rule's path with its variables filled in (token, deal number, static file)."""
    values: dict[str, Any] = {}
    for name in rule.arguments:
        if name == "filename":
            values[name] = "css/app.css"
        elif name in ("number", "index", "deal", "player_id"):
            values[name] = number
        else:
            values[name] = token
    built = rule.build(values, append_unknown=False)
    assert built is not None, rule
    return built[1]


def routes(app: Flask) -> list[Rule]:
    """Every rule of the app, in a stable order."""
    return sorted(app.url_map.iter_rules(), key=lambda rule: (rule.rule, rule.endpoint))


def route_urls(app: Flask, games: Games) -> list[tuple[Rule, str]]:
    """Every rule once per kind of token: the scorekeeper link, the view link, garbage."""
    found: list[tuple[Rule, str]] = []
    for rule in routes(app):
        tokens = (
            [games.playing, games.playing_view, GARBAGE_TOKEN]
            if rule.arguments - {"filename"}
            else [""]
        )
        for token in tokens:
            found.append((rule, url_for_rule(rule, token)))
    return found


def post_routes(app: Flask) -> list[Rule]:
    """Rules that change state (every method besides GET, HEAD and OPTIONS)."""
    return [rule for rule in routes(app) if (rule.methods or set()) & STATE_CHANGING]
