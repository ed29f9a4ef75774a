"""Reading a sync: the JSON a phone sends with the deals it saved offline, typed once.

The body is `{"entries": [ENTRY, …]}`; each ENTRY is an object with exactly these keys:
`key` (an entry key, `store.entries`), `number` (the deal's number), `deal` (the deal, record
form: the engine judges what is inside), one of `base` (the game's version it was entered
on) or `after` (the key of the pending entry before it), and optionally `editing` (true: a
correction of deal `number`). A withdrawal (a kept deal undone on the phone while it may have
been on its way) has exactly `key`, `number` and `"withdraw": true`. Anything else — not
JSON, `NaN`, a key twice in one object, a wrong type, an unknown key, a key in another
shape, the same key twice — is refused whole with what is wrong, as a record is: a typo
must not be silently ignored.
"""

from __future__ import annotations

import json
from typing import Any

from ..store.entries import is_entry_key
from ..store.sync import MOST_PENDING, Pending
from .languages import gettext

MOST_DIGITS = 12
"""A number or version longer than this was not written by the app."""
_ENTRY_KEYS = frozenset({"key", "number", "deal", "base", "after", "editing"})
_WITHDRAWAL_KEYS = frozenset({"key", "number", "withdraw"})


class NotPending(ValueError):
    """The body is not a sync the app sends; `message` says what is wrong (worded)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key twice in one object")
    return found


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _whole(value: object) -> bool:
    """A JSON integer (not true/false), positive, of few digits."""
    return type(value) is int and 1 <= value < 10**MOST_DIGITS


def read_pending(body: bytes) -> list[Pending]:
    """The pending entries of a sync's body, in the order sent; NotPending if it is not one."""
    try:
        data = json.loads(body, object_pairs_hook=_no_twice, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError)
        raise NotPending(gettext("What was sent is not valid JSON.")) from None
    entries = data.get("entries") if isinstance(data, dict) and set(data) == {"entries"} else None
    if not isinstance(entries, list) or not 1 <= len(entries) <= MOST_PENDING:
        raise NotPending(
            gettext(
                'Send "entries": a list (1 to %(most)d).',
                most=MOST_PENDING,
            )
        )
    pending: list[Pending] = []
    for index, entry in enumerate(entries, start=1):
        field = _wrong_field(entry, {each.key for each in pending})
        if field is not None:
            raise NotPending(
                gettext(
                    "Entry %(index)d: “%(field)s” is missing or wrong.",
                    index=index,
                    field=field,
                )
            )
        if "withdraw" in entry:
            pending.append(Pending(entry["key"], entry["number"], {}, 0, withdraw=True))
            continue
        pending.append(
            Pending(
                entry["key"],
                entry["number"],
                entry["deal"],
                entry["base"] if "base" in entry else entry["after"],
                entry.get("editing", False),
            )
        )
    return pending


def _wrong_field(entry: object, keys_before: set[str]) -> str | None:
    """The first field of a pending entry that is missing or wrong (None: it is whole)."""
    if not isinstance(entry, dict):
        return "entries"
    if "withdraw" in entry:
        unknown = sorted(str(name) for name in set(entry) - _WITHDRAWAL_KEYS)
        if unknown:
            return unknown[0][:40]
        if not is_entry_key(entry.get("key")) or entry["key"] in keys_before:
            return "key"
        if not _whole(entry.get("number")):
            return "number"
        return None if entry["withdraw"] is True else "withdraw"
    unknown = sorted(str(name) for name in set(entry) - _ENTRY_KEYS)
    if unknown:
        return unknown[0][:40]  # (said back: a name of the sender's, cut short)
    key = entry.get("key")
    if not is_entry_key(key) or key in keys_before:
        return "key"
    if not _whole(entry.get("number")):
        return "number"
    if not isinstance(entry.get("deal"), dict):
        return "deal"
    if ("base" in entry) == ("after" in entry):
        return "base"
    if "base" in entry and not _whole(entry["base"]):
        return "base"
    if "after" in entry and (not is_entry_key(entry["after"]) or entry["after"] == key):
        return "after"
    if type(entry.get("editing", False)) is not bool:
        return "editing"
    return None
