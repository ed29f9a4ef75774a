"""What every game view needs: find the game by its link, remember it, replay it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import abort, request, session

from ..kept import Kept
from ..models import GameRow
from ..rules import Game, Replay, replay
from ..store import find_game, game_of
from . import presenters

REMEMBERED_GAMES = 60  # the session cookie must stay under 4 KB


def row_or_404(token: str, finder: Callable[[str], GameRow | None]) -> GameRow:
    """The game `finder` returns for a link's token; 404 (saying nothing more) if none."""
    if not token or len(token) > 64:
        abort(404)
    row = finder(token)
    if row is None:
        abort(404)
    return row


def game_or_404(token: str) -> GameRow:
    """The game behind a scorekeeper link, remembered on this browser's home page when opened
    (a GET: whoever saves a deal or an edit has the game open already, and not rewriting the
    session cookie spares every save the cookie's signing and compression)."""
    row = row_or_404(token, find_game)
    if request.method == "GET":
        remember(row.token)
    return row


def remember(token: str) -> None:
    """Keep the game on this browser's home page."""
    tokens: list[str] = [t for t in session.get("games", []) if isinstance(t, str)]
    if tokens[:1] == [token]:
        return
    tokens = [token] + [t for t in tokens if t != token]
    session["games"] = tokens[:REMEMBERED_GAMES]


def forget(token: str) -> None:
    """Drop a deleted game from this browser's list."""
    session["games"] = [t for t in session.get("games", []) if t != token]


@dataclass
class GameView:
    """A game as the templates see it: the row, the engine's game and its replay."""

    row: GameRow
    game: Game
    result: Replay

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    def template_args(self, **extra: Any) -> dict[str, Any]:
        """Arguments for game.html and the pages built on it."""
        result = self.result
        standings = sorted(range(4), key=lambda seat: -result.totals[seat])
        return {
            "row": self.row, "game": self.game, "result": result, "players": self.players,
            "definition": self.game.definition, "next": result.next,
            "grid": presenters.kingdom_grid(result) if self.game.definition.kingdoms else None,
            "standings": standings, "partnership": result.team_totals is not None,
            **extra,
        }


def game_view(row: GameRow) -> GameView:
    """Replay a stored game (whose first chooser is known).

    The engine's game and replay are immutable and every write bumps the row's version, so they
    are kept per process by (token, version): the game page, each preview and the save of the
    same state replay it once."""
    key = (row.token, row.version)
    found = _replays.get(key)
    if found is None:
        game = game_of(row)
        found = (game, replay(game))
        _replays.put(key, found)
    return GameView(row, *found)


def remember_replay(row: GameRow, game: Game, result: Replay) -> None:
    """Keep a replay made elsewhere (a save's) for the row's current version."""
    _replays.put((row.token, row.version), (game, result))


_replays: Kept[tuple[str, int], tuple[Game, Replay]] = Kept(512)


def is_number(value: str) -> bool:
    """ASCII digits only, and few of them: str.isdigit() also passes "²" and "٣", which int()
    refuses or reads, and int() refuses strings of thousands of digits."""
    return value.isascii() and value.isdigit() and len(value) <= 12


def is_htmx() -> bool:
    """An htmx request that wants a fragment (boosted navigations get whole pages)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-Boosted")
