"""What every game view needs: find the game by its link, remember it, replay it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from flask import Response, abort, request, session
from werkzeug.http import dump_options_header

from ...rules import Game, Replay
from ...rules.text import has_lone_surrogate
from ...store.deals import Kept
from ...store.games import find_game, find_game_by_view_token
from ...store.models import GameRow, TableRow
from ...store.tables import find_table, find_table_by_view_token
from ...words.game_view import kingdom_grid, standings
from ..caches import replay_of
from ..languages import current_language, gettext, live_etag, use_words_of

REMEMBERED_GAMES = 60  # the session cookie must stay under 4 KB
REMEMBERED_TABLES = 12
POLL_SECONDS = 3
"""How often the view link, and a scorekeeper's game page, ask whether the game changed."""
OFFLINE_HEADER = "Scorekeeper-Offline"
"""On a whole game page the service worker may keep (static/js/sw.js): a started game's page
as a scorekeeper sees it, nothing else (never a view link's)."""


def game_or_404(token: str) -> GameRow:
    """The game behind a scorekeeper link, remembered on this browser's home page when opened
    (a GET: whoever saves a deal has the game open already)."""
    row = find_game(token)
    if row is None:
        abort(404)
    use_words_of(row.game)
    if request.method == "GET":
        remember(row.token)
    return row


def viewed_or_404(view_token: str) -> GameRow:
    """The game behind a view link; 404 if none. Never remembered: a viewer may not write."""
    row = find_game_by_view_token(view_token)
    if row is None:
        abort(404)
    use_words_of(row.game)
    return row


def _links(kind: str) -> list[str]:
    return [token for token in session.get(kind, []) if isinstance(token, str)]


def _keep(kind: str, token: str, most: int) -> None:
    tokens = _links(kind)
    if tokens[:1] != [token]:  # unchanged, the session is not rewritten (nor its cookie sent)
        session[kind] = ([token] + [t for t in tokens if t != token])[:most]


def remembered() -> list[str]:
    """The scorekeeper links this browser opened, most recent first."""
    return _links("games")


def remember(token: str) -> None:
    """Keep the game on this browser's home page."""
    _keep("games", token, REMEMBERED_GAMES)


def forget(token: str) -> None:
    """Drop a deleted game from this browser's list."""
    session["games"] = [t for t in remembered() if t != token]


def table_or_404(token: str) -> TableRow:
    """The table behind a scorekeeper link, remembered on this browser's home page (GET)."""
    table = find_table(token)
    if table is None:
        abort(404)
    if request.method == "GET":
        remember_table(table.token)
    return table


def viewed_table_or_404(view_token: str) -> TableRow:
    """The table behind a view link; 404 if none. Never remembered."""
    table = find_table_by_view_token(view_token)
    if table is None:
        abort(404)
    return table


def remembered_tables() -> list[str]:
    """The tables' scorekeeper links this browser opened, most recent first."""
    return _links("tables")


def remember_table(token: str) -> None:
    """Keep the table on this browser's home page."""
    _keep("tables", token, REMEMBERED_TABLES)


@dataclass(frozen=True)
class GameView:
    """A started game as the templates see it: the row and the engine's replay of it."""

    row: GameRow
    result: Replay

    @property
    def game(self) -> Game:
        return self.result.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.result.game.players

    def template_args(self, **extra: Any) -> dict[str, Any]:
        """Arguments for the game page and the fragments that redraw its parts: the game's
        (:meth:`game_args`), the kingdoms' grid and the standings' order."""
        result = self.result
        return self.game_args(
            grid=kingdom_grid(result) if result.game.definition.kingdoms else None,
            standings=standings(result),
            **extra,
        )

    def game_args(self, **extra: Any) -> dict[str, Any]:
        """Arguments for every page and fragment of the game (a deal form's too, which draws
        no grid and no standings)."""
        result = self.result
        return {
            "row": self.row,
            "game": result.game,
            "result": result,
            "players": self.players,
            "definition": result.game.definition,
            "next": result.next,
            "partnership": result.team_totals is not None,
            "tag": live_etag(self.row.version, current_language()),
            "poll": POLL_SECONDS,
            **extra,
        }


def game_view(row: GameRow) -> GameView:
    """A stored game whose first chooser is known, replayed (once per version per process)."""
    return GameView(row, replay_of(row))


def drawable(rows: list[GameRow]) -> list[GameRow]:
    """The games a page can draw: a row whose text holds a lone surrogate (stored before text
    was checked, and not yet repaired by the migration) is left out of a list, so one game
    never takes down the page listing it."""
    return [
        row
        for row in rows
        if not any(
            has_lone_surrogate(text) for text in (*row.players, row.name or "", row.notes or "")
        )
    ]


def is_htmx() -> bool:
    """An htmx request that wants a fragment (boosted navigations get whole pages)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-Boosted")


def kept_said(found: Kept) -> tuple[str, str]:
    """What a phone is told of its own entry, found by its key (a save sent again, a late
    answer asked about): never another phone's, and nothing to enter again."""
    if not found.stands:
        return gettext(
            "Deal %(number)d was saved from this phone, then changed on another phone. "
            "Check the history.",
            number=found.number,
        ), "warning"
    if found.correction:
        return gettext("Deal %(number)d changed.", number=found.number), "success"
    return gettext("Deal %(number)d is in the game.", number=found.number), "success"


def moved_on(row: GameRow, number: int) -> str:
    """What a deal form for deal `number`, made before another phone changed the game, says."""
    if row.deal_count >= number:
        return gettext(
            "Deal %(number)d was saved on another phone. This form is out of date: "
            "cancel to see the game.",
            number=number,
        )
    return gettext(
        "The game changed on another phone. This form is out of date: cancel and "
        "check the game before you save."
    )


def attachment(
    body: str | Iterable[str], mimetype: str, filename: str, unicode_name: str | None = None
) -> Response:
    """A download: `filename` in ASCII, and `unicode_name` (a name in its own script) beside
    it as RFC 6266's ``filename*``, which browsers prefer."""
    response = Response(body, mimetype=mimetype)
    options = {"filename": filename}
    if unicode_name is not None and unicode_name != filename:
        options["filename*"] = "UTF-8''" + quote(unicode_name, safe="")
    response.headers["Content-Disposition"] = dump_options_header("attachment", options)
    if mimetype == "text/csv":
        response.headers["Content-Type"] = "text/csv; charset=utf-8"
    return response
