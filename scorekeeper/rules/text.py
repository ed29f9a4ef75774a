"""Text the table types: names and notes are shown to everyone at the table.

One cleaning function and one set of limits, for the forms and for imported records alike.
"""

from __future__ import annotations

import unicodedata

PLAYER_NAME_LENGTH = 40
"""A player's name, in characters (after cleaning)."""
GAME_NAME_LENGTH = 80
"""The evening's name for a game."""
NOTES_LENGTH = 2000
"""A game's notes."""

# Bidi embedding/override/isolate controls: a name must not reorder the text around it.
_BIDI_CONTROLS = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def clean_text(value: object, *, multiline: bool = False) -> str | None:
    """Strip control characters and bidi overrides, trim; None stays None."""
    if value is None:
        return None
    text = str(value)
    kept = []
    for char in text:
        if char in _BIDI_CONTROLS:
            continue
        if multiline and char == "\n":
            kept.append(char)
            continue
        if unicodedata.category(char) in ("Cc", "Cf") and char not in "\u200c\u200d":
            continue
        kept.append(char)
    return "".join(kept).strip()
