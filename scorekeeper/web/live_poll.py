"""A shortcut for the live view's poll when nothing changed (most of a server's requests).

Every viewer's phone asks `/v/<view_token>/live` every few seconds, with the version it shows
(`?v=` from htmx, `If-None-Match` from the browser cache). While the game is unchanged the answer
is an empty 304 or 204; this WSGI middleware gives it with one indexed lookup of the version and
none of the rest of a Flask request (no view function, no session save, no after-request hooks).

It answers only what Flask would answer the same way:

- the ETag comes from the function the live view uses (`languages.live_etag`) with the reader's
  language from the function Flask-Babel's selector uses (`languages.choose_language`); with an
  access code set, the app's own check runs on the session in a request context;
- the headers are copied from Flask's own 304/204 for this route, recorded the first time one
  passes through each worker; until then, and for everything else, Flask answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qsl

from flask import Flask
from werkzeug.http import HTTP_STATUS_CODES, parse_cookie, parse_etags

from ..store.db import db
from ..store.games import VERSION_BY_VIEW_TOKEN, is_token
from .access import has_access
from .languages import LANGUAGE_COOKIE, LANGUAGE_PARAMETER, choose_language, live_etag

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# per-response headers: recomputed, or left to the server
_OWN_HEADERS = frozenset({"etag", "date", "server", "set-cookie", "content-length",
                          "connection"})


class LivePollShortcut:
    """WSGI middleware: 304/204 for an unchanged live view without running the Flask app."""

    def __init__(self, app: Flask, wsgi_app: WSGIApp) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.headers: dict[int, list[tuple[str, str]]] = {}
        self.weak = True  # as Flask's own ETag for this route, once one has been seen
        self.engine: Any = None

    def __call__(self, environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if (environ.get("REQUEST_METHOD") != "GET" or not path.startswith("/v/")
                or not path.endswith("/live")):
            return self.wsgi_app(environ, start_response)
        token = path[3:-5]
        if not is_token(token):  # let Flask answer 404 (PostgreSQL refuses NUL bytes)
            return self.wsgi_app(environ, start_response)
        status, tag = self._unchanged(environ, token)
        if status is None or status not in self.headers:
            return self._through_flask(environ, start_response)
        etag = f'W/"{tag}"' if self.weak else f'"{tag}"'
        start_response(f"{status} {HTTP_STATUS_CODES[status]}",
                       [*self.headers[status], ("ETag", etag)])
        return [b""]

    def _unchanged(self, environ: dict[str, Any], token: str) -> tuple[int | None, str]:
        """(304 or 204, the tag) when the viewer shows the current version, else (None, "").

        Nothing here needs Flask's request or locale machinery: the query, If-None-Match and
        the language (by the function Flask-Babel's selector calls) come from the environ. Only
        an access code needs the session, so only then is a request context built."""
        if self.app.config.get("ACCESS_CODE") and not self._has_access(environ):
            return None, ""
        query: dict[str, str] = {}
        for key, value in parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True):
            query.setdefault(key, value)  # the first, as Flask's request.args.get takes it
        shown, asked = query.get("v"), query.get(LANGUAGE_PARAMETER)
        if_none_match = parse_etags(environ.get("HTTP_IF_NONE_MATCH"))
        if not shown and not if_none_match:
            return None, ""
        version = self._version(token)
        if version is None:
            return None, ""
        chosen = parse_cookie(environ.get("HTTP_COOKIE")).get(LANGUAGE_COOKIE)
        tag = live_etag(version, choose_language(chosen, environ.get("HTTP_ACCEPT_LANGUAGE"),
                                                 asked))
        if if_none_match.contains_weak(tag):  # If-None-Match compares weakly
            return 304, tag
        if shown == tag:
            return 204, tag
        return None, ""

    def _has_access(self, environ: dict[str, Any]) -> bool:
        """The app's own access-code check, in a request context (it reads the session)."""
        with self.app.request_context(environ):
            return has_access()

    def _version(self, token: str) -> int | None:
        """The game's version by its view token (one indexed read), or None."""
        if self.engine is None:
            with self.app.app_context():
                self.engine = db.engine
        with self.engine.connect() as connection:
            version = connection.execute(VERSION_BY_VIEW_TOKEN,
                                         {"token": token}).scalar_one_or_none()
        return None if version is None else int(version)

    def _through_flask(self, environ: dict[str, Any], start_response: StartResponse
                       ) -> Iterable[bytes]:
        """Let Flask answer; remember the headers of its first 304 and first 204."""

        def recording(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            code = int(status.split()[0])
            if code in (204, 304) and code not in self.headers:
                self.headers[code] = [(k, v) for k, v in headers
                                      if k.lower() not in _OWN_HEADERS]
                self.weak = any(k.lower() == "etag" and v.startswith("W/") for k, v in headers)
            return start_response(status, headers, *args)

        return self.wsgi_app(environ, recording)


def init_app(app: Flask) -> None:
    """Put the shortcut in front of the app."""
    app.wsgi_app = LivePollShortcut(app, app.wsgi_app)  # type: ignore[method-assign]
