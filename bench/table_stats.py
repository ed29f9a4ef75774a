"""A table's statistics page with 10 and with 1,000 games at the table.

Two SQLite databases made by `scorekeeper init-db`, each with one table whose games are copies of
finished games of the three kinds (stored through the table's import, so every game is replayed
and its seats linked to the roster); the app answers in-process (Flask's test client). Two
figures, each the best time at 1,000 games over the best at 10, timed alternately:

- the page computed afresh (nothing kept: every game read and replayed through the engine, what
  a process's first reader pays);
- the page after a deal was saved in one game of the table (that game's last deal undone and
  entered again through the store, untimed): what the first reader after each save pays, the
  other games' figures kept by the process;
- the page again while no game of the table changed (the statistics kept by the process; what
  every other reader pays);
- the page in a process that has kept nothing while each game's figures are stored in the
  database (what the first reader in a fresh worker pays: target ≤ 150 ms at 1,000 games), and
  with nothing stored either (every game read and replayed: the first reader ever);
- the memory a process keeps for the 1,000-game table (RSS before and after its first read);
- against a game page of the same table, timed alternately with the statistics page (issue
  33's target: each at most 32× the game page): the first read of a table just imported by
  `scorekeeper import FILE --table LINK` (a process of its own) in a process that has kept
  nothing, and a later read while no game changed.

    python bench/table_stats.py [--quick | --smoke]

`--fresh N` measures only the first read after an import against the game page, in N fresh
processes one after the other (each: a new database, its templates compiled on a small table
first, as a server that has served; one import of 1,000 games; then the first read), each
ratio printed with the load average; `--against PATH` also runs each in the checkout at PATH,
alternately (a baseline in the same run):

    python bench/table_stats.py --fresh 5 [--against /tmp/main-checkout]
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, init_db, log, temp_instance

ROOT = Path(__file__).resolve().parent.parent
FEW, MANY = 10, 1_000
GAMES = (
    "trix-solo-complete.json",
    "trix-partnership-complete.json",
    "turkish-king-complete.json",
    "trix-complex-partnership-complete.json",
)
NAMES = ("Rami", "Lina", "Omar", "Dana", "Sami", "Maya", "Karim", "Nour")


def records(count: int) -> list[dict[str, Any]]:
    """`count` finished games, eight people rotating through the seats."""
    templates = [json.loads((ROOT / "tests" / "data" / name).read_text()) for name in GAMES]
    made = []
    for number in range(count):
        record = dict(templates[number % len(templates)])
        record["players"] = [NAMES[(number + seat * 3) % len(NAMES)] for seat in range(4)]
        record["created_at"] = f"2026-{1 + number // 300 % 12:02d}-01T20:{number % 60:02d}:00Z"
        record.pop("updated_at", None)
        made.append(record)
    return made


@dataclass(frozen=True)
class Side:
    """An app, the stats URL of its table, and the link of the game whose deal is saved."""

    app: Any
    url: str
    game: str

    def save_a_deal(self) -> None:
        """Undo the game's last deal and enter it again: two saves, the game as it was, its
        version two higher."""
        from scorekeeper.rules import replay
        from scorekeeper.store.db import db
        from scorekeeper.store.deals import Entry, Saved, enter_deal, undo_deal
        from scorekeeper.store.entries import new_entry_key
        from scorekeeper.store.games import find_game, game_of

        with self.app.app_context():
            row = find_game(self.game)
            assert row is not None
            current = replay(game_of(row))
            number, last = len(row.deals), dict(row.deals[-1])
            undone = undo_deal(row, current, number, row.version)
            assert isinstance(undone, Saved) and undone.result is not None
            entry = Entry(last, number, row.version, key=new_entry_key())
            entered = enter_deal(row, undone.result, entry)
            assert isinstance(entered, Saved), entered
            db.session.remove()


def table_with(instance: str, count: int) -> Side:
    """An app on the instance with a table holding `count` games."""
    from scorekeeper import create_app
    from scorekeeper.store.tables import create_table, import_into_table

    app = create_app({"INSTANCE_PATH": instance})
    with app.app_context():
        table = create_table("Thursdays at Karim's")
        rows = import_into_table(table, json.dumps(records(count)))
        return Side(app, f"/t/{table.token}/stats", rows[len(rows) // 2].token)


FRESH, CHANGED, KEPT, NOTHING = "fresh", "changed", "kept", "nothing stored"
FIRST_READER_MS = 150.0
GAME_PAGES = 32.0
"""The statistics page's time, first and later reads, at most this many game pages'."""


def _checkout() -> str:
    """The checkout whose `scorekeeper` this process runs (another one's with --against)."""
    import scorekeeper

    return str(Path(scorekeeper.__file__).resolve().parent.parent)


def imported_table(instance: str, count: int) -> tuple[str, str]:
    """A new table of `count` games imported by `scorekeeper import FILE --table LINK` (a
    process of its own, as an operator runs it): its stats URL and one game's page."""
    import subprocess

    from common import bench_env

    from scorekeeper import create_app
    from scorekeeper.store.tables import create_table, table_games

    app = create_app({"INSTANCE_PATH": instance})
    with app.app_context():
        token = create_table("Imported").token
    path = os.path.join(instance, f"games-{token}.json")
    Path(path).write_text(json.dumps(records(count)), encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "import", path, f"--table={token}"],
        env=bench_env(instance),
        cwd=_checkout(),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    from scorekeeper.store.tables import find_table

    with app.app_context():
        table = find_table(token)
        assert table is not None
        game = table_games(table)[count // 2].token
    return f"/t/{token}/stats", f"/g/{game}"


def against_the_game_page(instance: str, repeats: int, imports: int) -> dict[str, float]:
    """Best ms of: the game page; the statistics page's first read right after an import, in a
    process that kept nothing (a table imported afresh each time: one read each); its later
    reads (kept)."""
    from scorekeeper import create_app
    from scorekeeper.web import caches

    app = create_app({"INSTANCE_PATH": instance})
    client = app.test_client()
    game_page: list[float] = []
    first: list[float] = []
    later: list[float] = []

    def timed(url: str, into: list[float]) -> None:
        started = time.perf_counter()
        assert client.get(url).status_code == 200
        into.append((time.perf_counter() - started) * 1000)

    for _ in range(imports):
        stats_url, game_url = imported_table(instance, MANY)
        caches.clear()  # a fresh worker: nothing kept
        client.get(game_url)  # (templates compiled, the game remembered)
        timed(stats_url, first)
        for _ in range(repeats):
            timed(game_url, game_page)
            timed(stats_url, later)
    return {"game page": min(game_page), "first": min(first), "later": min(later)}


def one_fresh_import(count: int) -> dict[str, float]:
    """In this process (a fresh one): a new database, the templates compiled on a table of a
    few games, one table of `count` imported, then its first statistics read and the game page
    (best of 10, alternating with later reads): ms of each."""
    import subprocess

    from common import bench_env

    from scorekeeper import create_app
    from scorekeeper.web import caches

    with temp_instance() as instance:
        subprocess.run(  # init-db of the checkout measured (--against: its own migrations)
            [sys.executable, "-m", "scorekeeper.cli", "init-db"],
            env=bench_env(instance),
            cwd=_checkout(),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        warm = table_with(instance, 4)
        app = create_app({"INSTANCE_PATH": instance})
        client = app.test_client()
        assert client.get(warm.url).status_code == 200  # (the statistics template compiled)
        assert client.get(f"/g/{warm.game}").status_code == 200
        stats_url, game_url = imported_table(instance, count)
        caches.clear()
        assert client.get(game_url).status_code == 200  # (the game remembered)
        started = time.perf_counter()
        assert client.get(stats_url).status_code == 200
        first = (time.perf_counter() - started) * 1000
        game_page = []
        for _ in range(10):
            started = time.perf_counter()
            assert client.get(game_url).status_code == 200
            game_page.append((time.perf_counter() - started) * 1000)
            client.get(stats_url)
    return {"first": first, "game page": min(game_page)}


def fresh_runs(runs: int, against: str | None, count: int) -> Results:
    """`runs` fresh processes (and as many of the checkout `against`, alternately), each one
    import and its first statistics read: each ratio to the game page, with the load."""
    import subprocess

    results = Results()
    roots = [("this checkout", None)] + ([("against", against)] if against else [])
    ratios: dict[str, list[str]] = {name: [] for name, _ in roots}
    worst: dict[str, float] = {name: 0.0 for name, _ in roots}
    for number in range(runs):
        for name, root in roots:
            env = dict(os.environ)
            if root:
                env["PYTHONPATH"] = root
            log(f"table stats: fresh process {number + 1} of {runs} ({name})")
            done = subprocess.run(
                [sys.executable, __file__, "--one-import", str(count)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            measured = json.loads(done.stdout.strip().splitlines()[-1])
            ratio = measured["first"] / measured["game page"]
            load = os.getloadavg()[0]
            ratios[name].append(
                f"{ratio:.1f}× ({measured['first']:.0f} / {measured['game page']:.1f} ms, "
                f"load {load:.1f})"
            )
            worst[name] = max(worst[name], ratio)
    for name, _ in roots:
        results.add(
            f"table stats: first read after an import, {count:,} games, vs a game page, "
            f"{runs} fresh processes ({name})",
            f"at most {worst[name]:.1f}×",
            f"≤ {GAME_PAGES:.0f}× each" if name == "this checkout" else "–",
            worst[name] <= GAME_PAGES if name == "this checkout" else None,
            "; ".join(ratios[name]),
        )
    return results


def forget_stored(app: Any) -> None:
    """Delete every game's figures stored in the database (none before they were stored)."""
    from sqlalchemy import inspect, text

    from scorekeeper.store.db import db

    with app.app_context():
        if inspect(db.engine).has_table("game_figures"):
            db.session.execute(text("DELETE FROM game_figures"))
            db.session.commit()
        db.session.remove()


def kept_memory(side: Side) -> int:
    """Bytes the process keeps after reading the table's statistics once, having kept nothing
    before (Python's allocations still held afterwards, traced)."""
    import gc
    import tracemalloc

    from scorekeeper.web import caches

    client = side.app.test_client()
    assert client.get(side.url).status_code == 200
    caches.forget_statistics()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    assert client.get(side.url).status_code == 200
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return kept


def best_times(sides: list[Side], repeats: int, mode: str) -> list[float]:
    """Best ms of the stats page on each side, alternating; before each, `mode`: nothing kept
    (FRESH), a deal saved in one game (CHANGED) or nothing done (KEPT)."""
    from scorekeeper.web import caches

    clients = [(side.app.test_client(), side) for side in sides]
    for client, side in clients:
        assert client.get(side.url).status_code == 200  # templates compiled, table remembered
    samples: list[list[float]] = [[] for _ in clients]
    for _ in range(repeats):
        for number, (client, side) in enumerate(clients):
            if mode == FRESH:
                caches.forget_statistics()
            elif mode == NOTHING:
                caches.forget_statistics()
                forget_stored(side.app)
            elif mode == CHANGED:
                side.save_a_deal()
            started = time.perf_counter()
            assert client.get(side.url).status_code == 200
            samples[number].append((time.perf_counter() - started) * 1000)
    return [min(times) for times in samples]


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Time the page at 10 and 1,000 games: afresh, after one game changed, and kept (smoke: 10
    and 30 games, once each: the code runs, the figures mean nothing)."""
    results = Results()
    many_games = 30 if smoke else MANY

    def times(quick_count: int, full_count: int) -> int:
        return 1 if smoke else quick_count if quick else full_count

    with temp_instance() as few, temp_instance() as many:
        sides = []
        for instance, count in ((few, FEW), (many, many_games)):
            log(f"table stats: a table of {count:,} games")
            init_db(instance)
            sides.append(table_with(instance, count))
        log("table stats: timing both, interleaved")
        nothing = best_times(sides, times(3, 7), NOTHING)
        fresh = best_times(sides, times(5, 15), FRESH)
        changed = best_times(sides, times(10, 30), CHANGED)
        kept = best_times(sides, times(30, 100), KEPT)
        memory = kept_memory(sides[1])
        log("table stats: imported tables against the game page")
        versus = against_the_game_page(many, 10 if quick else 30, 3 if quick else 5)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    HOW = {
        "first": "one read right after each of several imports",
        "later": "timed alternately with the game page",
    }
    for name, key in (
        ("first read after an import, a fresh worker", "first"),
        ("later reads, no game changed", "later"),
    ):
        ratio = versus[key] / versus["game page"]
        results.add(
            f"table stats: {name}, {MANY:,} games, vs a game page",
            f"{ratio:.1f}× ({versus[key]:.1f} / {versus['game page']:.2f} ms)",
            f"≤ {GAME_PAGES:.0f}×",
            ratio <= GAME_PAGES,
            f"best, in-process ({HOW[key]}); load average {load}",
        )
    for name, (before, after) in (
        ("nothing kept, nothing stored", nothing),
        ("nothing kept by the process (a fresh worker)", fresh),
        ("after a deal saved in one game", changed),
        ("kept, no game changed", kept),
    ):
        results.add(
            f"table stats: page {name}, {many_games:,} vs {FEW} games",
            f"{after / before:.1f}×",
            "–",
            None,
            f"{before:.1f} → {after:.1f} ms (best, in-process); load average {load}",
        )
    results.add(
        f"table stats: first reader in a fresh worker, {many_games:,} games",
        f"{fresh[1]:.0f} ms ({fresh[1] / kept[1]:.1f}× the kept page, "
        f"{fresh[1] / nothing[1]:.2f}× nothing stored)",
        f"≤ {FIRST_READER_MS:.0f} ms",
        fresh[1] <= FIRST_READER_MS,
        f"best of several, in-process; nothing stored {nothing[1]:.0f} ms, kept "
        f"{kept[1]:.0f} ms; load average {load}",
    )
    results.add(
        f"table stats: a process's memory for a table of {many_games:,} games",
        f"{memory / 1e6:.1f} MB",
        "–",
        None,
        "held after the first read in a process that kept nothing (tracemalloc)",
    )
    return results


if __name__ == "__main__":
    from run import print_table

    if "--one-import" in sys.argv:
        print(json.dumps(one_fresh_import(int(sys.argv[sys.argv.index("--one-import") + 1]))))
    elif "--fresh" in sys.argv:
        against = sys.argv[sys.argv.index("--against") + 1] if "--against" in sys.argv else None
        runs = int(sys.argv[sys.argv.index("--fresh") + 1])
        print_table(fresh_runs(runs, against, 30 if "--smoke" in sys.argv else MANY))
    else:
        print_table(run("--quick" in sys.argv, smoke="--smoke" in sys.argv))
