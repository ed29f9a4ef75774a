"""WTForms classes: they type the input; the rules engine judges it.

Deal forms are built per contract from the engine's field specs, so a new contract needs no
form code: every value is a row of tap targets (radio "chips") that parses to a seat, a count
or a suit, or stays unset. A deal form also carries what it was made for (its contract, the
deal's number, the game's version, whether it corrects a past deal) and reads all of it back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import Field, HiddenField, StringField, TextAreaField
from wtforms.validators import InputRequired, Optional, ValidationError
from wtforms.widgets import HiddenInput

from ..rules import HouseRules
from ..rules.autofill import Filled
from ..rules.text import table_text
from ..store.deals import Entry
from ..store.entries import is_entry_key, new_entry_key
from ..words import deal_form
from ..words.deal_form import Chips, chip_groups
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
        if valuelist:
            try:
                self.data = deal_form.chip_value(self.choices, valuelist[0])
            except ValueError:
                raise ValueError(_l(deal_form.NOT_A_CHOICE)) from None

    def _value(self) -> str:
        return deal_form.chip_text(self.data)


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
    """The key a deal form was made with (`store.entries`): every form the app renders has
    one; none, or anything but the one accepted shape, is a tampered form."""

    widget = HiddenInput()
    data: str | None

    def _value(self) -> str:
        return self.data or ""

    def process_formdata(self, valuelist: list[str]) -> None:
        self.data = None
        if not valuelist or not is_entry_key(valuelist[0]):
            raise ValueError("not an entry key")
        self.data = valuelist[0]


class DealForm(FlaskForm):
    """Fields every deal form carries: its contract and the state it was made against."""

    # a label, even empty, spares WTForms reading its own catalogue from disk on every request
    # (it translates a missing label's default)
    contract = HiddenField("")
    number = NumberField("", validators=[InputRequired()])
    version = NumberField("", validators=[InputRequired()])
    corrects = NumberField("", name="editing")
    """The number of the past deal this form corrects; unset for the next deal (sent as
    `editing`, the name forms already open on phones use)."""
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
        "corrects",
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

    def values(self) -> dict[str, Any]:
        """Every chip field's value (None while untapped)."""
        return {name: self[name].data for name in deal_form.chip_names(self.contract_id)}

    def raw(self) -> dict[str, Any]:
        """The entry as the engine's raw deal: lists for per-seat values, maps for cards."""
        return deal_form.raw_deal(self.contract_id, self.values())

    def fill(self, raw: Mapping[str, Any]) -> None:
        """Set the chips from a raw deal (prefill for an edit, or values the app filled in)."""
        for name, value in deal_form.chip_values(self.contract_id, raw).items():
            self[name].data = value

    def entry(self) -> Entry:
        """What the form says to enter, for the store (after `validate`)."""
        corrects = self.corrects.data
        return Entry(
            self.raw(),
            corrects if corrects is not None else self.number.data or 0,
            self.version.data or 0,
            corrects is not None,
            key=self.entry_key.data or "",
        )

    def fill_in(self, rules: HouseRules) -> dict[str, Any]:
        """Fill in what the entry determines (the last count, the 4th place), what the app filled
        before recomputed (:func:`scorekeeper.words.deal_form.fill_in`, which the engine in the
        phone calls too); the chips it changed are left in `filled` (the preview sends those
        rows again), the engine's running sums and early refusals in `filled_entry`. Returns
        the entry as the engine reads it."""
        result = deal_form.fill_in(
            self.contract_id, self.values(), self.autofilled.data or "", rules
        )
        for name, value in result.values.items():
            self[name].data = value
        self.autofilled.data = result.marks
        self.filled_now = result.by_app
        self.filled = result.changed
        self.filled_entry = result.entry
        return result.entry.raw

    def chip_errors(self) -> dict[str, list[str]]:
        """WTForms' messages of the chip fields, by the engine's field name."""
        errors: dict[str, list[str]] = {}
        for name, messages in self.errors.items():
            if name not in self.STATE_FIELDS:
                errors.setdefault(name.split("-")[0], []).extend(str(m) for m in messages)
        return errors

    filled_now: frozenset[str] = frozenset()
    """Chip fields holding a value the app filled in (drawn apart from tapped ones)."""
    filled_entry: Filled | None = None
    """The entry as the engine filled it in (running sums, early refusals), once asked."""

    def unset(self) -> list[str]:
        """Names of required chip fields still untouched."""
        return deal_form.unset(self.contract_id, self.values())


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
    contract: str, number: int, version: int, corrects: int | None = None
) -> DealForm:
    """A new deal form for `contract`, made against the game's `version`, with a fresh key."""
    form = make_deal_form(contract, formdata=None)
    form.contract.data = contract
    form.number.data = number
    form.version.data = version
    form.corrects.data = corrects
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
