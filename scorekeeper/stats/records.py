"""Reading many game records at once (an array, or one record), naming the one that is bad."""

from __future__ import annotations

from ..rules.errors import NotARecordError, RuleError
from ..rules.record import Record, parse_json, record_from_json


class RecordsRefused(ValueError):
    """Input that is not a set of valid records: `error` is the engine's reason, `record` the
    bad record's 1-based position in the array (None for a lone record or for bad JSON)."""

    def __init__(self, error: RuleError | NotARecordError, record: int | None = None) -> None:
        self.error = error
        self.record = record
        super().__init__(self.headline())

    @property
    def is_rule(self) -> bool:
        """True when a record breaks a rule (exit 1), False when the input is not records (2)."""
        return isinstance(self.error, RuleError)

    def headline(self) -> str:
        """One English line: "record 2: deal 3 (diamonds): ..."."""
        reason = self.error.headline() if isinstance(self.error, RuleError) else str(self.error)
        return reason if self.record is None else f"record {self.record}: {reason}"


def load_records(text: str | bytes) -> list[Record]:
    """A JSON array of records (possibly empty) or one record, each checked and replayed by the
    engine as `scorekeeper check` does; RecordsRefused naming the first bad one."""
    try:
        parsed = parse_json(text)
    except NotARecordError as error:
        raise RecordsRefused(error) from None
    several = isinstance(parsed, list)
    records = []
    for position, item in enumerate(parsed if several else [parsed], start=1):
        try:
            records.append(record_from_json(item))
        except (RuleError, NotARecordError) as error:
            raise RecordsRefused(error, position if several else None) from None
    return records
