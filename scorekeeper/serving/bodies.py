"""How much of a request's body the app takes, judged from the request's head alone.

The gateway asks before it reads a byte of a body (`gateway.BODY_LIMIT`): a route the app does
not have, or a browser without the server's access code, takes none (the app answers without
it: 404, 405, the code page); the pages that take a file (the import pages) take a file's size;
every other route a form's (the app's MAX_CONTENT_LENGTH). So a client cannot have the server
hold more than a small form before it is known to be welcome, and nothing the app would refuse
anyway is read.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from ..web.access import OPEN_ENDPOINTS, configured_code, has_access
from ..web.views.imports import TAKES_FILES, UPLOAD_BODY
from .gateway import BODY_LIMIT, MAX_BODY


class BodyLimits:
    """The most body bytes a request takes, by its route and its browser's access."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any]) -> int:
        try:
            endpoint, _ = self.app.url_map.bind_to_environ(environ).match()
        except HTTPException:  # no such route or method (or a redirect): answered without it
            return 0
        if endpoint not in OPEN_ENDPOINTS and not self._has_access(environ):
            return 0
        if endpoint in TAKES_FILES:
            return UPLOAD_BODY
        form = self.app.config.get("MAX_CONTENT_LENGTH")
        return MAX_BODY if form is None else int(form)

    def _has_access(self, environ: dict[str, Any]) -> bool:
        """The app's own access-code check (it reads the session: a request context)."""
        if not self.app.config.get("ACCESS_CODE"):
            return True
        with self.app.request_context(environ):
            return configured_code() is None or has_access()


def init_app(app: Flask) -> None:
    """Offer the limits to the server (the gateway asks before it reads a body)."""
    app.extensions[BODY_LIMIT] = BodyLimits(app)
