"""The statistics' cost per game: compute() over 10 games against 1,000 games of one table.

    python bench/stats_bench.py [--quick]

Records are made in memory (no server, no database): Trix (solo and partnership, with doubles),
Trix Complex and Turkish King in turn, every fifth one unfinished, eight people rotating through
the seats. One sample is the same work at both sizes (compute() of 10 games a hundred times, or
of 1,000 games once); samples alternate and the best per size is kept; the figure is the time per
game at 1,000 games over the time per game at 10, so a busy machine changes little. It also
prints what `scorekeeper stats` does with the 1,000: parse and check them, compute, make JSON.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, game_plan, log

from scorekeeper.rules import Record, dump_record, record_from_json
from scorekeeper.stats import compute, load_records, to_json

ROSTER = ["Lina", "Omar", "Sara", "Yusuf", "Rami", "Dana", "Ayşe", "Mehmet"]
KINDS = ("trix", "trix-complex", "turkish-king")
RATIO_TARGET = 1.5
SMALL, LARGE = 10, 1000


def records(count: int) -> list[Record]:
    """`count` legal records of one table, oldest first."""
    plans = {(kind, first): game_plan(kind, first) for kind in KINDS for first in range(4)}
    made = []
    for index in range(count):
        kind, first = KINDS[index % 3], index % 4
        deals: list[dict[str, Any]] = [dict(deal) for deal in plans[kind, first]]
        for deal in deals:
            if deal["contract"] == "king-of-hearts":
                deal["doubled_by"] = (index + 1) % 4
        if index % 5 == 4:
            deals = deals[:7]
        players = [ROSTER[(index + seat * 3) % len(ROSTER)] for seat in range(4)]
        mode = "partnership" if kind != "turkish-king" and index % 2 else "solo"
        made.append(record_from_json({
            "format": "scorekeeper-game/1", "game": kind, "mode": mode, "players": players,
            "first": first, "deals": deals,
            "created_at": f"2025-{1 + index // 300:02d}-{1 + index // 10 % 28:02d}T20:00:00",
        }))
    return made


def best_of(work: Callable[[], object], rounds: int) -> float:
    """The fastest of `rounds` runs, in seconds."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def run(quick: bool = False) -> Results:
    """Time compute() on 10 and on 1,000 games; the ratio of their times per game."""
    results = Results()
    small, large = records(SMALL), records(LARGE)
    rounds = 3 if quick else 7
    per_small: list[float] = []
    per_large: list[float] = []
    batch = LARGE // SMALL  # the same work per sample: 100 × 10 games against 1 × 1,000

    def small_batch() -> None:
        for _ in range(batch):
            compute(small)

    for round_number in range(rounds):  # alternate, so a slow moment hits both sizes
        log(f"stats: round {round_number + 1} of {rounds}")
        per_small.append(best_of(small_batch, 1) / (batch * SMALL))
        per_large.append(best_of(lambda: compute(large), 1) / LARGE)
    small_ms, large_ms = min(per_small) * 1000, min(per_large) * 1000
    ratio = large_ms / small_ms
    results.add("compute per game, 10 games", f"{small_ms:.3f} ms", "–", None)
    results.add("compute per game, 1,000 games", f"{large_ms:.3f} ms", "–", None)
    results.add("per game at 1,000 / at 10", f"{ratio:.2f}", f"≤ {RATIO_TARGET}",
                ratio <= RATIO_TARGET)
    results.add("compute, 1,000 games", f"{large_ms * LARGE:.0f} ms", "–", None)
    text = json.dumps([dump_record(record, derived=True) for record in large])
    command = best_of(lambda: json.dumps(to_json(compute(load_records(text)))), 1 if quick else 3)
    results.add("`scorekeeper stats` work, 1,000 games (parse, check, compute, JSON)",
                f"{command * 1000:.0f} ms", "–", None)
    results.notes.append(f"{LARGE} games of 8 people: Trix, Trix Complex, Turkish King in turn, "
                         "every fifth unfinished; best of alternating rounds")
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv), "stats")
