"""Limits that hold across workers and hosts: what a client did lately, counted in the database.

Every process on every host that shares the database shares the counts, so neither many
workers, several hosts nor rotating source addresses multiply what a limit allows.

- `limit_events`: one row per counted action (a wrong access code, an import): its kind, the
  client's address, when, and an amount (games imported). A sliding window counts them per
  address and for everyone. Rows older than the longest window are deleted as new ones come,
  so the table stays small.
- `limit_slots`: beyond a window's allowance, one more try per interval, per address and for
  everyone. A slot is claimed with one guarded UPDATE, so of any number of workers asking at
  once at most one gets it.

Access codes: a code is counted as wrong before it is checked (so concurrent guesses cannot
slip past the allowance together) and taken back when it was right, so only wrong codes count;
a right code is let in whenever it is checked, and an address that has used its allowance is
checked again a few seconds later, not locked out for minutes. For everyone together, the
answers to wrong codes are paced (:func:`wrong_answer_at`): one every WRONG_ANSWERS_EVERY_S,
whatever the address, the server holding each until its moment; a right code is never paced,
so rotating addresses slow each other down and never the host. What holds off the rest is the
code's strength (:func:`code_guesses`): a code `scorekeeper serve` accepts takes at least
STRONG_CODE_GUESSES guesses, years at any rate this server can check.
"""

from __future__ import annotations

import ipaddress
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Float, Index, Integer, String, case, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, db

ADDRESS_LENGTH = 64


