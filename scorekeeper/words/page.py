"""What the game page's templates call, the same on the server and in the phone: names and
suits as markup, the words of a tap's preview and of the game's parts in the reader's
language. The server binds them to Flask-Babel (:mod:`scorekeeper.web.present`), the phone's
worker to the page's catalogue (:mod:`scorekeeper.phone.render`); both render the same
templates with them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from markupsafe import Markup

from ..rules import SUIT_SYMBOLS, TEAMS, Replay
from ..rules.contracts import ContractKind
from ..rules.deal import FieldKind
from ..rules.games import NEGATIVES_PER_PLAYER, PLAYS_PER_NEGATIVE, TRUMPS_PER_PLAYER
from ..rules.house_rules import Winners
from ..rules.messages import N_
from . import deal_words, labels, names
from .contracts import CONTRACT_WORDS, TextName
from .game_view import team_standings
from .outlook import outlook_lines as outlook_words
from .takes import short_takes

ABOVE_ZERO = N_("above zero")
BELOW_ZERO = N_("below zero")
AT_ZERO = N_("at zero")
"""Where a total stands under `winners` "positive" (Turkish tables' çıktı / battı)."""
TEMPLATE_OPTIONS: dict[str, Any] = {
    "autoescape": True,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "extensions": ["jinja2.ext.i18n"],
}
"""How the templates are read wherever they are rendered (Jinja's options): the server's
environment (Flask's, which escapes the HTML templates, with Flask-Babel's gettext), the
phone's, and the templates compiled for the phone's bundle."""
COMPILED = "compiled"
"""Where the bundle keeps the phone's templates compiled (under its ``scorekeeper/templates``),
as Jinja's ``ModuleLoader`` reads them."""
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


class GameWords:
    """What the game page's templates call beside the form's (:func:`form_words`), in one
    reader's words: `translate` is the catalogue's gettext without formatting, `language` says
    the reader's language (the server's changes with each request, the phone's is its page's).
    The server's are :mod:`scorekeeper.web.present`'s; the phone's worker renders the same
    templates with its own (:mod:`scorekeeper.phone.render`)."""

    def __init__(self, translate: Callable[[str], str], language: Callable[[], str]) -> None:
        self.translate = translate
        self.language = language

    def contract_name(self, contract: str) -> str:
        """The contract's display name in the reader's language."""
        return labels.contract_label(contract, self.translate)

    def game_name(self, game: str) -> str:
        """The game's display name."""
        return labels.game_label(game, self.translate)

    def reason_label(self, reason: str | None) -> str:
        """Why a contract is closed, in a few words."""
        return labels.reason_label(reason, self.translate)

    def text_names(self, contract: str) -> list[TextName]:
        """The contract's names in the game texts written in the reader's language, where they
        differ from the app's name (Russian «Без червей» beside «Не брать червей»): the texts
        the app follows first, then another text's (seed 001's «لطّش» for the K♥ contract)."""
        label = self.contract_name(contract)
        found = CONTRACT_WORDS[contract].texts_in(self.language())
        return [text for text in found if text.name != label]

    def text_name_label(self, text: TextName) -> str:
        """A text's name as the rules page and the contract choice show it, saying whose it
        is: «في نصّ آخر للقواعد: «لطّش»», so seed 001's name is never taken for the app's own."""
        return self.translate(text.marked) % {"name": text.name}

    def takes(self, deal: Any, players: Sequence[str]) -> str:
        """A deal's takes in short form, each name isolated (FSI…PDI) from the text around it."""
        isolated = tuple(f"\u2068{name}\u2069" for name in players)
        return short_takes(deal, isolated, self.translate)

    def zero_side(self, result: Replay, seat: int) -> str:
        """Under `winners` "positive" (Turkish tables' çıktı / battı): whether the seat's total
        is above zero, below it or at it, in words; "" under any other rule."""
        if result.game.house_rules.winners != Winners.POSITIVE:
            return ""
        total = result.totals[seat]
        return self.translate(ABOVE_ZERO if total > 0 else BELOW_ZERO if total < 0 else AT_ZERO)

    def outlook_lines(self, result: Replay, players: Sequence[str]) -> list[str]:
        """Can still win? What the deals left can still do, in the reader's words (the
        engine's outlook); [] once the game is finished."""
        return outlook_words(result, players, self.translate)

    def team_box(self, players: Sequence[str], team: int) -> Markup:
        """A team's name where its place may cut it (a score card): as player_name, both
        names shortened to the same width."""
        forms = names.all_name_forms(tuple(players))
        first, second = TEAMS[team]
        return fitted(
            tuple(
                labels.pair_label(one, other, self.translate)
                for one, other in zip(forms[first], forms[second], strict=True)
            )
        )

    def team_name(
        self, players: Sequence[str], team: int, *, isolated: bool = True
    ) -> Markup | str:
        """A partnership team in the reader's words ("Rami & Omar", "رامي و عمر"), each name
        isolated from the text around it (not on a score card, which cuts the line at its
        end)."""
        if not isolated:
            return labels.team_label(players, team, self.translate)
        first, second = TEAMS[team]
        return self.pair_name(players[first], players[second])

    def pair_name(self, first: str, second: str) -> Markup:
        """Two partners as one team in the reader's words, each name isolated (a partnership
        of the table's statistics, a team of a game)."""
        return Markup(labels.pair_label(bidi(first), bidi(second), self._markup))

    def _markup(self, text: str) -> Markup:
        """`text` in the reader's language as a Markup template: what it is formatted with is
        escaped unless it is Markup already (the catalogue's own text is escaped too)."""
        return Markup.escape(self.translate(text))

    def globals(self) -> dict[str, Any]:
        """The template globals (each name as the templates call it)."""
        return {
            "contract_name": self.contract_name,
            "game_name": self.game_name,
            "reason_label": self.reason_label,
            "text_names": self.text_names,
            "text_name_label": self.text_name_label,
            "takes": self.takes,
            "zero_side": self.zero_side,
            "outlook_lines": self.outlook_lines,
            "names_to_fit": names_to_fit,
            "team_box": self.team_box,
            "team_name": self.team_name,
            "pair_name": self.pair_name,
            "team_standings": team_standings,
            "ContractKind": ContractKind,
            "TEAMS": TEAMS,
            "QUOTAS": {
                "trumps": TRUMPS_PER_PLAYER,
                "negatives": NEGATIVES_PER_PLAYER,
                "plays": PLAYS_PER_NEGATIVE,
            },
        }


def names_to_fit(players: Sequence[str]) -> bool:
    """Whether a name of the four has shorter forms (a page then fits them to its boxes)."""
    return any(len(set(forms)) > 1 for forms in names.all_name_forms(tuple(players)))


CALLED = re.compile(r"""\b(url_for|static_url)\(\s*['"]([^'"]+)['"]""")
"""A template's call of a route or a static file by its name."""


def called_by(sources: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The routes (by endpoint) and the static files templates call by name, given their
    texts: what the server tells the phone the addresses of, for the templates it renders."""
    called: dict[str, set[str]] = {"url_for": set(), "static_url": set()}
    for source in sources:
        for function, argument in CALLED.findall(source):
            called[function].add(argument)
    return tuple(sorted(called["url_for"])), tuple(sorted(called["static_url"]))
