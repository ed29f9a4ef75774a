"""Games: the home page, starting a game, the game page, its chart, undo, notes and deleting."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from ...rules.text import PLAYER_NAME_LENGTH, clean_text, player_key
from ...store import deals
from ...store import tables as table_store
from ...store.entries import new_entry_key
from ...store.games import (
    StaleStateError,
    create_game,
    delete_game,
    games_for_tokens,
    save_text,
    version_by_token,
)
from ...store.models import GameRow
from ...store.tables import (
    create_table,
    roster,
    start_game,
    table_of,
    tables_for_tokens,
)
from ..caches import replay_of
from ..forms import ConfirmForm, NotesForm, NumberField
from ..languages import current_language, gettext, live_etag
from ..present import winner_names
from ..setup_forms import NewGameForm
from ..sharing import phone_offset
from .common import (
    OFFLINE_HEADER,
    drawable,
    forget,
    game_or_404,
    game_view,
    is_htmx,
    kept_said,
    moved_on,
    remember,
    remember_table,
    remembered,
    remembered_tables,
)

bp = Blueprint("games", __name__)


class _SeatForm(ConfirmForm):
    """A CSRF-protected button carrying a seat and the version it was shown with."""

    seat = NumberField(validators=[])
    version = NumberField(validators=[])


class _UndoForm(ConfirmForm):
    """The undo button: which deal it removes, and the version it was shown with."""

    number = NumberField(validators=[])
    version = NumberField(validators=[])


UNDONE = "undone"
"""Session key: the deal this browser last undid, while it may be restored."""


def restorable(row: GameRow) -> int | None:
    """The number of the deal this browser undid in this game, if it may still be restored
    (forgotten once it may not)."""
    undone = session.get(UNDONE)
    if not isinstance(undone, dict) or undone.get("token") != row.token:
        return None
    number, version = undone.get("number"), undone.get("version")
    if (
        isinstance(number, int)
        and isinstance(version, int)
        and deals.can_restore(row, number, version)
    ):
        return number
    session.pop(UNDONE)
    return None


def _to_game(token: str) -> Response:
    return redirect(url_for("games.game_page", token=token), 303)


@bp.get("/")
def home() -> str:
    """Games this browser created or opened: in progress first, then finished, newest first."""
    rows = sorted(
        drawable(games_for_tokens(remembered())), key=lambda row: row.updated_at, reverse=True
    )
    # a finished card names who won: the engine's replay, kept per version like the game page's
    winners = {}
    for row in [row for row in rows if row.finished]:
        try:
            winners[row.token] = winner_names(replay_of(row))
        except (ValueError, KeyError, TypeError, IndexError):  # a damaged row: not listed
            rows.remove(row)
    return render_template(
        "pages/home.html",
        playing=[row for row in rows if not row.finished],
        finished=[row for row in rows if row.finished],
        winners=winners,
        tables=tables_for_tokens(remembered_tables()),
    )


SUGGESTED_NAMES = 16


def names_played() -> list[str]:
    """The names of this browser's games, one spelling per person, most recent game first,
    then those of its tables' rosters."""
    rows = sorted(
        drawable(games_for_tokens(remembered())), key=lambda row: row.updated_at, reverse=True
    )
    names: dict[str, str] = {}
    for row in rows:
        for name in row.players:
            names.setdefault(player_key(name), name)
    for table in tables_for_tokens(remembered_tables()):  # then the rosters of its tables
        for player in roster(table):
            names.setdefault(player.key, player.name)
    return list(names.values())[:SUGGESTED_NAMES]


