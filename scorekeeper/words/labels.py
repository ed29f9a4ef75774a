"""The names the table reads, one table per concept: games, suits, cards, places, seats; a
contract's name and a deal form's fields from its record (:mod:`.contracts`); and a refusal
of the engine as a sentence.

Pure Python, no Flask: the web views, the CSV export and the chart share these. Every word a
player reads goes through ``translate`` (Flask-Babel's ``gettext`` in the app, identity by
default); ``N_`` marks the English originals for the translation catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules.cards import SUIT_SYMBOLS, TEAMS
from ..rules.contracts import KING_OF_HEARTS_CARD
from ..rules.errors import Problem, TranslatePlural, english_plural
from ..rules.house_rules import HouseRules
from ..rules.messages import N_, REASONS
from .contracts import CONTRACT_WORDS

Translate = Callable[[str], str]


def identity(text: str) -> str:
    """The default `translate`: English as written."""
    return text


def pgettext(context: str, text: str) -> str:
    """Mark `text` for the catalogues under `context` (Babel extracts ``pgettext`` calls as
    message context and id); return it unchanged. The caller translates it in that context."""
    del context
    return text


HAND_CONTEXT = "turkish-king"
"""The message context of a game whose deal is a hand (Arabic يد)."""
HAND_MESSAGES = frozenset(
    {
        pgettext("turkish-king", "Deal"),
        pgettext("turkish-king", "Deal %(n)d"),
        pgettext("turkish-king", "Deal %(n)d of %(total)d"),
        pgettext("turkish-king", "Deal %(number)d saved."),
        pgettext("turkish-king", "Enter these taps as the next deal"),
        pgettext("turkish-king", "Enter mine as the next deal"),
        pgettext("turkish-king", "Deal %(number)d changed."),
        pgettext("turkish-king", "Deal %(number)d is in the game."),
        pgettext(
            "turkish-king",
            "Deal %(number)d was saved from this phone, then changed on another phone. "
            "Check the history.",
        ),
        pgettext("turkish-king", "Another phone saved deal %(number)d first; yours was not saved."),
        pgettext("turkish-king", "Waiting for the deal before it."),
        pgettext("turkish-king", "Deal %(number)d restored."),
        pgettext("turkish-king", "Deal %(number)d was removed."),
        pgettext(
            "turkish-king",
            "Deal %(number)d was already entered on another phone; yours "
            "was not saved. Check the history.",
        ),
        pgettext(
            "turkish-king",
            "Deal %(number)d was saved on another phone. This form is out of "
            "date: cancel to see the game.",
        ),
        pgettext("turkish-king", "Restore deal %(n)d"),
        pgettext("turkish-king", "Undo deal %(n)d"),
        pgettext("turkish-king", "Save deal"),
        pgettext(
            "turkish-king",
            "Not saved yet: your taps are now deal %(n)d. Check them, then tap “%(save)s”.",
        ),
        pgettext("turkish-king", "No deals yet."),
        pgettext("turkish-king", "Each cell: the deal's score, and below it the running total."),
        pgettext("turkish-king", "After deal {number} of {total}: {totals}"),
        pgettext("turkish-king", "The game changed on another phone; this deal was not saved."),
        pgettext(
            "turkish-king", "The game changed on another phone; deal %(number)d was not restored."
        ),
        pgettext(
            "turkish-king",
            "The game changed on another phone. Check the current state and "
            "enter the deal again if it is still missing.",
        ),
        pgettext(
            "turkish-king",
            "The game has not started yet. This page follows it as soon as "
            "the first deal is entered.",
        ),
        pgettext("turkish-king", "Every deal of this game will be gone for good."),
        pgettext("turkish-king", "This change would make deal %(number)d illegal: %(reason)s"),
        pgettext("turkish-king", "{field}: the game is finished; no more deals"),
        pgettext(
            "turkish-king",
            "The game is finished after its last deal. The highest total "
            "wins; equal totals share the win.",
        ),
        pgettext(
            "turkish-king",
            "The game is finished after its last deal. Everyone whose total "
            "is above zero wins (is out); below zero is sunk. If all four end "
            "at zero, nobody wins.",
        ),
        pgettext(
            "turkish-king",
            "Editing a past deal checks every later deal again; a change "
            "that would make a later deal illegal is refused.",
        ),
    }
)
"""Messages that name a deal, each also in the context of Turkish King, whose deal is a hand:
its pages say يد in Arabic, as the glossary chose (English keeps "deal")."""
WORD_CONTEXTS: dict[str, frozenset[str]] = {HAND_CONTEXT: HAND_MESSAGES}
"""Game id → the messages it says in words of its own (translated in its context)."""

LIST_SEPARATOR = N_(", ")
"""Between the items of a list in a sentence: the reader's comma (Arabic "،")."""
APP_NAME = N_("Scorekeeper")
APP_FULL_NAME = N_("Scorekeeper — Trix, Trix Complex, Turkish King")
APP_DESCRIPTION = N_("Keep score at a real card table: Trix, Trix Complex and Turkish King.")

GAME_LABELS: dict[str, str] = {
    "trix": N_("Trix"),
    "trix-complex": N_("Trix Complex"),
    "turkish-king": N_("Turkish King"),
}

