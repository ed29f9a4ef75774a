"""A table's statistics page with 10 and with 1,000 games at the table.

Two SQLite databases made by `scorekeeper init-db`, each with one table whose games are copies of
finished games of the three kinds (stored through the table's import, so every game is replayed
and its seats linked to the roster); the app answers in-process (Flask's test client). Two
figures, each the best time at 1,000 games over the best at 10, timed alternately:

- the page computed afresh (the statistics of every game replayed through the engine: what the
  first reader after a saved deal pays);
- the page again while no game of the table changed (the statistics kept by the process; what
  every other reader pays).

    python bench/table_stats.py [--quick]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, init_db, log, temp_instance

ROOT = Path(__file__).resolve().parent.parent
FEW, MANY = 10, 1_000
GAMES = ("trix-solo-complete.json", "trix-partnership-complete.json",
         "turkish-king-complete.json", "trix-complex-partnership-complete.json")
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


def table_with(instance: str, count: int) -> tuple[Any, str]:
    """An app on the instance and the stats URL of a table holding `count` games."""
    from scorekeeper import create_app
    from scorekeeper.store.tables import create_table, import_into_table

    app = create_app({"INSTANCE_PATH": instance})
    with app.app_context():
        table = create_table("Thursdays at Karim's")
        import_into_table(table, json.dumps(records(count)))
        return app, f"/t/{table.token}/stats"


def best_times(sides: list[tuple[Any, str]], repeats: int, fresh: bool) -> list[float]:
    """Best ms of the stats page on each side, alternating; `fresh`: nothing kept between."""
    from scorekeeper.web.views import table_stats

    clients = [(app.test_client(), url) for app, url in sides]
    for client, url in clients:
        assert client.get(url).status_code == 200  # templates compiled, the table remembered
    samples: list[list[float]] = [[] for _ in clients]
    for _ in range(repeats):
        for side, (client, url) in enumerate(clients):
            if fresh:
                table_stats.forget_statistics()
            started = time.perf_counter()
            client.get(url)
            samples[side].append((time.perf_counter() - started) * 1000)
    return [min(times) for times in samples]


def run(quick: bool = False) -> Results:
    """Time the page at 10 and 1,000 games, afresh and kept."""
    results = Results()
    with temp_instance() as few, temp_instance() as many:
        sides = []
        for instance, count in ((few, FEW), (many, MANY)):
            log(f"table stats: a table of {count:,} games")
            init_db(instance)
            sides.append(table_with(instance, count))
        log("table stats: timing both, interleaved")
        fresh = best_times(sides, 3 if quick else 7, fresh=True)
        kept = best_times(sides, 30 if quick else 100, fresh=False)
    for name, (before, after) in (("computed afresh", fresh), ("kept, no game changed", kept)):
        results.add(f"table stats: page {name}, {MANY:,} vs {FEW} games",
                    f"{after / before:.1f}×", "–", None,
                    f"{before:.1f} → {after:.1f} ms (best, in-process)")
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv))
