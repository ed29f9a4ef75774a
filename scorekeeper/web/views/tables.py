"""Tables: a group's page (and its view link), starting a table, a game of the table picked
from its roster by taps, and the rematch of a finished game."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...rules.text import player_key
from ...store import tables as store
from ...store.games import find_game
from ...store.models import TableRow
from ..cards import cards_of
from ..forms import ConfirmForm
from ..languages import gettext
from ..nights import gap_hours, table_night
from ..present import card_totals, named_winners
from ..setup_forms import setup_defaults
from ..sharing import phone_offset
from ..table_forms import SEAT_LABELS, SEATS, Pick, TableForm, TableGameForm
from .common import remember, remember_table, table_or_404, viewed_table_or_404

bp = Blueprint("tables", __name__)


@bp.route("/tables/new", methods=["GET", "POST"])
def new_table() -> Any:
    """Start a table: a name; its players join as they play."""
    form = TableForm()
    if form.validate_on_submit():
        table = store.create_table(form.table_name.data or "")
        remember_table(table.token)
        return redirect(url_for("tables.table_game", token=table.token), 303)
    status = 422 if request.method == "POST" else 200
    return render_template("pages/table_new.html", form=form), status


GAMES_A_PAGE = 20
"""Games a table's page lists at once, newest first ("More games" brings the next ones)."""
PAGE_DIGITS = 6
"""The most digits a page number may have (a longer one is no page of any table)."""


def _page_number() -> int:
    """The page of games asked for (1: the newest); 400 for anything but a page number."""
    text = request.args.get("page", "1")
    if not (text.isascii() and text.isdigit() and len(text) <= PAGE_DIGITS) or int(text) < 1:
        abort(400)
    return int(text)


def _games_page(table: TableRow, page: int) -> dict[str, Any]:
    """A page of the table's games, newest first, each card as its row keeps it (no replay):
    the rows, who won and the totals of each, and whether older games follow."""
    rows = store.latest_games(table, (page - 1) * GAMES_A_PAGE, GAMES_A_PAGE + 1)
    games = rows[:GAMES_A_PAGE]
    cards = cards_of(games)
    return {
        "games": games,
        "page": page,
        "more": len(rows) > GAMES_A_PAGE,
        "winners": {
            row.token: named_winners(card.names, card.winners, card.winning_teams)
            for row in games
            if (card := cards.get(row.id)) is not None and card.finished
        },
        "totals": {
            row.token: card_totals(card.names, card)
            for row in games
            if (card := cards.get(row.id)) is not None
        },
    }


def _table_page(table: TableRow, viewing: bool) -> str:
    shown = _games_page(table, _page_number())
    games = shown["games"]
    played = store.games_played(table)
    return render_template(
        "pages/table.html",
        table=table,
        viewing=viewing,
        roster=store.roster(table, played),
        played=played,
        playing=[row for row in games if not row.finished],
        finished=[row for row in games if row.finished],
        night=table_night(table),
        gap_hours=gap_hours(),
        **shown,
    )


def _more_games(table: TableRow, viewing: bool) -> str:
    """The next page of games, for htmx to put under those shown (with the next link)."""
    return render_template(
        "fragments/table_games.html",
        table=table,
        viewing=viewing,
        **_games_page(table, _page_number()),
    )


@bp.get("/t/<token:token>/games")
def more_games(token: str) -> str:
    """Older games of the table (a page of them: `?page=`), as a fragment."""
    return _more_games(table_or_404(token), viewing=False)


@bp.get("/v/t/<token:view_token>/games")
def view_more_games(view_token: str) -> str:
    """Older games, from the table's view link."""
    return _more_games(viewed_table_or_404(view_token), viewing=True)


@bp.get("/t/<token:token>")
def table_page(token: str) -> str:
    """The table: its latest games (`?page=`: older ones), its roster, a new game,
    statistics, sharing."""
    return _table_page(table_or_404(token), viewing=False)


@bp.get("/v/t/<token:view_token>")
def view_table(view_token: str) -> str:
    """The table from its view link: nothing on it can change anything."""
    return _table_page(viewed_table_or_404(view_token), viewing=True)


def _seat_names(table: TableRow, picks: list[Pick]) -> list[str] | None:
    """The picked seats as names (roster players by their current name); None if a picked
    player is no longer on the roster (merged away on another phone)."""
    names = []
    for pick in picks:
        if pick.player_id is None:
            names.append(pick.name or "")
            continue
        player = store.player_of(table, pick.player_id)
        if player is None:
            return None
        names.append(player.name)
    return names


def _add(
    table: TableRow, form: TableGameForm, picks: list[Pick], names: list[str], value: str
) -> bool:
    """Put a tapped roster name (or the newcomer typed) in the next seat; False if refused."""
    if len(picks) >= SEATS:
        return True
    if value == "new":
        name = form.newcomer.data or ""
        if not name:
            form.newcomer.errors = [gettext("Type the newcomer's name first.")]
            return False
        if player_key(name) in {player_key(taken) for taken in names}:
            form.newcomer.errors = [gettext("%(name)s already has a seat.", name=name)]
            return False
        form.newcomer.data = ""
        known = store.player_by_name(table, name)  # "rami " typed again is Rami
        pick = Pick(name=name) if known is None else Pick(player_id=known.id)
        if pick not in picks:
            picks.append(pick)
        return True
    digits = value[1:]
    if not (value[:1] == "p" and digits.isascii() and digits.isdigit() and len(digits) < 12):
        abort(400)  # no page offers it
    pick = Pick(player_id=int(digits))
    if store.player_of(table, int(digits)) is None:
        abort(400)
    if pick not in picks:
        picks.append(pick)
    return True