SUIT_LABELS: dict[str, str] = {
    "S": N_("Spades"),
    "H": N_("Hearts"),
    "D": N_("Diamonds"),
    "C": N_("Clubs"),
}

CARD_LABELS: dict[str, str] = {
    "S": N_("Q♠"),
    "H": N_("Q♥"),
    "D": N_("Q♦"),
    "C": N_("Q♣"),
    KING_OF_HEARTS_CARD: N_("K♥"),
}
"""A card a deal records (a queen by its suit letter, the K♥) → its short name."""

PLACE_LABELS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
"""Trix: the places of the finishing order."""
SEAT_LABELS = (N_("1st player"), N_("2nd player"), N_("3rd player"), N_("4th player"))
"""The four seats in order of play, as the forms name them."""
LAST_TRICK_LABELS = (N_("Trick 12"), N_("Trick 13"))
"""Turkish King's No Last Two: the two tricks it counts."""

CONTRACT_FIELD = N_("Contract")
SENTENCE_END = N_("{sentence}.")
"""A refusal closed as a sentence in the reader's script (Hindi "।")."""
TEAM = N_("{first} & {second}")
"""A partnership team: its two players' names (:func:`pair_label` is its one user)."""


def contract_label(contract_id: str, translate: Translate = identity) -> str:
    """A contract's display name, e.g. "King of Hearts" or "No Last Two" (the id if unknown)."""
    words = CONTRACT_WORDS.get(contract_id)
    return translate(words.label) if words is not None else contract_id


def contract_native_name(contract_id: str) -> str:
    """The contract's Arabic (Trix games) or Turkish (Turkish King) name, e.g. "Rıfkı"."""
    words = CONTRACT_WORDS.get(contract_id)
    return words.native if words is not None else ""


def game_label(game_id: str, translate: Translate = identity) -> str:
    """A game's display name: "Trix", "Trix Complex" or "Turkish King" (the id if unknown)."""
    label = GAME_LABELS.get(game_id)
    return translate(label) if label is not None else game_id


def suit_label(suit: str, translate: Translate = identity) -> str:
    """A suit letter's name, e.g. "S" → "Spades" (the letter if unknown)."""
    label = SUIT_LABELS.get(suit)
    return translate(label) if label is not None else suit


def suit_symbol(suit: str) -> str:
    """A suit letter's symbol, e.g. "S" → "♠"."""
    return SUIT_SYMBOLS.get(suit, suit)


def signed(value: int) -> str:
    """A score with its sign, as the whole app writes it: +75, −150, 0 (a real minus sign)."""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"


def pair_label(first: str, second: str, translate: Translate = identity) -> str:
    """Two partners named as one team, "Rami & Omar": the one wording of a team, whatever form
    its two names come in (whole, shortened, isolated; a `translate` that returns Markup
    escapes names that are not Markup already)."""
    return translate(TEAM).format(first=first, second=second)


def team_label(players: Sequence[str], team: int, translate: Translate = identity) -> str:
    """A partnership team named by its players, e.g. "Rami & Omar" for team 0."""
    first, second = TEAMS[team]
    return pair_label(players[first], players[second], translate)


def reason_label(reason: str | None, translate: Translate = identity) -> str:
    """Why a contract is closed, in a few words ("" when it is open)."""
    return translate(REASONS[reason]) if reason else ""


def field_label(
    contract: str,
    path: str,
    players: Sequence[str],
    translate: Translate = identity,
    rules: HouseRules | None = None,
) -> str:
    """A problem's field path in the reader's words: "Diamonds (Lina)", "Who took each queen";
    under the game's house `rules` where one changes what the field counts."""
    base = field_group(path)
    if base == "contract":
        return translate(CONTRACT_FIELD)
    words = CONTRACT_WORDS.get(contract)
    label = translate(words.field_for(base, rules) if words and base in words.fields else base)
    if "[" in path:
        index = int(path.split("[")[1].rstrip("]"))
        if base == "order":
            return f"{label} ({translate(PLACE_LABELS[index])})"
        if base == "last_two":
            return f"{label} ({translate(LAST_TRICK_LABELS[index])})"
        return f"{label} ({players[index]})"
    return label


def field_group(path: str) -> str:
    """The form field a problem's path belongs to: "counts[2]" → "counts"."""
    return path.split("[")[0].split(".")[0]


def problem_text(
    problem: Problem,
    contract: str,
    players: Sequence[str],
    translate: Translate = identity,
    label: str | None = None,
    translate_plural: TranslatePlural = english_plural,
    rules: HouseRules | None = None,
) -> str:
    """A refusal as a sentence in the reader's language (`label` names the field instead)."""
    if label is None:
        label = field_label(contract, problem.field, players, translate, rules)
    seat = problem.params.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(players):  # a refusal about one player
        problem = Problem(problem.field, problem.code, {**problem.params, "name": players[seat]})
    text = problem.render(translate, field_label=label, translate_plural=translate_plural)
    if text and text[-1] not in ".!?؟।":
        text = translate(SENTENCE_END).format(sentence=text)
    return text[:1].upper() + text[1:]
