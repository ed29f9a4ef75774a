"""Entry keys: every entry stored into a game at most once, decided by the database.

A deal form carries a key made when it opens (the server's, in every form it renders; a phone
offline makes its own with `crypto.randomUUID()`). A keyed write records the key beside the
game in the same transaction as the game's version-guarded UPDATE (`games.write`); the key is
unique within the game, so a second write of it is refused by the database itself, whatever
two requests were doing at the time. A save sent again, a late answer asked about, a pending
deal synced twice are all answered from the key: the phone's own entry is never taken for
another phone's, and never stored twice.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from .db import db
from .models import EntryRow, GameRow, utcnow

ENTRY_KEY_PATTERN = r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"
"""The one shape of key accepted: a random UUID (version 4, RFC 9562 variant) in lower case,
as `crypto.randomUUID()` and `str(uuid.uuid4())` write it."""
_KEY_SHAPE = re.compile(ENTRY_KEY_PATTERN)


def new_entry_key() -> str:
    """A fresh random key for an entry (122 random bits: two forms never share one)."""
    return str(uuid.uuid4())


def is_entry_key(value: object) -> bool:
    """Whether `value` is a key in the one accepted shape."""
    return isinstance(value, str) and _KEY_SHAPE.fullmatch(value) is not None


class EntryKind(StrEnum):
    """What a keyed write stored."""

    DEAL = "deal"
    """The next deal."""
    EDIT = "edit"
    """A correction of a past deal."""
    WITHDRAWN = "withdrawn"
    """Nothing stored, and never to be: the phone's person undid the entry while it might
    have been on its way (its key is taken, so a late copy of it is refused)."""


@dataclass(frozen=True)
class Keyed:
    """What a keyed write records beside the game: its key, what it stored, and where."""

    key: str
    kind: EntryKind
    number: int
    deal: Mapping[str, Any]
    """The deal as stored (record form)."""


def find_entry(row: GameRow, key: str) -> EntryRow | None:
    """The entry stored into this game with this key, or None (a key of another game is
    never found: keys are the game's own)."""
    if not is_entry_key(key):
        return None
    return db.session.execute(
        select(EntryRow).where(EntryRow.game_id == row.id, EntryRow.key == key)
    ).scalar_one_or_none()


def entry_values(row: GameRow, keyed: Keyed, version: int, stamp: datetime) -> dict[str, Any]:
    """The entries row a keyed write of `row` adds, the game being at `version` after it."""
    return {
        "created_at": stamp,
        "game_id": row.id,
        "key": keyed.key,
        "kind": str(keyed.kind),
        "number": keyed.number,
        "version": version,
        "deal": dict(keyed.deal),
    }


def withdraw_entry(row: GameRow, key: str, number: int) -> EntryRow | None:
    """Take `key` for good without storing anything, unless the game stored the entry first.

    None: withdrawn (now, or by this withdrawal sent before); else the entry the game stored
    with this key before the withdrawal came. The unique key decides between a late copy of
    the entry and its withdrawal, whichever two requests were doing at the time."""
    found = find_entry(row, key)
    if found is None:
        try:
            db.session.execute(
                insert(EntryRow),
                {
                    "created_at": utcnow(),
                    "game_id": row.id,
                    "key": key,
                    "kind": str(EntryKind.WITHDRAWN),
                    "number": number,
                    "version": row.version,
                    "deal": {},
                },
            )
            db.session.commit()
            return None
        except IntegrityError:  # the entry itself, stored at this very moment
            db.session.rollback()
            found = find_entry(row, key)
    return None if found is None or found.kind == EntryKind.WITHDRAWN else found
