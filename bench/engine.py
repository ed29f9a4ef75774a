"""Benchmark of the rules engine and of `scorekeeper check` as a whole process.

Run it with ``python bench/engine.py`` (``--quick`` for fewer runs, ``--smoke`` for one). It
prints a table of figures beside their targets and exits 1 if a target is missed:

- replaying and scoring a complete 20-deal Trix game and a 20-hand Turkish King game
  (``check_output(replay(game))``), best and median of many runs, beside a plain-Python
  baseline measured in the same run (so figures from different machines can be compared);
  the target is judged on the best run, the engine's own cost;
- loading a record from JSON text (parse, check and replay), for information;
- the wall time of ``scorekeeper check FILE`` against ``python -c pass`` (median of ~20 runs
  each, interleaved), and the difference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scorekeeper.rules import (  # noqa: E402 - after the path set-up, so a checkout runs as is
    Game,
    check_output,
    load_record,
    replay,
)

REPLAY_TARGET_MS = 0.5
CHECK_TARGET_MS = 60.0

TRIX_KINGDOMS = [
    [
        {"contract": "king-of-hearts", "taker": 1, "doubled_by": 2},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}, "doubled_by": {"H": 0}},
        {"contract": "diamonds", "counts": [3, 4, 5, 1]},
        {"contract": "ltoosh", "tricks": [4, 3, 3, 3]},
        {"contract": "trix", "order": [2, 0, 3, 1]},
    ],
    [
        {"contract": "trix", "order": [0, 1, 2, 3]},
        {"contract": "ltoosh", "tricks": [2, 1, 8, 2]},
        {"contract": "diamonds", "counts": [1, 7, 0, 5]},
        {"contract": "queens", "takers": {"S": 1, "H": 1, "D": 0, "C": 2}},
        {"contract": "king-of-hearts", "taker": 3},
    ],
    [
        {"contract": "diamonds", "counts": [10, 1, 1, 1]},
        {"contract": "king-of-hearts", "taker": 1, "doubled_by": 1},
        {
            "contract": "queens",
            "takers": {"S": 2, "H": 3, "D": 1, "C": 3},
            "doubled_by": {"S": 0, "C": 3},
        },
        {"contract": "trix", "order": [1, 3, 0, 2]},
        {"contract": "ltoosh", "tricks": [8, 3, 1, 1]},
    ],
    [
        {"contract": "queens", "takers": {"S": 3, "H": 1, "D": 1, "C": 2}},
        {"contract": "ltoosh", "tricks": [3, 4, 5, 1]},
        {"contract": "king-of-hearts", "taker": 0},
        {"contract": "diamonds", "counts": [2, 5, 3, 3]},
        {"contract": "trix", "order": [3, 2, 1, 0]},
    ],
]
TRIX_RECORD: dict[str, Any] = {
    "format": "scorekeeper-game/1",
    "game": "trix",
    "mode": "partnership",
    "players": ["Rami", "Lina", "Omar", "Dana"],
    "first": 2,
    "house_rules": {"doubling": True, "doubled_self_take": "full", "swap_diamonds_ltoosh": False},
    "deals": [deal for kingdom in TRIX_KINGDOMS for deal in kingdom],
}

TURKISH_NEGATIVES = [
    {"contract": "no-king", "taker": 2},
    {"contract": "no-queens", "counts": [1, 2, 0, 1]},
    {"contract": "no-boys", "counts": [2, 0, 3, 3]},
    {"contract": "no-hearts", "counts": [0, 9, 1, 3]},
    {"contract": "no-last-two", "last_two": [1, 1]},
    {"contract": "no-tricks", "tricks": [6, 0, 2, 5]},
]
TURKISH_RECORD: dict[str, Any] = {
    "format": "scorekeeper-game/1",
    "game": "turkish-king",
    "mode": "solo",
    "players": ["Ayşe", "Mehmet", "Zeynep", "Can"],
    "first": 1,
    # declarers rotate, so this gives every player two trumps and three negatives
    "deals": [
        *(
            {"contract": "trump", "suit": suit, "tricks": tricks}
            for suit, tricks in [
                ("S", [0, 4, 9, 0]),
                ("D", [2, 8, 1, 2]),
                ("C", [1, 1, 5, 6]),
                ("D", [0, 5, 8, 0]),
                ("H", [2, 3, 2, 6]),
                ("C", [11, 0, 1, 1]),
                ("D", [9, 2, 1, 1]),
                ("H", [7, 0, 6, 0]),
            ]
        ),
        *TURKISH_NEGATIVES,
        *reversed(TURKISH_NEGATIVES),
    ],
}


@dataclass
class Figure:
    """One line of the table."""

    name: str
    measured: str
    target: str
    ok: bool | None  # None: for information only


def per_call_ms(
    function: Callable[[], object], *, samples: int, min_sample_s: float = 0.01
) -> tuple[float, float]:
    """Best and median time of one call, in ms, over `samples` timed loops."""
    loops = 1
    while True:  # enough calls per sample that the timer's resolution does not matter
        start = time.perf_counter()
        for _ in range(loops):
            function()
        if time.perf_counter() - start >= min_sample_s:
            break
        loops *= 2
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(loops):
            function()
        times.append((time.perf_counter() - start) / loops * 1000)
    return min(times), statistics.median(times)


def baseline_tally(deals: list[tuple[int, int, int, int]]) -> tuple[int, ...]:
    """A plain-Python stand-in for replaying: running totals and one result per deal."""
    running: tuple[int, ...] = (0, 0, 0, 0)
    results = []
    for index, scores in enumerate(deals):
        running = tuple(a + b for a, b in zip(running, scores, strict=True))
        results.append({"number": index + 1, "scores": list(scores), "running": running})
    return running


def process_ms(argv: list[str], runs: int, stdin: bytes | None = None) -> list[float]:
    """Wall time of running a command to completion, in ms, `runs` times."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True
        )
        times.append((time.perf_counter() - start) * 1000)
    return times


