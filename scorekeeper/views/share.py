"""Sharing a game: exports, the backup of every game, import, and the read-only view link.

Everything under ``/v/<view_token>`` only reads: those routes accept GET alone, and the view token
opens no scorekeeper route (those look games up by the other token).
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from markupsafe import Markup
from sqlalchemy import select

from ..app import RTL_LANGUAGES
from ..chart import chart_summary, running_totals_svg
from ..exports import csv_filename, csv_text, export_json, json_filename
from ..extensions import csrf, db
from ..models import GameRow
from ..rules import CONTRACTS, NotARecordError, Replay
from ..store import find_game_by_view_token
from ..transfer import ImportRefused, import_records, record_of_row, records_json, rows_for_tokens
from .common import GameView, game_or_404, game_view, remember, row_or_404
from .presenters import contract_name, field_label

bp = Blueprint("share", __name__)

IMPORT_MAX_BYTES = 2 * 1024 * 1024  # a backup of every remembered game fits with room to spare
POLL_SECONDS = 3


class ImportForm(FlaskForm):
    """One JSON file: a game record or an array of them."""

    file = FileField(_l("Game records (JSON)"), validators=[FileRequired()])


def _direction() -> str:
    return "rtl" if str(get_locale() or "en") in RTL_LANGUAGES else "ltr"


def _language() -> str:
    return str(get_locale() or "en")


@bp.app_template_global()
def running_chart(result: Replay, players: tuple[str, ...], id_prefix: str = "running-totals"
                  ) -> Markup:
    """The running-totals chart of a replay as inline SVG (the chart module escapes all text)."""
    return Markup(running_totals_svg(result, players, gettext, rtl=_direction() == "rtl",
                                     id_prefix=id_prefix))


@bp.app_template_global()
def running_chart_summary(result: Replay, players: tuple[str, ...]) -> str:
    """The chart in words, for its caption."""
    return chart_summary(result, players, gettext)


@bp.app_template_global()
def qr_svg(text: str) -> Markup:
    """A QR code as inline SVG: no size, no style attribute (the CSP forbids inline styles)."""
    return Markup(_qr_svg(text, gettext("QR code of the view link")))


@lru_cache(maxsize=2048)
def _qr_svg(text: str, title: str) -> str:
    # encoding a QR code costs ~15 ms, more than the rest of the game page: once per link
    return str(segno.make(text, error="m").svg_inline(
        scale=1, omitsize=True, svgclass="qr-code", lineclass="qr-dark", light="#fff",
        dark="#000", title=title))


def _view_or_404(view_token: str) -> GameRow:
    """The game behind a view link; 404 if none. Never remembered: a viewer may not write."""
    return row_or_404(view_token, find_game_by_view_token)


def _attachment(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _started_on(row: GameRow) -> date:
    stamp = row.created_at or datetime.now(UTC)
    return stamp.date()


def _export_json(row: GameRow) -> Response:
    if row.first is None:
        abort(404)
    record = record_of_row(row)
    return _attachment(export_json(record) + "\n", "application/json",
                       json_filename(record, _started_on(row)))


def _export_csv(row: GameRow) -> Response:
    if row.first is None:
        abort(404)
    record = record_of_row(row)
    response = _attachment(csv_text(record, gettext), "text/csv",
                           csv_filename(record, _started_on(row)))
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    return response


@bp.get("/g/<token>/export.json")
def export_game_json(token: str) -> Response:
    """The game record with the engine's scores, as a JSON download."""
    return _export_json(game_or_404(token))


@bp.get("/g/<token>/export.csv")
def export_game_csv(token: str) -> Response:
    """One row per deal and a totals row, for a spreadsheet."""
    return _export_csv(game_or_404(token))


@bp.get("/v/<view_token>/export.json")
def view_export_json(view_token: str) -> Response:
    """The JSON export, from the view link."""
    return _export_json(_view_or_404(view_token))


@bp.get("/v/<view_token>/export.csv")
def view_export_csv(view_token: str) -> Response:
    """The CSV export, from the view link."""
    return _export_csv(_view_or_404(view_token))