def _suggested(form: NewGameForm) -> bool:
    """A tapped suggestion (without JavaScript): the name in the first empty seat."""
    name = clean_text(request.form.get("suggest", ""))
    if not name or len(name) > PLAYER_NAME_LENGTH:
        return False
    taken = {player_key(player) for player in form.players()}
    for field in form.player_fields():
        if not field.data and player_key(name) not in taken:
            field.data = name
            return True
    return False


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> Any:
    """Choose the game, the mode, the four players and the house rules."""
    form = NewGameForm()
    if request.method == "POST" and "suggest" in request.form:
        _suggested(form)
        return render_template("pages/new_game.html", form=form, names=names_played())
    if form.validate_on_submit():  # the engine's checks too (the form asks them)
        players, rules = form.players(), form.house_rules()
        if form.table_name.data:  # these four play together: keep them as a table
            table = create_table(form.table_name.data)
            remember_table(table.token)
            row = start_game(
                table,
                form.game.data,
                form.mode.data,
                players,
                rules,
                form.name.data,
                utc_offset=phone_offset(),
            )
        else:
            game, mode, name = form.game.data, form.mode.data, form.name.data
            row = create_game(game, mode, players, rules, name, phone_offset())
        remember(row.token)
        return _to_game(row.token)
    status = 422 if request.method == "POST" else 200
    return render_template("pages/new_game.html", form=form, names=names_played()), status


@bp.get("/g/<token:token>")
def game_page(token: str) -> Any:
    """The game: totals, where the game is, what to choose next, history."""
    row = game_or_404(token)
    if row.first_chooser is None:
        return render_template("pages/choose_first.html", row=row, form=_SeatForm())
    response = make_response(
        render_template(
            "pages/game.html",
            **game_view(row).template_args(
                notes_form=NotesForm(obj=row),
                table=table_of(row),
                rematch_form=ConfirmForm(),
                restore=restorable(row),
            ),
        )
    )
    if not request.headers.get("HX-Request"):  # a whole page (not htmx's, which has no head)
        # the service worker (static/js/sw.js) keeps this page for the phone to open offline,
        # and serves it again only in the language it was made in
        response.headers[OFFLINE_HEADER] = "game"
        response.headers["Content-Language"] = current_language()
    return response


@bp.get("/g/<token:token>/live")
def follow(token: str) -> Any:
    """Another phone's saves, for a scorekeeper's game page (polled by htmx, like the view
    link): 204 while nothing changed, else what changed, out of band. A deal form left open is
    not touched: it is told that the game moved on, or, when the game holds that form's own
    entry (by its key: its save's answer was lost), the phone goes to the game page."""
    version = version_by_token(token)
    if version is None:
        abort(404)
    if not is_htmx():
        return _to_game(token)
    tag = live_etag(version, current_language())
    if request.args.get("v") == tag:
        response = Response(status=204)
    else:
        row = game_or_404(token)
        if row.first_chooser is None:
            return Response(status=204)
        number = request.args.get("number", type=int)  # a deal form is open on this phone
        key = request.args.get("entry_key")
        found = None if number is None or key is None else deals.kept(row, key)
        if found is not None:  # its own save is in the game (its answer was lost)
            flash(*kept_said(found))
            # (a 200: the live-poll shortcut copies the headers of a 204 into its own)
            return Response(headers={"HX-Redirect": url_for("games.game_page", token=token)})
        said = None if number is None else moved_on(row, number)
        response = Response(
            render_template(
                "fragments/follow.html",
                **game_view(row).template_args(restore=restorable(row), moved_on=said),
            )
        )
    return response


@bp.get("/g/<token:token>/chart")
def chart(token: str) -> Any:
    """The running-totals chart alone (htmx loads it when it scrolls into view)."""
    row = game_or_404(token)
    if row.first_chooser is None or not is_htmx():
        return _to_game(token)
    view = game_view(row)
    return render_template("fragments/chart.html", result=view.result, players=view.players)


@bp.post("/g/<token:token>/first")
def choose_first(token: str) -> Response:
    """Who was dealt the 7♥ (Trix games) or declares first (Turkish King)."""
    row = game_or_404(token)
    form = _SeatForm()
    seat, version = form.seat.data, form.version.data
    if not form.validate() or seat is None or seat not in range(4) or not version:
        abort(400)
    outcome = deals.choose_first(row, seat, version)
    if isinstance(outcome, deals.Stale):
        flash(gettext("Someone else already started this game."), "warning")
    return _to_game(row.token)


