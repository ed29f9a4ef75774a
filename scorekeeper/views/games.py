"""Games: the home page, starting a game, the game page, undo, notes and deleting."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms import ConfirmForm, NewGameForm, NotesForm
from ..models import GameRow
from ..rules import HouseRules, check_players, check_setup, house_rules_for, without_deal
from ..store import StaleStateError, create_game, delete_game, save_deals, save_text, set_first
from .common import forget, game_or_404, game_view, is_htmx, is_number, remember
from .presenters import problem_text

bp = Blueprint("games", __name__)


def _int_arg(name: str, low: int, high: int) -> int:
    """A whole number from the form within [low, high], else 400."""
    raw = request.form.get(name, "")
    if not is_number(raw) or not low <= int(raw) <= high:
        abort(400)
    return int(raw)


@bp.get("/")
def home() -> str:
    """Games this browser created or opened: in progress first, then finished, newest first."""
    tokens = [t for t in session.get("games", []) if isinstance(t, str)]
    rows: list[GameRow] = []
    if tokens:
        rows = list(db.session.execute(
            select(GameRow).where(GameRow.token.in_(tokens))
            .order_by(GameRow.updated_at.desc())).scalars())
    playing = [row for row in rows if not row.finished]
    finished = [row for row in rows if row.finished]
    return render_template("home.html", playing=playing, finished=finished)


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> Any:
    """Choose the game, the mode, the four players and the house rules."""
    form = NewGameForm()
    if form.validate_on_submit():
        players = form.players()
        rules = house_rules_for(form.game.data, HouseRules(
            doubling=bool(form.doubling.data),
            doubled_self_take=form.doubled_self_take.data,
            swap_diamonds_ltoosh=bool(form.swap_diamonds_ltoosh.data)))
        problems = check_players(players) + check_setup(form.game.data, form.mode.data, rules)
        for problem in problems:
            target = problem.field.replace("players[", "player_").rstrip("]")
            field = form._fields.get(target) or form.mode
            # the message sits under its field, so it names the field as the form does
            field.errors = [*field.errors, problem_text(problem, "", players,
                                                        label=str(field.label.text))]
        if not problems:
            row = create_game(form.game.data, form.mode.data, players, rules, form.name.data)
            remember(row.token)
            return redirect(url_for("games.game_page", token=row.token), 303)
    status = 422 if request.method == "POST" else 200
    return render_template("new_game.html", form=form), status


@bp.get("/g/<token>")
def game_page(token: str) -> Any:
    """The game: totals, where the game is, what to choose next, history."""
    row = game_or_404(token)
    if row.first is None:
        return render_template("choose_first.html", row=row, form=ConfirmForm())
    view = game_view(row)
    return render_template("game.html", **view.template_args(notes_form=None))


@bp.get("/g/<token>/chart")
def chart(token: str) -> Any:
    """The running-totals chart alone (htmx loads it when it scrolls into view)."""
    row = game_or_404(token)
    if row.first is None or not is_htmx():
        return redirect(url_for("games.game_page", token=token), 303)
    view = game_view(row)
    return render_template("_chart.html", result=view.result, players=view.players)


@bp.post("/g/<token>/first")
def choose_first(token: str) -> Response:
    """Who was dealt the 7♥ (Trix games) or declares first (Turkish King)."""
    row = game_or_404(token)
    form = ConfirmForm()
    if not form.validate():
        abort(400)
    seat = _int_arg("seat", 0, 3)
    if row.first is None:
        try:
            set_first(row, seat, _int_arg("version", 1, 2**31))
        except StaleStateError:
            if row.first != seat:  # the write that won may be this tap's twin
                flash(gettext("Someone else already started this game."), "warning")
    elif row.first != seat:  # another phone chose first; a double tap of the same seat is fine
        flash(gettext("Someone else already started this game."), "warning")
    return redirect(url_for("games.game_page", token=row.token), 303)


@bp.post("/g/<token>/undo")
def undo(token: str) -> Response:
    """Remove the last deal; the deal number makes a double tap harmless."""
    row = game_or_404(token)
    if not ConfirmForm().validate() or row.first is None:
        abort(400)
    number = _int_arg("number", 1, 100)
    if number == row.deal_count:
        view = game_view(row)
        try:
            save_deals(row, without_deal(view.game, number - 1), _int_arg("version", 1, 2**31))
            flash(gettext("Deal %(number)d was removed.", number=number), "info")
        except StaleStateError:
            if row.deal_count != number - 1:  # unless this tap's twin removed it
                flash(gettext("The game changed on another phone; nothing was undone."),
                      "warning")
    elif number > row.deal_count:
        pass  # already undone by an earlier tap
    else:
        flash(gettext("The game changed on another phone; nothing was undone."), "warning")
    return redirect(url_for("games.game_page", token=row.token), 303)


@bp.post("/g/<token>/notes")
def notes(token: str) -> Any:
    """Rename the game or change its notes."""
    row = game_or_404(token)
    form = NotesForm()
    if not form.validate():
        if row.first is None:
            abort(400)  # the page that shows this form is not there yet
        view = game_view(row)  # the game page again, with the messages next to the fields
        return render_template("game.html", **view.template_args(
            notes_form=form)), 422
    try:
        save_text(row, form.name.data, form.notes.data, _int_arg("version", 1, 2**31))
    except StaleStateError:
        if (row.name, row.notes) != (form.name.data or None, form.notes.data or None):
            flash(gettext("The game changed on another phone; your notes were not saved."),
                  "warning")
    return redirect(url_for("games.game_page", token=row.token), 303)


@bp.route("/g/<token>/delete", methods=["GET", "POST"])
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
    return render_template("delete.html", row=row, form=form)