@bp.get("/backup.json")
def backup() -> Response:
    """Every game this browser can see, as one JSON array of records."""
    tokens = [t for t in session.get("games", []) if isinstance(t, str)]
    body = records_json(rows_for_tokens(tokens))
    return _attachment(body, "application/json",
                       f"scorekeeper-backup-{datetime.now(UTC).date().isoformat()}.json")


def refusal_text(refused: ImportRefused) -> str:
    """Why an import was refused, in the reader's language: which record, which deal, which rule."""
    error = refused.error
    if isinstance(error, NotARecordError):
        reason = gettext("this is not a Scorekeeper game record (%(detail)s)", detail=str(error))
    else:
        problem = error.problems[0]
        if error.deal_number is None:
            reason = problem.render(gettext)
        else:
            contract = error.contract or ""
            label = None
            if refused.players is not None:
                try:
                    label = field_label(contract, problem.field, refused.players)
                except (IndexError, ValueError):
                    label = None
            text = problem.render(gettext, field_label=label)
            name = contract_name(contract) if contract in CONTRACTS else contract
            where = (gettext("deal %(number)d (%(contract)s)", number=error.deal_number,
                             contract=name) if name
                     else gettext("deal %(number)d", number=error.deal_number))
            reason = f"{where}: {text}"
    if refused.record is not None:
        reason = gettext("record %(number)d of %(count)d", number=refused.record,
                         count=refused.count) + ", " + reason
    return gettext("Nothing was imported. %(reason)s", reason=reason[:1].upper() + reason[1:])


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own token, after the larger upload limit below is set
def import_page() -> Any:
    """Upload a game record, or a backup holding several, and store them as new games."""
    if request.method == "POST":
        request.max_content_length = IMPORT_MAX_BYTES
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        data = form.file.data.read(IMPORT_MAX_BYTES + 1)
        try:
            rows = import_records(data)
        except ImportRefused as refused:
            error = refusal_text(refused)
        else:
            for row in reversed(rows):
                remember(row.token)
            flash(gettext("%(count)d games imported.", count=len(rows)) if len(rows) != 1
                  else gettext("The game was imported."), "success")
            if len(rows) == 1:
                return redirect(url_for("games.game_page", token=rows[0].token), 303)
            return redirect(url_for("games.home"), 303)
    elif request.method == "POST" and form.errors.get("csrf_token"):
        abort(400)
    status = 422 if request.method == "POST" else 200
    return render_template("import.html", form=form, error=error), status


def _etag(version: int, language: str | None = None) -> str:
    """The live view's ETag: the game's version and the reader's language."""
    return f"{version}-{language or _language()}"


def _live_args(row: GameRow) -> dict[str, Any]:
    args: dict[str, Any] = {"row": row, "tag": _etag(row.version), "poll": POLL_SECONDS}
    if row.first is not None:
        view: GameView = game_view(row)
        args.update(view.template_args())
    return args


@bp.get("/v/<view_token>")
def view_page(view_token: str) -> str:
    """The read-only page for the other phones: totals, where the game is, history, chart."""
    row = _view_or_404(view_token)
    return render_template("view.html", **_live_args(row))


@bp.get("/v/<view_token>/live")
def live(view_token: str) -> Response:
    """The part of the view page that changes, polled by htmx; 304/204 while nothing changed."""
    if not view_token or len(view_token) > 64:
        abort(404)
    # only the version: an unchanged game costs one indexed lookup, no replay
    version = db.session.execute(
        select(GameRow.version).where(GameRow.view_token == view_token)).scalar_one_or_none()
    if version is None:
        abort(404)
    tag = _etag(version)
    # weak: the same fragment compressed or not (Flask-Compress leaves weak tags alone)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    elif request.args.get("v") == tag:
        response = Response(status=204)  # htmx swaps nothing on 204
    else:
        row = _view_or_404(view_token)
        tag = _etag(row.version)  # the version may have moved since the lookup above
        response = Response(render_template("_live.html", **_live_args(row)))
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response
