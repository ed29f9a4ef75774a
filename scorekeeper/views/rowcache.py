"""Rendered history rows, kept per process by everything a row shows.

A history row never changes once its deal is entered (an edit or undo changes the row's inputs,
so it is another key), yet the game page and every live view's refresh render all of them again.
The key is every input of the `history_row` macro: the deal, its scores and running totals, the
names, the language, and the link token when the row has an Edit link. A miss
renders the macro itself, so a cached row is byte for byte what the template would write.
"""

from __future__ import annotations

from typing import Any

from flask import get_template_attribute, request
from flask_babel import get_locale
from markupsafe import Markup

from ..kept import Kept
from ..rules import DealResult

# rows (a few hundred bytes each): some 200 games' worth of history per process
_rows: Kept[tuple[Any, ...], Markup] = Kept(4096)


def history_row(deal: DealResult, players: tuple[str, ...], partnership: bool, row: Any,
                editable: bool = True, lang: str | None = None) -> Markup:
    """The history table's row of one deal (see the `history_row` macro in _partials.html).

    `lang`: the page's language if the caller has it (spares asking Flask-Babel per row)."""
    key = (lang or str(get_locale()), request.script_root, deal.number, repr(deal.deal),
           deal.kingdom, deal.chooser, tuple(players), deal.scores, deal.running,
           deal.team_scores, deal.team_running, partnership, row.token if editable else None)
    found = _rows.get(key)
    if found is None:
        found = Markup(get_template_attribute("_partials.html", "history_row")(
            deal, players, partnership, row, editable))
        _rows.put(key, found)
    return found


def clear() -> None:
    """Forget every row (tests)."""
    _rows.clear()
