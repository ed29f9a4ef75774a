"""Short forms of the players' names for a row of chips: first names, unique among the four,
cut to a chip's width at their end (pure Python, no Flask)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

SHORT_NAME_WIDTH = 6.0
"""How much of a name a chip shows, in widths of a Latin letter: five chips share a row at
360 px (the doubling rows: "nobody" and four names)."""
JOINED_WORDS = frozenset({"عبد", "أبو", "ابو", "أم", "ام", "بن", "ابن", "abd", "abu", "abdul"})
"""First words that make one name with the next: عبد الرحمن, أبو بكر, Abd al-Karim."""


def _width(char: str) -> float:
    """A character's width against a Latin letter's: joined Arabic letters are narrower, a
    vowel sign or virama takes none, a CJK ideograph twice as much."""
    category = unicodedata.category(char)
    if category[0] == "M" or category == "Cf":
        return 0.0
    if "\u0600" <= char <= "\u06ff" or "\u0750" <= char <= "\u077f":
        return 0.7
    if unicodedata.east_asian_width(char) in "WF":
        return 1.6
    return 1.0


def _first_words(words: list[str]) -> int:
    """How many of a name's words its first name takes: two for عبد الرحمن, أبو بكر."""
    return 2 if len(words) > 1 and words[0].casefold() in JOINED_WORDS else 1


def _first_name(words: list[str]) -> str:
    if _first_words(words) == 2:
        return words[0] + words[1]  # عبدالرحمن: written as one word when short
    return words[0] if words else ""


def _initial(word: str) -> str:
    """A last name's initial: الشامي's is ش (the article ال is not the name)."""
    return word[2] if word.startswith("ال") and len(word) > 2 else word[0]


def _cut(text: str, room: float = SHORT_NAME_WIDTH) -> str:
    """What fits `room`, cut at the end (never the start) with an ellipsis, between letters
    and not inside one (a vowel sign or virama stays with its letter)."""
    if sum(map(_width, text)) <= room:
        return text
    kept, width = "", 0.0
    for char in text:
        width += _width(char)
        if width > room - 1:
            break
        kept += char
    while len(kept) > 1 and unicodedata.category(kept[-1])[0] != "L":
        kept = kept[:-1]  # end on a letter: no dangling virama, hyphen or space
    return kept + "…"


def short_names(players: Sequence[str]) -> tuple[str, ...]:
    """The names a row of chips shows: each player's first name (with the last name's initial
    where two share one), cut to a chip's width at its end, unique among the four; a name that
    fits stays whole. Score cards and the history keep the full names."""
    words = [name.split() for name in players]
    short = [name if sum(map(_width, name)) <= SHORT_NAME_WIDTH else _cut(_first_name(parts))
             for name, parts in zip(players, words, strict=True)]
    for name in list(short):
        twins = [seat for seat in range(len(short)) if short[seat].casefold() == name.casefold()]
        if len(twins) > 1:
            for seat in twins:
                parts = words[seat]
                if len(parts) > _first_words(parts):
                    initial = f" {_initial(parts[-1])}."  # the last name's initial tells them apart
                    short[seat] = _cut(_first_name(parts),
                                       SHORT_NAME_WIDTH - sum(map(_width, initial))) + initial
    alike = [name.casefold() for name in short]
    # still alike: those players' full names (clipped at their end by the chip if need be)
    return tuple(players[seat] if alike.count(alike[seat]) > 1 else short[seat]
                 for seat in range(len(short)))
