"""A night at the table: starting one on purpose, the night of a finished game (its page, or
the fragment the game page loads), a table's ratings switched on or off, and the table's
statistics as JSON (the same as `scorekeeper stats` prints, nights, rivals and ratings too)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from ...stats import to_json
from ...stats.evening_model import Night
from ...stats.nights import partnership_halves
from ...store import nights as store
from ...store.models import TableRow
from ...store.tables import table_of
from ...words.night_share import night_day, points_text
from ..caches import table_statistics
from ..forms import ConfirmForm
from ..languages import current_language, gettext
from ..nights import RATINGS_ON, RatingsForm, game_night, gap_hours
from .common import attachment, game_or_404, is_htmx, table_or_404, viewed_table_or_404

bp = Blueprint("nights", __name__)


@bp.post("/t/<token:token>/night")
def start_night(token: str) -> WerkzeugResponse:
    """Start a new night at the table: its next game begins one (once, however many taps)."""
    table = table_or_404(token)
    if not ConfirmForm().validate():
        abort(400)
    outcome = store.start_night(table)
    if isinstance(outcome, store.NightStarted):
        flash(gettext("A new night starts with the next game."), "success")
    elif isinstance(outcome, store.NightAlreadyStarted):
        flash(gettext("A new night was already started; it begins with the next game."), "info")
    else:
        flash(gettext("The table's first game starts its first night."), "info")
    return redirect(url_for("tables.table_page", token=table.token, _anchor="night"), 303)


@bp.post("/t/<token:token>/ratings")
def ratings(token: str) -> WerkzeugResponse:
    """Turn the table's ratings on or off (the table's version the page showed decides)."""
    table = table_or_404(token)
    form = RatingsForm()
    if not form.validate() or form.version.data is None:
        abort(400)
    outcome = store.set_ratings(table, form.ratings.data == RATINGS_ON, form.version.data)
    if isinstance(outcome, store.RatingsStale):
        flash(gettext("The table changed on another phone; nothing was changed."), "warning")
    elif outcome.on:
        flash(gettext("Ratings are on for this table."), "success")
    else:
        flash(gettext("Ratings are off for this table."), "info")
    return redirect(url_for("table_stats.stats", token=table.token, _anchor="ratings"), 303)


@bp.get("/g/<token:token>/night")
def game_night_page(token: str) -> Any:
    """The night a finished game belongs to: the game page loads it as a fragment (nothing
    while the game is alone in its night); without JavaScript, a page of its own."""
    row = game_or_404(token)
    if not row.finished:
        abort(404)
    table = table_of(row)
    shown = game_night(row, table)
    if is_htmx():
        if shown is None:
            return Response(status=204)
        return render_template(
            "fragments/night.html", shown=shown, gap_hours=gap_hours(), table=table
        )
    return render_template(
        "pages/night.html", row=row, shown=shown, gap_hours=gap_hours(), table=table
    )


def _stats_json(table: TableRow) -> Response:
    body = json.dumps(to_json(table_statistics(table)), ensure_ascii=False)
    today = datetime.now(UTC).date().isoformat()
    return attachment(body, "application/json", f"scorekeeper-table-stats-{today}.json")


@bp.get("/t/<token:token>/stats.json")
def stats_json(token: str) -> Response:
    """The table's statistics as JSON: standings, nights, rivals (ratings when on)."""
    return _stats_json(table_or_404(token))


@bp.get("/v/t/<token:view_token>/stats.json")
def view_stats_json(view_token: str) -> Response:
    """The statistics JSON, from the table's view link."""
    return _stats_json(viewed_table_or_404(view_token))


def _night_day(night: Night) -> str:
    """The day the night began, in the reader's words (:func:`night_day`)."""
    return night_day(night, current_language())


TEMPLATE_GLOBALS: dict[str, Any] = {
    "night_points": points_text,
    "night_day": _night_day,
    "partnership_night_halves": partnership_halves(),
}
"""What templates call from this room (views.register hands each room's to Jinja once)."""
