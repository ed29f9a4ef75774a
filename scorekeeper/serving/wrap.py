"""The serving pieces put around the Flask app, in the order they must run."""

from __future__ import annotations

from flask import Flask, abort, request
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.middleware.proxy_fix import ProxyFix

from . import assets, bodies, engine, live_poll, offline, phone_page
from .gateway import BODY_BUSY, BODY_TIMED_OUT, BUSY_RETRY_AFTER_S

PUBLIC_ENDPOINTS = assets.PUBLIC_ENDPOINTS | engine.ENDPOINTS | offline.ENDPOINTS
"""Answers that are the same for everyone: static files, the manifest, the engine's files, the
service worker's script."""

__all__ = ["PUBLIC_ENDPOINTS", "front", "init_app"]


def _body_not_read() -> None:
    """A body the gateway did not read: it came too late (408), or the worker held as many
    bodies as it may (503, try again soon). Before the CSRF check, which would read the empty
    form."""
    if request.environ.get(BODY_TIMED_OUT):
        abort(408)
    if request.environ.get(BODY_BUSY):
        raise ServiceUnavailable(retry_after=BUSY_RETRY_AFTER_S)


def init_app(app: Flask) -> None:
    """Compression and static files, and the answers to a body the gateway did not read
    (call first)."""
    assets.init_app(app)  # first: its compression hook must run after every other one
    engine.init_app(app)
    offline.init_app(app)
    app.before_request(_body_not_read)  # first of the request hooks


def front(app: Flask) -> None:
    """Answer the phone's questions about a game (a route that names a game by the web's
    converter), put the live poll's shortcut in front of the finished app, and tell the gateway
    how much body each request's route takes (call last). Behind `PROXIES` reverse proxies, the
    client's address and scheme are the ones they forward (werkzeug's ProxyFix): the access
    code's and the imports' limits count each phone, not the proxy, and links are https://."""
    phone_page.init_app(app)  # (its route names a game by the web's converter)
    proxies = int(app.config.get("PROXIES") or 0)
    if proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies)  # type: ignore[method-assign]
    live_poll.init_app(app)
    bodies.init_app(app)
