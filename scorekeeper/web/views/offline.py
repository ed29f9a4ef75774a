"""Offline: the kit a game page keeps so the game goes on with no network.

`GET /g/<token>/offline` is fetched by the page's script (static/js/offline.js) once the page
is idle and kept on the phone (IndexedDB), once per game and language: a blank deal form for
every contract of the game as the page shows it (every group open: nothing to fetch later), the
history's table and the words the page says about the deals it keeps. With no network the
phone's engine fills a form in (its number, the chooser) and judges it; the server judges every
deal again when the phone sends it (`POST /g/<token>/sync`).
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template
from markupsafe import Markup

from .common import game_or_404, game_view
from .deals import blank_form

bp = Blueprint("offline_kit", __name__)


@bp.get("/g/<token:token>/offline")
def kit(token: str) -> Response:
    """The offline kit of a game in play; nothing (204) for a game not started or finished."""
    row = game_or_404(token)
    if row.first_chooser is None:
        return Response(status=204)
    view = game_view(row)
    if view.result.next is None:
        return Response(status=204)
    forms = [  # the templates' own markup (escaped as they made it)
        (contract, Markup(blank_form(view, contract)))
        for contract in view.game.definition.contracts
    ]
    return Response(
        render_template("fragments/offline_kit.html", forms=forms, **view.template_args())
    )
