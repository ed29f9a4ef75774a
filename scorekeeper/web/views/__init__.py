"""The views, one blueprint per resource, and what every template may call."""

from __future__ import annotations

from flask import Flask, Response, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ...words.page import TEMPLATE_OPTIONS
from .. import caches, present, sharing
from ..json_answers import json_error, wants_json
from . import (
    deals,
    exports,
    games,
    imports,
    live,
    nights,
    offline,
    pages,
    roster,
    sync,
    table_stats,
    tables,
)
from .common import is_htmx

BLUEPRINTS = (
    games.bp,
    deals.bp,
    sync.bp,
    offline.bp,
    live.bp,
    exports.bp,
    imports.bp,
    pages.bp,
    tables.bp,
    roster.bp,
    table_stats.bp,
    nights.bp,
)


def register(app: Flask) -> None:
    """Attach the blueprints, error pages and template globals to the app."""
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    for room in (present, sharing, caches, nights):
        app.jinja_env.globals.update(room.TEMPLATE_GLOBALS)
    # (escaped: Flask's own choice for HTML templates; gettext: Flask-Babel's)
    app.jinja_env.trim_blocks = TEMPLATE_OPTIONS["trim_blocks"]
    app.jinja_env.lstrip_blocks = TEMPLATE_OPTIONS["lstrip_blocks"]

    @app.context_processor
    def _htmx() -> dict[str, object]:
        return {"is_htmx": is_htmx()}

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError) -> tuple[str, int] | Response:
        if wants_json():
            return json_error(400, present.csrf_message())
        return render_template(
            "pages/error.html", code=400, error=error, message=present.csrf_message()
        ), 400

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> tuple[str | Response, int, list[tuple[str, str]]]:
        code = error.code or 500
        # what the error says besides its page: Retry-After (503), Allow (405)
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        if wants_json():
            return json_error(code, present.http_message(code)), code, headers
        return (
            render_template(
                "pages/error.html", code=code, error=error, message=present.http_message(code)
            ),
            code,
            headers,
        )
