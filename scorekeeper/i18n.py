"""Translations looked up once per request, not once per string.

Flask-Babel's ``gettext`` walks several context-local proxies and formats the locale's name on
every call (about 5 µs); a game page translates some 50 strings. Here the request's catalogue is
remembered beside Flask-Babel's own per-request state (``g._flask_babel``), tagged with the
locale and domain objects it was made for: a request never sees another's catalogue (``g`` is
per request, hence per thread), and ``flask_babel.refresh()`` or ``force_locale()`` — which
replace or drop those objects — make the next lookup ask Flask-Babel again.

The functions keep Flask-Babel's and Jinja's semantics exactly: ``gettext(s, **v)`` is
``s % v`` only when given variables; in templates, ``_()``, ``gettext`` and ``ngettext`` are
Jinja's "newstyle" ones (the translation is marked safe when autoescaping, then always
``%``-formatted with escaped variables).
"""

from __future__ import annotations

from typing import Any

import flask_babel
from babel import support
from flask import Flask, g
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

_CACHE = "scorekeeper_translations"
_NULL = support.NullTranslations()


def _cached(domain: object = None) -> support.NullTranslations | None:
    """This request's catalogue if already looked up for its current locale and for `domain`
    (default: the request's current domain)."""
    try:
        state = g._get_current_object().__dict__.get("_flask_babel")
    except RuntimeError:  # no app context: Flask-Babel answers with null translations
        return _NULL
    if state is None:
        return None
    known = state.__dict__
    cached = known.get(_CACHE)
    if (cached is not None and cached[0] is known.get("babel_locale")
            and cached[1] is (domain or known.get("babel_domain"))):
        return cached[2]  # type: ignore[no-any-return]
    return None


def _remember(found: support.NullTranslations, domain: object = None) -> None:
    """Keep the catalogue Flask-Babel just found, tagged with its locale and domain."""
    try:
        state = g._get_current_object().__dict__.get("_flask_babel")
    except RuntimeError:
        return
    if state is not None:
        known = state.__dict__
        locale = known.get("babel_locale")
        if locale is not None:
            known[_CACHE] = (locale, domain or known.get("babel_domain"), found)


class CachedDomain(flask_babel.Domain):  # type: ignore[misc]
    """Flask-Babel's domain, answering `get_translations` from the request's cache (so
    flask_babel.gettext in views and forms is cheaper too)."""

    def get_translations(self) -> support.NullTranslations:
        found = _cached(self)
        if found is None:
            found = super().get_translations()
            _remember(found, self)
        return found


def translations() -> support.NullTranslations:
    """The catalogue of the current request's locale (Flask-Babel's own object)."""
    found = _cached()
    if found is None:
        found = flask_babel.get_translations()
        _remember(found)
    return found


def gettext(string: str, **variables: Any) -> str:
    """flask_babel.gettext, with the request's catalogue looked up once."""
    text: str = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """flask_babel.ngettext, with the request's catalogue looked up once."""
    variables.setdefault("num", num)
    text: str = translations().ungettext(singular, plural, num)
    return text % variables if variables else text


# Jinja's newstyle gettext (jinja2.ext._make_new_gettext and friends) around Flask-Babel's
# callables, without the alias's and the wrapper's extra context lookups and calls.


@pass_context
def _jinja_gettext(context: Context, string: str, /, **variables: Any) -> str:
    text = translations().ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    if not variables and "%" not in text:
        return text  # what `% {}` would give back, without the formatting machinery
    return text % variables  # type: ignore[no-any-return]


@pass_context
def _jinja_ngettext(context: Context, singular: str, plural: str, num: int, /,
                    **variables: Any) -> str:
    variables.setdefault("num", num)
    text = translations().ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return text % variables  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    """Give the templates the fast callables (after Flask-Babel installed its own)."""
    app.jinja_env.globals.update(_=_jinja_gettext, gettext=_jinja_gettext,
                                 ngettext=_jinja_ngettext)
