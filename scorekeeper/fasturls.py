"""``url_for`` for templates, from a per-route pattern instead of a full Werkzeug build.

A game page builds some 30 links (one Edit link per history row), each a Werkzeug build of
several µs. Here the first build of an endpoint with a given set of argument names (and the
request's script root, scheme and host) is made with placeholder values and kept as a pattern;
later calls whose values are plain (letters, digits, ``-._~``: what both path quoting and query
encoding leave as they are) fill the pattern in. Anything else — other values, ``_anchor``,
``_method``, ``_scheme``, blueprint-relative endpoints, routes with converters other than the
default string one, defaults, more than one rule, or ``url_defaults`` functions — goes to
Flask's own ``url_for``, so every URL is exactly the one Flask would build.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.globals import request_ctx
from werkzeug.routing import BaseConverter

_PLAIN = re.compile(r"[A-Za-z0-9_.~-]+\Z")
MAX_PATTERNS = 512  # the Host header is part of the key: a client must not grow it forever
_SLOW = None  # marker in the pattern cache: this kind of call always takes Flask's path


Pattern = tuple[tuple[str, ...], tuple[int, ...]]
"""The URL's literal pieces around the values, and which value (by argument position) goes
between each two pieces."""


def _fill(pattern: Pattern, values: list[str]) -> str:
    literals, order = pattern
    parts = [literals[0]]
    for index, literal in zip(order, literals[1:], strict=True):
        parts.append(values[index])
        parts.append(literal)
    return "".join(parts)


def _plain(value: Any) -> str | None:
    """The value as it would appear in a URL, if quoting cannot change it; else None."""
    kind = type(value)
    if kind is str:
        return value if _PLAIN.match(value) else None
    if kind is int:
        return str(value)
    return None


class UrlFor:
    """A drop-in for the templates' ``url_for``."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.slow: Callable[..., str] = app.url_for
        self.patterns: dict[tuple[Any, ...], Pattern | None] = {}

    def __call__(self, endpoint: str, /, **values: Any) -> str:
        external = values.pop("_external", None)
        filled = []
        for value in values.values():
            text = _plain(value)
            if text is None:
                return self.slow(endpoint, _external=external, **values)
            filled.append(text)
        try:
            adapter = request_ctx._get_current_object().url_adapter
        except RuntimeError:  # outside a request: Flask's rules (SERVER_NAME and such)
            return self.slow(endpoint, _external=external, **values)
        if adapter is None or endpoint[:1] == "." or external not in (None, True, False):
            return self.slow(endpoint, _external=external, **values)
        key = (endpoint, tuple(values), bool(external), adapter.script_name,
               adapter.url_scheme, adapter.server_name, adapter.subdomain)
        try:
            pattern = self.patterns[key]
        except KeyError:
            if len(self.patterns) >= MAX_PATTERNS:
                self.patterns.clear()
            pattern = self.patterns[key] = self._pattern(endpoint, tuple(values), bool(external))
        if pattern is None:
            return self.slow(endpoint, _external=external, **values)
        return _fill(pattern, filled)

    def _pattern(self, endpoint: str, names: tuple[str, ...],
                 external: bool) -> Pattern | None:
        """The URL split around each value (in the order of `names`), or None if unsafe."""
        if any(name.startswith("_") for name in names):
            return _SLOW
        if any(self.app.url_default_functions.values()):
            return _SLOW
        rules = list(self.app.url_map.iter_rules(endpoint))
        if len(rules) != 1 or rules[0].defaults or rules[0].host is not None:
            return _SLOW
        converters: dict[str, BaseConverter] = getattr(rules[0], "_converters", None) or {}
        if any(type(conv).to_url is not BaseConverter.to_url for conv in converters.values()):
            return _SLOW
        try:
            built = self.slow(endpoint, _external=external,
                              **{name: f"zQ{index}placeholderQz" for index, name in
                                 enumerate(names)})
            check = self.slow(endpoint, _external=external,
                              **{name: f"Ab{index}-check.~_" for index, name in
                                 enumerate(names)})
        except Exception:  # any refusal: leave it to Flask every time
            return _SLOW
        found = []
        for index in range(len(names)):
            marker = f"zQ{index}placeholderQz"
            if built.count(marker) != 1:
                return _SLOW
            found.append((built.index(marker), index, len(marker)))
        found.sort()
        literals, order, start = [], [], 0
        for position, index, length in found:
            literals.append(built[start:position])
            order.append(index)
            start = position + length
        literals.append(built[start:])
        pattern = (tuple(literals), tuple(order))
        if _fill(pattern, [f"Ab{index}-check.~_" for index in range(len(names))]) != check:
            return _SLOW
        return pattern


def init_app(app: Flask) -> None:
    """Templates build their links through the pattern cache."""
    app.jinja_env.globals["url_for"] = UrlFor(app)
