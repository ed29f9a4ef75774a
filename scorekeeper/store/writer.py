"""SQLite's one writer, handed over at once: a save waits in a queue, not in the busy handler.

SQLite lets one connection write at a time. A connection that finds the lock taken waits in
SQLite's busy handler, which sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms between
tries and is not woken when the lock is freed: with four threads saving at once, a save waited
up to 3.4 s (p99 1 s) for a lock that each holder kept about 10 ms (`bench/write_lock.py`).

So before a connection's first write of a transaction (INSERT, UPDATE, DELETE, REPLACE), it
takes this process's writer lock (the threads of a worker queue on it and are woken in turn),
then an exclusive `flock` on the database's folder (the workers of one machine: SQLite is one
machine's), tried every millisecond; both are let go when the connection goes back to the pool,
after its commit or rollback. SQLite's own lock is then free when the write asks for it. A
writer that waited longer than SQLite's busy timeout for them goes on without them (SQLite's
own wait decides, as before), so nothing waits longer than it did. PostgreSQL is left alone.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.pool import Pool

from ..settings import SQLITE_BUSY_TIMEOUT_MS

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
"""Statements that take SQLite's write lock (the first one of a transaction asks for it)."""
HELD = "scorekeeper.writer"
"""The pool record's info key: the writer lock its connection holds."""
TRY_EVERY_S = 0.001
"""How often a worker tries the folder's lock while another worker holds it."""


class Writer:
    """One database file's writer lock in this process."""

    def __init__(self, folder: str) -> None:
        self.threads = threading.Lock()
        self.folder = os.open(folder, os.O_RDONLY)  # flock'd: the workers of this machine
        self.waiting = 0
        """Threads waiting for it now (tests look)."""

    def take(self, seconds: float) -> bool:
        """Wait up to `seconds` for this process's turn and then the machine's: whether both
        are held."""
        deadline = time.monotonic() + seconds
        self.waiting += 1
        try:
            if not self.threads.acquire(timeout=seconds):
                return False
        finally:
            self.waiting -= 1
        while True:
            try:
                fcntl.flock(self.folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self.threads.release()
                    return False
                time.sleep(TRY_EVERY_S)

    def give_back(self) -> None:
        fcntl.flock(self.folder, fcntl.LOCK_UN)
        self.threads.release()


_writers: dict[tuple[int, str], Writer] = {}
_writers_lock = threading.Lock()


def writer_of(database: str) -> Writer:
    """This process's writer lock of the SQLite file `database` (a forked worker makes its
    own: a shared open folder would be one owner of the flock)."""
    key = (os.getpid(), os.path.realpath(database))
    with _writers_lock:
        found = _writers.get(key)
        if found is None:
            found = _writers[key] = Writer(os.path.dirname(key[1]))
    return found


@event.listens_for(Engine, "before_cursor_execute")
def _before_a_write(
    connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
) -> None:
    if connection.dialect.name != "sqlite" or not statement.lstrip()[:7].upper().startswith(WRITES):
        return
    database = connection.engine.url.database
    if not database or database == ":memory:":
        return
    kept = connection.connection.info  # the pool record's, for this DBAPI connection
    if HELD in kept:
        return
    writer = writer_of(database)
    if writer.take(SQLITE_BUSY_TIMEOUT_MS / 1000):
        kept[HELD] = writer


@event.listens_for(Pool, "checkin")
def _back_in_the_pool(dbapi_connection: Any, record: Any) -> None:
    if record is None:
        return
    writer = record.info.pop(HELD, None)
    if writer is not None:
        writer.give_back()
