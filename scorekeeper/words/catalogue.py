"""The reader's words from a compiled catalogue (the ``.mo`` files under
``scorekeeper/translations``), as the app speaks them: a game's own words in its context
(Turkish King's deal is a hand), a counted message in the language's plural form.

Flask-Babel reads these catalogues for the server (:mod:`scorekeeper.web.languages`); the engine
in the phone reads the very same files with Python's own :mod:`gettext`
(:func:`read_catalogue`), so both say the same words.
"""

from __future__ import annotations

import gettext
import io
from importlib.resources import files

from ..rules.errors import Translate, TranslatePlural
from .labels import WORD_CONTEXTS


def context_of(game: str) -> str | None:
    """The message context of a game that says some things in words of its own, else None."""
    return game if game in WORD_CONTEXTS else None


def message_context(context: str | None, message: str) -> str | None:
    """The context to look `message` up in: the game's `context` where it has its own words
    for the message, else None (the plain message)."""
    return context if context is not None and message in WORD_CONTEXTS[context] else None


class Words:
    """A game's words in one language, from a catalogue read by Python's :mod:`gettext`: the
    ``translate`` and ``plural`` callables the pure wording functions take."""

    def __init__(
        self, catalogue: gettext.NullTranslations, game: str, language: str = "en"
    ) -> None:
        self.catalogue = catalogue
        self.context = context_of(game)
        self.language = language

    def translate(self, message: str) -> str:
        """`message` in the catalogue's language (in the game's context where it has one)."""
        context = message_context(self.context, message)
        if context is not None:
            return self.catalogue.pgettext(context, message)
        return self.catalogue.gettext(message)

    def plural(self, singular: str, plural: str, number: int) -> str:
        """The form of a counted message for `number`, unformatted."""
        return self.catalogue.ngettext(singular, plural, number)

    def callables(self) -> tuple[Translate, TranslatePlural]:
        """``translate`` and ``plural``, as the wording functions take them."""
        return self.translate, self.plural


DOMAIN = "messages"


def read_catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of `language`, read from the package (a folder, or the zip the
    phone's engine imports from); an empty one (English as written) when there is none."""
    mo = files("scorekeeper").joinpath("translations", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        data = mo.read_bytes()
    except (FileNotFoundError, KeyError):
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(data))
