"""Entering, correcting and undoing deals when several phones keep one game.

Every rule about a save that races another phone lives here, not in the views: a double tap
(the same entry twice), a form made before another phone saved or undid a deal, a deal sent to a
finished game. Each call answers with one outcome; the views only turn it into a response.

Every entry has a key (made when its form opened, `store.entries`; a restore makes its own):
it is stored at most once per key, and whatever is not written now is answered from the key:
this entry's own save is never taken for another phone's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules import (
    Deal,
    Evaluation,
    Replay,
    dump_deal,
    evaluate,
    parse_deal,
    replay,
    without_deal,
)
from .entries import EntryKind, Keyed, find_entry
from .games import StaleStateError, set_first, write_deals
from .models import EntryRow, GameRow


@dataclass(frozen=True)
class Entry:
    """What a deal form sent, as the form showed it."""

    raw: Mapping[str, Any]
    """The deal as the engine reads it (with what the app filled in)."""
    number: int
    """The deal's 1-based number: the next deal's, or the corrected one's."""
    version: int
    """The game's version when the form was made."""
    correction: bool = False
    """Whether it corrects past deal `number` (else it is the next deal)."""
    key: str = field(kw_only=True)
    """The key made when the form opened."""


@dataclass(frozen=True)
class Saved:
    """Written. `result` is the game replayed with it (None: an identical twin won the race);
    after an undo, `removed` is the deal taken out, as stored (what a restore puts back)."""

    result: Replay | None
    removed: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class AlreadySaved:
    """Nothing written: the game already has that deal (`same`: exactly this entry; for a
    keyed entry, one like it entered by another phone: its own is `Kept`)."""

    same: bool


@dataclass(frozen=True)
class Stale:
    """Nothing written: another phone changed the game since this form was made (`raced`: at
    the very moment of writing; the other phone's write won)."""

    raced: bool = False


@dataclass(frozen=True)
class Finished:
    """Nothing written: the game is over."""


@dataclass(frozen=True)
class Refused:
    """Nothing written: the engine refused the entry (its problems say why)."""

    evaluation: Evaluation


@dataclass(frozen=True)
class Impossible:
    """Nothing written: no form this game ever showed carries these numbers (a tampered one)."""


@dataclass(frozen=True)
class Kept:
    """Nothing written now: the game stored this very entry before, by its key (a save sent
    again after its answer was lost, or a twin that won the race): deal `number`, or for a
    correction (`correction`) deal `number` changed, the game at `version` right after it.
    `stands`: the deal is in the game as this entry stored it (False: another phone changed
    or undid it since)."""

    number: int
    correction: bool
    version: int
    stands: bool = True


@dataclass(frozen=True)
class Withdrawn:
    """Nothing written, and never to be: the phone that made this entry withdrew its key (its
    person undid the deal before it reached the server)."""


Outcome = Saved | AlreadySaved | Stale | Finished | Refused | Impossible | Kept | Withdrawn


def _holds(row: GameRow, index: int, deal: Deal | None) -> bool:
    """Whether the stored game has exactly `deal` at `index`."""
    return deal is not None and 0 <= index < len(row.deals) and row.deals[index] == dump_deal(deal)


def _parsed(current: Replay, entry: Entry) -> Deal | None:
    """The entry's deal as the engine reads it (None if it does not parse), nothing judged: all
    that tells a twin of a stored deal apart."""
    return parse_deal(current.game.definition, entry.raw, current.game.house_rules)[0]


def kept(row: GameRow, key: str) -> Kept | None:
    """What the game holds of the entry with this key (None: it was never stored here)."""
    return stored_as(row, find_entry(row, key))


def stored_as(row: GameRow, found: EntryRow | None) -> Kept | None:
    """What the game holds of a keyed entry found (None: none, or a withdrawn key)."""
    if found is None or found.kind == EntryKind.WITHDRAWN:
        return None
    index = found.number - 1
    stands = index < len(row.deals) and row.deals[index] == found.deal
    return Kept(found.number, found.kind == EntryKind.EDIT, found.version, stands)


def enter_deal(row: GameRow, current: Replay, entry: Entry) -> Outcome:
    """Judge `entry` against the game (`current` is its replay) and store it if it may be.

    The entry is written with its key (the database refuses a key the game holds); when
    nothing is written, an entry the game stored before by its key is answered as `Kept`, and
    one whose key was withdrawn as `Withdrawn`."""
    outcome = _enter(row, current, entry)
    if isinstance(outcome, Saved):
        return outcome
    found = find_entry(row, entry.key)
    if found is not None and found.kind == EntryKind.WITHDRAWN:
        return Withdrawn()
    return stored_as(row, found) or outcome


