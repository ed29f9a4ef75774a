"""What every command prints about something it was given: one line, whatever the input holds."""

from __future__ import annotations

_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def one_line(text: str) -> str:
    """The text with any line break escaped: a refusal is one line however odd a key is."""
    return "".join(
        ch.encode("unicode_escape").decode("ascii") if ch in _LINE_BREAKS else ch for ch in text
    )
