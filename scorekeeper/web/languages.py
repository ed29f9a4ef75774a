"""The app's languages: which there are, which way each reads, which one a reader gets, and
the words in it.

No views here: the live-poll shortcut and the views both ask this module, so neither imports
the other. Translations are Flask-Babel's catalogues, looked up once per request (a page
translates some fifty strings) and kept on ``g``; the app never switches language inside a
request.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from babel.support import NullTranslations
from flask import Flask, Response, current_app, g, has_request_context, request, url_for
from flask_babel import get_locale, get_translations, lazy_gettext, ngettext, pgettext
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response as BaseResponse

from ..words.catalogue import context_of, message_context

__all__ = [
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LANGUAGE_PARAMETER",
    "RTL_LANGUAGES",
    "asked_language",
    "choose_language",
    "current_language",
    "direction",
    "gettext",
    "init_app",
    "lazy_gettext",
    "live_etag",
    "ngettext",
    "pgettext",
    "plural_form",
    "remember_language",
    "select_locale",
    "use_words_of",
]

LANGUAGE_NAMES = {"ar": "العربية", "en": "English", "tr": "Türkçe", "ru": "Русский", "hi": "हिन्दी"}
"""Each language in its own words, for the switch in every page's header."""
LANGUAGES = tuple(LANGUAGE_NAMES)
RTL_LANGUAGES = frozenset({"ar"})
"""Languages written right to left."""
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "lang"
LANGUAGE_PARAMETER = "lang"
"""`?lang=xx` on any address: that language, remembered as the switch remembers it."""


def direction(language: str) -> str:
    """ "rtl" or "ltr", for a page's or an element's `dir`."""
    return "rtl" if language in RTL_LANGUAGES else "ltr"


@lru_cache(maxsize=256)
def choose_language(
    chosen: str | None, accept_language: str | None, asked: str | None = None
) -> str:
    """The language a link asked for (`?lang=`), else the one the reader chose (cookie), else
    the browser's best match, else English."""
    for code in (asked, chosen):
        if code in LANGUAGES:
            assert code is not None
            return code
    accepted = parse_accept_header(accept_language, LanguageAccept)
    return accepted.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def select_locale() -> str:
    """Flask-Babel's locale selector: `choose_language` for this request."""
    return choose_language(
        request.cookies.get(LANGUAGE_COOKIE),
        request.headers.get("Accept-Language"),
        asked_language(),
    )


def asked_language() -> str | None:
    """The language this request's `?lang=` names, if it names one of the app's."""
    asked = request.args.get(LANGUAGE_PARAMETER)
    return asked if asked in LANGUAGES else None


def current_language() -> str:
    """The request's language code."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def live_etag(version: int, language: str) -> str:
    """The live view's ETag: the game's version and the reader's language."""
    return f"{version}-{language}"


def translations() -> NullTranslations:
    """The request's catalogue (Flask-Babel's), looked up once per request."""
    if not has_request_context():
        return get_translations()
    found: NullTranslations | None = g.get("translations")
    if found is None:
        found = g.translations = get_translations()
    return found


def use_words_of(game: str) -> None:
    """This request shows `game`: its messages in words of its own (Turkish King's deal is a
    hand) are translated in its context."""
    g.word_context = context_of(game)


def _translate(string: str) -> str:
    """`string` in the reader's language, in the request's game context where it has one."""
    context = message_context(g.get("word_context"), string) if has_request_context() else None
    if context is not None:
        return translations().upgettext(context, string)
    return translations().ugettext(string)


def gettext(string: str, **variables: Any) -> str:
    """`string` in the reader's language, %-formatted with `variables` when there are any."""
    text = _translate(string)
    return text % variables if variables else text


def plural_form(singular: str, plural: str, num: int) -> str:
    """The form of a counted message for `num`, unformatted (the engine's refusals fill their
    own ``{placeholders}``)."""
    return translations().ungettext(singular, plural, num)


def init_app(app: Flask, same_for_everyone: frozenset[str] = frozenset()) -> None:
    """Templates translate through the request's catalogue too (Jinja's newstyle gettext) and
    know the page's language; a `?lang=` is remembered; every answer but those of the
    `same_for_everyone` endpoints varies by what chooses the language."""
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _translate,
        lambda singular, plural, num: translations().ungettext(singular, plural, num),
        newstyle=True,
    )
    app.context_processor(_languages)
    app.after_request(_remember_asked_language)
    app.after_request(_vary_on_language(same_for_everyone))


LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365 * 2


def remember_language(response: BaseResponse, code: str) -> None:
    """The long-lived cookie that keeps the reader's language."""
    secure = bool(current_app.config.get("SESSION_COOKIE_SECURE", False))
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        httponly=True,
        secure=secure,
    )


def _remember_asked_language(response: Response) -> Response:
    """A link with `?lang=xx` opens in that language and keeps it, as the switch does."""
    asked = asked_language()
    if (
        asked is not None
        and request.endpoint != "pages.set_language"
        and request.cookies.get(LANGUAGE_COOKIE) != asked
    ):
        remember_language(response, asked)
    return response


def _vary_on_language(same_for_everyone: frozenset[str]) -> Callable[[Response], Response]:
    def vary(response: Response) -> Response:
        """Pages differ by the reader's language: caches must key on what chooses it."""
        if request.endpoint in same_for_everyone:
            return response  # the same for every reader (the manifest's language is in its URL)
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        return response

    return vary


def _languages() -> dict[str, Any]:
    """The page's language and direction, and the language switch in the header: every
    language, and this page to come back to."""
    language = current_language()
    if request.method == "GET":
        # the switch must win over a `?lang=` the address came with, so it goes from `here`
        query = urlencode(
            [
                (key, value)
                for key, value in request.args.items(multi=True)
                if key != LANGUAGE_PARAMETER
            ]
        )
        here = f"{request.path}?{query}" if query else request.path
    elif request.view_args and "token" in request.view_args:
        here = url_for("games.game_page", token=request.view_args["token"])
    else:
        here = url_for("games.home")
    return {
        "lang": language,
        "direction": direction(language),
        "language_names": LANGUAGE_NAMES,
        "language_return": here,
        "language_links": _language_links(request.script_root, here),
    }


@lru_cache(maxsize=256)
def _language_links(script_root: str, here: str) -> tuple[tuple[str, str, str, str], ...]:
    """(code, name, switch link, direction) per language; the links depend on the page only
    (the paths and query strings come from clients: the cache is bounded)."""
    return tuple(
        (code, name, url_for("pages.set_language", code=code, next=here), direction(code))
        for code, name in LANGUAGE_NAMES.items()
    )
