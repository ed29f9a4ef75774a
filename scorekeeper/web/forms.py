"""WTForms classes: they type the input; the rules engine judges it.

Deal forms are built per contract from the engine's field specs, so a new contract needs no
form code: every value is a row of tap targets (radio "chips") that parses to a seat, a count
or a suit, or stays unset. A deal form also carries what it was made for (its contract, the
deal's number, the game's version, whether it corrects a past deal) and reads all of it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, assert_never

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, HiddenField, StringField, TextAreaField
from wtforms.validators import InputRequired, Optional, ValidationError
from wtforms.widgets import HiddenInput

from ..rules import (
    CONTRACTS,
    SUITS,
    FieldSpec,
    HouseRules,
)
from ..rules.autofill import Filled, autofill
from ..rules.contracts import DOUBLING_KINDS
from ..rules.deal import FieldKind
from ..rules.text import table_text
from ..store.deals import Entry
from ..store.entries import is_entry_key, new_entry_key
from ..words.labels import problem_text
from .languages import gettext
from .languages import lazy_gettext as _l


def strip_spaces(value: str | None) -> str | None:
    """What a player typed, without the spaces around it."""
    return value.strip() if isinstance(value, str) else value


class TableText:
    """The game's name or notes, cleaned and limited by the same function as a record's
    (:func:`~scorekeeper.rules.text.table_text`): a validator, with `clean` as its filter."""

    def __init__(self, key: str) -> None:
        self.key = key

    @staticmethod
    def clean(key: str) -> Callable[[str | None], str | None]:
        """The filter: the text as it would be stored."""
        return lambda value: table_text(key, value)[0]

    def __call__(self, form: FlaskForm, field: Field) -> None:
        _, problem = table_text(self.key, field.data)
        if problem is not None:
            raise ValidationError(problem_text(problem, "", (), gettext, str(field.label.text)))


class ChipField(Field):
    """One tap-target group: an int (or suit letter) out of a fixed set, or unset (None)."""

    def __init__(self, label: str = "", choices: tuple[Any, ...] = (), **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.choices = choices

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = None
        if not valuelist or valuelist[0] == "":
            return
        raw = valuelist[0].strip()
        for choice in self.choices:
            if str(choice) == raw:
                self.data = choice
                return
        raise ValueError(_l("Not one of the choices offered."))

    def _value(self) -> str:
        return "" if self.data is None else str(self.data)


def _text(value: object) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Chips:
    """How a deal form lays out one spec field: its chip fields (name, caption key) in order."""

    spec: FieldSpec
    names: tuple[str, ...]
    keys: tuple[Any, ...]
    """Per chip field: the seat index, card letter, place index, or None for a single field."""
    choices: tuple[Any, ...]
    folded: bool = False
    """Shown folded in a long form: the chips are fetched when the player opens the group."""

    @property
    def doubles(self) -> bool:
        """Whether its field records the doubles (the contract's `doubles_field`), which a table
        announces before play: noted first, kept in the form's address."""
        return self.spec.kind in DOUBLING_KINDS


FOLD_AFTER = 4
"""A form with more groups than this folds its optional doubles (Complex: one tap to open them
when a card was doubled, a shorter form to send and to scroll past when none was)."""


@cache
def chip_groups(contract: str) -> tuple[Chips, ...]:
    """The chip layout of a contract's form, derived from the engine's field specs."""
    return tuple(
        _chips(spec, len(CONTRACTS[contract].fields) > FOLD_AFTER)
        for spec in CONTRACTS[contract].fields
    )


def _chips(spec: FieldSpec, long_form: bool) -> Chips:
    seats = (0, 1, 2, 3)
    match spec.kind:
        case FieldKind.SEAT | FieldKind.OPTIONAL_SEAT:
            return Chips(spec, (spec.name,), (None,), seats)
        case FieldKind.SUIT:
            return Chips(spec, (spec.name,), (None,), SUITS)
        case FieldKind.COUNTS:
            return Chips(
                spec,
                tuple(f"{spec.name}-{seat}" for seat in seats),
                seats,
                tuple(range(spec.maximum + 1)),
            )
        case FieldKind.ORDER | FieldKind.SEAT_PAIR:
            places = range(4 if spec.kind == FieldKind.ORDER else 2)
            return Chips(
                spec, tuple(f"{spec.name}-{place}" for place in places), tuple(places), seats
            )
        case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
            return Chips(
                spec,
                tuple(f"{spec.name}-{card}" for card in spec.cards),
                spec.cards,
                seats,
                long_form and spec.kind == FieldKind.OPTIONAL_CARD_SEATS,
            )
        case _:
            assert_never(spec.kind)


MAX_NUMBER_DIGITS = 12


class NumberField(Field):
    """A whole number the app wrote into the form (a deal's number, a version), or None.

    ASCII digits only, and few of them: str.isdigit() also passes "²" and "٣", and int() refuses
    strings of thousands of digits; anything else is a tampered form."""

    widget = HiddenInput()
    data: int | None

    def _value(self) -> str:
        return "" if self.data is None else str(self.data)

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = None
        if not valuelist or valuelist[0] == "":
            return
        raw = valuelist[0]
        if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_NUMBER_DIGITS):
            raise ValueError("not a whole number")
        self.data = int(raw)


