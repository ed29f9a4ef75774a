"""What the benchmarks share: a server on loopback, games made fast, legal deals, figures.

Every benchmark starts its own server (`scorekeeper serve`, several worker processes) on a free
port of 127.0.0.1 with a throw-away instance folder, so it never touches `instance/`.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SECRET = "bench-secret-key-not-for-production"
WORKERS = 4
PLAYERS = ["Lina", "Omar", "Sara", "Yusuf"]


@dataclass
class Figure:
    """One line of the result table."""

    name: str
    measured: str
    target: str
    ok: bool | None  # None: informational, or not measurable in this run
    note: str = ""


@dataclass
class Results:
    """Figures of one benchmark, plus free-form notes."""

    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, name: str, measured: str, target: str, ok: bool | None, note: str = "") -> None:
        self.figures.append(Figure(name, measured, target, ok, note))


def free_port() -> int:
    """A TCP port nobody listens on right now (loopback)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    """Block until something accepts connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


def bench_env(instance: str, database_url: str | None = None) -> dict[str, str]:
    """Environment for a server or CLI under benchmark: a temp instance, a fixed key."""
    env = dict(os.environ)
    env["SCOREKEEPER_INSTANCE"] = instance
    env["SECRET_KEY"] = SECRET
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    return env


@contextlib.contextmanager
def temp_instance() -> Iterator[str]:
    """A throw-away instance folder."""
    path = tempfile.mkdtemp(prefix="scorekeeper-bench-")
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@contextlib.contextmanager
def server(
    instance: str,
    *,
    workers: int = WORKERS,
    database_url: str | None = None,
    hello: bool = False,
    threads: int | None = None,
    root: Path = ROOT,
) -> Iterator[str]:
    """Run `scorekeeper serve` (or the hello app under the same settings); yield its base URL.
    `workers` 0: as many as `scorekeeper serve` chooses for the machine; `root`: the checkout
    whose code it runs (another one, to compare with this one)."""
    port = free_port()
    if hello:
        command = [sys.executable, str(ROOT / "bench" / "hello_app.py"), str(port), str(workers)]
    else:
        command = [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ] + (["--workers", str(workers)] if workers else [])
        command += ["--threads", str(threads)] if threads else []
    log = open(os.path.join(instance, f"server-{port}.log"), "w")  # noqa: SIM115
    env = bench_env(instance, database_url)
    if root != ROOT:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    process = subprocess.Popen(
        command,
        env=env,
        cwd=str(root),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for_port(port)
        time.sleep(0.5)  # let every worker boot before measuring
        SERVER_PIDS[f"http://127.0.0.1:{port}"] = process.pid
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)
        log.close()


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a server started in its own session: SIGTERM to its group, SIGKILL if it lingers."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(5)


SERVER_PIDS: dict[str, int] = {}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def server_cpu_seconds(base: str) -> float:
    """CPU time (user + system) used so far by a server started by `server()` and its workers."""
    root = SERVER_PIDS.get(base)
    if root is None:
        return float("nan")
    pids, total = [root], 0.0
    while pids:
        pid = pids.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
            for task in Path(f"/proc/{pid}/task").iterdir():
                children = (task / "children").read_text().split()
                pids.extend(int(child) for child in children)
        except (OSError, IndexError, ValueError):
            continue
    return total


def init_db(instance: str, database_url: str | None = None) -> None:
    """`scorekeeper init-db` into the instance (or the database URL)."""
    subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "init-db"],
        check=True,
        env=bench_env(instance, database_url),
        cwd=str(ROOT),
        stdout=subprocess.DEVNULL,
    )


# --- games and deals -------------------------------------------------------------------------

SAMPLE_DEALS: dict[str, dict[str, Any]] = {
    "king-of-hearts": {"taker": 2},
    "queens": {"takers": {"S": 0, "H": 1, "D": 2, "C": 3}},
    "diamonds": {"counts": [5, 4, 3, 1]},
    "ltoosh": {"tricks": [4, 3, 3, 3]},
    "trix": {"order": [1, 2, 3, 0]},
    "complex": {
        "tricks": [5, 4, 3, 1],
        "diamonds": [5, 4, 3, 1],
        "queens": {"S": 0, "H": 1, "D": 2, "C": 3},
        "king_of_hearts": 1,
    },
    "trump": {"suit": "H", "tricks": [5, 4, 3, 1]},
    "no-king": {"taker": 1},
    "no-queens": {"counts": [1, 1, 1, 1]},
    "no-boys": {"counts": [2, 2, 2, 2]},
    "no-hearts": {"counts": [5, 4, 3, 1]},
    "no-last-two": {"last_two": [0, 1]},
    "no-tricks": {"tricks": [5, 4, 3, 1]},
}


def raw_deal(contract: str) -> dict[str, Any]:
    """A legal raw deal (engine form) of `contract`."""
    return {"contract": contract, **SAMPLE_DEALS[contract]}


def form_fields(raw: Mapping[str, Any]) -> dict[str, str]:
    """The deal form's field names and values for a raw deal ("counts-0", "takers-S", ...)."""
    fields: dict[str, str] = {}
    for name, value in raw.items():
        if isinstance(value, list):
            fields.update({f"{name}-{i}": str(v) for i, v in enumerate(value)})
        elif isinstance(value, dict):
            fields.update({f"{name}-{k}": str(v) for k, v in value.items()})
        else:
            fields[name] = str(value)
    return fields


