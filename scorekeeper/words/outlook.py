"""Can still win? The engine's outlook of a game (:mod:`scorekeeper.rules.outlook`) in the
reader's words: what each player (or team) can still add, who can no longer win, and whether the
game is decided. Names are listed, never the subject of a verb, so the words fit any player."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Replay
from ..rules.house_rules import Winners
from ..rules.messages import N_
from ..rules.outlook import outlook
from .game_view import isolated
from .labels import LIST_SEPARATOR, Translate, signed, team_label

EACH_PLAYER = N_("Each player can still add %(lowest)s to %(highest)s.")
EACH_TEAM = N_("Each team can still add %(lowest)s to %(highest)s.")
OUT_OF_REACH = N_("Can no longer reach the leader: %(names)s.")
DECIDED = N_("Decided: the win goes to %(name)s.")
NEVER_ABOVE = N_("Can no longer finish above zero: %(names)s.")
SURE_ABOVE = N_("Sure to finish above zero: %(names)s.")
SETTLED = N_("The game is decided.")


def _number(value: int) -> str:
    return f"\u2066{signed(value)}\u2069"


def outlook_lines(result: Replay, players: Sequence[str], translate: Translate) -> list[str]:
    """A game in progress's outlook as short sentences (none once it is finished): the range
    first, then who can no longer win, or that the game is decided."""
    if result.finished:
        return []
    seen = outlook(result)
    team = result.team_totals is not None

    def names(sides: Sequence[int]) -> str:
        return translate(LIST_SEPARATOR).join(
            isolated(team_label(players, side, translate) if team else players[side])
            for side in sides
        )

    # each number left to right, isolated: "−195", never "195−", in a right-to-left sentence (a
    # first-strong isolate holds nothing strong here, and Chromium then takes the line's way)
    numbers = {"lowest": _number(seen.lowest), "highest": _number(seen.highest)}
    lines = [translate(EACH_TEAM if team else EACH_PLAYER) % numbers]
    if result.game.house_rules.winners == Winners.POSITIVE:
        if seen.decided is not None:
            lines.append(translate(SETTLED))
        if seen.sure:
            lines.append(translate(SURE_ABOVE) % {"names": names(seen.sure)})
        if seen.out:
            lines.append(translate(NEVER_ABOVE) % {"names": names(seen.out)})
    elif seen.decided is not None:
        lines.append(translate(DECIDED) % {"name": names(seen.decided)})
    elif seen.out:
        lines.append(translate(OUT_OF_REACH) % {"names": names(seen.out)})
    return lines
