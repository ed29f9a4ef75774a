"""A table's ratings (OpenSkill) over 1,000 finished games, against the replay of those games.

The games are copies of finished games of the three kinds (solo and partnership), eight people
rotating through the seats, as bench/table_stats.py makes them. Figures, each the best of
several rounds, timed alternately in this one process:

- the ratings of the 1,000 games from their figures (`scorekeeper.stats.ratings.ratings`:
  every finished game one `rate` of openskill's model): target ≤ 50 ms;
- the baseline: the plain replay of the same 1,000 records through the engine
  (`scorekeeper.rules.replay`), and the ratings as a share of it;
- everything else the statistics page derives from the same figures (`combine` without
  ratings: standings, nights, rivals), and what asking for ratings adds to it;
- the cost of importing openskill in a fresh process (paid once, by the first rating).

    python bench/ratings.py [--quick | --smoke]

--smoke (bench/run.py --smoke, .ci/run): 30 games, one round, no fresh-process import: it runs,
its figures judged by nothing.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results
from table_stats import records

GAMES = 1_000
TARGET_MS = 50.0


def best(work: Callable[[], Any], rounds: int) -> float:
    """The best time of `rounds` runs, in milliseconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def import_cost() -> float:
    """Milliseconds to import openskill's model in a fresh Python (best of three)."""
    code = (
        "import time; start = time.perf_counter()\n"
        "from openskill.models import PlackettLuce\n"
        "print(1000 * (time.perf_counter() - start))\n"
    )
    runs = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
        for _ in range(3)
    ]
    return min(runs)


SMOKE_GAMES = 30


def run(quick: bool = False, smoke: bool = False) -> Results:
    """The figures above (smoke: a few games once, only to see it run)."""
    import json

    from scorekeeper.rules import load_record, replay
    from scorekeeper.stats import combine, game_figures
    from scorekeeper.stats.ratings import ratings

    loaded = [
        load_record(json.dumps({"format": "scorekeeper-game/1", **data}))
        for data in records(SMOKE_GAMES if smoke else GAMES)
    ]
    games = len(loaded)
    figures = [game_figures(record) for record in loaded]
    assert all(played.finished for played in figures)
    ratings(figures[:10])  # openskill imported before timing
    rounds = 1 if smoke else 3 if quick else 7
    replay_ms = rating_ms = plain_ms = rated_ms = float("inf")
    for _ in range(rounds):  # alternately, so a busy moment falls on each alike
        replay_ms = min(replay_ms, best(lambda: [replay(r.game) for r in loaded], 1))
        rating_ms = min(rating_ms, best(lambda: ratings(figures), 1))
        plain_ms = min(plain_ms, best(lambda: combine(figures), 1))
        rated_ms = min(rated_ms, best(lambda: combine(figures, rated=True), 1))
    results = Results()
    results.add(
        f"ratings of {games:,} games",
        f"{rating_ms:.1f} ms ({rating_ms / replay_ms:.2f}× the replay)",
        "runs" if smoke else f"≤ {TARGET_MS:.0f} ms",
        None if smoke else rating_ms <= TARGET_MS,
    )
    results.add(f"baseline: replay of the {games:,} records", f"{replay_ms:.1f} ms", "–", None)
    results.add(
        "statistics from the figures (standings, nights, rivals)",
        f"{plain_ms:.1f} ms; with ratings {rated_ms:.1f} ms",
        "–",
        None,
    )
    if not smoke:
        results.add("importing openskill (fresh process)", f"{import_cost():.1f} ms", "–", None)
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv, smoke="--smoke" in sys.argv), "ratings")
