"""A night on the pages: which night a game or a table is in (its games' figures only, not the
whole table's statistics), the words that share it, and the ratings setting's form.

The nights themselves are :mod:`scorekeeper.stats.nights`' (pure); this module finds the games
to give it and reads the clock, once, to say whether the latest night is still going on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import AnyOf, InputRequired

from ..rules.contracts import CONTRACTS
from ..stats.evening_model import NIGHT_GAP, NIGHT_GAP_HOURS, RATED_AFTER, Night
from ..stats.model import TableStats
from ..stats.nights import night_of, sittings
from ..stats.rivals import TOGETHER_AT_LEAST
from ..store import nights as store
from ..store.models import GameRow, TableRow
from ..store.tables import games_by_id, last_game
from ..words.evening_export import MODES, leader_what
from ..words.night_share import NIGHT_TITLE, night_day, night_text, places
from ..words.share import plain_name
from .cards import cards_of
from .forms import NumberField
from .languages import current_language, direction, gettext

RATINGS_ON, RATINGS_OFF = "on", "off"
NIGHT_WINDOW = 32
"""A table's latest games read first for its latest night (more while it goes back further)."""


class OneValue(HiddenField):
    """A hidden field sent once: a repeated one is a tampered form (the first would win)."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if len(valuelist) > 1:
            raise ValueError("sent more than once")
        super().process_formdata(valuelist)


class OneNumber(NumberField):
    """The app's whole number, sent once (a repeated one is a tampered form)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if len(valuelist) > 1:
            raise ValueError("sent more than once")
        super().process_formdata(valuelist)


class RatingsForm(FlaskForm):
    """Turn a table's ratings on or off, against the table's version the page showed."""

    ratings = OneValue("", validators=[InputRequired(), AnyOf((RATINGS_ON, RATINGS_OFF))])
    version = OneNumber("", validators=[InputRequired()])


@dataclass(frozen=True)
class NightShown:
    """A night as a page shows it: the night, whether it is still going on (a game begun now
    would join it), whether a new night was started after its last game, its share text."""

    night: Night
    going_on: bool
    new_night_started: bool
    share: str
    places: list[int]


def _shown(night: Night, title: str, going_on: bool, started: bool) -> NightShown:
    share = night_text(night, title, gettext, rtl=direction(current_language()) == "rtl")
    return NightShown(night, going_on and not started, started, share, places(night))


def night_title(night: Night, place: str | None) -> str:
    """ "Thursdays at Karim's · Night of 2025-03-06" (the table's name, or the game's), as a
    shared line holds it (a name in letters running the other way closed by the line's mark)."""
    title = gettext(NIGHT_TITLE, day=night_day(night, current_language()))
    rtl = direction(current_language()) == "rtl"
    return f"{plain_name(place, rtl=rtl)} · {title}" if place else title


def _night_of_rows(rows: list[GameRow]) -> Night:
    cards = cards_of(rows)  # (no replay: each game's card as its row keeps it)
    return night_of([cards[row.id] for row in rows if row.id in cards])


def table_night(table: TableRow, now: datetime | None = None) -> NightShown | None:
    """The table's latest night (None before its first game): only its games are read, and
    of the table's games only the latest (more of them only while the night goes back
    further), however many games the table has."""
    starts = store.night_starts(table)
    count = NIGHT_WINDOW
    while True:
        moments = store.latest_moments(table, count)
        if not moments:
            return None
        groups = sittings([moment for _, moment in moments], starts)
        if groups[-1][0] > 0 or len(moments) < count:  # the night begins within: all of it
            break
        count *= 4
    ids = [moments[position][0] for position in groups[-1]]
    by_id = {row.id: row for row in games_by_id(table, ids, listed=True)}
    night = _night_of_rows([by_id[game_id] for game_id in ids if game_id in by_id])
    latest = last_game(table)
    started = latest is not None and store.started_after(table, latest)
    going_on = night.open_at(now or datetime.now(UTC))
    return _shown(night, night_title(night, table.name), going_on, started)


def game_night(row: GameRow, table: TableRow | None) -> NightShown | None:
    """The night a finished game is part of, if it holds more than this game: its table's
    sitting, or outside a table the games "same four again" linked to it in one sitting."""
    if row.first_chooser is None:
        return None
    if table is not None:
        moments = store.table_moments(table)
        ids = [game_id for game_id, _ in moments]
        groups = sittings([moment for _, moment in moments], store.night_starts(table))
        night_ids = next(
            ([ids[p] for p in group] for group in groups if row.id in {ids[p] for p in group}), []
        )
        by_id = {game.id: game for game in games_by_id(table, night_ids, listed=True)}
        rows = [by_id[game_id] for game_id in night_ids if game_id in by_id]
    else:
        chain = [
            game for game in store.chain_around(row, NIGHT_GAP) if game.first_chooser is not None
        ]
        groups = sittings([store.aware(game.created_at) for game in chain])
        rows = next(
            (
                [chain[p] for p in group]
                for group in groups
                if row.id in {chain[p].id for p in group}
            ),
            [],
        )
    if len(rows) < 2:
        return None
    night = _night_of_rows(rows)
    name = table.name if table is not None else None
    return _shown(night, night_title(night, name), False, False)


def gap_hours() -> int:
    """The pause, in hours, that ends a night (for the sentence that says so)."""
    return NIGHT_GAP_HOURS


def evening_args(table: TableRow, stats: TableStats) -> dict[str, Any]:
    """What the statistics page needs for its nights, ratings and rivals."""
    return {
        "gap_hours": NIGHT_GAP_HOURS,
        "rated_after": RATED_AFTER,
        "together_at_least": TOGETHER_AT_LEAST,
        "ratings_form": RatingsForm(
            formdata=None,
            data={
                "ratings": RATINGS_OFF if table.ratings else RATINGS_ON,
                "version": table.version,
            },
        ),
        "night_shares": {
            night.number: night_text(
                night,
                night_title(night, table.name),
                gettext,
                rtl=direction(current_language()) == "rtl",
            )
            for night in stats.nights
        },
        "night_places": {night.number: places(night) for night in stats.nights},
        "leader_what": lambda leader: leader_what(leader, gettext),
        "mode_names": {mode: gettext(label) for mode, label in MODES.items()},
        "several_items": {
            contract for contract, definition in CONTRACTS.items() if len(definition.items) > 1
        },
    }
