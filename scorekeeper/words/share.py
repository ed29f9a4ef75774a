"""A finished game's result as a message to share (a chat, a text): its title, then the
standings with the winners first, in the reader's words.

Pure Python, no Flask. Plain text has no ``dir``: a right-to-left language marks each line
right-to-left (RLM), every name is isolated (FSI … PDI) so a Latin name inside Arabic keeps its
place, and every score is an isolated left-to-right run ("−250", never "250−").
"""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Replay
from ..rules.cards import TEAMS
from ..rules.messages import N_
from .labels import Translate, identity, pair_label, signed

WINNER = N_("Winner")
RLM, LRI, FSI, PDI = "\u200f", "\u2066", "\u2068", "\u2069"


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
        return f"{FSI}{text}{PDI}"

    def score(value: int) -> str:
        return f"{LRI}{signed(value)}{PDI}"

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
    if rtl:
        lines = [RLM + line for line in lines]
    return "\n".join(lines)
