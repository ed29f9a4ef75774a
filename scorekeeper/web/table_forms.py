"""Forms of a table: its name, a game's seats picked from the roster, renaming and merging.

A game of a table is picked by taps without JavaScript: each roster name is a submit button of
the same form, so the page comes back with that player in the next empty seat and every other
choice kept (game, mode, house rules). The seats ride in four hidden fields, in order of play.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired, Length, Optional

from ..rules.text import GAME_NAME_LENGTH, PLAYER_NAME_LENGTH, clean_text
from ..words import labels
from .forms import NumberField
from .languages import lazy_gettext as _l
from .setup_forms import GameSetupForm

SEATS = 4
SEAT_LABELS = tuple(_l(label) for label in labels.SEAT_LABELS)


class TableForm(FlaskForm):
    """A new table: its name."""

    table_name = StringField(
        _l("Name of the table"),
        validators=[InputRequired(), Length(max=GAME_NAME_LENGTH)],
        filters=[clean_text],
    )


@dataclass(frozen=True)
class Pick:
    """One seat as picked: a roster player (by id) or a newcomer's name."""

    player_id: int | None = None
    name: str | None = None

    def value(self) -> str:
        """How the seat rides in the form."""
        return f"p{self.player_id}" if self.player_id is not None else f"n{self.name}"


def parse_pick(value: str | None) -> Pick | None:
    """A seat's value back as a pick; None for an empty seat; ValueError for a tampered one."""
    if not value:
        return None
    if value.startswith("p") and value[1:].isascii() and value[1:].isdigit() and len(value) < 13:
        return Pick(player_id=int(value[1:]))
    name = clean_text(value[1:]) if value.startswith("n") else None
    if not name or len(name) > PLAYER_NAME_LENGTH:
        raise ValueError("not a seat")
    return Pick(name=name)


class TableGameForm(GameSetupForm):
    """A game of a table: the setup (its last game's, pre-selected) and four seats by taps."""

    seat_0 = HiddenField("")
    seat_1 = HiddenField("")
    seat_2 = HiddenField("")
    seat_3 = HiddenField("")
    newcomer = StringField(
        _l("Someone new"),
        validators=[Optional(), Length(max=PLAYER_NAME_LENGTH)],
        filters=[clean_text],
    )

    def picks(self) -> list[Pick]:
        """The filled seats in order of play (ValueError: a tampered seat)."""
        found = [parse_pick(self[f"seat_{seat}"].data) for seat in range(SEATS)]
        return [pick for pick in found if pick is not None]

    def set_picks(self, picks: list[Pick]) -> None:
        """Write the seats back, in order, the rest empty."""
        for seat in range(SEATS):
            self[f"seat_{seat}"].data = picks[seat].value() if seat < len(picks) else ""


class PlayerNameForm(FlaskForm):
    """A player's new name, and the table's version the roster was shown with."""

    name = StringField(
        _l("New name"),
        validators=[InputRequired(), Length(max=PLAYER_NAME_LENGTH)],
        filters=[clean_text],
    )
    version = NumberField("", validators=[InputRequired()])


class MergeForm(FlaskForm):
    """Merge one entry into another: which one stays, and the roster's version."""

    into = NumberField("", validators=[InputRequired()])
    version = NumberField("", validators=[InputRequired()])
