"""What the phone renders a game's parts with (``scorekeeper.phone.render``), besides its engine:
the game's record and version, and what only the server knows of its page.

`GET /g/<token>/deal/record` answers the record the phone's engine holds (static/js/engine.js
asks it when a deal form opens, static/js/offline.js when the game changed), with the page's
facts (:func:`phone_page`): the routes and static files the phone's templates name, as this
app writes them, the game's name and its shared result's words. The server judges every deal
again when the phone sends it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint, Flask, abort, current_app, jsonify, request

from ..rules import Record, dump_record
from ..web.languages import current_language, direction
from ..web.sharing import share_file, share_title
from ..web.views.common import GameView, game_or_404, game_view
from ..words.page import called_by
from .assets import static_url
from .engine import phone_templates

bp = Blueprint("phone_page", __name__)


@bp.get("/g/<token:token>/deal/record")
def record(token: str) -> Any:
    """The game's record and version, for the engine in the phone to judge a deal form's taps
    against (static/js/engine.js asks it when a form opens; the server judges every save), and
    what the phone renders the game's parts with (:func:`phone_page`)."""
    row = game_or_404(token)
    if row.first_chooser is None:
        abort(400)
    view = game_view(row)
    return jsonify(
        version=row.version, record=dump_record(Record(view.game)), page=phone_page(view)
    )


def phone_page(view: GameView) -> dict[str, Any]:
    """What only the server knows of a game's page, for its parts rendered in the phone
    (``scorekeeper.phone.render.Page``): the row as the templates read it, the shared result's
    first line and picture's name in the reader's words, the page's direction, and the routes
    and static files the phone's templates name (:func:`phone_links`)."""
    row = view.row
    return {
        "row": {"token": row.token, "table_id": row.table_id, "name": row.name},
        "share_title": share_title(view.game.kind, row.name, row.created_at, row.utc_offset),
        "share_file": share_file(view.result, row.name, row.created_at, row.utc_offset),
        "rtl": direction(current_language()) == "rtl",
        **phone_links(),
    }


def phone_links() -> dict[str, dict[str, str]]:
    """The routes the phone's templates call by endpoint (their rules under the app's root, as
    werkzeug writes them) and the addresses of the static files they name."""
    endpoints, statics = phone_calls()
    rules = {rule.endpoint: rule.rule for rule in current_app.url_map.iter_rules()}
    return {
        "links": {name: request.script_root + rules[name] for name in endpoints},
        "static": {name: static_url(name) for name in statics},
    }


@cache
def phone_calls() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The endpoints and static files the templates the phone renders call by name."""
    env = current_app.jinja_env
    assert env.loader is not None
    return called_by(env.loader.get_source(env, name)[0] for name in phone_templates())


def init_app(app: Flask) -> None:
    """Answer the phone's questions about a game."""
    app.register_blueprint(bp)
