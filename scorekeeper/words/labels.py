"""The names the table reads, one table per concept: games, contracts, suits, cards, places,
the fields of a deal form; and a refusal of the engine as a sentence.

Pure Python, no Flask: the web views, the CSV export and the chart share these. Every word a
player reads goes through ``translate`` (Flask-Babel's ``gettext`` in the app, identity by
default); ``N_`` marks the English originals for the translation catalogues.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..rules.cards import SUIT_SYMBOLS, TEAMS
from ..rules.contracts import KING_OF_HEARTS_CARD
from ..rules.errors import Problem, TranslatePlural, english_plural
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
"""Contract id → the name the game's home table uses (RULES.md); a proper name, not translated."""

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
    "S": N_("Q♠"), "H": N_("Q♥"), "D": N_("Q♦"), "C": N_("Q♣"), KING_OF_HEARTS_CARD: N_("K♥"),
}
"""A card a deal records (a queen by its suit letter, the K♥) → its short name."""

PLACE_LABELS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
"""Trix: the places of the finishing order."""
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

CONTRACT_FIELD = N_("Contract")
TEAM = N_("{first} & {second}")

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


def team_label(players: Sequence[str], team: int, translate: Translate = identity) -> str:
    """A partnership team named by its players, e.g. "Rami & Omar" for team 0."""
    first, second = TEAMS[team]
    return translate(TEAM).format(first=players[first], second=players[second])


SHORT_NAME_WIDTH = 6.0
"""How much of a name a chip shows, in widths of a Latin letter: five chips share a row at
360 px (the doubling rows: "nobody" and four names)."""
NAME_WIDTHS = (14.0, 10.0, SHORT_NAME_WIDTH)
"""The widths a name's shorter forms are made for, widest first: the page shows the widest that
fits its place (a score card, a chip, a column), the last one without JavaScript."""
JOINED_WORDS = frozenset({"عبد", "أبو", "ابو", "أم", "ام", "بن", "ابن", "abd", "abu", "abdul"})
"""First words that make one name with the next: عبد الرحمن, أبو بكر, Abd al-Karim."""
ELLIPSIS = "…"


def _width(char: str) -> float:
    """A character's width against a Latin letter's: joined Arabic letters are narrower, a
    vowel sign or virama takes none, a CJK ideograph twice as much."""
    category = unicodedata.category(char)
    if category[0] == "M" or category == "Cf":
        return 0.0
    if char == ELLIPSIS:  # as wide as a capital M in most fonts
        return 1.5
    if "\u0600" <= char <= "\u06ff" or "\u0750" <= char <= "\u077f":
        return 0.7
    if unicodedata.east_asian_width(char) in "WF":
        return 1.6
    return 1.0


def text_width(text: str) -> float:
    """A text's width in widths of a Latin letter (an estimate, see _width)."""
    return sum(map(_width, text))


def _first_words(words: list[str]) -> int:
    """How many of a name's words its first name takes: two for عبد الرحمن, أبو بكر."""
    return 2 if len(words) > 1 and words[0].casefold() in JOINED_WORDS else 1


def _joins(before: str, after: str) -> bool:
    """Whether a cut between two characters would split a letter from its vowel sign, or a
    conjunct at its virama (क्ष): such a cut is never made."""
    return (unicodedata.category(after)[0] == "M" or unicodedata.combining(before) == 9
            or unicodedata.category(after) == "Cf" or unicodedata.category(before) == "Cf")


def _heads(name: str) -> list[str]:
    """The starts of a name it may be cut after, longest first: each ends on a letter or its
    vowel sign (never a space, a hyphen or a dangling virama) and keeps every space it has."""
    return [name[:end] for end in range(len(name) - 1, 0, -1)
            if unicodedata.category(name[end - 1])[0] in "LNM"
            and not _joins(name[end - 1], name[end])]


def _tails(name: str) -> list[str]:
    """The ends of a name a cut may keep, shortest first, each starting on a letter."""
    return [name[start:] for start in range(len(name) - 1, 0, -1)
            if unicodedata.category(name[start])[0] in "LN"
            and not _joins(name[start - 1], name[start])]


