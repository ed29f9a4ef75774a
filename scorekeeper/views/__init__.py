"""Blueprints and the template helpers they share."""

from __future__ import annotations

from flask import Flask, render_template
from flask_babel import get_locale
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..app import RTL_LANGUAGES
from . import deals, games, pages, presenters, rowcache, share
from .common import is_htmx


def register(app: Flask) -> None:
    """Attach the blueprints, error pages and template globals to the app."""
    app.register_blueprint(games.bp)
    app.register_blueprint(deals.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(pages.bp)
    app.jinja_env.globals.update(presenters.TEMPLATE_GLOBALS)
    app.jinja_env.globals["cached_history_row"] = rowcache.history_row
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.context_processor
    def _language() -> dict[str, object]:
        locale = str(get_locale() or "en")
        return {"lang": locale, "direction": "rtl" if locale in RTL_LANGUAGES else "ltr",
                "is_htmx": is_htmx()}

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError) -> tuple[str, int]:
        return render_template("error.html", code=400, error=error,
                               message=presenters.csrf_message()), 400

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        return render_template("error.html", code=code, error=error,
                               message=presenters.http_message(code)), code
