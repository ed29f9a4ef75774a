"""A night's standings as a message to share, and the words that say how a night is scored.

Pure Python, no Flask, in the manner of :mod:`.share`: only the two marks every chat app
knows (no isolates, which many draw as boxes), where the order would otherwise come out wrong:
a right-to-left language starts each line with RLM, a name closes with its line's mark where
its letters run the other way, and a date starts with LRM (after Arabic letters its digits
would be Arabic numbers, read right to left between its hyphens).
"""

from __future__ import annotations

from ..rules.messages import N_
from ..stats.evening_model import Night
from .labels import Translate, identity
from .share import LRM, paragraph, plain_name

NIGHT_TITLE = N_("Night of %(day)s")
NIGHT_SCORING = N_("Points by place in each game: 3, 2, 1, 0; a tie shares them.")
"""The one line a shared night adds, saying how it was scored."""


def night_day(night: Night) -> str:
    """The day the night began, read left to right in every language: "2025-03-06" (LRM: after
    Arabic letters its digits would be Arabic numbers, their hyphens read right to left)."""
    return f"{LRM}{night.day or ''}"


def points_text(halves: int) -> str:
    """Night points written with a half: "4½", "½", "0"."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def places(night: Night) -> list[int]:
    """Each standing's place: 1 plus the players with more night points (ties share one)."""
    return [
        1 + sum(1 for other in night.standings if other.halves > player.halves)
        for player in night.standings
    ]


def night_text(
    night: Night, title: str, translate: Translate = identity, *, rtl: bool = False
) -> str:
    """The night's standings as lines of text: the title, each player's place and points, then
    how the night is scored."""
    lines = [title]
    for place, player in zip(places(night), night.standings, strict=True):
        points = points_text(player.halves)
        if rtl:  # "4½" left to right: the half between two LRMs, not drawn before the 4
            points = f"{LRM}{points}{LRM}"
        lines.append(f"{place}. {plain_name(player.name, rtl=rtl)} {points}")
    lines.append(translate(NIGHT_SCORING))
    return "\n".join(paragraph(line, rtl=rtl) for line in lines)