def game_plan(game_id: str, first: int = 0) -> list[dict[str, Any]]:
    """A whole legal game as raw deals, choosing a different open contract each time."""
    from scorekeeper.rules import Game, HouseRules, parse_deal, replay, with_deal

    game = Game(game_id, "solo", tuple(PLAYERS), first, HouseRules())
    plan: list[dict[str, Any]] = []
    while True:
        step = replay(game).next
        if step is None:
            return plan
        contracts = [o.contract for o in step.options if o.open]
        raw = raw_deal(contracts[len(plan) % len(contracts)])
        deal, problems = parse_deal(game.definition, raw)
        assert deal is not None, problems
        game = with_deal(game, deal)
        plan.append(raw)


def make_games(
    instance: str,
    count: int,
    game_id: str = "trix",
    *,
    deals: int = 0,
    database_url: str | None = None,
) -> list[tuple[str, str]]:
    """Store `count` started games (first chooser known), each with `deals` deals played.

    Returns (scorekeeper token, view token) pairs. Goes through the app's own store functions,
    so the rows are exactly what the app writes.
    """
    os.environ.update(
        {
            k: v
            for k, v in bench_env(instance, database_url).items()
            if k in ("SCOREKEEPER_INSTANCE", "SECRET_KEY", "DATABASE_URL")
        }
    )
    if not database_url:
        os.environ.pop("DATABASE_URL", None)
    from scorekeeper import create_app
    from scorekeeper.rules import HouseRules, parse_deal, replay, with_deal
    from scorekeeper.store.db import db
    from scorekeeper.store.games import create_game, game_of, set_first, write_deals

    plan = game_plan(game_id)[:deals]
    app = create_app({"INSTANCE_PATH": instance})
    tokens: list[tuple[str, str]] = []
    with app.app_context():
        for _ in range(count):
            row = create_game(game_id, "solo", list(PLAYERS), HouseRules(), None)
            set_first(row, 0, row.version)
            if plan:
                game = game_of(row)
                for raw in plan:
                    deal, _ = parse_deal(game.definition, raw)
                    assert deal is not None
                    game = with_deal(game, deal)
                write_deals(row, replay(game), row.version)
            tokens.append((row.token, row.view_token))
        db.session.remove()
        db.engine.dispose()
    return tokens


def make_tables(
    instance: str, count: int, *, history: int = 0, database_url: str | None = None
) -> list[tuple[str, str, str]]:
    """Store `count` tables, each playing one started Trix game after `history` finished ones.

    Returns (table token, the game's scorekeeper token, its view token) per table, through the
    app's own store functions (tables, rosters and seats as the app writes them).
    """
    os.environ.update(
        {
            k: v
            for k, v in bench_env(instance, database_url).items()
            if k in ("SCOREKEEPER_INSTANCE", "SECRET_KEY", "DATABASE_URL")
        }
    )
    if not database_url:
        os.environ.pop("DATABASE_URL", None)
    from scorekeeper import create_app
    from scorekeeper.rules import HouseRules, parse_deal, replay, with_deal
    from scorekeeper.store.db import db
    from scorekeeper.store.games import game_of, set_first, write_deals
    from scorekeeper.store.tables import create_table, start_game

    plan = game_plan("trix")
    app = create_app({"INSTANCE_PATH": instance})
    made: list[tuple[str, str, str]] = []
    with app.app_context():
        for index in range(count):
            table = create_table(f"Table {index + 1}")
            for played in range(history + 1):
                row = start_game(table, "trix", "solo", list(PLAYERS), HouseRules(), None)
                set_first(row, 0, row.version)
                if played < history:
                    game = game_of(row)
                    for raw in plan:
                        deal, _ = parse_deal(game.definition, raw)
                        assert deal is not None
                        game = with_deal(game, deal)
                    write_deals(row, replay(game), row.version)
            made.append((table.token, row.token, row.view_token))
        db.session.remove()
        db.engine.dispose()
    return made


