"""What the deal form's templates call, the same on the server and in the phone: names and
suits as markup, and the words of a tap's preview in the reader's language. The server binds
them to Flask-Babel (:mod:`scorekeeper.web.present`), the phone's worker to the page's catalogue
(:mod:`scorekeeper.phone.render`); both render the same templates with them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from markupsafe import Markup

from ..rules import SUIT_SYMBOLS
from ..rules.deal import FieldKind
from . import deal_words, labels, names

RED_SUITS = ("♥", "♦")


def suited(text: str) -> Markup:
    """Text with its ♥ and ♦ marked red (the suit's shape still tells it, colour only helps)."""
    marked = Markup.escape(text)
    for symbol in RED_SUITS:
        marked = Markup(marked.replace(symbol, Markup('<span class="red">%s</span>') % symbol))
    return marked


def fitted(forms: Sequence[str]) -> Markup:
    """A name in a box that may be too narrow for it: the narrowest form, and the form at each
    wider width (widest first) for static/js/fit.js to put the names side by side at the first
    width where all of them fit."""
    if len(set(forms)) == 1:  # fits everywhere: its place cuts it at its end, if at all
        return Markup("<bdi>%s</bdi>") % forms[0]
    return Markup('<bdi class="nm" data-forms="%s">%s</bdi>') % (
        json.dumps(list(forms[:-1]), ensure_ascii=False),
        forms[-1],
    )


def player_name(players: Sequence[str], seat: int) -> Markup:
    """A player's name where its place may cut it (a chip, a score card, a column): the whole
    name where it fits, else a shorter form no other of the four could be read as."""
    return fitted(names.all_name_forms(tuple(players))[seat])


def bidi(name: str) -> Markup:
    """A player's name isolated from the surrounding text direction."""
    return Markup("<bdi>%s</bdi>") % name


def form_words(
    translate: Callable[[str], str], plural: Callable[[str, str, int], str]
) -> dict[str, Any]:
    """The deal form's template globals in one reader's words (`translate`, `plural`: its
    catalogue's, without formatting)."""
    return {
        "player_name": player_name,
        "bidi": bidi,
        "suited": suited,
        "signed": labels.signed,
        "running_sum": lambda total: deal_words.running_sum(total, translate),
        "left_to_tap": lambda count: deal_words.left_to_tap(count, plural),
        "FieldKind": FieldKind,
        "SUIT_SYMBOLS": SUIT_SYMBOLS,
        "CARD_LABELS": labels.CARD_LABELS,
        "PLACE_LABELS": labels.PLACE_LABELS,
        "LAST_TRICK_LABELS": labels.LAST_TRICK_LABELS,
    }