def check_command() -> list[str]:
    """The installed console script beside this Python (not a version-manager shim)."""
    script = Path(sys.executable).parent / "scorekeeper"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "scorekeeper.cli"]


def replay_figures(samples: int) -> list[Figure]:
    figures = []
    scores = [
        (0, -150, 75, 0),
        (-25, -50, 0, -25),
        (-30, -40, -50, -10),
        (-60, -45, -45, -45),
        (150, 50, 200, 100),
    ] * 4
    base_best, base_median = per_call_ms(lambda: baseline_tally(scores), samples=samples)
    figures.append(
        Figure(
            "baseline: plain-Python tally of 20 deals",
            f"{base_best:.4f} / {base_median:.4f} ms",
            "(reference)",
            None,
        )
    )
    for label, data in (
        ("Trix, 20 deals", TRIX_RECORD),
        ("Turkish King, 20 hands", TURKISH_RECORD),
    ):
        text = json.dumps(data, ensure_ascii=False)
        game: Game = load_record(text).game
        result = replay(game)
        assert result.finished and len(result.deals) == 20, label
        best, median = per_call_ms(lambda game=game: check_output(replay(game)), samples=samples)
        figures.append(
            Figure(
                f"replay + score, {label} (best / median)",
                f"{best:.3f} / {median:.3f} ms ({median / base_median:.0f}x base)",
                f"< {REPLAY_TARGET_MS} ms",
                best < REPLAY_TARGET_MS,
            )
        )
        best, median = per_call_ms(lambda text=text: load_record(text), samples=samples)
        figures.append(
            Figure(
                f"load_record from JSON text, {label}",
                f"{best:.3f} / {median:.3f} ms",
                "(information)",
                None,
            )
        )
    return figures


def process_figures(runs: int) -> list[Figure]:
    command = check_command()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trix.json"
        path.write_text(json.dumps(TRIX_RECORD, ensure_ascii=False), encoding="utf-8")
        check_argv = [*command, "check", str(path)]
        bare_argv = [sys.executable, "-c", "pass"]
        # one untimed run of each warms the file cache and writes any .pyc files
        process_ms(check_argv, 1)
        process_ms(bare_argv, 1)
        check_times: list[float] = []
        bare_times: list[float] = []
        for _ in range(runs):  # interleaved, so drift in machine load hits both alike
            check_times += process_ms(check_argv, 1)
            bare_times += process_ms(bare_argv, 1)
    check_median = statistics.median(check_times)
    bare_median = statistics.median(bare_times)
    difference = check_median - bare_median
    return [
        Figure(
            f"python -c pass (best / median of {runs})",
            f"{min(bare_times):.1f} / {bare_median:.1f} ms",
            "(reference)",
            None,
        ),
        Figure(
            f"scorekeeper check FILE (best / median of {runs})",
            f"{min(check_times):.1f} / {check_median:.1f} ms",
            "(information)",
            None,
        ),
        Figure(
            "check minus bare Python start (medians)",
            f"{difference:.1f} ms",
            f"<= {CHECK_TARGET_MS:.0f} ms",
            difference <= CHECK_TARGET_MS,
        ),
    ]


def print_table(figures: list[Figure]) -> None:
    rows = [("figure", "measured", "target", "")] + [
        (f.name, f.measured, f.target, "" if f.ok is None else "ok" if f.ok else "FAIL")
        for f in figures
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for index, row in enumerate(rows):
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False))
            + "  "
            + row[3]
        )
        if index == 0:
            print("  ".join("-" * width for width in widths) + "  ----")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer runs")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="each figure once: the code runs (exit 0 unless it fails)",
    )
    args = parser.parse_args(argv)
    samples, runs = (1, 1) if args.smoke else (15, 5) if args.quick else (200, 21)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {sys.version.split()[0]} on {sys.platform}, {os.cpu_count()} CPUs, "
        f"load {load:.1f}; check runs as {' '.join(check_command())}"
    )
    print(
        "Replay targets are judged on the best run (the engine's own cost; medians move with "
        "the machine's load)."
    )
    figures = replay_figures(samples) + process_figures(runs)
    print_table(figures)
    return 1 if any(f.ok is False for f in figures) and not args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
