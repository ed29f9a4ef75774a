"""What a deal form says as the player taps, in the reader's words: each field's refusals, a
count's running sum, how many values are left to tap, the doubles noted so far.

The server (:mod:`scorekeeper.web.present`, with Flask-Babel's catalogue) and the engine in the
phone (:mod:`scorekeeper.phone.worker`, with the same catalogue read by Python's own
:mod:`gettext`) both call these with their ``translate`` and ``plural`` callables, so a refusal
is worded once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.autofill import Sum
from ..rules.errors import Problem, TranslatePlural
from ..rules.house_rules import HouseRules
from ..rules.messages import N_, ngettext
from ..rules.replay import Evaluation
from .deal_form import chip_groups
from .labels import CARD_LABELS, Translate, field_group, problem_text

LATER_ILLEGAL = N_("This change would make deal %(number)d illegal: %(reason)s")
AT_MOST = N_("%(entered)d / at most %(total)d")
LEFT_TO_TAP = ngettext("%(num)d value left to tap.", "%(num)d values left to tap.", "num")
DOUBLED = N_("Doubled:")
NOT_THROUGH = {
    "offline": N_("No connection."),
    "timeout": N_("No answer from the server."),
    "busy": N_("The server is busy: wait a moment."),
    "server": N_("The server had a problem."),
    "stale": N_("This page is out of date: reload it."),
}
"""Why a save did not go through, as the page said it (its #net-error words), by the reason
the page sends."""
WITHDRAWN = N_("Deal %(number)d was undone on this phone before it reached the server: not saved.")
"""A late copy of an entry whose key its phone withdrew (an undo while it was on its way)."""
UNDONE = N_("Deal %(number)d undone.")
"""A kept deal's undo, withdrawn at the server before the deal reached it."""
STORED_FIRST = N_(
    "Deal %(number)s reached the server before your undo: it is in the game. "
    "Undo it there, or keep it."
)
"""A kept deal's undo that came too late: the server had stored the deal (the phone offers the
server's undo)."""


def deal_messages(
    early: Sequence[Problem],
    evaluation: Evaluation | None,
    contract: str,
    players: Sequence[str],
    rules: HouseRules,
    translate: Translate,
    plural: TranslatePlural,
) -> dict[str, list[str]]:
    """What a deal form says beside each field, as the engine judged it: a player placed
    twice (said at once, naming them), the deal's problems, and for a correction the later
    deal it would make illegal."""

    def said(problem: Problem, contract: str, rules: HouseRules | None = None) -> str:
        return problem_text(problem, contract, players, translate, None, plural, rules)

    errors: dict[str, list[str]] = {}
    for problem in early:
        errors.setdefault(field_group(problem.field), []).append(said(problem, contract, rules))
    if evaluation is None:
        return errors
    for problem in evaluation.problems:
        if problem.code == "not_permutation" and problem.field in errors:
            continue  # already said, with the player's name
        errors.setdefault(field_group(problem.field), []).append(said(problem, contract, rules))
    if evaluation.later is not None:
        later = evaluation.later
        reason = said(later.problems[0], later.contract or "")
        errors.setdefault("contract", []).append(
            translate(LATER_ILLEGAL) % {"number": later.deal_number or 0, "reason": reason}
        )
    return errors


def finished_text(players: Sequence[str], translate: Translate, plural: TranslatePlural) -> str:
    """What a deal sent to a finished game is told."""
    return problem_text(Problem("contract", "game_finished"), "", players, translate, None, plural)


def running_sum(total: Sum, translate: Translate) -> str:
    """A count field's running sum as its box heads its messages: "12 / 13", or under a
    ceiling "5 / at most 13" in the reader's words."""
    if total.at_most:
        return translate(AT_MOST) % {"entered": total.entered, "total": total.total}
    return f"{total.entered} / {total.total}"


def left_to_tap(count: int, plural: TranslatePlural) -> str:
    """How many values the player has still to tap, in the reader's words."""
    return plural(LEFT_TO_TAP.singular, LEFT_TO_TAP.plural, count) % {"num": count}


def doubled_items(
    contract: str, values: Mapping[str, Any], players: Sequence[str], translate: Translate
) -> list[tuple[str, str]]:
    """The doubles noted so far, in the form's order: (the card's short name in the reader's
    words, "" for a contract's one card; the doubler's name)."""
    return [
        ("" if key is None else translate(CARD_LABELS[key]), players[values[name]])
        for group in chip_groups(contract)
        if group.doubles
        for name, key in zip(group.names, group.subjects, strict=True)
        if values.get(name) is not None
    ]
