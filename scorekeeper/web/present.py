"""What templates call: the words of :mod:`scorekeeper.words` in the reader's language, and
small shapes of a replay. Nothing here decides a rule: it only names and arranges what the engine
returned."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from ..rules import CONTRACTS, GAMES, SUITS, Replay
from ..rules.contracts import Item
from ..rules.examples import house_rule_numbers
from ..rules.house_rules import HouseRules
from ..stats import TableStats
from ..words import counts, labels, names
from ..words.chart import chart_summary, running_totals_svg
from ..words.game_view import Totals, standings, team_standings
from ..words.page import GameWords, bidi, form_words
from ..words.wins_chart import running_wins_summary as wins_summary
from ..words.wins_chart import running_wins_svg
from .languages import (
    current_language,
    direction,
    gettext,
    lazy_gettext,
    plural_form,
)

WORDS = GameWords(gettext, current_language)
"""The game page's template words in the request's language (the same the phone renders with)."""
contract_name = WORDS.contract_name
game_name = WORDS.game_name
text_names = WORDS.text_names
team_name = WORDS.team_name


def field_label(
    contract: str, path: str, players: Sequence[str], rules: HouseRules | None = None
) -> str:
    """A field of a deal form, or a problem's path, in the reader's words (as the game's house
    `rules` name it)."""
    return labels.field_label(contract, path, players, gettext, rules)


def winner_names(result: Replay) -> list[str]:
    """Who won a finished game, as the home page names them: the winning teams in a
    partnership ("Rami & Omar"), else the winning players (the engine decides who won)."""
    return named_winners(result.game.players, result.winners, result.winning_teams)


def named_winners(
    players: Sequence[str], winners: Sequence[int] | None, teams: Sequence[int] | None
) -> list[str]:
    """The winning `teams` of a partnership by their names, else the `winners` seats' names
    (none before the game is finished)."""
    if winners is None:
        return []
    if teams is not None:
        return [labels.team_label(players, team, gettext) for team in teams]
    return [players[seat] for seat in winners]


def card_totals(players: Sequence[str], result: Totals) -> list[tuple[Markup | str, str]]:
    """A game card's totals, highest first: the teams' in a partnership, else the players'
    (each name isolated), with their signs."""
    if result.team_totals is not None:
        teams = result.team_totals
        return [
            (team_name(players, team), labels.signed(teams[team]))
            for team in team_standings(result)
        ]
    return [(bidi(players[seat]), labels.signed(result.totals[seat])) for seat in standings(result)]


def number(value: int) -> Markup:
    """A number about the rules as every page shows it: signed, kept whole in a line (the one
    helper for them; the numbers themselves are the engine's)."""
    return Markup('<span class="signed">%s</span>') % labels.signed(value)


def game_outline(game: str) -> str:
    """A game's length in one sentence in the reader's words, every count the engine's and in
    the language's plural form ("Trix: 4 kingdoms of 5 contracts, 20 deals.")."""
    return counts.game_outline(game, gettext, plural_form)


def count_text(text: str, totals: Mapping[Item, int]) -> Markup:
    """A sentence about the rules in the reader's language whose %(name)s numbers are what
    counts add up to (`totals` by item, named by its value: %(tricks)s, %(diamonds)s), shown
    plain: counts, not scores."""
    return Markup(gettext(text)) % {str(item): total for item, total in totals.items()}


def rule_text(text: str, numbers: Mapping[str, int]) -> Markup:
    """A sentence about the rules in the reader's language (`text`: its English, marked for the
    catalogues), each of its %(name)s numbers given by `numbers` and shown by :func:`number`."""
    # the catalogue's text is trusted as a template's _() trusts it; the numbers are escaped
    return Markup(gettext(text)) % {name: number(value) for name, value in numbers.items()}


def _house_rule_words() -> dict[str, Any]:
    """The words of the house rules' choices and the setup's hints, each number in them the
    engine's (shown by :func:`~scorekeeper.words.labels.signed`), translated when a page
    shows them."""
    numbers = {name: labels.signed(value) for name, value in house_rule_numbers().items()}
    return {
        "net": lazy_gettext(
            "loses the plain penalty (%(king)s / %(queen)s)",
            king=numbers["net_king"],
            queen=numbers["net_queen"],
        ),
        "full": lazy_gettext(
            "loses the full doubled penalty (%(king)s / %(queen)s)",
            king=numbers["full_king"],
            queen=numbers["full_queen"],
        ),
        "swap_diamonds_ltoosh": lazy_gettext(
            "Diamonds %(diamond)s each, Ltoosh %(trick)s a trick",
            diamond=numbers["swapped_diamond"],
            trick=numbers["swapped_trick"],
        ),
        "queen": lazy_gettext(
            "doubles its queen part (%(taker)s / %(doubler)s)",
            taker=numbers["queen_part_taker"],
            doubler=numbers["queen_part_doubler"],
        ),
        "whole": lazy_gettext(
            "doubles the whole card (%(taker)s / %(doubler)s)",
            taker=numbers["whole_taker"],
            doubler=numbers["whole_doubler"],
        ),
        "queen_of_diamonds": lazy_gettext(
            "Trix Complex only. The Q♦ is a diamond and a queen (%(both)s): most tables double "
            "only its queen part; some double the whole card.",
            both=numbers["queen_of_diamonds"],
        ),
        "why_queen_part": lazy_gettext(
            "Why: doubling is of the queens and the K♥ (the Complex text names no doubling of "
            "diamonds), so the Q♦'s %(diamond)s as a diamond stays single.",
            diamond=numbers["complex_diamond"],
        ),
    }


HOUSE_RULE_WORDS = _house_rule_words()
"""By a house rule's choice (or a hint's name): its words on the setup form and the rules page."""


@lru_cache(maxsize=4096)
def short_names(players: tuple[str, ...]) -> tuple[str, ...]:
    """The four names as a row of chips shows them without JavaScript (unique, never respelt)."""
    return names.short_names(players)


def csrf_message() -> str:
    """Why a form without a valid CSRF token was refused."""
    return gettext(
        "This form has expired or was not sent by this app. Go back, reload the page and try again."
    )


def http_message(code: int) -> str:
    """A plain explanation for an HTTP error page."""
    messages = {
        400: gettext("The request could not be understood."),
        404: gettext("There is nothing here. Check the link, or start from the home page."),
        405: gettext("That action is not available here."),
        408: gettext("That took too long to arrive, so nothing was saved. Try again."),
        413: gettext("That was too much data to send at once."),
        503: gettext("The server is busy. Nothing was saved. Try again in a few seconds."),
    }
    return messages.get(code, gettext("Something went wrong on our side. Nothing was saved."))


def running_wins_chart(stats: TableStats) -> Markup:
    """The table's wins over time as inline SVG (the chart module escapes all text)."""
    rtl = direction(current_language()) == "rtl"
    return Markup(running_wins_svg(stats.running, gettext, rtl=rtl))


def running_wins_summary(stats: TableStats) -> str:
    """The wins chart in words, for its caption."""
    return wins_summary(stats.running, gettext)


def running_chart(
    result: Replay, players: tuple[str, ...], id_prefix: str = "running-totals"
) -> Markup:
    """The running-totals chart of a replay as inline SVG (the chart module escapes all text)."""
    rtl = direction(current_language()) == "rtl"
    return Markup(running_totals_svg(result, players, gettext, rtl=rtl, id_prefix=id_prefix))


def running_chart_summary(result: Replay, players: tuple[str, ...]) -> str:
    """The chart in words, for its caption."""
    return chart_summary(result, players, gettext)


TEMPLATE_GLOBALS: dict[str, Any] = {
    # the deal form's (the phone's worker renders its templates with the same, in its words)
    **form_words(gettext, plural_form),
    # the game page's (the phone's worker renders the parts it repaints with the same)
    **WORDS.globals(),
    # the reader's words
    "game_outline": game_outline,
    "field_label": field_label,
    "house_rule_words": HOUSE_RULE_WORDS,
    # numbers and names as every page shows them
    "number": number,
    "short_names": short_names,
    # charts
    "running_chart": running_chart,
    "running_chart_summary": running_chart_summary,
    "running_wins_chart": running_wins_chart,
    "running_wins_summary": running_wins_summary,
    # the engine's names, for the templates to lay pages out by
    "SUITS": SUITS,
    "CONTRACTS": CONTRACTS,
    "GAMES": GAMES,
}
"""What templates call from this room (views.register hands each room's to Jinja once)."""
