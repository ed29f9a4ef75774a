"""The game page's parts rendered in the phone: the same files the server renders (a tap's
preview: ``partials/chips.html``, ``fragments/deal_preview.html``; the game with the deals the
phone keeps: ``fragments/kept_view.html`` by the page's macros), by the same Jinja, with the
same template words (:mod:`scorekeeper.words.page`) in the page's catalogue, so the phone
paints the HTML the server would send.

What only the server knows of a game (its links, its files' addresses, its name and its share
line) comes with its record (:class:`Page`, made by ``scorekeeper.web.views.offline``); the
page's CSRF token comes with each question.

The bundle carries the templates under ``scorekeeper/templates/`` (where a wheel keeps them),
and compiled by the server (``scorekeeper/templates/compiled/``: Jinja's modules, which the
phone compiles to bytecode once with the rest of the bundle), so the phone never compiles a
template; run from a checkout (the tests, in CPython), they are compiled from its
``templates/`` folder.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import jinja2

from ..words.catalogue import Words
from ..words.page import COMPILED, TEMPLATE_OPTIONS, GameWords, form_words
from ..words.share import result_text

TEMPLATES = (
    "partials/chips.html",
    "fragments/deal_preview.html",
    "partials/macros.html",
    "partials/game_parts.html",
    "fragments/kept_view.html",
)
"""What the phone renders, and so what the bundle carries (``scorekeeper.serving.engine`` reads
this tuple from this file: keep it a tuple of strings)."""
PREVIEW = TEMPLATES[1]
VIEW = TEMPLATES[4]
LINK = re.compile(r"<(?:[a-z]+:)?(\w+)>")
"""A value's place in a route (werkzeug's ``<converter:name>``)."""
QUERY_SAFE = "!$'()*,/:;?@"
"""What werkzeug leaves unquoted in a query string (its ``_urlencode``)."""


@dataclass(frozen=True)
class Page:
    """What the server tells the phone of a game's page: its row as the templates read it
    (``token``, ``table_id``, ``name``), the first line of its shared result and the shared
    picture's name, the page's direction, its routes by endpoint (werkzeug's rules under the
    app's root) and the addresses of the static files the templates name."""

    row: Mapping[str, Any]
    share_title: str = ""
    share_file: str = ""
    rtl: bool = False
    links: Mapping[str, str] = field(default_factory=dict)
    static: Mapping[str, str] = field(default_factory=dict)
    csrf: str = ""

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> Page:
        """A page as the server's record answer describes it."""
        return cls(
            row=dict(given.get("row", {})),
            share_title=str(given.get("share_title", "")),
            share_file=str(given.get("share_file", "")),
            rtl=bool(given.get("rtl", False)),
            links=dict(given.get("links", {})),
            static=dict(given.get("static", {})),
        )

    def url_for(self, endpoint: str, **values: Any) -> str:
        """The address the server's ``url_for`` builds: the route's values in place, the rest
        as the query string."""
        rule = self.links[endpoint]
        address = LINK.sub(lambda m: quote(str(values.pop(m[1])), safe="!$&'()*+,/:;=@"), rule)
        query = [(name, value) for name, value in values.items() if value is not None]
        return address + ("?" + urlencode(query, safe=QUERY_SAFE) if query else "")


CURRENT: ContextVar[Page] = ContextVar("page")
"""The page being rendered (templates import macros without context: what they call of the
page comes from here)."""
CHECKOUT = Path(__file__).resolve().parent.parent.parent / "templates"


def template_source(name: str) -> str:
    """A template's text: the bundle's copy, else the checkout's."""
    inside = files("scorekeeper").joinpath("templates", *name.split("/"))
    if inside.is_file():
        return inside.read_text(encoding="utf-8")
    return (CHECKOUT / name).read_text(encoding="utf-8")


def loader() -> jinja2.BaseLoader:
    """The templates compiled into the bundle by the server (nothing to compile in the phone),
    else (the tests, in CPython) their sources."""
    compiled = files("scorekeeper").joinpath("templates", COMPILED)
    if compiled.is_dir():
        return jinja2.ModuleLoader(str(compiled))
    return jinja2.FunctionLoader(
        lambda name: (template_source(name), None, lambda: True) if name in TEMPLATES else None
    )


def environment(words: Words) -> jinja2.Environment:
    """A Jinja environment as the server's (HTML escaped, blocks trimmed, gettext new-style:
    :data:`~scorekeeper.words.page.TEMPLATE_OPTIONS`) in `words`' language."""
    env = jinja2.Environment(loader=loader(), **TEMPLATE_OPTIONS)
    env.install_gettext_callables(words.translate, words.plural, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(form_words(words.translate, words.plural))
    env.globals.update(GameWords(words.translate, lambda: words.language).globals())
    env.globals.update(
        url_for=lambda endpoint, **values: CURRENT.get().url_for(endpoint, **values),
        static_url=lambda name: CURRENT.get().static[name],
        csrf_token=lambda: CURRENT.get().csrf,
        share_text=lambda result, *_: result_text(
            result, CURRENT.get().share_title, words.translate, rtl=CURRENT.get().rtl
        ),
        share_file=lambda *_: CURRENT.get().share_file,
    )
    return env


_ENVIRONMENTS: dict[tuple[int, str | None], jinja2.Environment] = {}


def environment_of(words: Words) -> jinja2.Environment:
    """The environment of `words` (one a catalogue and game context: its templates compiled
    once)."""
    key = (id(words.catalogue), words.context)
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = environment(words)
    return _ENVIRONMENTS[key]


def render(
    env: jinja2.Environment, name: str, context: dict[str, Any], page: Page | None = None
) -> str:
    """A template rendered with `context` for `page`."""
    if page is None:
        return env.get_template(name).render(context)
    token = CURRENT.set(page)
    try:
        return env.get_template(name).render(context)
    finally:
        CURRENT.reset(token)