@bp.route("/t/<token:token>/new", methods=["GET", "POST"])
def table_game(token: str) -> Any:
    """A game of the table: the players tapped from the roster in order of play, the game,
    mode and house rules of the table's last game already chosen."""
    table = table_or_404(token)
    last = store.last_game(table)
    if request.method == "GET":
        defaults = setup_defaults(last.game, last.mode, last.house_rules) if last else {}
        form = TableGameForm(formdata=None, data=defaults)
        # the last game's four already seated, in its order of play (a tap removes one)
        picks = [Pick(player_id=player) for player in store.seat_players(last)] if last else []
        names = _seat_names(table, picks)
        if names is None:
            picks, names = [], []
        form.set_picks(picks)
        return _table_game_page(table, form, picks, names)
    form = TableGameForm()
    valid = form.validate()
    if form.errors.get("csrf_token"):
        abort(400)
    try:
        picks = form.picks()
    except ValueError:
        abort(400)
    names = _seat_names(table, picks)
    if names is None:  # someone picked left the roster: pick again
        picks, names = [], []
    if not valid:  # a newcomer's name too long, say: the page again, with the message
        form.set_picks(picks)
        return _table_game_page(table, form, picks, names), 422
    ok = True
    if "add" in request.form:
        ok = _add(table, form, picks, names, request.form["add"])
    elif "remove" in request.form:
        seat = request.form["remove"]
        if not (seat.isascii() and seat.isdigit() and int(seat) < len(picks)):
            abort(400)
        picks.pop(int(seat))
    elif "start" in request.form:
        return _start(table, form, picks, names)
    names = _seat_names(table, picks) or []
    form.set_picks(picks)
    return _table_game_page(table, form, picks, names), 200 if ok else 422


def _start(table: TableRow, form: TableGameForm, picks: list[Pick], names: list[str]) -> Any:
    if len(picks) < SEATS:
        form.set_picks(picks)
        return _table_game_page(table, form, picks, names, missing=True), 422
    if not form.judged(names):  # the engine's checks, said under their fields
        form.set_picks(picks)
        return _table_game_page(table, form, picks, names), 422
    seats = [pick.player_id if pick.player_id is not None else pick.name or "" for pick in picks]
    try:
        row = store.start_game(
            table,
            form.game.data,
            form.mode.data,
            seats,
            form.house_rules(),
            form.name.data,
            newcomers=True,
            utc_offset=phone_offset(),
        )
    except store.RosterMoved as moved:
        return _roster_moved(table, form, picks, moved)
    remember(row.token)
    return redirect(url_for("games.game_page", token=row.token), 303)


def _roster_moved(
    table: TableRow, form: TableGameForm, picks: list[Pick], moved: store.RosterMoved
) -> tuple[str, int]:
    """Another phone changed the roster while the seats were picked: nothing was started;
    the page again (409), the seat in question empty, with what happened."""
    if moved.joined is not None:
        flash(
            gettext(
                "%(name)s joined this table a moment ago; pick them from the roster.",
                name=moved.joined,
            ),
            "error",
        )
        key = player_key(moved.joined)
        picks = [pick for pick in picks if pick.name is None or player_key(pick.name) != key]
    else:
        flash(
            gettext(
                "A player you picked was merged into another on another phone; pick "
                "the seats again."
            ),
            "error",
        )
    names = _seat_names(table, picks)
    if names is None:
        picks, names = [], []
    form.set_picks(picks)
    return _table_game_page(table, form, picks, names), 409


def _table_game_page(
    table: TableRow,
    form: TableGameForm,
    picks: list[Pick],
    names: list[str],
    *,
    missing: bool = False,
) -> str:
    picked = {pick.player_id for pick in picks}
    return render_template(
        "pages/table_game.html",
        table=table,
        form=form,
        seats=list(zip(picks, names, strict=True)),
        full=len(picks) >= SEATS,
        missing=missing,
        seat_labels=SEAT_LABELS,
        roster=[player for player in store.roster(table) if player.id not in picked],
    )


@bp.post("/g/<token:token>/rematch")
def rematch(token: str) -> Response:
    """One tap on a finished game of a table: the next game, same players, game and rules."""
    row = find_game(token)
    if row is None or row.table_id is None:
        abort(404)
    if not ConfirmForm().validate() or not row.finished:
        abort(400)
    table = store.table_of(row)
    last = store.last_game(table) if table else None
    following = store.continuation(row)
    if following is None and last is not None and last.id != row.id:
        following = last  # (a game of the table started since, by other players)
    if following is not None:  # a double tap, or another phone was quicker
        flash(gettext("The next game of this table has already started."), "info")
        return redirect(url_for("games.game_page", token=following.token), 303)
    again = store.rematch(row, phone_offset())
    if not again.started:
        flash(gettext("The next game of this table has already started."), "info")
    remember(again.row.token)
    return redirect(url_for("games.game_page", token=again.row.token), 303)
