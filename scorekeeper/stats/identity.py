"""Who a player is across games: a name compared as the table reads it."""

from __future__ import annotations

import unicodedata


def player_key(name: str) -> str:
    """The identity of a person across games: NFC, surrounding spaces stripped, case folded.

    "Ayşe", " ayşe " and "AYŞE" (composed or with a combining cedilla) are one person.
    """
    folded = unicodedata.normalize("NFC", name).strip().casefold()
    # case folding can leave a decomposed sequence (e.g. "İ" → "i̇"): compose again
    return unicodedata.normalize("NFC", folded)