class _Form(NamedTuple):
    """A start of a name, the "…" that stands for what is left out, and maybe its end."""

    head: str
    tail: str = ""
    cut: bool = True
    spaced: bool = False  # a space of the name stands right before the end it keeps

    def text(self) -> str:
        if not self.cut:
            return self.head
        return self.head + ELLIPSIS + (" " if self.spaced else "") + self.tail

    def fits(self, room: float) -> bool:
        return text_width(self.text()) <= room

    def names(self, name: str) -> bool:
        """Whether a reader could take this form for `name` (case and Unicode forms aside):
        "Maria…" could be Maria, cut where her name ends."""
        name, head, tail = (unicodedata.normalize("NFC", text).casefold()
                            for text in (name, self.head, self.tail))
        if not self.cut:
            return name == head or name.startswith(head + " ")
        return (len(name) >= len(head) + len(tail) and name.startswith(head)
                and name.endswith(tail))


def _form(players: Sequence[str], seat: int, room: float) -> str:
    """The widest form of a player's name within `room` that no other of the four could be
    read as (see name_forms); else the narrowest that is (the whole name if none is)."""
    name = players[seat]
    others = [other for place, other in enumerate(players) if place != seat]

    def clear(form: _Form) -> bool:
        return not any(form.names(other) for other in others)

    whole = _Form(name, cut=False)
    if whole.fits(room):
        return name
    words = name.split(" ")
    first = " ".join(words[:_first_words(words)])
    candidates = [_Form(first, cut=False)] if first != name else []
    candidates += [_Form(head) for head in _heads(name)]
    for tail in _tails(name):
        rest = name[:len(name) - len(tail)]
        spaced = rest.endswith(" ")
        candidates += [_Form(head, tail, spaced=spaced) for head in _heads(rest.rstrip())
                       if rest[len(head):].strip()]  # something left out, not a lone space
    clear_forms = [form for form in candidates if clear(form)]
    for form in clear_forms:
        if form.fits(room):
            return form.text()
    # nothing that narrow tells this name apart (another is its start): the narrowest that does
    if not clear_forms:
        return name
    return min(clear_forms, key=lambda form: text_width(form.text())).text()


def name_forms(players: Sequence[str], room: float) -> tuple[str, ...]:
    """The four names as a place `room` Latin letters wide shows them: each the whole name if it
    fits, else its first name, else its start cut with "…" (and, where the four start alike,
    with its end: "Abdu…h", "Abdu…m"), never changing its spelling (every space kept) and never
    a form that could be read as another of the four ("Maria…" beside "Maria" is not)."""
    return tuple(_form(players, seat, room) for seat in range(len(players)))


def short_names(players: Sequence[str]) -> tuple[str, ...]:
    """The names a row of chips shows without JavaScript: name_forms at a chip's width."""
    return name_forms(players, SHORT_NAME_WIDTH)


def all_name_forms(players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Per player, the forms of their name from the whole name to the narrowest (NAME_WIDTHS),
    each once: a page shows the first that fits its place."""
    levels = [tuple(players)] + [name_forms(players, room) for room in NAME_WIDTHS]
    return tuple(tuple(dict.fromkeys(level[seat] for level in levels))
                 for seat in range(len(players)))


def card_label(card: str, translate: Translate = identity) -> str:
    """A recorded card's short name, e.g. "S" → "Q♠", "KH" → "K♥"."""
    return translate(CARD_LABELS[card])


def reason_label(reason: str | None, translate: Translate = identity) -> str:
    """Why a contract is closed, in a few words ("" when it is open)."""
    return translate(REASONS[reason]) if reason else ""


def field_label(contract: str, path: str, players: Sequence[str],
                translate: Translate = identity) -> str:
    """A problem's field path in the reader's words: "Diamonds (Lina)", "Who took each queen"."""
    base = field_group(path)
    if base == "contract":
        return translate(CONTRACT_FIELD)
    label = translate(FIELD_LABELS.get((contract, base), base))
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


def problem_text(problem: Problem, contract: str, players: Sequence[str],
                 translate: Translate = identity, label: str | None = None,
                 translate_plural: TranslatePlural = english_plural) -> str:
    """A refusal as a sentence in the reader's language (`label` names the field instead)."""
    if label is None:
        label = field_label(contract, problem.field, players, translate)
    seat = problem.params.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(players):  # a refusal about one player
        problem = Problem(problem.field, problem.code, {**problem.params, "name": players[seat]})
    text = problem.render(translate, field_label=label, translate_plural=translate_plural)
    if text and text[-1] not in ".!?؟":
        text += "."
    return text[:1].upper() + text[1:]