class LimitEvent(Base):
    """One counted action of one client address."""

    __tablename__ = "limit_events"
    __table_args__ = (
        Index("ix_limit_events_kind_address_at", "kind", "address", "at"),
        Index("ix_limit_events_kind_at", "kind", "at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    at: Mapped[float] = mapped_column(Float)
    """Seconds since the epoch."""
    amount: Mapped[int] = mapped_column(Integer, default=1)


class LimitSlot(Base):
    """The next moment an action beyond its allowance may be tried (per address, or for all)."""

    __tablename__ = "limit_slots"

    key: Mapped[str] = mapped_column(String(96), primary_key=True)
    next_at: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class Limit:
    """How often an action may happen: `per_address` times and `everyone` times a `window`
    (seconds), then once per `address_interval` per address and once per `everyone_interval`
    for all addresses together (0: not at all)."""

    kind: str
    window: float
    per_address: int
    everyone: int | None = None
    address_interval: float = 0.0
    everyone_interval: float = 0.0


WRONG_CODES = Limit("code", window=300.0, per_address=10, address_interval=6.0)
"""Wrong access codes: 10 per address per 5 minutes, then one check every 6 s per address (at
most 60 in 5 minutes, 0.2 a second, per address or IPv6 /64). None for everyone together."""
WRONG_ANSWERS_EVERY_S = 0.75
"""For everyone together: one wrong code answered every this many seconds (80 a minute), a
queue in the database (the slot `code:wrong-answers`) that every worker and host shares; a
wrong code is answered at once while nobody else is guessing."""
WRONG_ANSWER_HELD_AT_MOST_S = 10.0
"""The longest a wrong code's answer waits in that queue: past it (a crowd of guesses at once),
each waits this long, and the queue grows no further."""
WRONG_ANSWERS_KEY = "code:wrong-answers"
STRONG_CODE_GUESSES = 10**12
"""Guesses a code must take, as zxcvbn estimates them (an attacker who tries words, names,
dates and patterns first): half of them at 1,000 checked a second, more than this server can
check, is 16 years."""
IMPORT_REQUESTS = Limit("import", window=3600.0, per_address=30)
"""Import requests from one address in an hour (refused ones too: each costs a replay)."""
IMPORTED_GAMES_PER_HOUR = 1000
"""Games one address may import through the web in an hour (a phone's backup holds 60)."""
_LONGEST_WINDOW = {
    WRONG_CODES.kind: WRONG_CODES.window,
    IMPORT_REQUESTS.kind: IMPORT_REQUESTS.window,
}


def now() -> float:
    """The clock the limits read (seconds since the epoch, the same on every host)."""
    return time.time()


def address_key(remote: str | None) -> str:
    """Whose count a request adds to: its IPv4 address, or the /64 network of an IPv6 one
    (one host is given a whole /64 and may send from any address in it)."""
    text = (remote or "").strip()
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return text[:ADDRESS_LENGTH] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def recent(kind: str, window: float, address: str | None = None) -> tuple[int, int]:
    """How many actions of `kind` (from `address`, or from anyone) the last `window` seconds
    saw, and their total amount."""
    query: Any = select(func.count(), func.coalesce(func.sum(LimitEvent.amount), 0)).where(
        LimitEvent.kind == kind, LimitEvent.at > now() - window
    )
    if address is not None:
        query = query.where(LimitEvent.address == address)
    count, amount = db.session.execute(query).one()
    return int(count), int(amount)


def note(kind: str, address: str, amount: int = 1) -> int:
    """Count one action (committed), forget what no window looks at any more; the row's id."""
    moment = now()
    event = LimitEvent(kind=kind, address=address, at=moment, amount=amount)
    db.session.add(event)
    db.session.execute(
        delete(LimitEvent).where(
            LimitEvent.kind == kind, LimitEvent.at < moment - _LONGEST_WINDOW.get(kind, 3600.0)
        )
    )
    # a slot whose moment has passed is free: deleting it changes nothing but the table's size
    db.session.execute(delete(LimitSlot).where(LimitSlot.next_at < moment - 60.0))
    db.session.commit()
    return event.id


def forget(event_id: int) -> None:
    """Take back one counted action (committed)."""
    db.session.execute(delete(LimitEvent).where(LimitEvent.id == event_id))
    db.session.commit()


def claim(key: str, interval: float) -> bool:
    """Take the slot `key` if it is free, keeping it for `interval` seconds (committed)."""
    moment = now()
    result = db.session.execute(
        update(LimitSlot)
        .where(LimitSlot.key == key, LimitSlot.next_at <= moment)
        .values(next_at=moment + interval)
        .execution_options(synchronize_session=False)
    )
    if result.rowcount == 1:  # type: ignore[attr-defined]
        db.session.commit()
        return True
    taken = db.session.execute(select(LimitSlot.key).where(LimitSlot.key == key)).first()
    if taken is not None:
        db.session.commit()
        return False
    db.session.add(LimitSlot(key=key, next_at=moment + interval))
    try:
        db.session.commit()
    except IntegrityError:  # another worker made the slot first, and holds it
        db.session.rollback()
        return False
    return True


def _over(limit: Limit, address: str, own: int) -> tuple[bool, bool]:
    """Whether the address, and everyone, have used their allowance (`own`: rows of this very
    request among those counted)."""
    mine, _ = recent(limit.kind, limit.window, address)
    if limit.everyone is None:
        return mine - own >= limit.per_address, False
    everyone, _ = recent(limit.kind, limit.window)
    return mine - own >= limit.per_address, everyone - own >= limit.everyone


def _slots(limit: Limit, address: str, address_over: bool, everyone_over: bool) -> bool:
    """Claim the slots an action beyond its allowance needs: the address's first, so that one
    address cannot spend everyone's."""
    if address_over and not (
        limit.address_interval and claim(f"{limit.kind}:{address}", limit.address_interval)
    ):
        return False
    return not everyone_over or bool(
        limit.everyone_interval and claim(f"{limit.kind}:*", limit.everyone_interval)
    )


def reserve(limit: Limit, address: str) -> int | None:
    """Count an action before it happens, if it may happen now: the counted row's id (take it
    back with :func:`forget` if the action turns out not to count), or None.

    Within the allowance the row is written first and the window counted after, so however many
    workers ask at once, no more than the allowance get through; beyond it, a slot decides.
    A request refused leaves no row behind.
    """
    event_id = None
    address_over, everyone_over = _over(limit, address, 0)
    if not (address_over or everyone_over):
        event_id = note(limit.kind, address)
        address_over, everyone_over = _over(limit, address, 1)
        if not (address_over or everyone_over):
            return event_id
    if _slots(limit, address, address_over, everyone_over):
        return event_id if event_id is not None else note(limit.kind, address)
    if event_id is not None:
        forget(event_id)
    return None


def check_code(address: str) -> int | None:
    """May an access code from `address` be checked now? A ticket (a wrong code counted in
    advance) or None; give the ticket to :func:`right_code` when the code was right."""
    return reserve(WRONG_CODES, address)


def right_code(ticket: int) -> None:
    """The code was right: it does not count against anyone."""
    forget(ticket)


def wrong_answer_at() -> float:
    """A wrong code was checked: the moment (as :func:`now`) its answer may be given, its place
    in the queue every worker and host shares, taken with one guarded UPDATE (committed). The
    first of a quiet while is answered at once; each next one WRONG_ANSWERS_EVERY_S after the
    one before, at most WRONG_ANSWER_HELD_AT_MOST_S from now."""
    moment = now()
    latest = moment + WRONG_ANSWER_HELD_AT_MOST_S
    place = case(
        (LimitSlot.next_at < moment, moment),
        (LimitSlot.next_at > latest, latest),
        else_=LimitSlot.next_at,
    )
    for _ in range(3):
        taken = db.session.execute(
            update(LimitSlot)
            .where(LimitSlot.key == WRONG_ANSWERS_KEY)
            .values(next_at=place + WRONG_ANSWERS_EVERY_S)
            .returning(LimitSlot.next_at)
            .execution_options(synchronize_session=False)
        ).scalar_one_or_none()
        if taken is not None:
            db.session.commit()
            return float(taken) - WRONG_ANSWERS_EVERY_S
        db.session.add(LimitSlot(key=WRONG_ANSWERS_KEY, next_at=moment + WRONG_ANSWERS_EVERY_S))
        try:
            db.session.commit()
            return moment
        except IntegrityError:  # another worker made it first: queue behind it
            db.session.rollback()
    raise RuntimeError("the queue of wrong answers could not be joined")


def _hold(key: str, seconds: float) -> None:
    """Hold the slot row `key` (made if missing) until the transaction ends: whoever holds it
    counts and writes before the next one may (a row lock on PostgreSQL, the write lock on
    SQLite), on every worker and host."""
    for attempt in (1, 2):
        result = db.session.execute(
            update(LimitSlot)
            .where(LimitSlot.key == key)
            .values(next_at=now() + seconds)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 1:  # type: ignore[attr-defined]
            return
        db.session.add(LimitSlot(key=key, next_at=now() + seconds))
        try:
            db.session.flush()
            return
        except IntegrityError:  # another worker made it first: wait for it, as above
            db.session.rollback()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _import_key(address: str) -> str:
    return f"{IMPORT_REQUESTS.kind}-hold:{address}"


def reserve_import(address: str) -> int | None:
    """Count an import request from `address` before it is read, if the hour's allowance has
    room for it: the counted row's id, or None. Counted and decided with the address held, so
    of any number sent at once, no more than the allowance get through (committed)."""
    try:
        _hold(_import_key(address), IMPORT_REQUESTS.window)
        requests, _ = recent(IMPORT_REQUESTS.kind, IMPORT_REQUESTS.window, address)
        if requests >= IMPORT_REQUESTS.per_address:
            db.session.rollback()
            return None
        event = LimitEvent(kind=IMPORT_REQUESTS.kind, address=address, at=now(), amount=0)
        db.session.add(event)
        db.session.execute(
            delete(LimitEvent).where(
                LimitEvent.kind == IMPORT_REQUESTS.kind,
                LimitEvent.at < now() - IMPORT_REQUESTS.window,
            )
        )
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return event.id


def reserve_games(ticket: int, address: str, games: int) -> bool:
    """Add `games` to the request `ticket` (from :func:`reserve_import`) if the address's games
    this hour stay within :data:`IMPORTED_GAMES_PER_HOUR`; decided with the address held
    (committed)."""
    try:
        _hold(_import_key(address), IMPORT_REQUESTS.window)
        _, imported = recent(IMPORT_REQUESTS.kind, IMPORT_REQUESTS.window, address)
        if imported + games > IMPORTED_GAMES_PER_HOUR:
            db.session.rollback()
            return False
        db.session.execute(
            update(LimitEvent)
            .where(LimitEvent.id == ticket)
            .values(amount=games)
            .execution_options(synchronize_session=False)
        )
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return True


def release_games(ticket: int) -> None:
    """The request `ticket` stored nothing: its games no longer count (the request does)."""
    db.session.execute(
        update(LimitEvent)
        .where(LimitEvent.id == ticket)
        .values(amount=0)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()


def note_import(address: str, games: int) -> None:
    """Count one import request from `address` that stored `games` games (0 if refused)."""
    note(IMPORT_REQUESTS.kind, address, games)


def _ascii_digit(character: str) -> str:
    value = unicodedata.decimal(character, None)
    return str(value) if value is not None else character


def spoken(code: str) -> str:
    """The code as it is compared: its Unicode compatibility form, any script's digits as
    0-9 (an Arabic or Hindi keyboard types its own), spaces and hyphens left out (it may be
    read out in groups)."""
    text = unicodedata.normalize("NFKC", code)
    return "".join(
        _ascii_digit(character)
        for character in text
        if not character.isspace() and character != "-"
    )


def code_guesses(code: str) -> float:
    """How many guesses the code takes, by zxcvbn's estimate, on the form that is compared."""
    from zxcvbn import zxcvbn

    return float(zxcvbn(spoken(code)[:100])["guesses"])


GUESSES_A_SECOND = 1000
"""The fastest an attacker's guesses can be checked, for the time it takes: more than this
server answers (`bench/guesses.py`: about 100 a second on 2 cores, from any number of
addresses), and five times what 1,000 addresses get at the per-address limit (200 a second)."""


def years_to_guess(guesses: float) -> float:
    """An attacker's expected time to find a code, in years: half its guesses, at
    GUESSES_A_SECOND."""
    return guesses / 2 / GUESSES_A_SECOND / (365.25 * 24 * 3600)


def new_code() -> str:
    """A strong code that any table can read out and type: 16 random digits in 4 groups
    (10^16 codes; zxcvbn estimates each at 10^14 guesses or more)."""
    while True:
        digits = f"{secrets.randbelow(10**16):016d}"
        code = " ".join(digits[start : start + 4] for start in range(0, 16, 4))
        if code_guesses(code) >= STRONG_CODE_GUESSES * 100:
            return code