def _enter(row: GameRow, current: Replay, entry: Entry) -> Outcome:
    count = len(current.game.deals)
    last = count if entry.correction else count + 1  # the highest number the form could show
    if entry.version < row.version and entry.number > last:
        return Stale()  # a form from before another phone's undo
    if not (1 <= entry.number <= last and 1 <= entry.version <= row.version):
        return Impossible()
    index = entry.number - 1
    if not entry.correction and entry.number != count + 1:  # a double tap, or another phone's
        return AlreadySaved(_holds(row, index, _parsed(current, entry)))
    if not entry.correction and current.next is None:
        return Finished()
    if entry.version != row.version:
        return Stale()
    # judged once: parsed once, and the game with it replayed once (what is written and kept)
    evaluation = evaluate(current, entry.raw, index if entry.correction else None)
    if evaluation.after is None or evaluation.deal is None:
        return Refused(evaluation)
    kind = EntryKind.EDIT if entry.correction else EntryKind.DEAL
    keyed = Keyed(entry.key, kind, entry.number, dump_deal(evaluation.deal))
    try:
        write_deals(row, evaluation.after, entry.version, keyed)
    except StaleStateError:  # unless the write that won was this very entry (a double tap)
        if _holds(row, index, evaluation.deal):
            return AlreadySaved(True)
        return Stale(raced=True)
    return Saved(evaluation.after)


def check_entry(row: GameRow, current: Replay, entry: Entry) -> Outcome | None:
    """After a save whose answer was lost (a timeout, a dropped connection): what became of it,
    nothing written. `Kept`: the game stored it (by its key); `AlreadySaved`: another entry
    stands in its place (`same`: one exactly like it); `Stale`: another phone changed the
    game since the form was made, nothing in its place (a correction: not this one); None:
    not saved, and it may be sent again (it is never stored twice)."""
    found = kept(row, entry.key)
    if found is not None:
        return found
    if not entry.correction and 1 <= entry.number <= len(row.deals):
        return AlreadySaved(_holds(row, entry.number - 1, _parsed(current, entry)))
    if entry.version != row.version:
        return Stale()
    return None


def undo_deal(row: GameRow, current: Replay, number: int, version: int) -> Outcome:
    """Remove the last deal, `number`; a second tap of the same undo changes nothing."""
    count = len(current.game.deals)
    if number > count:
        return AlreadySaved(True)  # undone already, by this tap's twin
    if number < count:
        return Stale()
    removed = dict(row.deals[number - 1])
    try:
        after = replay(without_deal(current.game, number - 1))
        write_deals(row, after, version)
    except StaleStateError:
        return AlreadySaved(True) if row.deal_count == number - 1 else Stale()
    return Saved(after, removed)


def can_restore(row: GameRow, number: int, version: int) -> bool:
    """Whether the deal an undo removed (`number`, the undo leaving `version`) may be put back:
    only while the game is exactly as that undo left it."""
    return row.deal_count == number - 1 and row.version == version


def restore_deal(row: GameRow, current: Replay, entry: Entry) -> Outcome:
    """Put back the deal an undo removed (`entry`: it as it was stored, its number, and the
    version the undo left): only while the game is exactly as that undo left it.

    A second tap of the same restore changes nothing; once another phone saved, undid or
    changed anything, the deal is not put back (it may no longer fit: enter it again)."""
    count = len(current.game.deals)
    if entry.correction or entry.number < 1:
        return Impossible()
    if (
        entry.number == count
        and entry.version < row.version
        and row.deals[count - 1] == dict(entry.raw)
    ):
        return AlreadySaved(True)  # restored already, by this tap's twin
    if not can_restore(row, entry.number, entry.version):
        return Stale()
    return enter_deal(row, current, entry)


def choose_first(row: GameRow, seat: int, version: int) -> Outcome:
    """Record who was dealt the 7♥ (or declares first), once: a second phone's choice loses."""
    if row.first_chooser is None:
        try:
            set_first(row, seat, version)
        except StaleStateError:
            return AlreadySaved(True) if row.first_chooser == seat else Stale()
        return Saved(None)
    return AlreadySaved(True) if row.first_chooser == seat else Stale()
