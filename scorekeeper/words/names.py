"""The forms of the players' names for places that may be too narrow for them (a chip, a score
card, a column, the chart's legend): the whole name where it fits, else a form no other of the
four could be read as, spelt as written (pure Python, no Flask)."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

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
    return (
        unicodedata.category(after)[0] == "M"
        or unicodedata.combining(before) == 9
        or unicodedata.category(after) == "Cf"
        or unicodedata.category(before) == "Cf"
    )


def _heads(name: str) -> list[str]:
    """The starts of a name it may be cut after, longest first: each ends on a letter or its
    vowel sign (never a space, a hyphen or a dangling virama) and keeps every space it has."""
    return [
        name[:end]
        for end in range(len(name) - 1, 0, -1)
        if unicodedata.category(name[end - 1])[0] in "LNM" and not _joins(name[end - 1], name[end])
    ]


def _tails(name: str) -> list[str]:
    """The ends of a name a cut may keep, shortest first, each starting on a letter."""
    return [
        name[start:]
        for start in range(len(name) - 1, 0, -1)
        if unicodedata.category(name[start])[0] in "LN" and not _joins(name[start - 1], name[start])
    ]


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

    def names_any(self, read_names: Sequence[str]) -> bool:
        """Whether a reader could take this form for one of `read_names` (each as `_read` gives
        it: case and Unicode forms aside): "Maria…" could be Maria, cut where her name ends."""
        head, tail = _read(self.head), _read(self.tail)
        if not self.cut:
            return any(name == head or name.startswith(head + " ") for name in read_names)
        return any(
            len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)
            for name in read_names
        )


def _read(text: str) -> str:
    """A text as a reader compares it: one Unicode form, case aside."""
    return unicodedata.normalize("NFC", text).casefold()


def _candidates(name: str) -> list[_Form]:
    """A name's shorter forms, the one a table would rather read first: people are called by
    their first name, so every form that keeps it whole comes before any that cuts it.

    1. the first name alone ("Muhammed");
    2. the first name and the last word, what lies between left out ("عبدالله… العتيبي");
    3. the first name and a start of what follows, longest first ("Александр Пе…");
    4. the first name and an end of the name, shortest first ("Abdullah…h");
    5. a start of the name, longest first, then a start and an end ("Abdu…h")."""
    words = name.split(" ")
    first = " ".join(words[: _first_words(words)])
    if first == name:
        rest_words: list[str] = []
    else:
        rest_words = name[len(first) + 1 :].split(" ")
    keeping: list[_Form] = []
    others: list[_Form] = []
    if rest_words:
        keeping.append(_Form(first, cut=False))
    if len([word for word in rest_words if word]) >= 2 and rest_words[-1]:
        keeping.append(_Form(first, rest_words[-1], spaced=True))
    for head in _heads(name):
        (keeping if len(head) > len(first) + 1 else others).append(_Form(head))
    for tail in _tails(name):
        rest = name[: len(name) - len(tail)]
        spaced = rest.endswith(" ")
        for head in _heads(rest.rstrip()):
            if rest[len(head) :].strip():  # something left out, not a lone space
                form = _Form(head, tail, spaced=spaced)
                (keeping if head == first and rest_words else others).append(form)
    return keeping + others


def _form(players: Sequence[str], seat: int, room: float) -> str:
    """The form of a player's name a table would rather read (see _candidates) within `room`
    that no other of the four could be read as (see name_forms); else the narrowest that is
    (the whole name if none is)."""
    name = players[seat]
    if _Form(name, cut=False).fits(room):
        return name
    others = [_read(other) for place, other in enumerate(players) if place != seat]
    narrowest, narrowest_width = name, math.inf  # (none tells this name apart: the whole name)
    for form in _candidates(name):
        text = form.text()
        width = text_width(text)
        if width <= room:
            if not form.names_any(others):
                return text
        elif width < narrowest_width and not form.names_any(others):
            # nothing that narrow tells this name apart (another is its start) so far: the
            # narrowest form that does, in case none within `room` does
            narrowest, narrowest_width = text, width
    return narrowest


def name_forms(players: Sequence[str], room: float) -> tuple[str, ...]:
    """The four names as a place `room` Latin letters wide shows them: each the whole name if it
    fits, else a shorter form that keeps the first name if one fits ("Александр Пе…",
    "عبدالله… العتيبي"), else a start cut with "…" (and, where the four start alike, with its
    end: "Abdu…h", "Abdu…m"), never changing its spelling (every space kept) and never a form
    that could be read as another of the four ("Maria…" beside "Maria" is not)."""
    return tuple(_form(players, seat, room) for seat in range(len(players)))


def short_names(players: Sequence[str]) -> tuple[str, ...]:
    """The names a row of chips shows without JavaScript: name_forms at a chip's width."""
    return name_forms(players, SHORT_NAME_WIDTH)


@lru_cache(maxsize=4096)
def all_name_forms(players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Per player, the form of their name at each width, from the whole name to the narrowest
    (NAME_WIDTHS), one per width (repeated where a narrower width changes nothing), so the
    names side by side in a place take the same width's forms: cut evenly, not one whole beside
    one cut. A page shows the first width at which all of them fit.

    Kept for the last 4,096 tables of four asked of (a busy night's; a page, or a phone's engine
    painting each tap, asks for the same four names again and again: four long names alike took
    60 ms to form on a laptop)."""
    levels = [tuple(players)] + [name_forms(players, room) for room in NAME_WIDTHS]
    return tuple(tuple(level[seat] for level in levels) for seat in range(len(players)))