class EntryKeyField(Field):
    """The key a deal form was made with (`store.entries`), or None for a form from before
    keys; anything but the one accepted shape is a tampered form."""

    widget = HiddenInput()
    data: str | None

    def _value(self) -> str:
        return self.data or ""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = None
        if not valuelist or valuelist[0] == "":
            return
        if not is_entry_key(valuelist[0]):
            raise ValueError("not an entry key")
        self.data = valuelist[0]


class DealForm(FlaskForm):
    """Fields every deal form carries: its contract and the state it was made against."""

    # a label, even empty, spares WTForms reading its own catalogue from disk on every request
    # (it translates a missing label's default)
    contract = HiddenField("")
    number = NumberField("", validators=[InputRequired()])
    version = NumberField("", validators=[InputRequired()])
    editing = NumberField("")
    """The number of the past deal this form corrects; unset for the next deal."""
    entry_key = EntryKeyField("")
    """The key made when the form opened: its entry is stored at most once, and a save whose
    answer was lost is asked about by it."""
    autofilled = HiddenField("")
    """The chips the app filled in, with their values ("counts-3:1 order-3:2"): while a chip
    keeps that value it is the app's, and the app may recompute it."""

    STATE_FIELDS = (
        "contract",
        "number",
        "version",
        "editing",
        "entry_key",
        "autofilled",
        "csrf_token",
    )

    contract_id: str = ""
    filled: Sequence[str] = ()
    """Chip fields the app filled in (the last count, the 4th place) when it judged the entry."""

    def groups(self) -> tuple[Chips, ...]:
        """Chip groups of this form's contract."""
        return chip_groups(self.contract_id)

    def raw(self) -> dict[str, Any]:
        """The entry as the engine's raw deal: lists for per-seat values, maps for cards."""
        raw: dict[str, Any] = {"contract": self.contract_id}
        for group in self.groups():
            spec = group.spec
            values = [self[name].data for name in group.names]
            match spec.kind:
                case FieldKind.SEAT | FieldKind.SUIT:
                    raw[spec.name] = values[0]
                case FieldKind.OPTIONAL_SEAT:
                    if values[0] is not None:
                        raw[spec.name] = values[0]
                case FieldKind.COUNTS | FieldKind.ORDER | FieldKind.SEAT_PAIR:
                    raw[spec.name] = values
                case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
                    raw[spec.name] = {
                        card: value
                        for card, value in zip(group.keys, values, strict=True)
                        if value is not None
                    }
                case _:
                    assert_never(spec.kind)
        return raw

    def fill(self, raw: Mapping[str, Any]) -> None:
        """Set the chips from a raw deal (prefill for an edit, or values the app filled in)."""
        for group in self.groups():
            value = raw.get(group.spec.name)
            for name, key in zip(group.names, group.keys, strict=True):
                if key is None:
                    self[name].data = value
                elif isinstance(value, list | tuple) and isinstance(key, int) and key < len(value):
                    self[name].data = value[key]
                elif isinstance(value, Mapping):
                    self[name].data = value.get(key)
                else:
                    self[name].data = None

    def entry(self) -> Entry:
        """What the form says to enter, for the store (after `validate`)."""
        editing = self.editing.data
        return Entry(
            self.raw(),
            editing if editing is not None else self.number.data or 0,
            self.version.data or 0,
            editing is not None,
            self.entry_key.data,
        )

    def fill_in(self, rules: HouseRules) -> dict[str, Any]:
        """Fill in what the entry determines (the last count, the 4th place), what the app filled
        before recomputed; the chips it changed are left in `filled` (the preview sends those
        rows again), the engine's running sums and early refusals in `help`. Returns the entry
        as the engine reads it."""
        before = {name: self[name].data for group in self.groups() for name in group.names}
        result = autofill(self.raw(), self.still_filled(), rules)
        self.fill(result.raw)
        self.mark_filled(result.filled)
        self.filled = sorted(name for name, value in before.items() if self[name].data != value)
        self.help = result
        return result.raw

    def chip_errors(self) -> dict[str, list[str]]:
        """WTForms' messages of the chip fields, by the engine's field name."""
        errors: dict[str, list[str]] = {}
        for name, messages in self.errors.items():
            if name not in self.STATE_FIELDS:
                errors.setdefault(name.split("-")[0], []).extend(str(m) for m in messages)
        return errors

    def still_filled(self) -> list[tuple[str, int]]:
        """The values the app filled in that still hold what it filled (no tap changed them),
        as the engine's places: ("counts", 3)."""
        marks = dict(mark.partition(":")[::2] for mark in (self.autofilled.data or "").split())
        places = []
        for group in self.groups():
            for index, name in enumerate(group.names):
                if name in marks and marks[name] == _text(self[name].data):
                    places.append((group.spec.name, index))
        return places

    def mark_filled(self, places: frozenset[tuple[str, int]]) -> None:
        """Remember which chips the app filled (`autofilled`) and which rows it changed."""
        names = [
            name
            for group in self.groups()
            for index, name in enumerate(group.names)
            if (group.spec.name, index) in places
        ]
        self.autofilled.data = " ".join(f"{name}:{_text(self[name].data)}" for name in names)
        self.filled_now = frozenset(names)

    filled_now: frozenset[str] = frozenset()
    """Chip fields holding a value the app filled in (drawn apart from tapped ones)."""
    help: Filled | None = None
    """The engine's help with this entry (running sums, early refusals), once asked."""

    def unset(self) -> list[str]:
        """Names of required chip fields still untouched."""
        return [
            name
            for group in self.groups()
            if group.spec.required
            for name in group.names
            if self[name].data is None
        ]


