"""A finished game's result as a message to share (a chat, a text): its title, then the
standings with the winners first, in the reader's words.

Pure Python, no Flask. Plain text has no ``dir``, and many chat apps draw the isolates of
Unicode 6.3 (U+2066–U+2069) as boxes, so the text carries only the two marks every system
knows, and only where the order would otherwise come out wrong (a chat shows a message in the
direction of its first letter):

- right-to-left: each line starts with RLM (a line may start with a Latin name); a name or
  title holding Latin letters is closed by RLM (else the score after it joins its run and is
  read before it); a score is LRM … RLM ("−250", never "250−", and the next name not drawn into
  its run);
- left-to-right: a line whose first letter is Arabic starts with LRM; a name or title holding
  Arabic letters is closed by LRM (else "Rami & عمر" and the score after it are read in the
  wrong order); scores need nothing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from ..rules import Replay
from ..rules.cards import TEAMS
from ..rules.messages import N_
from .labels import Translate, identity, pair_label, signed

WINNER = N_("Winner")
RLM, LRM = "\u200f", "\u200e"
RIGHT_TO_LEFT = frozenset({"R", "AL"})


def _holds(text: str, classes: frozenset[str]) -> bool:
    """Whether `text` has a letter of these bidirectional classes."""
    return any(unicodedata.bidirectional(char) in classes for char in text)


def plain_name(text: str, *, rtl: bool) -> str:
    """A name (or a title) as a line of plain text holds it: closed by the line's own mark
    where its letters run the other way, else as it is."""
    if rtl:
        return text + RLM if _holds(text, frozenset({"L"})) else text
    return text + LRM if _holds(text, RIGHT_TO_LEFT) else text


def plain_score(value: int, *, rtl: bool) -> str:
    """A signed score as a line of plain text holds it (left to right in Arabic too)."""
    return f"{LRM}{signed(value)}{RLM}" if rtl else signed(value)


def _ranked(totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Places from the first: the winners, then the rest, each by total (highest first; ties
    keep the order of play)."""
    return sorted(range(len(totals)), key=lambda place: (place not in winners, -totals[place]))


def result_text(
    result: Replay, title: str, translate: Translate = identity, *, rtl: bool = False
) -> str:
    """The standings of a finished game as lines of text, winners first (a partnership: the
    teams, then each player's total on one line)."""
    players = result.game.players
    winner = translate(WINNER)

    def name(text: str) -> str:
        return plain_name(text, rtl=rtl)

    def score(value: int) -> str:
        return plain_score(value, rtl=rtl)

    lines = [title]
    winners = result.winners or ()
    if result.team_totals is not None:
        teams = result.winning_teams or ()
        team_names = [
            pair_label(name(players[first]), name(players[second]), translate)
            for first, second in TEAMS
        ]
        for place, team in enumerate(_ranked(result.team_totals, teams), start=1):
            lines.append(
                f"{place}. {team_names[team]} {score(result.team_totals[team])}"
                + (f" · {winner}" if team in teams else "")
            )
        lines.append(
            " · ".join(
                f"{name(players[seat])} {score(result.totals[seat])}"
                for seat in _ranked(result.totals, ())
            )
        )
    else:
        for place, seat in enumerate(_ranked(result.totals, winners), start=1):
            lines.append(
                f"{place}. {name(players[seat])} {score(result.totals[seat])}"
                + (f" · {winner}" if seat in winners else "")
            )
    return "\n".join(paragraph(line, rtl=rtl) for line in lines)


def paragraph(line: str, *, rtl: bool) -> str:
    """A line started so a chat (which takes each paragraph's direction from its first letter)
    shows it in the reader's direction: RLM before every right-to-left line; LRM before a
    left-to-right one only when its first letter is Arabic (a name)."""
    if rtl:
        return RLM + line
    first = next(
        (kind for kind in map(unicodedata.bidirectional, line) if kind in ("L", "R", "AL")), "L"
    )
    return LRM + line if first != "L" else line