@bp.post("/g/<token:token>/undo")
def undo(token: str) -> Response:
    """Remove the last deal; the deal number makes a double tap harmless."""
    row = game_or_404(token)
    form = _UndoForm()
    if (
        not form.validate()
        or row.first_chooser is None
        or not form.number.data
        or not form.version.data
    ):
        abort(400)
    outcome = deals.undo_deal(row, game_view(row).result, form.number.data, form.version.data)
    if isinstance(outcome, deals.Saved):  # the game page offers to put it back
        session[UNDONE] = {
            "token": row.token,
            "number": form.number.data,
            "version": row.version,
            "deal": outcome.removed,
        }
    elif isinstance(outcome, deals.Stale):
        flash(gettext("The game changed on another phone; nothing was undone."), "warning")
    return _to_game(row.token)


@bp.post("/g/<token:token>/restore")
def restore(token: str) -> Response:
    """Put back the deal this browser undid, while nothing else changed since."""
    row = game_or_404(token)
    form = _UndoForm()
    number, version = form.number.data, form.version.data
    if not form.validate() or row.first_chooser is None or not number or not version:
        abort(400)
    undone = session.get(UNDONE)  # kept after the restore: a second tap finds its twin's
    outcome: deals.Outcome = deals.Stale()
    if (
        isinstance(undone, dict)
        and undone.get("token") == row.token
        and undone.get("number") == number
        and isinstance(undone.get("deal"), dict)
    ):
        entry = deals.Entry(undone["deal"], number, version, key=new_entry_key())
        outcome = deals.restore_deal(row, game_view(row).result, entry)
    if isinstance(outcome, deals.Saved):
        flash(gettext("Deal %(number)d restored.", number=number), "success")
    elif not isinstance(outcome, deals.AlreadySaved):
        session.pop(UNDONE, None)
        flash(
            gettext(
                "The game changed on another phone; deal %(number)d was not restored.",
                number=number,
            ),
            "warning",
        )
    return _to_game(row.token)


@bp.post("/g/<token:token>/notes")
def notes(token: str) -> Any:
    """Rename the game or change its notes."""
    row = game_or_404(token)
    form = NotesForm()
    if not form.validate():
        if row.first_chooser is None or form.version.errors:
            abort(400)  # the page that shows this form is not there yet, or a tampered form
        # the game page again, with the messages next to the fields
        return render_template(
            "pages/game.html",
            **game_view(row).template_args(notes_form=form, restore=restorable(row)),
        ), 422
    try:
        save_text(row, form.name.data, form.notes.data, form.version.data or 0)
    except StaleStateError:
        if (row.name, row.notes) != (form.name.data or None, form.notes.data or None):
            flash(
                gettext("The game changed on another phone; your notes were not saved."), "warning"
            )
    return _to_game(row.token)


@bp.route("/g/<token:token>/delete", methods=["GET", "POST"])
def delete(token: str) -> Any:
    """Delete a game, after a confirmation page."""
    row = game_or_404(token)
    form = ConfirmForm()
    if request.method == "POST":
        if not form.validate():
            abort(400)
        forget(row.token)
        delete_game(row)
        flash(gettext("The game was deleted."), "info")
        return redirect(url_for("games.home"), 303)
    return render_template("pages/delete.html", row=row, form=form)


@bp.post("/g/<token:token>/again")
def same_four(token: str) -> Response:
    """One tap on a finished game outside a table: the next game with the same four, game,
    mode and house rules (only the first king or declarer is asked). Each game is continued
    once, however many taps ask at once (the store's unique key): a repeat goes to that game."""
    row = game_or_404(token)
    if row.table_id is not None:
        abort(404)  # a table's game has its own rematch
    if not ConfirmForm().validate() or not row.finished:
        abort(400)
    again = table_store.rematch(row, phone_offset())
    if not again.started:
        flash(gettext("The next game with these four has already started."), "info")
    remember(again.row.token)
    return redirect(url_for("games.game_page", token=again.row.token), 303)