@cache
def deal_form_class(contract: str) -> type[DealForm]:
    """A DealForm subclass with one ChipField per value the contract records."""
    fields: dict[str, Any] = {"contract_id": contract}
    for group in chip_groups(contract):
        for name in group.names:
            fields[name] = ChipField(choices=group.choices)
    return type(f"DealForm_{contract.replace('-', '_')}", (DealForm,), fields)


def make_deal_form(contract: str, **kwargs: Any) -> DealForm:
    """Bind a deal form for `contract` to the request (or to `data`)."""
    return deal_form_class(contract)(**kwargs)


def blank_deal_form(
    contract: str, number: int, version: int, editing: int | None = None
) -> DealForm:
    """A new deal form for `contract`, made against the game's `version`, with a fresh key."""
    form = make_deal_form(contract, formdata=None)
    form.contract.data = contract
    form.number.data = number
    form.version.data = version
    form.editing.data = editing
    form.entry_key.data = new_entry_key()
    return form


class ConfirmForm(FlaskForm):
    """An empty form: a CSRF-protected button (choose the first seat, undo, delete)."""


class NotesForm(FlaskForm):
    """The game's name and notes, editable at any time."""

    name = StringField(
        _l("Name"), validators=[Optional(), TableText("name")], filters=[TableText.clean("name")]
    )
    notes = TextAreaField(
        _l("Notes"), validators=[Optional(), TableText("notes")], filters=[TableText.clean("notes")]
    )
    version = NumberField("", validators=[InputRequired()])


class ImportForm(FlaskForm):
    """One JSON file: a game record or an array of them."""

    file = FileField(_l("Game records (JSON)"), validators=[FileRequired()])
