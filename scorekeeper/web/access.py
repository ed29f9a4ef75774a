"""The optional server-wide access code: asked once per browser, remembered in the signed session.

When the operator sets `ACCESS_CODE` (config) or `SCOREKEEPER_ACCESS_CODE` (environment), every
request except static files and the code page itself is sent to a small page asking for the code.
The session keeps a keyed fingerprint of the code, not the code, so changing the code asks every
browser again. Wrong codes are counted in the database (:mod:`scorekeeper.store.limits`) per
address, so workers and hosts share one limit; beyond it a code is checked only when the
address's slot is free, and a right one is let in then. For everyone together, the answers to
wrong codes wait in one queue (80 a minute, whatever the address): the server holds each until
its moment (ANSWER_AT), on its event loop, holding no thread; a right code never waits in it,
so the host gets in at the first try however many addresses guess. The code's strength, checked
when the server starts, is what makes guessing hopeless.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
from typing import Any

from flask import (
    Blueprint,
    Flask,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm
from werkzeug.wrappers import Response
from wtforms import HiddenField, PasswordField
from wtforms.validators import InputRequired, Length

from ..store import limits
from .json_answers import json_error, wants_json
from .languages import gettext
from .languages import lazy_gettext as _l
from .links import local_path

bp = Blueprint("access", __name__)

SESSION_KEY = "access"
# the language switch stays open so the code page can be read in any language; the service
# worker's script and the engine's files hold no game and no secret (the package's own code),
# and a browser fetches a service worker's script without the code's cookie: behind the code,
# no page would ever be kept for a reload with no network, and Background Sync never ran
OPEN_ENDPOINTS = frozenset(
    {
        "static",
        "manifest",
        "access.ask",
        "pages.set_language",
        "offline.service_worker",
        "offline.sync_script",
        "engine.runtime",
        "engine.bundle_file",
        "engine.config",
    }
)
ANSWER_AT = "scorekeeper.answer_at"
"""Environ key (also named in scorekeeper.serving.gateway): the moment (seconds since the epoch)
before which the server must not send this answer; `scorekeeper serve` waits for it on its
event loop."""


class AccessForm(FlaskForm):
    """The server's access code, and where to go once it is accepted."""

    code = PasswordField(_l("Access code"), validators=[InputRequired(), Length(max=200)])
    next = HiddenField()


def configured_code() -> str | None:
    """The server's access code, or None when the server is open."""
    code = current_app.config.get("ACCESS_CODE")
    return str(code) if code else None


def _fingerprint(code: str) -> str:
    """What the session remembers: the code keyed with the app's secret, never the code itself."""
    key = current_app.secret_key
    key_bytes = key if isinstance(key, bytes) else str(key).encode()
    return hmac.new(key_bytes, b"access-code:" + code.encode(), hashlib.sha256).hexdigest()


def has_access() -> bool:
    """Whether this browser has given the current code (always, when there is none)."""
    code = configured_code()
    if code is None:
        return True
    remembered = session.get(SESSION_KEY)
    return isinstance(remembered, str) and hmac.compare_digest(remembered, _fingerprint(code))


def _local_path(target: str | None) -> str:
    """`target` if it is a path on this site, else the home page (no open redirect)."""
    return local_path(target, url_for("games.home"))


def _require_code() -> Response | None:
    """Send a browser without the code to the code page (htmx: through HX-Redirect)."""
    if request.endpoint in OPEN_ENDPOINTS or has_access():
        return None
    target = request.full_path.rstrip("?") if request.method == "GET" else None
    location = (
        url_for("access.ask", next=target) if target and target != "/" else url_for("access.ask")
    )
    if wants_json():  # a script: told in words, with where a person enters the code
        return json_error(
            403,
            gettext("Enter the access code the host gave you. This browser will remember it."),
            access=url_for("access.ask"),
        )
    if request.headers.get("HX-Request") == "true":
        response = Response(status=403)
        response.headers["HX-Redirect"] = location
        return response
    return redirect(location, 303)


@bp.route("/access", methods=["GET", "POST"])
def ask() -> Any:
    """Ask for the server's access code, once per browser."""
    code = configured_code()
    form = AccessForm()
    if code is None:
        return redirect(_local_path(request.args.get("next")), 303)
    if request.method == "GET":
        form.next.data = request.args.get("next", "")
    if form.validate_on_submit():
        ticket = limits.check_code(limits.address_key(request.remote_addr))
        if ticket is None:  # not checked at all: a guess learns nothing
            form.code.errors = [
                _l("Too many wrong codes were tried lately. Wait a few seconds, then try again.")
            ]
            return (
                render_template("pages/access.html", form=form),
                429,
                {"Retry-After": str(math.ceil(limits.WRONG_CODES.address_interval))},
            )
        # compared as read out: spaces, hyphens and any script's digits do not matter
        entered = limits.spoken(form.code.data or "").encode()
        if hmac.compare_digest(entered, limits.spoken(code).encode()):
            limits.right_code(ticket)
            session[SESSION_KEY] = _fingerprint(code)
            return redirect(_local_path(form.next.data), 303)
        # wrong: answered in its turn of the queue every worker and host shares
        request.environ[ANSWER_AT] = limits.wrong_answer_at()
        form.code.errors = [*form.code.errors, _l("That is not the code. Ask the host.")]
    status = 422 if request.method == "POST" else 200
    return render_template("pages/access.html", form=form), status


def init_app(app: Flask) -> None:
    """Read the code from the environment (unless configured) and guard every request."""
    if not app.config.get("ACCESS_CODE"):
        app.config["ACCESS_CODE"] = os.environ.get("SCOREKEEPER_ACCESS_CODE", "").strip() or None
    app.register_blueprint(bp)
    app.before_request(_require_code)
