"""Links: the URL converter for game and table tokens, and the one guard on where a redirect
may go back to."""

from __future__ import annotations

from urllib.parse import urlsplit

from werkzeug.routing import BaseConverter, IntegerConverter

from ..store.games import TOKEN_PATTERN


class TokenConverter(BaseConverter):
    """`<token:name>`: only what a token can look like reaches a view (anything else is a 404
    before any query; PostgreSQL refuses the NUL bytes a client may send)."""

    regex = TOKEN_PATTERN


def local_path(target: str | None, home: str) -> str:
    """`target` if it is a path on this site, else `home`: no open redirect, no header break."""
    if (
        not target
        or not target.startswith("/")
        or target.startswith(("//", "/\\"))
        or "\\" in target
        or any(ord(char) < 32 or ord(char) == 127 for char in target)
    ):
        return home
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return home
    return target


class NumberConverter(IntegerConverter):
    """`<number:name>`: a deal's number; a handful of digits at most (Python's int() refuses a
    string of thousands, which Werkzeug's own `int` converter would pass it)."""

    regex = r"[0-9]{1,6}"
