"""The service worker: what keeps a game page the phone opened, and the game going, offline.

A service worker's scope is limited by its script's path, so the script is served at the app's
root (``/sw.js``, ``static/js/sw.js`` as written, minified like every script of ours) and
covers every game page. It imports the sync of deals kept on the phone
(``static/js/sync.js``, which the page's script imports too) at the address that names its
content: the worker's own bytes change with it, so a phone sees a new release of either.

The browser asks for the script again when it looks for an update (it bypasses its HTTP cache
for it): the answer is ``no-cache``, never kept without asking.

The sync (``static/js/sync.js``) is served here too, at ``/engine/sync.js?v=<digest>``, with the
facts the server and the phone share filled in from their one source (:data:`FACTS`: the
Background Sync tag, the most entries a sync carries, ``scorekeeper.store.sync.MOST_PENDING``).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Flask, Response, abort, current_app, request, url_for

from ..store.sync import MOST_PENDING
from .assets import STATIC_MAX_AGE, minified_js

bp = Blueprint("offline", __name__)
ENDPOINTS = frozenset({"offline.service_worker", "offline.sync_script"})
"""The same for everyone (no cookie: the browser asks for it when it looks for an update)."""

WORKER_SCRIPT = "js/sw.js"
SYNC_SCRIPT = "js/sync.js"
SYNC_IMPORT = '"./static/js/sync.js"'
"""How ``sw.js`` names its import as written (right for an app at the root, unversioned)."""
SYNC_TAG = "scorekeeper-sync"
"""The Background Sync registration's tag: the page registers it, the service worker answers it."""
FACTS = {"tag": SYNC_TAG, "most": MOST_PENDING}
"""What ``sync.js`` is told (its ``const FACTS = null;`` line, filled in)."""
FACTS_LINE = "const FACTS = null;"


@lru_cache(maxsize=8)
def _sync(static_folder: str) -> tuple[bytes, str]:
    """The sync's script with the facts filled in, and its digest."""
    source = (Path(static_folder) / SYNC_SCRIPT).read_text(encoding="utf-8")
    assert source.count(FACTS_LINE) == 1, "sync.js leaves its facts to the server"
    body = minified_js(source.replace(FACTS_LINE, f"const FACTS = {json.dumps(FACTS)};").encode())
    return body, hashlib.sha256(body).hexdigest()[:10]


def sync_url() -> str:
    """The sync's address, naming its content (the page and the service worker import it)."""
    _, digest = _sync(current_app.static_folder or "")
    return url_for("offline.sync_script", v=digest)


@lru_cache(maxsize=8)
def _script(static_folder: str, script_root: str, sync_url: str) -> bytes:
    source = (Path(static_folder) / WORKER_SCRIPT).read_text(encoding="utf-8")
    assert SYNC_IMPORT in source, "sw.js imports sync.js as SYNC_IMPORT says"
    return minified_js(source.replace(SYNC_IMPORT, f'"{sync_url}"').encode())


@bp.get("/engine/sync.js")
def sync_script() -> Response:
    """The sync, for good at the address that names its content (``?v=``)."""
    body, digest = _sync(current_app.static_folder or "")
    if request.args.get("v") != digest:
        abort(404)
    response = Response(body, mimetype="text/javascript")
    response.cache_control.max_age = STATIC_MAX_AGE
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker's script, at the root so that its scope covers the game pages."""
    body = _script(current_app.static_folder or "", request.script_root, sync_url())
    response = Response(body, mimetype="text/javascript")
    response.cache_control.no_cache = True
    return response


def init_app(app: Flask) -> None:
    """The service worker's route."""
    app.register_blueprint(bp)
