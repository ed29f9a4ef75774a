"""The serving pieces put around the Flask app, in the order they must run."""

from __future__ import annotations

from flask import Flask, abort, request

from . import assets, live_poll
from .assets import PUBLIC_ENDPOINTS
from .gateway import BODY_TIMED_OUT

__all__ = ["PUBLIC_ENDPOINTS", "front", "init_app"]


def _body_timed_out() -> None:
    if request.environ.get(BODY_TIMED_OUT):
        abort(408)  # before the CSRF check, which would read the empty form


def init_app(app: Flask) -> None:
    """Compression and static files, and the 408 of a body that came too late (call first)."""
    assets.init_app(app)  # first: its compression hook must run after every other one
    app.before_request(_body_timed_out)  # first of the request hooks


def front(app: Flask) -> None:
    """Put the live poll's shortcut in front of the finished app (call last)."""
    live_poll.init_app(app)
