"""The deal form's templates rendered in the phone: the same files the server renders
(``templates/partials/chips.html``, ``templates/fragments/deal_preview.html``), by the same
Jinja, with the same template words (:func:`scorekeeper.words.page.form_words`) in the page's
catalogue, so a tap's preview is the HTML the server would send.

The bundle carries the templates under ``scorekeeper/templates/`` (where a wheel keeps them);
run from a checkout (the tests, in CPython), they are read from its ``templates/`` folder.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2

from ..words.catalogue import Words
from ..words.page import form_words

TEMPLATES = ("partials/chips.html", "fragments/deal_preview.html")
"""What the phone renders, and so what the bundle carries (``scorekeeper.serving.engine`` reads
this tuple from this file: keep it a tuple of strings)."""
PREVIEW = TEMPLATES[1]
CHECKOUT = Path(__file__).resolve().parent.parent.parent / "templates"


def template_source(name: str) -> str:
    """A template's text: the bundle's copy, else the checkout's."""
    inside = files("scorekeeper").joinpath("templates", *name.split("/"))
    if inside.is_file():
        return inside.read_text(encoding="utf-8")
    return (CHECKOUT / name).read_text(encoding="utf-8")


def environment(words: Words) -> jinja2.Environment:
    """A Jinja environment as the server's (``scorekeeper.web``: HTML escaped, blocks trimmed,
    gettext new-style) in `words`' language."""
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(
            lambda name: (template_source(name), None, lambda: True) if name in TEMPLATES else None
        ),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(words.translate, words.plural, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(form_words(words.translate, words.plural))
    return env


_ENVIRONMENTS: dict[tuple[int, str | None], jinja2.Environment] = {}


def environment_of(words: Words) -> jinja2.Environment:
    """The environment of `words` (one a catalogue and game context: its templates compiled
    once)."""
    key = (id(words.catalogue), words.context)
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = environment(words)
    return _ENVIRONMENTS[key]


def render(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    """A template rendered with `context`."""
    return env.get_template(name).render(context)
