"""The service worker: what keeps a game page the phone opened, and the game going, offline.

A service worker's scope is limited by its script's path, so the script is served at the app's
root (``/sw.js``, ``static/js/sw.js`` as written, minified like every script of ours) and
covers every game page. It imports the sync of deals kept on the phone
(``static/js/sync.js``, which the page's script imports too) at the address that names its
content: the worker's own bytes change with it, so a phone sees a new release of either.

The browser asks for the script again when it looks for an update (it bypasses its HTTP cache
for it): the answer is ``no-cache``, never kept without asking.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, request

from .assets import minified_js, static_url

bp = Blueprint("offline", __name__)
ENDPOINTS = frozenset({"offline.service_worker"})
"""The same for everyone (no cookie: the browser asks for it when it looks for an update)."""

WORKER_SCRIPT = "js/sw.js"
SYNC_SCRIPT = "js/sync.js"
SYNC_IMPORT = '"./static/js/sync.js"'
"""How ``sw.js`` names its import as written (right for an app at the root, unversioned)."""


@lru_cache(maxsize=8)
def _script(static_folder: str, script_root: str, sync_url: str) -> bytes:
    source = (Path(static_folder) / WORKER_SCRIPT).read_text(encoding="utf-8")
    assert SYNC_IMPORT in source, "sw.js imports sync.js as SYNC_IMPORT says"
    return minified_js(source.replace(SYNC_IMPORT, f'"{sync_url}"').encode())


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker's script, at the root so that its scope covers the game pages."""
    body = _script(current_app.static_folder or "", request.script_root, static_url(SYNC_SCRIPT))
    response = Response(body, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


def init_app(app: Flask) -> None:
    """The service worker's route."""
    app.register_blueprint(bp)
