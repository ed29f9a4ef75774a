"""A shortcut for the polls of an unchanged game (most of a server's requests).

Every phone showing a game asks every few seconds whether it changed, with the version it shows:
a view link `/v/<view_token>/live` (`?v=` from htmx, `If-None-Match` from the browser cache)
and a scorekeeping page `/g/<token>/live?v=` (htmx only). While the game is unchanged the
answer is an empty 304 or 204; this WSGI middleware gives it with the game's version
(`store.versions`: kept in this process while PostgreSQL reports no change, or SQLite's change
marks show none, else one indexed read, in a thread) and none of the rest of a Flask request
(no view function, no session save, no after-request hooks).

It answers only what Flask would answer the same way:

- the tag comes from the function the views use (`languages.live_etag`) with the reader's
  language from the function Flask-Babel's selector uses (`languages.choose_language`); with an
  access code set, the app's own check runs on the session in a request context;
- a scorekeeping page's poll is answered only when htmx sends it, as the view requires (else
  Flask sends the browser to the game page);
- the headers are copied from Flask's own 304/204 for each route, recorded the first time one
  passes through each worker; until then, and for everything else, Flask answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from werkzeug.http import HTTP_STATUS_CODES, parse_cookie, parse_etags

from ..store.db import db
from ..store.games import is_token
from ..store.versions import Versions, versions_for
from ..web.access import has_access
from ..web.languages import LANGUAGE_COOKIE, LANGUAGE_PARAMETER, choose_language, live_etag
from .gateway import QUICK_ANSWER

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# per-response headers: recomputed, or left to the server
_OWN_HEADERS = frozenset({"etag", "date", "server", "set-cookie", "content-length", "connection"})


@dataclass(frozen=True)
class _Poll:
    """One polled route: its path's prefix, the read of its game's version by the token, and
    how it is asked."""

    prefix: str
    kind: str  # the token's column: "token" or "view_token"
    etag: bool
    """The view link's: an ETag on the answer, and If-None-Match (304) besides `?v=` (204)."""
    htmx_only: bool
    """The scorekeeping page's: Flask answers anything but an htmx request otherwise."""


POLLS = (
    _Poll("/v/", "view_token", etag=True, htmx_only=False),
    _Poll("/g/", "token", etag=False, htmx_only=True),
)


