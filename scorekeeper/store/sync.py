"""Deals a phone saved while it had no network ("pending"), sent in order when it has one.

Each pending entry carries its key, its number and what it was based on: the game's version
when it was entered, or the key of the pending entry before it (the version that entry's write
left, read from the database: so deal N+1 is fresh exactly when the game's last change was this
phone's deal N). Entries are tried in order, each in its own transaction like a save from a
form; the first one not stored stops the rest (they wait: they were based on it). A whole sync
sent again changes nothing: every entry it stored is answered from its key.

An entry may also be a withdrawal: the phone's person undid a kept deal that may have been on
its way already (a sync in flight, a save with no answer). Its key is taken for good with
nothing stored (`entries.withdraw_entry`), so no late copy is ever stored; or, when the game
stored the deal first, the phone is told so (`TooLate`) and the rest wait for the person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import Replay, dump_deal, parse_deal, replay
from .deals import (
    AlreadySaved,
    Entry,
    Finished,
    Impossible,
    Kept,
    Refused,
    Saved,
    Stale,
    Withdrawn,
    enter_deal,
    kept,
    stored_as,
)
from .entries import EntryKind, find_entry, withdraw_entry
from .games import game_of
from .models import GameRow

MOST_PENDING = 40
"""The most entries one sync may carry (a whole game is 20 deals; its corrections beside)."""


@dataclass(frozen=True)
class Pending:
    """One entry a phone saved offline."""

    key: str
    number: int
    """The deal's number: the next deal's, or for a correction the corrected one's."""
    raw: Mapping[str, Any]
    """The deal as the engine reads it (record form)."""
    base: int | str
    """The game's version it was entered on, or the key of the pending entry before it."""
    correction: bool = False
    """Whether it corrects past deal `number` (its JSON says so as `editing`)."""
    withdraw: bool = False
    """Whether it withdraws the entry `key` (deal `number`, undone on the phone) instead."""


@dataclass(frozen=True)
class Conflict:
    """Nothing written: another phone's deal `number` stands where this one was to go
    (`stored`, as stored; `same`: it is the very deal this phone entered)."""

    number: int
    stored: Mapping[str, Any]
    same: bool


@dataclass(frozen=True)
class Waiting:
    """Not tried: an entry sent before it in this sync was not stored."""


@dataclass(frozen=True)
class TooLate:
    """A withdrawal that came after its entry: the game stored it before (`kept`)."""

    kept: Kept


SyncOutcome = Saved | Kept | Conflict | Stale | Refused | Finished | Waiting | Withdrawn | TooLate


@dataclass(frozen=True)
class Sent:
    """What became of one pending entry; `version`: the game's right after it was stored
    (stored now or before), else None."""

    pending: Pending
    outcome: SyncOutcome
    version: int | None = None


def send_pending(row: GameRow, current: Replay, pending: Sequence[Pending]) -> list[Sent]:
    """Try each pending entry in order on the game (`current`: its replay); each stored one
    is written with its key; after the first one not stored, the rest wait."""
    answers: list[Sent] = []
    seen = row.version  # the version `current` replays
    for entry in pending:
        if answers and _stops(answers[-1]):
            answers.append(Sent(entry, Waiting()))
            continue
        if row.version != seen:  # a write raced this one and won: read the game again
            current, seen = replay(game_of(row)), row.version
        outcome = _send(row, current, entry)
        version = None
        match outcome:
            case Saved(result=Replay() as result):
                current, seen, version = result, row.version, row.version
            case Kept():
                version = outcome.version
        answers.append(Sent(entry, outcome, version))
    return answers


def _stops(sent: Sent) -> bool:
    """Whether the entries after this answer wait: it was not stored, or it was a withdrawal
    the game had stored first (the person decides)."""
    if isinstance(sent.outcome, TooLate):
        return True
    return sent.version is None and not isinstance(sent.outcome, Withdrawn)


def _send(row: GameRow, current: Replay, pending: Pending) -> SyncOutcome:
    """One pending entry, judged and stored as a form's save is, with its outcome in the
    words of a sync: another entry in its place is a conflict."""
    if pending.withdraw:
        found = stored_as(row, withdraw_entry(row, pending.key, pending.number))
        return Withdrawn() if found is None else TooLate(found)
    base = pending.base
    if isinstance(base, str):  # based on the pending entry before it: the version it left
        before = find_entry(row, base)
        if before is None or before.kind == EntryKind.WITHDRAWN:  # the phone must look again
            return kept(row, pending.key) or Stale()
        base = before.version
    entry = Entry(pending.raw, pending.number, base, pending.correction, key=pending.key)
    outcome = enter_deal(row, current, entry)
    match outcome:
        case AlreadySaved():  # (keyed: never this entry, whose own save is Kept)
            parsed = _parsed_dump(current, pending.raw)
            stored = row.deals[pending.number - 1]
            return Conflict(pending.number, stored, parsed == stored)
        case Impossible():  # numbers no game state of this phone's could have: look again
            return Stale()
        case Saved() | Kept() | Stale() | Refused() | Finished() | Withdrawn():
            return outcome


def _parsed_dump(current: Replay, raw: Mapping[str, Any]) -> dict[str, object] | None:
    """The deal as it would be stored, if it parses (nothing judged)."""
    game = current.game
    deal = parse_deal(game.definition, raw, game.house_rules)[0]
    return None if deal is None else dump_deal(deal)