# --- HTTP helpers ----------------------------------------------------------------------------

CSRF_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


def browser_session(base: str) -> tuple[Any, str]:
    """A requests session holding the app's session cookie, and its CSRF token."""
    import requests

    http = requests.Session()
    page = http.get(base + "/new", timeout=10)
    page.raise_for_status()
    match = CSRF_RE.search(page.text)
    assert match, "no CSRF token on /new"
    return http, match.group(1)


def cookie_header(http: Any) -> str:
    """The Cookie header a requests session would send."""
    return "; ".join(f"{c.name}={c.value}" for c in http.cookies)


def percentile(values: list[float], share: float) -> float:
    """The `share` (0..1) percentile of the values, nearest-rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


def log(message: str) -> None:
    """Progress on stderr, so stdout keeps only figures."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --- one deal of each kind, as the taps a player makes -----------------------------------------


@dataclass(frozen=True)
class TapScript:
    """One deal as the table enters it: the game, the contract, the chips tapped in order."""

    label: str
    game: str
    contract: str
    taps: tuple[tuple[str, str], ...]
    target: int
    at_most: bool = False  # the target is an upper bound ("≤ 14") rather than exact

    def all_fields(self) -> dict[str, str]:
        """The chips the taps set (the app fills the rest)."""
        return dict(self.taps)


TAP_SCRIPTS: tuple[TapScript, ...] = (
    TapScript("K♥", "trix", "king-of-hearts", (("taker", "2"),), 3),
    TapScript("K♥ doubled", "trix", "king-of-hearts", (("taker", "2"), ("doubled_by", "1")), 4),
    TapScript(
        "Queens, one doubled",
        "trix",
        "queens",
        (
            ("takers-S", "0"),
            ("takers-H", "1"),
            ("takers-D", "2"),
            ("takers-C", "3"),
            ("doubled_by-S", "1"),
        ),
        7,
    ),
    TapScript(
        "Diamonds 5/4/3/1",
        "trix",
        "diamonds",
        (("counts-0", "5"), ("counts-1", "4"), ("counts-2", "3")),
        5,
    ),
    TapScript(
        "Ltoosh 4/3/3/3",
        "trix",
        "ltoosh",
        (("tricks-0", "4"), ("tricks-1", "3"), ("tricks-2", "3")),
        5,
    ),
    TapScript(
        "Trix order", "trix", "trix", (("order-0", "1"), ("order-1", "2"), ("order-2", "3")), 5
    ),
    TapScript(
        "Complex (no double)",
        "trix-complex",
        "complex",
        (
            ("tricks-0", "5"),
            ("tricks-1", "4"),
            ("tricks-2", "3"),
            ("diamonds-0", "5"),
            ("diamonds-1", "4"),
            ("diamonds-2", "3"),
            ("queens-S", "0"),
            ("queens-H", "1"),
            ("queens-D", "2"),
            ("queens-C", "3"),
            ("king_of_hearts", "1"),
        ),
        14,
        at_most=True,
    ),
    TapScript(
        "Turkish King trump 5/4/3/1 + suit",
        "turkish-king",
        "trump",
        (("suit", "H"), ("tricks-0", "5"), ("tricks-1", "4"), ("tricks-2", "3")),
        6,
    ),
    TapScript(
        "No Hearts 5/4/3/1",
        "turkish-king",
        "no-hearts",
        (("counts-0", "5"), ("counts-1", "4"), ("counts-2", "3")),
        5,
    ),
)


def tap_scripts(smoke: bool) -> tuple[TapScript, ...]:
    """The deals a run enters: all of them, or for a smoke run the first of each game."""
    if not smoke:
        return TAP_SCRIPTS
    first: dict[str, TapScript] = {}
    for script in TAP_SCRIPTS:
        first.setdefault(script.game, script)
    return tuple(first.values())