class LivePollShortcut:
    """WSGI middleware: 304/204 for an unchanged game's poll without running the Flask app."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        # Flask's own headers per (route, status), as first seen in this worker
        self.headers: dict[tuple[str, int], list[tuple[str, str]]] = {}
        self.weak = True  # as Flask's own ETag for the view link's poll, once one has been seen
        self.versions: Versions | None = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        poll = self._poll(environ)
        if poll is None:
            return self.wsgi_app(environ, start_response)
        answer = self._answer(environ, poll)
        if answer is None:
            return self._through_flask(environ, start_response, poll)
        status, headers, body = answer
        start_response(f"{status} {HTTP_STATUS_CODES[status]}", headers)
        return [body]

    def quick_answer(
        self, environ: dict[str, Any]
    ) -> tuple[int, list[tuple[str, str]], bytes] | None:
        """The 304/204 of an unchanged game's poll from what this process keeps in memory, or
        None (a thread answers: this shortcut with a read, or Flask). The server asks it on its
        event loop before handing a request to a thread, so it never waits on the database: a
        held write lock or a slow server would stall every connection of the worker."""
        poll = self._poll(environ)
        return None if poll is None else self._answer(environ, poll, kept_only=True)

    @staticmethod
    def _poll(environ: dict[str, Any]) -> _Poll | None:
        """The polled route this request may be answered for here, or None (Flask answers)."""
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET" or not path.endswith("/live"):
            return None
        poll = next((poll for poll in POLLS if path.startswith(poll.prefix)), None)
        if poll is None or not is_token(path[3:-5]):  # let Flask answer (404: PostgreSQL
            return None  # refuses NUL bytes)
        if poll.htmx_only and (
            environ.get("HTTP_HX_REQUEST") != "true" or environ.get("HTTP_HX_BOOSTED")
        ):
            return None
        return poll

    def _answer(
        self, environ: dict[str, Any], poll: _Poll, *, kept_only: bool = False
    ) -> tuple[int, list[tuple[str, str]], bytes] | None:
        status, tag = self._unchanged(environ, poll, environ["PATH_INFO"][3:-5], kept_only)
        headers = None if status is None else self.headers.get((poll.prefix, status))
        if status is None or headers is None:
            return None
        if poll.etag:
            headers = [*headers, ("ETag", f'W/"{tag}"' if self.weak else f'"{tag}"')]
        return status, headers, b""

    def _unchanged(
        self, environ: dict[str, Any], poll: _Poll, token: str, kept_only: bool
    ) -> tuple[int | None, str]:
        """(304 or 204, the tag) when the phone shows the current version, else (None, "").

        Nothing here needs Flask's request or locale machinery: the query, If-None-Match and
        the language (by the function Flask-Babel's selector calls) come from the environ. Only
        an access code needs the session, so only then is a request context built."""
        if self.app.config.get("ACCESS_CODE") and not self._has_access(environ):
            return None, ""
        query: dict[str, str] = {}
        for key, value in parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True):
            query.setdefault(key, value)  # the first, as Flask's request.args.get takes it
        shown, asked = query.get("v"), query.get(LANGUAGE_PARAMETER)
        if_none_match = parse_etags(environ.get("HTTP_IF_NONE_MATCH") if poll.etag else None)
        if not shown and not if_none_match:
            return None, ""
        version = self._version(poll, token, kept_only)
        if version is None:
            return None, ""
        chosen = parse_cookie(environ.get("HTTP_COOKIE")).get(LANGUAGE_COOKIE)
        tag = live_etag(
            version, choose_language(chosen, environ.get("HTTP_ACCEPT_LANGUAGE"), asked)
        )
        if if_none_match.contains_weak(tag):  # If-None-Match compares weakly
            return 304, tag
        if shown == tag:
            return 204, tag
        return None, ""

    def _has_access(self, environ: dict[str, Any]) -> bool:
        """The app's own access-code check, in a request context (it reads the session)."""
        with self.app.request_context(environ):
            return has_access()

    def _version(self, poll: _Poll, token: str, kept_only: bool) -> int | None:
        """The game's version by the route's token, or None: kept by this process while the
        database reports no change to it (PostgreSQL's listener, SQLite's marks), else one
        indexed read (`kept_only`: None rather than a read)."""
        if self.versions is None:
            with self.app.app_context():
                self.versions = versions_for(
                    db.engine, listen=bool(self.app.config.get("LISTEN_FOR_CHANGES", True))
                )
        if kept_only:
            return self.versions.known(poll.kind, token)
        return self.versions.version(poll.kind, token)

    def _through_flask(
        self, environ: dict[str, Any], start_response: StartResponse, poll: _Poll
    ) -> Iterable[bytes]:
        """Let Flask answer; remember the headers of its first 304 and first 204 (per route)."""

        def recording(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            code = int(status.split()[0])
            if code in (204, 304) and (poll.prefix, code) not in self.headers:
                self.headers[poll.prefix, code] = [
                    (k, v) for k, v in headers if k.lower() not in _OWN_HEADERS
                ]
                if poll.etag:
                    self.weak = any(k.lower() == "etag" and v.startswith("W/") for k, v in headers)
            return start_response(status, headers, *args)

        return self.wsgi_app(environ, recording)


def init_app(app: Flask) -> None:
    """Put the shortcut in front of the app, and offer it to the server (the gateway asks it on
    its event loop before handing a request to a thread)."""
    shortcut = LivePollShortcut(app, app.wsgi_app)
    app.wsgi_app = shortcut  # type: ignore[method-assign]
    app.extensions[QUICK_ANSWER] = shortcut.quick_answer
