"""A save on SQLite: how long it waits for the write lock, apart from its work.

    python bench/write_lock.py                 # 2 processes x 2 threads: the night, then flat out
    python bench/write_lock.py --seconds 10 --processes 4
    python bench/write_lock.py --smoke            # 1 s: the code runs

As `scorekeeper serve` runs on 2 cores (a process a core, 2 threads each), each thread saves
its own games through the app's own `store.games.write` (one guarded UPDATE and the commit,
fsync'd): first at the pace of the busy night (1,000 tables, a save every 2 minutes each: 8 a
second in all), then as fast as the threads go. SQLite has one writer: the UPDATE (with the
BEGIN the driver sends before it) is where a save waits for the lock, in SQLite's busy handler,
which sleeps 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms between tries and is not woken
when the lock is free. Each save's time is split into that statement (the wait, and a
statement of a fraction of a millisecond; with the app's queue of writers, the wait in it too)
and the rest (the commit and its fsync, Python).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, bench_env, init_db, log, make_games, percentile, temp_instance

NIGHT_SAVES_A_SECOND = 1000 / 120


def _saver(
    instance: str,
    tokens: list[str],
    threads: int,
    rate: float,
    seconds: float,
    queue: bool,
    out: Any,
) -> None:
    """One process: `threads` threads saving their games, each at `rate` a second (0: flat
    out), with the app's queue of writers or (`queue` False) SQLite's busy handler alone;
    (wait ms, total ms) of each save onto `out`."""
    os.environ.update(
        {
            k: v
            for k, v in bench_env(instance).items()
            if k in ("SCOREKEEPER_INSTANCE", "SECRET_KEY")
        }
    )
    from sqlalchemy import Engine, event
    from sqlalchemy.pool import Pool

    from scorekeeper import create_app
    from scorekeeper.store.db import db
    from scorekeeper.store.games import find_game, write

    app = create_app({"INSTANCE_PATH": instance})
    timed: list[tuple[float, float]] = []
    local = threading.local()
    with app.app_context():
        engine = db.engine

    try:  # the app's queue of writers (issue 45), where a save now waits first
        from scorekeeper.store import writer
        from scorekeeper.store.writer import Writer

        if not queue:  # the baseline: as before it
            event.remove(Engine, "before_cursor_execute", writer._before_a_write)
            event.remove(Pool, "checkin", writer._back_in_the_pool)

        take = Writer.take

        def timed_take(self: Writer, seconds: float) -> bool:
            began = time.perf_counter()
            try:
                return take(self, seconds)
            finally:
                local.queued = time.perf_counter() - began

        Writer.take = timed_take  # type: ignore[method-assign]
    except ImportError:  # a checkout from before it: SQLite's busy handler alone
        pass

    @event.listens_for(engine, "before_cursor_execute")
    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE"):
            local.began = time.perf_counter()

    @event.listens_for(engine, "after_cursor_execute")
    def after(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE"):
            local.waited = time.perf_counter() - local.began + getattr(local, "queued", 0.0)
            local.queued = 0.0

    def run(mine: list[str]) -> None:
        deadline = time.monotonic() + seconds
        number = 0
        started = time.perf_counter()
        with app.app_context():
            rows = [find_game(token) for token in mine]
            while time.monotonic() < deadline:
                row = rows[number % len(rows)]
                assert row is not None
                if rate:
                    due = started + number / rate
                    if due > time.perf_counter():
                        time.sleep(due - time.perf_counter())
                number += 1
                began = time.perf_counter()
                write(row, row.version, name=f"save {number}")
                took = time.perf_counter() - began
                timed.append((local.waited * 1000, took * 1000))
            db.session.remove()

    share = [tokens[n::threads] for n in range(threads)]
    pool = [threading.Thread(target=run, args=(mine,)) for mine in share]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    out.put(timed)


def measure(
    instance: str,
    tokens: list[str],
    processes: int,
    threads: int,
    rate: float,
    seconds: float,
    queue: bool = True,
) -> list[tuple[float, float]]:
    """Every save's (wait ms, total ms), `processes` x `threads` saving at `rate` a second in
    all (0: flat out), with the queue of writers or without."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    each = rate / (processes * threads) if rate else 0.0
    share = [tokens[n::processes] for n in range(processes)]
    workers = [
        context.Process(target=_saver, args=(instance, mine, threads, each, seconds, queue, out))
        for mine in share
    ]
    for worker in workers:
        worker.start()
    timed: list[tuple[float, float]] = []
    for _ in workers:
        timed += out.get(timeout=seconds + 120)
    for worker in workers:
        worker.join()
    return timed


def _ms(values: list[float]) -> str:
    return (
        f"p50 {percentile(values, 0.5):.1f} p99 {percentile(values, 0.99):.1f} "
        f"max {max(values):.1f} ms"
    )


def run(
    quick: bool = False, *, seconds: float | None = None, processes: int = 2, threads: int = 2
) -> Results:
    """The lock's wait and the save's work, at the night's pace and flat out."""
    results = Results()
    duration = seconds if seconds is not None else (5.0 if quick else 15.0)
    with temp_instance() as instance:
        init_db(instance)
        tokens = [token for token, _ in make_games(instance, 8 * processes * threads)]
        for label, rate in (("the night's pace", NIGHT_SAVES_A_SECOND), ("flat out", 0.0)):
            for queue in (False, True):
                how = "the queue of writers" if queue else "SQLite's busy handler alone"
                log(f"saves for {duration:.0f} s, {label}, {how}, {processes} x {threads}")
                timed = measure(instance, tokens, processes, threads, rate, duration, queue)
                waits = [wait for wait, _ in timed]
                work = [total - wait for wait, total in timed]
                totals = [total for _, total in timed]
                results.add(
                    f"a save's wait for the write lock, {label}, {how}",
                    _ms(waits),
                    "–",
                    None,
                    f"{len(timed)} saves in {duration:.0f} s, {processes} processes x "
                    f"{threads} threads; the rest of the save (commit, fsync) {_ms(work)}; "
                    f"whole save {_ms(totals)}; load {os.getloadavg()[0]:.1f}",
                )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--smoke", action="store_true", help="1 s each: the code runs")
    args = parser.parse_args()
    from run import print_table

    if args.smoke:
        args.seconds = 1.0
    print_table(
        run(seconds=args.seconds, processes=args.processes, threads=args.threads), "write lock"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
