"""The web: Flask views, forms, languages, the access code and the pages' caches.

:func:`init_app` attaches all of it to an app that :func:`scorekeeper.create_app` has configured
and given a database; ``scorekeeper.serving`` stands around it (compression, static files, the
live poll's shortcut, the server).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, g, request, session
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from flask_wtf.csrf import generate_csrf

from . import access, languages, views
from .extensions import babel, csrf
from .links import NumberConverter, TokenConverter

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; "
    # the engine in the phone: WebAssembly (no eval of text), in a worker of this origin
    "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


# pages that carry a capability token (in their URL or their links): never kept by a cache
CAPABILITY_ARGS = frozenset({"token", "view_token"})
CAPABILITY_ENDPOINTS = frozenset({"games.home", "exports.backup", "games.new_game"})
"""Pages without a token that list this browser's games or its players' names."""
HSTS = "max-age=31536000"  # one year; set only when served over HTTPS (SCOREKEEPER_HTTPS=1)


class _SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, never sent with an answer cached publicly (a static file, the
    manifest)."""

    def __init__(self, public_endpoints: frozenset[str]) -> None:
        self.public_endpoints = public_endpoints

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        return request.endpoint not in self.public_endpoints and super().should_set_cookie(
            app, session
        )


def _csrf_token() -> str:
    """This browser's CSRF token for a page (Flask-WTF's), noting that the answer carries it."""
    g.carries_csrf_token = True
    return generate_csrf()


def _keep_session() -> None:
    if not session.permanent:  # setting it at all would mark the session changed
        session.permanent = True


def _security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Frame-Options"] = "DENY"
    if current_app.config.get("SCOREKEEPER_HTTPS"):
        response.headers["Strict-Transport-Security"] = HSTS
    if (
        request.endpoint in CAPABILITY_ENDPOINTS
        or not CAPABILITY_ARGS.isdisjoint(request.view_args or ())
        or g.get("carries_csrf_token")
    ):
        # a shared or back-button cache must not keep a page that opens a game (or names
        # the people this browser played with), nor one holding this browser's CSRF token
        # (another reader would be handed it; this one an outdated one)
        response.headers["Cache-Control"] = "no-store"
    response.vary.add("HX-Request")
    return response


def init_app(app: Flask, public_endpoints: frozenset[str]) -> None:
    """Extensions, hooks and blueprints, in the order they must run; `public_endpoints` answer
    the same to everyone (cached publicly: no cookie, no Vary on language)."""
    app.session_interface = _SessionInterface(public_endpoints)
    app.url_map.converters["token"] = TokenConverter
    app.url_map.converters["number"] = NumberConverter
    # the access code first: a browser without it is sent to the code page before its form's
    # token is judged (the server does not even read the body of its request)
    access.init_app(app)
    csrf.init_app(app)
    # Flask-WTF's csrf_token() in templates, noted: after its own, so this one is used
    app.jinja_env.globals["csrf_token"] = _csrf_token
    app.context_processor(lambda: {"csrf_token": _csrf_token})
    babel.init_app(app, locale_selector=languages.select_locale)
    # after Flask-Babel, whose own callables it replaces
    languages.init_app(app, public_endpoints)
    views.register(app)
    app.before_request(_keep_session)
    app.after_request(_security_headers)
