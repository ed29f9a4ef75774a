"""A table's roster: players are people; rename one (every game follows) or merge two entries
that are the same person, after a confirmation page."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from ...store import tables as store
from ...store.models import TableRow
from ..languages import gettext
from ..table_forms import MergeForm, PlayerNameForm
from .common import table_or_404

bp = Blueprint("roster", __name__)


def _gone(table: TableRow, player_id: int) -> Response:
    """A player who left the roster (merged into another entry: the only way one leaves),
    asked for again: the merge page reopened, a confirmation sent twice. Say so, show the
    roster (another table's player stays a 404)."""
    if not store.player_gone(player_id):
        abort(404)
    flash(
        gettext("That player is no longer on the roster: they were merged into another entry."),
        "warning",
    )
    return _to_players(table)


def _to_players(table: TableRow) -> Response:
    return redirect(url_for("roster.players", token=table.token), 303)


def _players_page(table: TableRow, forms: dict[int, PlayerNameForm] | None = None) -> str:
    played = store.games_played(table)
    roster = store.roster(table, played)
    forms = forms or {}
    return render_template(
        "pages/players.html",
        table=table,
        roster=roster,
        played=played,
        forms={
            player.id: forms.get(player.id) or PlayerNameForm(formdata=None, obj=player)
            for player in roster
        },
    )


@bp.get("/t/<token:token>/players")
def players(token: str) -> str:
    """The roster, each player with a rename form and a merge link."""
    return _players_page(table_or_404(token))


def _stale() -> None:
    flash(
        gettext("The players changed on another phone; nothing was changed. Try again."), "warning"
    )


@bp.route("/t/<token:token>/players/<number:player_id>/rename", methods=["GET", "POST"])
def rename(token: str, player_id: int) -> Any:
    """Rename a player here and in every game of the table (a GET: the address a refused
    rename leaves in the browser, reloaded; back to the roster)."""
    table = table_or_404(token)
    player = store.player_of(table, player_id)
    if player is None:
        return _gone(table, player_id)
    if request.method == "GET":
        return _to_players(table)
    form = PlayerNameForm()
    if not form.validate():
        if form.errors.get("csrf_token") or form.errors.get("version"):
            abort(400)
        return _players_page(table, {player.id: form}), 422
    name = form.name.data
    if not name:  # spaces only: nothing left once cleaned
        form.name.errors = [gettext("A name cannot be blank.")]
        return _players_page(table, {player.id: form}), 422
    outcome = store.rename_player(table, player, name, form.version.data or 0)
    if isinstance(outcome, store.NameTaken):
        form.name.errors = [
            gettext(
                "%(name)s is already on the roster. If they are the same person, merge them.",
                name=outcome.other.name,
            )
        ]
        return _players_page(table, {player.id: form}), 409
    if isinstance(outcome, store.TableStale):
        _stale()
    elif isinstance(outcome, store.Changed):
        flash(gettext("Renamed to %(name)s.", name=name), "success")
    return _to_players(table)


@bp.route("/t/<token:token>/players/<number:player_id>/merge", methods=["GET", "POST"])
def merge(token: str, player_id: int) -> Any:
    """Merge an entry into another one: choose which, confirm, done."""
    table = table_or_404(token)
    player = store.player_of(table, player_id)
    if player is None:
        return _gone(table, player_id)
    if request.method == "GET":
        into_id = request.args.get("into", "")
        into = (
            store.player_of(table, int(into_id))
            if into_id.isascii() and into_id.isdigit() and len(into_id) < 12
            else None
        )
        if into_id and (into is None or into.id == player.id):
            abort(404)
        others = [other for other in store.roster(table) if other.id != player.id]
        together = store.shared_games(player, into) if into else 0
        return render_template(
            "pages/merge.html",
            table=table,
            player=player,
            into=into,
            others=others,
            played=store.games_played(table),
            together=together,
            form=MergeForm(formdata=None),
        )
    form = MergeForm()
    if not form.validate() or form.into.data is None:
        abort(400)
    into = store.player_of(table, form.into.data)
    if into is None or into.id == player.id:
        abort(400)
    outcome = store.merge_players(table, player, into, form.version.data or 0)
    if isinstance(outcome, store.PlayedTogether):
        flash(
            gettext(
                "%(first)s and %(second)s played in the same game: they are two people.",
                first=player.name,
                second=into.name,
            ),
            "error",
        )
        return redirect(url_for("roster.merge", token=table.token, player_id=player.id), 303)
    if isinstance(outcome, store.TableStale):
        _stale()
    else:
        flash(gettext("Merged: every game now shows %(name)s.", name=into.name), "success")
    return _to_players(table)
