"""The versions of the games this process's phones poll, kept while the database says nothing.

Every open game page asks every few seconds whether its game changed; almost always it has not.
On PostgreSQL this process listens on a channel the database writes to after any change of a
game (migration `f6_changes`: a trigger, so every writer is heard, whatever its process or
server), and keeps each polled game's version until it hears of that game: an unchanged game's
poll then asks the database nothing.

SQLite has no such channel; its processes share a file of change marks beside the database
(`<database>-changes`, 512 KiB mapped into each process's memory): a process that committed a
change to a game writes a fresh random mark into the slots of the game's two tokens, and a
version read after its token's mark was read is used while that mark is unchanged, and at most
SQLITE_TRUSTED_FOR_S (a change nobody marked: a process killed between its commit and its mark,
an UPDATE typed by hand, shows within that). An unchanged game's poll then costs a memory read
instead of a thread and a statement (`bench/tables.py`: most of a busy night's requests).

The answers stay exact:

- a version is kept only if no notification arrived while it was read (one may have been about
  that game, and the read may have been from before it); on SQLite, with the mark read before
  the version: a change committed after the read marks after it, so the mark kept is stale;
- until the listener is connected and listening, and from the moment its connection fails until
  it listens again, nothing is kept and every poll reads the database;
- the listener's connection is checked every few seconds (a `SELECT 1` that must answer within
  HEARTBEAT_TIMEOUT_S, else the connection is cut and made again), and what it kept is trusted
  only for TRUSTED_FOR_S after its last answer: a listener whose server stopped answering (a
  hung backend, a host gone without a word: the TCP connection looks alive) is dropped, and
  nothing it kept is used, within 10 s. Its connection also has TCP keepalives, a TCP user
  timeout and a statement timeout, so the operating system and the server give up on it too.
"""

from __future__ import annotations

import logging
import mmap
import os
import socket
import threading
import time
import zlib
from typing import Any

from cachetools import LRUCache
from sqlalchemy import Engine, bindparam, select

from ..settings import sqlite_files
from .models import GameRow

