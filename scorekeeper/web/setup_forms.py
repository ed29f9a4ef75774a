"""The new-game forms: which game, solo or partnership, the house rules, a name and the four
players; the engine judges them in the form's validation, each problem under its field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, RadioField, StringField
from wtforms.validators import InputRequired, Optional

from ..rules import HouseRules, check_players, check_setup, house_rules_for
from ..rules.house_rules import FULL, NET, ComplexTricks, QueenOfDiamonds, Winners
from ..words import labels
from ..words.labels import GAME_LABELS, SEAT_LABELS
from .forms import TableText, strip_spaces
from .languages import gettext, plural_form
from .languages import lazy_gettext as _l
from .present import HOUSE_RULE_WORDS

GAME_CHOICES: tuple[tuple[str, Any], ...] = tuple(
    (game, _l(label)) for game, label in GAME_LABELS.items()
)


class GameSetupForm(FlaskForm):
    """Which game, solo or partnership, house rules and a name: a new game's setup."""

    game = RadioField(
        _l("Game"), choices=GAME_CHOICES, default="trix", validators=[InputRequired()]
    )
    mode = RadioField(
        _l("Play"),
        choices=(
            ("solo", _l("Solo: every player for themself")),
            ("partnership", _l("Partnership: 1st & 3rd against 2nd & 4th")),
        ),
        default="solo",
        validators=[InputRequired()],
    )
    doubling = BooleanField(_l("Doubling"), default=True)
    doubled_self_take = RadioField(
        _l("A doubler who takes their own card"),
        choices=((NET, HOUSE_RULE_WORDS[NET]), (FULL, HOUSE_RULE_WORDS[FULL])),
        default="net",
        validators=[InputRequired()],
    )
    swap_diamonds_ltoosh = BooleanField(HOUSE_RULE_WORDS["swap_diamonds_ltoosh"], default=False)
    doubled_queen_of_diamonds = RadioField(
        _l("A doubled Q♦ in Complex"),
        choices=(
            (QueenOfDiamonds.QUEEN, HOUSE_RULE_WORDS[QueenOfDiamonds.QUEEN]),
            (QueenOfDiamonds.WHOLE, HOUSE_RULE_WORDS[QueenOfDiamonds.WHOLE]),
        ),
        default=QueenOfDiamonds.QUEEN,
        validators=[Optional()],
    )
    complex_tricks = RadioField(
        _l("Which tricks cost in Complex"),
        choices=(
            (ComplexTricks.EVERY, _l("every trick")),
            (ComplexTricks.PENALTY, _l("only a trick that held a penalty card")),
        ),
        default=ComplexTricks.EVERY,
        validators=[Optional()],
    )
    winners = RadioField(
        _l("Who wins"),
        choices=(
            (Winners.HIGHEST, _l("the highest total")),
            (Winners.POSITIVE, _l("everyone above zero")),
        ),
        default=Winners.HIGHEST,
        validators=[Optional()],
    )
    # these three may be missing from a form sent by a page loaded before they were offered:
    # missing means the default; a value not offered is refused
    name = StringField(
        _l("Name for the evening (optional)"),
        validators=[Optional(), TableText("name")],
        filters=[TableText.clean("name")],
    )

    def house_rules(self) -> HouseRules:
        """The house rules as chosen (the engine drops those the game does not use)."""
        return house_rules_for(
            self.game.data,
            HouseRules(
                doubling=bool(self.doubling.data),
                doubled_self_take=self.doubled_self_take.data,
                swap_diamonds_ltoosh=bool(self.swap_diamonds_ltoosh.data),
                doubled_queen_of_diamonds=QueenOfDiamonds(
                    self.doubled_queen_of_diamonds.data or QueenOfDiamonds.QUEEN
                ),
                complex_tricks=ComplexTricks(self.complex_tricks.data or ComplexTricks.EVERY),
                winners=Winners(self.winners.data or Winners.HIGHEST),
            ),
        )

    def judged(self, players: Sequence[str]) -> bool:
        """The engine's checks of the setup and of the four players (as a record's), each
        problem said under its field in the form's words; True when there is none."""
        problems = check_players(players) + check_setup(
            self.game.data, self.mode.data, self.house_rules()
        )
        for problem in problems:
            field = self.field_of(problem.field)
            label = str(field.label.text) if field.label.text else ""
            field.errors = [
                *field.errors,
                labels.problem_text(problem, "", players, gettext, label, plural_form),
            ]
        return not problems

    def field_of(self, path: str) -> Field:
        """The field a problem of the engine's setup checks belongs under ("players[2]")."""
        name = path.replace("players[", "player_").rstrip("]")
        try:
            return self[name]
        except KeyError:
            return self.mode


def setup_defaults(game: str, mode: str, house_rules: Mapping[str, Any]) -> dict[str, Any]:
    """A setup form's values that repeat a game's (a table's last game)."""
    rules = HouseRules(**house_rules)
    return {
        "game": game,
        "mode": mode,
        "doubling": rules.doubling,
        "doubled_self_take": rules.doubled_self_take,
        "swap_diamonds_ltoosh": rules.swap_diamonds_ltoosh,
        "doubled_queen_of_diamonds": rules.doubled_queen_of_diamonds,
        "complex_tricks": rules.complex_tricks,
        "winners": rules.winners,
    }


class NewGameForm(GameSetupForm):
    """A new game: its setup and the four players typed in, optionally kept as a table."""

    # judged by the engine's check_players, as a record's names are (the view asks it)
    player_0 = StringField(_l(SEAT_LABELS[0]), filters=[strip_spaces])
    player_1 = StringField(_l(SEAT_LABELS[1]), filters=[strip_spaces])
    player_2 = StringField(_l(SEAT_LABELS[2]), filters=[strip_spaces])
    player_3 = StringField(_l(SEAT_LABELS[3]), filters=[strip_spaces])
    table_name = StringField(
        _l("Keep these players as a table (optional): its name"),
        validators=[Optional(), TableText("name")],
        filters=[TableText.clean("name")],
    )

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """WTForms' checks, then the engine's: the setup and the four names."""
        return super().validate(extra_validators) and self.judged(self.players())

    def players(self) -> list[str]:
        """The four names in order of play."""
        return [self[f"player_{seat}"].data or "" for seat in range(4)]

    def player_fields(self) -> Iterator[Field]:
        """The four name fields in order of play."""
        for seat in range(4):
            yield self[f"player_{seat}"]
