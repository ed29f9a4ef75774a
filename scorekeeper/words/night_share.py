"""A night's standings as a message to share, and the words that say how a night is scored.

Pure Python, no Flask, in the manner of :mod:`.share`: only the two marks every chat app
knows (no isolates, which many draw as boxes), where the order would otherwise come out wrong:
a right-to-left language starts each line with RLM, and a name closes with its line's mark where
its letters run the other way. A night's day is said in the reader's words (`dates.day_text`).
"""

from __future__ import annotations

from datetime import datetime

from ..rules.messages import N_
from ..stats.evening_model import Night
from .labels import Translate, identity
from .share import LRM, paragraph, plain_name

NIGHT_TITLE = N_("Night of %(day)s")
NIGHT_SCORING = N_("Points by place in each game: 3, 2, 1, 0; a tie shares them.")
"""The one line a shared night adds, saying how it was scored."""


def night_day(night: Night, language: str) -> str:
    """The day the night began, in the reader's words and the server's zone, as game cards say
    it: "Mar 6, 2025", «6 مارس 2025», «6 мар. 2025 г.» (CSV files keep the ISO date)."""
    if not night.first:
        return ""
    # (here: Babel's calendars are not for `scorekeeper stats`, which never says a day)
    from .dates import day_text

    try:
        began = datetime.fromisoformat(night.first)
    except ValueError:  # a stamp the record wrote otherwise: its date as written
        return f"{LRM}{night.day or ''}"
    return day_text(began, language)


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
