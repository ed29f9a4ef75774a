"""Words and shapes for templates: labels in the reader's language, tables from a replay.

Nothing here decides a rule: it only names and arranges what the engine returned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from ..i18n import gettext
from ..rules import CONTRACTS, GAMES, REASONS, SUIT_SYMBOLS, TEAMS, Problem, Replay
from ..rules.games import NEGATIVES_PER_PLAYER, PLAYS_PER_NEGATIVE, TRUMPS_PER_PLAYER
from ..rules.messages import N_
from ..summary import contract_label, short_takes

FIELD_LABELS: dict[tuple[str, str], str] = {
    ("king-of-hearts", "taker"): N_("Who took the K♥"),
    ("king-of-hearts", "doubled_by"): N_("Doubled by"),
    ("queens", "takers"): N_("Who took each queen"),
    ("queens", "doubled_by"): N_("Doubled by"),
    ("diamonds", "counts"): N_("Diamonds"),
    ("ltoosh", "tricks"): N_("Tricks"),
    ("trix", "order"): N_("Finishing order"),
    ("complex", "tricks"): N_("Tricks"),
    ("complex", "diamonds"): N_("Diamonds"),
    ("complex", "queens"): N_("Who took each queen"),
    ("complex", "king_of_hearts"): N_("Who took the K♥"),
    ("complex", "doubled_by"): N_("Doubled by"),
    ("trump", "suit"): N_("Trump suit"),
    ("trump", "tricks"): N_("Tricks"),
    ("no-king", "taker"): N_("Who took the K♥"),
    ("no-queens", "counts"): N_("Queens"),
    ("no-boys", "counts"): N_("Kings and jacks"),
    ("no-hearts", "counts"): N_("Hearts"),
    ("no-last-two", "last_two"): N_("Last two tricks"),
    ("no-tricks", "tricks"): N_("Tricks"),
}

PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
TRICK_NAMES = (N_("Trick 12"), N_("Trick 13"))
CARD_NAMES = {"S": "Q♠", "H": "Q♥", "D": "Q♦", "C": "Q♣", "KH": "K♥"}
GAME_NAMES = {"trix": N_("Trix"), "trix-complex": N_("Trix Complex"),
              "turkish-king": N_("Turkish King")}


def field_label(contract: str, path: str, players: Sequence[str]) -> str:
    """A problem's field path in the reader's words: "Diamonds (Lina)", "Who took each queen"."""
    base = path.split("[")[0].split(".")[0]
    if base == "contract":
        return gettext("Contract")
    label = gettext(FIELD_LABELS.get((contract, base), base))
    if "[" in path:
        index = int(path.split("[")[1].rstrip("]"))
        if base in ("order",):
            return f"{label} ({gettext(PLACES[index])})"
        if base == "last_two":
            return f"{label} ({gettext(TRICK_NAMES[index])})"
        return f"{label} ({players[index]})"
    return label


def problem_text(problem: Problem, contract: str, players: Sequence[str],
                 label: str | None = None) -> str:
    """A refusal as a sentence in the reader's language (`label` names the field instead)."""
    if label is None:
        label = field_label(contract, problem.field, players)
    text = problem.render(gettext, field_label=label)
    if text and text[-1] not in ".!?؟":
        text += "."
    return text[:1].upper() + text[1:]


def problem_group(problem: Problem) -> str:
    """The form group a problem belongs beside: the spec field name."""
    return problem.field.split("[")[0].split(".")[0]


def reason_label(reason: str | None) -> str:
    """Why a contract is closed, in a few words."""
    return gettext(REASONS[reason]) if reason else ""


def game_name(game: str) -> str:
    """The game's display name."""
    return gettext(GAME_NAMES[game])


def contract_name(contract: str) -> str:
    """The contract's display name in the reader's language."""
    return contract_label(contract, gettext)


def takes(deal: Any, players: Sequence[str]) -> str:
    """A deal's takes in short form, each name isolated (FSI…PDI) from the text around it."""
    isolated = tuple(f"\u2068{name}\u2069" for name in players)
    return short_takes(deal, isolated, gettext)


def kingdom_grid(result: Replay) -> list[list[int | None]]:
    """Trix games: per kingdom, per contract, the deal number it was played as (or None)."""
    definition = result.game.definition
    grid: list[list[int | None]] = [[None] * len(definition.contracts)
                                    for _ in range(definition.kingdoms)]
    for deal in result.deals:
        if deal.kingdom is not None:
            grid[deal.kingdom][definition.contracts.index(deal.contract)] = deal.number
    return grid


def signed(value: int) -> str:
    """A score with its sign: +75, −150, 0 (a real minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def bidi(name: str) -> Markup:
    """A player's name isolated from the surrounding text direction."""
    return Markup("<bdi>%s</bdi>") % name


def csrf_message() -> str:
    """Why a form without a valid CSRF token was refused."""
    return gettext("This form has expired or was not sent by this app. Go back, reload the page "
                   "and try again.")


def http_message(code: int) -> str:
    """A plain explanation for an HTTP error page."""
    messages = {
        400: gettext("The request could not be understood."),
        404: gettext("There is nothing here. Check the link, or start from the home page."),
        405: gettext("That action is not available here."),
        413: gettext("That was too much data to send at once."),
    }
    return messages.get(code, gettext("Something went wrong on our side. Nothing was saved."))


TEMPLATE_GLOBALS: dict[str, Any] = {
    "contract_name": contract_name,
    "game_name": game_name,
    "reason_label": reason_label,
    "signed": signed,
    "bidi": bidi,
    "takes": takes,
    "SUIT_SYMBOLS": SUIT_SYMBOLS,
    "TEAMS": TEAMS,
    "QUOTAS": {"trumps": TRUMPS_PER_PLAYER, "negatives": NEGATIVES_PER_PLAYER,
               "plays": PLAYS_PER_NEGATIVE},
    "CARD_NAMES": CARD_NAMES,
    "PLACES": PLACES,
    "TRICK_NAMES": TRICK_NAMES,
    "CONTRACTS": CONTRACTS,
    "GAMES": GAMES,
    "field_label": field_label,
}
