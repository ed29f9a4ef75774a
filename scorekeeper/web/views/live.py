"""The read-only view link: a page for the other phones, and the part of it that changes.

Everything under ``/v/<view_token>`` only reads: those routes accept GET alone, and the view token
opens no scorekeeper route (those look games up by the other token).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, render_template, request, url_for

from ...store.games import version_by_view_token
from ...store.models import GameRow
from ..languages import current_language, live_etag
from ..sharing import qr_file
from .common import POLL_SECONDS, game_view, viewed_or_404

bp = Blueprint("live", __name__)


def _live_args(row: GameRow) -> dict[str, Any]:
    args: dict[str, Any] = {
        "row": row,
        "tag": live_etag(row.version, current_language()),
        "poll": POLL_SECONDS,
    }
    if row.first_chooser is not None:
        args.update(game_view(row).template_args())
    return args


@bp.get("/v/<token:view_token>")
def view_page(view_token: str) -> str:
    """The read-only page for the other phones: totals, where the game is, history, chart."""
    return render_template("pages/view.html", **_live_args(viewed_or_404(view_token)))


@bp.get("/v/<token:view_token>/live")
def live(view_token: str) -> Response:
    """The part of the view page that changes, polled by htmx; 304/204 while nothing changed.

    (A poll for an unchanged game is usually answered before Flask: see `serving.live_poll`.)"""
    version = version_by_view_token(view_token)  # an unchanged game costs no replay
    if version is None:
        abort(404)
    tag = live_etag(version, current_language())
    # weak: the same fragment compressed or not (Flask-Compress leaves weak tags alone)
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    elif request.args.get("v") == tag:
        response = Response(status=204)  # htmx swaps nothing on 204
    else:
        row = viewed_or_404(view_token)
        tag = live_etag(row.version, current_language())  # it may have moved since the lookup
        response = Response(render_template("fragments/live.html", **_live_args(row)))
    response.set_etag(tag, weak=True)
    response.vary.update(("Cookie", "Accept-Language"))
    return response


@bp.get("/v/<token:view_token>/qr.svg")
def view_qr(view_token: str) -> Response:
    """The view link as a QR code: an image the scorekeeper's Share section loads when opened
    (lazily, so a game page's first load carries none of it)."""
    row = viewed_or_404(view_token)
    svg = qr_file(url_for("live.view_page", view_token=row.view_token, _external=True))
    response = Response(svg, mimetype="image/svg+xml")
    # a view link never changes: the same address always draws the same code
    response.headers["Cache-Control"] = "private, max-age=31536000, immutable"
    return response