CHANNEL = "scorekeeper_games"
"""The channel migration `f6_changes`'s trigger notifies: a game's two tokens, or `*`."""
HEARTBEAT_SECONDS = 3.0
"""How often a quiet listener checks that its connection is alive."""
HEARTBEAT_TIMEOUT_S = 3.0
"""How long the check may take before the connection is cut and made again."""
TRUSTED_FOR_S = 8.0
"""How long after the listener's last answered check the versions it kept are used: a listener
silent since just after one is no longer trusted within this (and is cut within
HEARTBEAT_SECONDS + HEARTBEAT_TIMEOUT_S)."""
LISTENER_PARAMETERS: dict[str, Any] = {
    "connect_timeout": 5,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
    "tcp_user_timeout": 8000,  # ms: data unacknowledged this long ends the connection
    "options": "-c statement_timeout=3000",
}
"""libpq's parameters of the listener's own connection (psycopg passes them on): a connection
whose peer went away without a word is ended by the operating system within about 10 s,
silent (keepalives) or not (the TCP user timeout), and the server ends a statement of its
that runs over 3 s."""
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""Waits before connecting again after a failure (the last repeats)."""
KEPT = 100_000
"""Games whose versions one process keeps (least recently polled first out): a few MB."""

MARKS = 1 << 16
"""Slots of the change marks beside a SQLite database (8 bytes each): a game's token shares its
slot with one in 65,536 others, whose changes only make its next poll read."""
SQLITE_TRUSTED_FOR_S = 10.0
"""On SQLite, how long a version read is used while its mark is unchanged."""

VERSION_BY_TOKEN = select(GameRow.version).where(GameRow.token == bindparam("token"))
"""Only the version of the game behind a scorekeeper link (a game page's follow poll)."""
VERSION_BY_VIEW_TOKEN = select(GameRow.version).where(GameRow.view_token == bindparam("token"))
"""Only the version of the game behind a view link: one indexed read (the live view's poll)."""
BY_KIND = {"token": VERSION_BY_TOKEN, "view_token": VERSION_BY_VIEW_TOKEN}
"""One indexed read of a game's version by its scorekeeper link or its view link."""

log = logging.getLogger(__name__)


class Versions:
    """Game versions by token for one database in one process (see the module's text)."""

    def __init__(self, engine: Engine, *, listen: bool = True) -> None:
        self.engine = engine
        self.listens = listen and engine.dialect.name == "postgresql"
        self.marks = marks_for(engine) if listen else None
        """The change marks every process on this SQLite file writes (else None)."""
        self._changed = threading.Condition()  # guards what follows; notified on any change
        self._kept: LRUCache[tuple[str, str], int] = LRUCache(maxsize=KEPT)
        self._read: LRUCache[tuple[str, str], tuple[int, bytes, float]] = LRUCache(maxsize=KEPT)
        """On SQLite: each version read, with its token's mark read before it and when."""
        self.heard = 0
        """Notifications heard and listener restarts: a read that spans one is not kept."""
        self.listener_pid: int | None = None
        """The listening connection's server process while it listens, else None."""
        self._trusted_until = 0.0
        """Until when (time.monotonic()) what is kept may be used: TRUSTED_FOR_S after the
        listener last answered."""
        self._started = False
        self._stop = threading.Event()
        self.reads = 0
        """Versions read from the database (tests and benches count them)."""

    def version(self, kind: str, token: str) -> int | None:
        """The version of the game whose `kind` ("token" or "view_token") is `token`, or None."""
        if self.marks is not None:
            return self._marked(kind, token)
        if self.listens and not self._started:
            self._start()
        with self._changed:
            trusted = self.listener_pid is not None and time.monotonic() < self._trusted_until
            known = self._kept.get((kind, token)) if trusted else None
            heard = self.heard
        if known is not None:
            return known
        found = self.read(kind, token)
        if found is not None and trusted:
            with self._changed:
                if self.heard == heard:
                    self._kept[kind, token] = found
        return found

    def known(self, kind: str, token: str) -> int | None:
        """The version kept in memory, trusted now, or None (then only :meth:`version` knows):
        nothing here waits on the database (the server's event loop asks it)."""
        if self.marks is not None:
            return self._marked(kind, token, kept_only=True)
        if self.listens and not self._started:
            self._start()
        with self._changed:
            trusted = self.listener_pid is not None and time.monotonic() < self._trusted_until
            return self._kept.get((kind, token)) if trusted else None

    def _marked(self, kind: str, token: str, *, kept_only: bool = False) -> int | None:
        """On SQLite: the version kept while its token's mark is unchanged (and for at most
        SQLITE_TRUSTED_FOR_S), else read after the mark (`kept_only`: None rather than a read)."""
        assert self.marks is not None
        mark = self.marks.of(token)
        with self._changed:
            kept = self._read.get((kind, token))
        if kept is not None:
            version, kept_mark, read_at = kept
            if kept_mark == mark and time.monotonic() - read_at < SQLITE_TRUSTED_FOR_S:
                return version
        if kept_only:
            return None
        read_at = time.monotonic()
        found = self.read(kind, token)  # after the mark: a change committed since marks anew
        if found is not None:
            with self._changed:
                self._read[kind, token] = (found, mark, read_at)
        return found

    def read(self, kind: str, token: str) -> int | None:
        """The version in the database (one indexed read)."""
        with self.engine.connect() as connection:
            found = connection.execute(BY_KIND[kind], {"token": token}).scalar_one_or_none()
        self.reads += 1
        return None if found is None else int(found)

    def close(self) -> None:
        """Stop listening (the listener's thread ends within a heartbeat)."""
        self._stop.set()

    def wait_listening(self, seconds: float) -> bool:
        """Whether the listener listens within `seconds` (tests and benches wait for it)."""
        if self.listens and not self._started:
            self._start()
        with self._changed:
            return self._changed.wait_for(lambda: self.listener_pid is not None, seconds)

    def heard_wait(self, since: int, seconds: float) -> bool:
        """Whether something more than `since` is heard within `seconds` (a confirmation)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.heard > since, seconds)

    def relistened_wait(self, old_pid: int, seconds: float) -> bool:
        """Whether a new connection (not `old_pid`) listens within `seconds`."""
        with self._changed:
            return self._changed.wait_for(lambda: self.listener_pid not in (None, old_pid), seconds)

    def _start(self) -> None:
        with self._changed:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._listen, name="scorekeeper-versions", daemon=True).start()

    def heard_of(self, payload: str) -> None:
        """A notification: the two tokens of a changed or deleted game, or `*` (all)."""
        self.forget(payload.split())

    def forget(self, tokens: list[str]) -> None:
        """Forget these games' versions (heard of a change, or made one here)."""
        with self._changed:
            self.heard += 1
            if tokens == ["*"]:
                self._kept.clear()
            for token in tokens:
                self._kept.pop(("token", token), None)
                self._kept.pop(("view_token", token), None)
            self._changed.notify_all()

    def _listening(self, pid: int | None) -> None:
        """Listening from now on (by `pid`), or not: either way nothing kept is trusted."""
        with self._changed:
            self.listener_pid = pid
            self.heard += 1
            self._kept.clear()
            self._trusted_until = time.monotonic() + TRUSTED_FOR_S if pid is not None else 0.0
            self._changed.notify_all()

    def _answered(self) -> None:
        """The listener's check was answered (and what arrived before it heard): what is kept
        may be used for TRUSTED_FOR_S more; if that had run out, nothing kept is trusted."""
        with self._changed:
            now = time.monotonic()
            if now >= self._trusted_until:
                self.heard += 1
                self._kept.clear()
            self._trusted_until = now + TRUSTED_FOR_S

    def _listen(self) -> None:
        """Listen on the channel until stopped; after any failure, forget and reconnect."""
        failures = 0
        while not self._stop.is_set():
            try:
                self._listen_once()
                failures = 0
            except Exception as error:  # a lost connection, a restarted server: one line
                log.warning(
                    "game changes: the listener lost its connection (%s); listening again",
                    one_line(error),
                )
            self._listening(None)
            self._stop.wait(RETRY_SECONDS[min(failures, len(RETRY_SECONDS) - 1)])
            failures += 1

    def listener_connection(self) -> Any:
        """The listener's own connection (psycopg's), with LISTENER_PARAMETERS."""
        dialect = self.engine.dialect
        arguments, parameters = dialect.create_connect_args(self.engine.url)
        options = " ".join(
            filter(None, [parameters.get("options"), LISTENER_PARAMETERS["options"]])
        )
        return dialect.connect(
            *arguments, **{**parameters, **LISTENER_PARAMETERS, "options": options}
        )

    def _listen_once(self) -> None:
        connection = self.listener_connection()
        try:
            connection.autocommit = True
            connection.execute(f"LISTEN {CHANNEL}")
            self._listening(int(connection.info.backend_pid))
            while not self._stop.is_set():
                for note in connection.notifies(timeout=HEARTBEAT_SECONDS):
                    self.heard_of(note.payload)
                _answers_in_time(connection, "SELECT 1")  # raises if the server is silent
                for note in connection.notifies(timeout=0):  # heard meanwhile
                    self.heard_of(note.payload)
                self._answered()
        finally:
            connection.close()


def one_line(error: BaseException) -> str:
    """An error as one line of the log: its kind and its first line (psycopg's messages run
    over several, with the server's details)."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _cut(connection: Any) -> None:
    """End a connection from another thread: its socket shut down (a wait on it ends with an
    error in its own thread; libpq has no other way to give up on a statement)."""
    try:
        with socket.socket(fileno=os.dup(connection.fileno())) as duplicate:
            duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:  # closed already
        pass


def _answers_in_time(connection: Any, statement: str) -> None:
    """Run `statement`; if the server has not answered within HEARTBEAT_TIMEOUT_S, the
    connection is cut and the wait ends with psycopg's OperationalError."""
    deadline = threading.Timer(HEARTBEAT_TIMEOUT_S, _cut, args=(connection,))
    deadline.daemon = True
    deadline.start()
    try:
        connection.execute(statement)
    finally:
        deadline.cancel()


class ChangeMarks:
    """The change marks of one SQLite database, shared by every process that uses it: a file
    beside it of MARKS slots, mapped into memory (see the module's text)."""

    SIZE = MARKS * 8

    def __init__(self, path: str) -> None:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(descriptor).st_size < self.SIZE:  # made now (by this process or another)
                os.ftruncate(descriptor, self.SIZE)
            self._map = mmap.mmap(descriptor, self.SIZE)
        finally:
            os.close(descriptor)

    @staticmethod
    def _slot(token: str) -> int:
        return zlib.crc32(token.encode("utf-8", "surrogateescape")) % MARKS * 8

    def of(self, token: str) -> bytes:
        """The mark of the token's slot now."""
        at = self._slot(token)
        return self._map[at : at + 8]

    def mark(self, token: str) -> None:
        """A change to the token's game is committed: a fresh mark in its slot (random, so two
        processes marking at once never write back a mark a reader kept)."""
        at = self._slot(token)
        self._map[at : at + 8] = os.urandom(8)


_marks: dict[tuple[int, str], ChangeMarks | None] = {}
_marks_lock = threading.Lock()


def marks_for(engine: Engine) -> ChangeMarks | None:
    """This process's change marks of `engine`'s SQLite file (None: not a SQLite file, or none
    can be made beside it, and every poll reads)."""
    files = sqlite_files(engine.url.render_as_string(hide_password=False))
    if not files:  # not a SQLite file (another database, or one in memory)
        return None
    key = (os.getpid(), os.path.abspath(files[0]))
    with _marks_lock:
        if key not in _marks:
            try:
                _marks[key] = ChangeMarks(key[1] + "-changes")
            except OSError as error:
                log.warning("game changes: no change marks beside %s (%s)", key[1], error)
                _marks[key] = None
        return _marks[key]


_by_process: dict[tuple[int, str, bool], Versions] = {}
_by_process_lock = threading.Lock()


def versions_for(engine: Engine, *, listen: bool = True) -> Versions:
    """This process's versions of the games in `engine`'s database (one listener a database);
    without `listen`, every poll reads."""
    key = (os.getpid(), engine.url.render_as_string(hide_password=False), listen)
    with _by_process_lock:
        found = _by_process.get(key)
        if found is None:
            found = _by_process[key] = Versions(engine, listen=listen)
    return found


def changed_here(engine: Engine, *tokens: str) -> None:
    """This process committed a change to the games with these tokens: forget them now, so its
    next poll reads what it wrote (other processes hear of it from the database; on SQLite, from
    the marks written here)."""
    marks = marks_for(engine)
    if marks is not None:
        for token in tokens:
            marks.mark(token)
    found = _by_process.get((os.getpid(), engine.url.render_as_string(hide_password=False), True))
    if found is not None:
        found.forget(list(tokens))
