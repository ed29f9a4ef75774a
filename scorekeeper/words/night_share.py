"""A night's standings as a message to share, and the words that say how a night is scored.

Pure Python, no Flask, in the manner of :mod:`.share`: a right-to-left language marks each
line right-to-left (RLM), every name is isolated (FSI … PDI) and every figure is an isolated
left-to-right run.
"""

from __future__ import annotations

from ..rules.messages import N_
from ..stats.evening_model import Night
from .labels import Translate, identity
from .share import FSI, LRI, PDI, RLM

NIGHT_TITLE = N_("Night of %(day)s")
NIGHT_SCORING = N_("Points by place in each game: 3, 2, 1, 0; a tie shares them.")
"""The one line a shared night adds, saying how it was scored."""


def night_day(night: Night) -> str:
    """The day the night began, as a left-to-right run (a date reads the same in Arabic)."""
    return f"{LRI}{night.day or ''}{PDI}"


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
        lines.append(f"{place}. {FSI}{player.name}{PDI} {LRI}{points_text(player.halves)}{PDI}")
    lines.append(translate(NIGHT_SCORING))
    if rtl:
        lines = [RLM + line for line in lines]
    return "\n".join(lines)
