"""The names the table reads, one table per concept: games, contracts, suits, cards, places,
the fields of a deal form; and a refusal of the engine as a sentence.

Pure Python, no Flask: the web views, the CSV export and the chart share these. Every word a
player reads goes through ``translate`` (Flask-Babel's ``gettext`` in the app, identity by
default); ``N_`` marks the English originals for the translation catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from ..rules.cards import SUIT_SYMBOLS, TEAMS
from ..rules.contracts import KING_OF_HEARTS_CARD
from ..rules.errors import Problem, TranslatePlural, english_plural
from ..rules.house_rules import HouseRules
from ..rules.messages import N_, REASONS

Translate = Callable[[str], str]


def identity(text: str) -> str:
    """The default `translate`: English as written."""
    return text


CONTRACT_LABELS: dict[str, str] = {
    # Trix and Trix Complex
    "king-of-hearts": N_("King of Hearts"),
    "queens": N_("Queens"),
    "diamonds": N_("Diamonds"),
    "ltoosh": N_("Ltoosh"),
    "trix": N_("Trix"),
    "complex": N_("Complex"),
    # Turkish King
    "trump": N_("Trump"),
    "no-king": N_("No King of Hearts"),
    "no-queens": N_("No Queens"),
    "no-boys": N_("No Boys"),
    "no-hearts": N_("No Hearts"),
    "no-last-two": N_("No Last Two"),
    "no-tricks": N_("No Tricks"),
}
"""Contract id → English display name (translated by the caller's `translate`)."""

NATIVE_NAMES: dict[str, str] = {
    "king-of-hearts": "شيخ الكبة",
    "queens": "بنات",
    "diamonds": "ديناري",
    "ltoosh": "لطوش",
    "trix": "تركس",
    "complex": "كمبلكس",
    "trump": "Koz",
    "no-king": "Rıfkı",
    "no-queens": "Kız almaz",
    "no-boys": "Erkek almaz",
    "no-hearts": "Kupa almaz",
    "no-last-two": "Son iki",
    "no-tricks": "El almaz",
}
"""Contract id → the name the game's home table uses (docs/rules.md); a proper name, not
translated."""

CONTRACT_SCORES: dict[str, str] = {
    "king-of-hearts": N_("%(score)s to whoever takes the K♥"),
    "queens": N_("%(score)s for each queen taken"),
    "diamonds": N_("%(score)s for each diamond taken"),
    "ltoosh": N_("%(score)s for each trick taken"),
    "trix": N_("Finishing order: 1st %(first)s, 2nd %(second)s, 3rd %(third)s, 4th %(fourth)s"),
    "complex": N_(
        "All four negative contracts in one deal: %(trick)s a trick, %(diamond)s a "
        "diamond, %(queen)s a queen, %(king)s for the K♥. The Q♦ is a diamond and a "
        "queen: %(both)s."
    ),
    "trump": N_(
        "%(score)s for each trick taken. The declarer names the trump suit (♠ ♥ ♦ ♣; "
        "no-trump is not allowed)."
    ),
    "no-king": N_("%(score)s to whoever takes the K♥"),
    "no-queens": N_("%(score)s for each queen taken"),
    "no-boys": N_("%(score)s for each king or jack taken"),
    "no-hearts": N_("%(score)s for each heart taken"),
    "no-last-two": N_("%(score)s for each of the last two tricks (the 12th and the 13th)"),
    "no-tricks": N_("%(score)s for each trick taken"),
}
"""Contract id → how it scores, for the rules page; its numbers are the engine's
(:func:`scorekeeper.rules.examples.contract_numbers` names them)."""

CONTRACT_NOTES: dict[str, str] = {
    "complex": N_(
        "Complex costs %(trick)s for every trick, with or without a card in it: the "
        "Complex text charges only tricks holding a diamond, a queen or the K♥ in one "
        "place, and every trick in its score list; the score list is used, so each "
        "kingdom adds up to zero."
    ),
}
"""Contract id → a note under the rules page's table of scores (numbers as above)."""

CONTRACT_CHECKS: dict[str, tuple[str, ...]] = {
    "diamonds": (
        N_(
            "Diamonds add up to %(diamonds)s and tricks add up to %(tricks)s; the K♥ and each "
            "queen have exactly one taker."
        ),
    ),
    "complex": (
        N_(
            "Complex: tricks add up to %(tricks)s and diamonds to %(diamonds)s; the K♥ and each "
            "queen have exactly one taker."
        ),
        N_(
            "A player who took no tricks took no cards, and the cards a player took fit in their "
            "tricks (at most 4 a trick)."
        ),
        N_("Whoever took the Q♦ took at least one diamond."),
    ),
    "trix": (N_("The Trix finishing order names each player exactly once."),),
}
"""Contract id → what the app checks in its deals, for a Trix game's rules page (in this order,
for the contracts the game plays); %(tricks)s, %(diamonds)s: what those counts add up to (or
at most), the engine's :func:`~scorekeeper.rules.examples.count_totals`."""

RULED_CONTRACT_SCORES: dict[tuple[str, str, str], str] = {
    ("complex", "complex_tricks", "penalty"): N_(
        "All four negative contracts in one deal: %(trick)s a trick that held a penalty card (a "
        "diamond, a queen or the K♥), %(diamond)s a diamond, %(queen)s a queen, %(king)s for the "
        "K♥. The Q♦ is a diamond and a queen: %(both)s."
    ),
}
RULED_CONTRACT_NOTES: dict[tuple[str, str, str], str] = {
    ("complex", "complex_tricks", "penalty"): N_(
        "Complex costs %(trick)s only for a trick that held a penalty card (a house rule): the "
        "Complex text charges such tricks in one place and every trick in its score list. The "
        "table enters, per player, the tricks that held one; a kingdom no longer adds up to "
        "zero."
    ),
}
RULED_CONTRACT_CHECKS: dict[tuple[str, str, str], tuple[str, ...]] = {
    ("complex", "complex_tricks", "penalty"): (
        N_(
            "Complex: each player's tricks that held a penalty card are 0 to %(tricks)s, at most "
            "%(tricks)s in all; diamonds add up to %(diamonds)s; the K♥ and each queen have "
            "exactly one taker."
        ),
        N_(
            "A player with no such trick took no penalty card; the cards a player took fit in "
            "those tricks (at most 4 a trick), and each of those tricks held at least one of "
            "them."
        ),
    ),
}
"""(contract, house rule, its value) → the rules page's words for the contract when that house
rule changes what it scores or checks (Complex's tricks under `complex_tricks` "penalty")."""

T = TypeVar("T")


def for_rules(
    contract: str,
    table: Mapping[str, T],
    ruled: Mapping[tuple[str, str, str], T],
    rules: HouseRules,
) -> T | None:
    """A contract's entry of `table`, or of `ruled` where one of the game's house `rules` has
    its own words for it; None when it has none."""
    return next(
        (
            text
            for (ruled_contract, rule, value), text in ruled.items()
            if ruled_contract == contract and str(getattr(rules, rule)) == value
        ),
        table.get(contract),
    )


def pgettext(context: str, text: str) -> str:
    """Mark `text` for the catalogues under `context` (Babel extracts ``pgettext`` calls as
    message context and id); return it unchanged. The caller translates it in that context."""
    del context
    return text


SEED_NAME_CONTEXT = "contract name in the rule texts"
SEED_NAMES: dict[str, str] = {
    "trump": pgettext("contract name in the rule texts", "Trump"),
    "no-king": pgettext("contract name in the rule texts", "No King of Hearts"),
    "no-queens": pgettext("contract name in the rule texts", "No Queens"),
    "no-boys": pgettext("contract name in the rule texts", "No Boys"),
    "no-hearts": pgettext("contract name in the rule texts", "No Hearts"),
    "no-last-two": pgettext("contract name in the rule texts", "No Last Two"),
    "no-tricks": pgettext("contract name in the rule texts", "No Tricks"),
}
"""Contract id → its name as the rule text a language's tables learn from writes it (Russian
seed 003: «Без червей», «Без взяток»); the rules page shows it beside the app's name where the
two differ (GLOSSARY.md)."""

HAND_CONTEXT = "turkish-king"
"""The message context of a game whose deal is a hand (Arabic يد)."""
HAND_MESSAGES = frozenset(
    {
        pgettext("turkish-king", "Deal"),
        pgettext("turkish-king", "Deal %(n)d"),
        pgettext("turkish-king", "Deal %(n)d of %(total)d"),
        pgettext("turkish-king", "Deal %(number)d saved."),
        pgettext("turkish-king", "Enter these taps as the next deal"),
        pgettext("turkish-king", "Deal %(number)d changed."),
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
"""(contract, field of its deal) → what the deal form calls it."""

RULED_FIELD_LABELS: dict[tuple[str, str, str, str], str] = {
    ("complex", "tricks", "complex_tricks", "penalty"): N_("Tricks that held a penalty card"),
}
"""(contract, field, house rule, its value) → what the field is called when that house rule
makes it count something else (Complex's tricks under `complex_tricks` "penalty")."""

CONTRACT_FIELD = N_("Contract")
SENTENCE_END = N_("{sentence}.")
"""A refusal closed as a sentence in the reader's script (Hindi "।")."""
TEAM = N_("{first} & {second}")
"""A partnership team: its two players' names (:func:`pair_label` is its one user)."""


def contract_label(contract_id: str, translate: Translate = identity) -> str:
    """A contract's display name, e.g. "King of Hearts" or "No Last Two" (the id if unknown)."""
    label = CONTRACT_LABELS.get(contract_id)
    return translate(label) if label is not None else contract_id


def contract_native_name(contract_id: str) -> str:
    """The contract's Arabic (Trix games) or Turkish (Turkish King) name, e.g. "Rıfkı"."""
    return NATIVE_NAMES.get(contract_id, "")


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
    label = FIELD_LABELS.get((contract, base), base)
    if rules is not None:
        label = next(
            (
                text
                for (ruled, name, rule, value), text in RULED_FIELD_LABELS.items()
                if (ruled, name) == (contract, base) and str(getattr(rules, rule)) == value
            ),
            label,
        )
    label = translate(label)
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
