"""Text the table types: names and notes are shown to everyone at the table.

One set of limits and one set of functions, for the forms and for game records alike
(docs/record-format.md): a player's name holding a control character or a bidi override is refused,
and so is one with nothing visible in it; the game's name and notes are cleaned of such
characters, then refused when longer than their limit.
"""

from __future__ import annotations

import unicodedata

from .errors import Problem


def player_key(name: str) -> str:
    """Who a name is: the one identity of a player in a game's check, at a table's roster and
    in the statistics. NFC, surrounding spaces stripped, case folded: "Ayşe", " ayşe " and
    "AYŞE" (composed or with a combining cedilla) are one person."""
    folded = unicodedata.normalize("NFC", name).strip().casefold()
    # case folding can leave a decomposed sequence (e.g. "İ" → "i̇"): compose again
    return unicodedata.normalize("NFC", folded)


PLAYER_NAME_LENGTH = 40
"""A player's name, in characters."""
GAME_NAME_LENGTH = 80
"""The evening's name for a game (after cleaning)."""
NOTES_LENGTH = 2000
"""A game's notes (after cleaning)."""
TEXT_LIMITS = {"name": GAME_NAME_LENGTH, "notes": NOTES_LENGTH}
"""The record's own text fields and their limits; notes keep their line breaks."""

# Bidi embedding/override/isolate controls: a name must not reorder the text around it.
_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# ... and the marks cleaning also drops from the game's name and notes
_STRIPPED = _BIDI_OVERRIDES | frozenset("\u200e\u200f\u061c")
# letters that draw nothing (Hangul and half-width fillers, the blank Braille pattern)
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me"})


def is_unencodable(char: str) -> bool:
    """A lone surrogate (U+D800–U+DFFF): no UTF-8 text can hold it."""
    return "\ud800" <= char <= "\udfff"


def has_lone_surrogate(text: str) -> bool:
    """Whether the text holds a character UTF-8 cannot encode."""
    return any(is_unencodable(char) for char in text)


def repaired(text: str) -> str:
    """The text with each lone surrogate replaced by U+FFFD (a pair stored as its two halves
    becomes its character): what a page or a file can always hold."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def lone_surrogate_at(value: object, path: str = "") -> str | None:
    """Where a parsed JSON value first holds a lone surrogate (in a key or a string), as a
    record's field path ("players[1]", "deals[3].contract"), or None."""
    if isinstance(value, str):
        return path or "value" if has_lone_surrogate(value) else None
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate_at(item, f"{path}[{index}]")
            if found is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{repaired(key)}" if path else repaired(key)
            if has_lone_surrogate(key):
                return where
            found = lone_surrogate_at(item, where)
            if found is not None:
                return found
    return None


def clean_text(value: object, *, multiline: bool = False) -> str | None:
    """Strip control characters, lone surrogates and bidi overrides, trim; None stays None."""
    if value is None:
        return None
    text = str(value)
    kept = []
    for char in text:
        if char in _STRIPPED or is_unencodable(char):
            continue
        if multiline and char == "\n":
            kept.append(char)
            continue
        if unicodedata.category(char) in ("Cc", "Cf") and char not in "\u200c\u200d":
            continue
        kept.append(char)
    return "".join(kept).strip()


def table_text(key: str, value: str | None) -> tuple[str | None, Problem | None]:
    """The game's `name` or `notes` cleaned as stored (None when empty), and the Problem when
    it is longer than its limit, or holds a lone surrogate."""
    text = clean_text(value, multiline=key == "notes") or None
    if value is not None and has_lone_surrogate(value):
        return text, Problem(key, "lone_surrogate")
    limit = TEXT_LIMITS[key]
    if text is not None and len(text) > limit:
        return text, Problem(key, "long_text", {"maximum": limit})
    return text, None


def is_visible(text: str) -> bool:
    """Whether the text draws anything: not only spaces, joiners, marks and fillers."""
    return any(
        not char.isspace()
        and char not in _BLANK_LETTERS
        and unicodedata.category(char) not in _INVISIBLE_CATEGORIES
        for char in text
    )


def name_problem(path: str, name: str) -> Problem | None:
    """Why a player's name is refused: a control character or bidi override inside it (spaces,
    tabs and line breaks around it are ignored, as when names are compared) or a lone
    surrogate anywhere, nothing visible, or too long."""
    if has_lone_surrogate(name) or any(
        char in _BIDI_OVERRIDES or unicodedata.category(char) == "Cc" for char in name.strip()
    ):
        return Problem(path, "control_in_name")
    if not is_visible(name):
        return Problem(path, "blank_name")
    if len(name) > PLAYER_NAME_LENGTH:
        return Problem(path, "long_name", {"maximum": PLAYER_NAME_LENGTH})
    return None
