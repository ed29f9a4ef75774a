"""Problems (why an entry is refused) and the exceptions that carry them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .messages import PIECES, TEMPLATES, UNITS, Counted, Template

ParamValue = int | str
Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]
"""ngettext's shape: (singular, plural, number) → the form the language uses for number."""


def _identity(text: str) -> str:
    return text


def english_plural(singular: str, plural: str, number: int) -> str:
    """English's two forms, untranslated: the singular for 1 only."""
    return singular if number == 1 else plural


@dataclass(frozen=True)
class Problem:
    """One refusal: which field, which rule (a message id) and the numbers or words it needs."""

    field: str
    code: str
    params: Mapping[str, ParamValue] = dataclasses.field(default_factory=dict)

    def render(
        self,
        translate: Translate = _identity,
        field_label: str | None = None,
        translate_plural: TranslatePlural = english_plural,
    ) -> str:
        """The message in words, translated by `translate` (a counted one by `translate_plural`,
        with the form its number takes); `field_label` replaces the key path."""
        values: dict[str, ParamValue] = dict(self.params)

        def words(template: Template) -> str:
            if isinstance(template, Counted):
                count = values.get(template.count)
                number = count if isinstance(count, int) else 0
                return translate_plural(template.singular, template.plural, number)
            return translate(template)

        unit = values.get("unit")
        if isinstance(unit, str) and unit in UNITS:
            values["unit"] = words(UNITS[unit]).format(**values)
        for name, piece in PIECES.get(self.code, {}).items():
            if name in values:
                values[name] = words(piece).format(**values)
        values["field"] = field_label if field_label is not None else self.field
        return words(TEMPLATES[self.code]).format(**values)

    @property
    def message(self) -> str:
        """The English message with the record's field path, as `scorekeeper check` prints it."""
        return self.render()


class RuleError(ValueError):
    """An entry the rules refuse; `problems` lists every reason, the first is the headline."""

    def __init__(
        self,
        problems: list[Problem],
        *,
        deal_number: int | None = None,
        contract: str | None = None,
    ) -> None:
        self.problems = problems
        self.deal_number = deal_number
        self.contract = contract
        super().__init__(self.headline())

    def headline(self) -> str:
        """One line naming the deal (if any) and the first rule broken."""
        first = self.problems[0].message if self.problems else "invalid"
        if self.deal_number is None:
            return first
        what = f" ({self.contract})" if self.contract else ""
        return f"deal {self.deal_number}{what}: {first}"


class NotARecordError(ValueError):
    """The input is not a game record at all (not JSON, not an object, wrong format)."""
