"""A table of any size: the page of a table with 10,000 games, and its view link, against a
table of 10 games, served by `scorekeeper serve`.

One database (made by `scorekeeper init-db`) holds both tables. The small one is imported
through the store (`import_into_table`, its figures stored); the big one's first games too
(its roster), then the rest in bulk: the rows the store's `row_of` makes of four finished
records (one replay each, card included), copied with other players and times and their seats
linked to the roster, in one transaction (seconds, not an import of 10,000 records). Eight games
a night, a night a day, so the latest night is eight games, as at a real table.

A server of one worker answers, round after round, the big table's page and then the small
one's (the order alternating): each round's server CPU (`/proc` of the server and its worker)
over its requests is one sample; the figure is the ratio of the medians (target ≤ 2×), with
both in ms and the load average. Also each page's size (decoded; target ≤ 60 KB; gzip beside
it) and, with no target, a deep page of the big table's older games (`?page=300`).

    python bench/big_table.py            # 10,000 games, 7 rounds of 30 requests
    python bench/big_table.py --quick    # 10,000 games, 3 rounds of 15
    python bench/big_table.py --smoke    # 60 games, one round of 2: it runs
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, bench_env, init_db, log, server, server_cpu_seconds, temp_instance
from httpraw import Client
from table_stats import GAMES as TEMPLATES
from table_stats import NAMES

ROOT = Path(__file__).resolve().parent.parent
SMALL, BIG = 10, 10_000
CPU_RATIO = 2.0
PAGE_BYTES = 60_000
A_NIGHT = 8
FIRST_NIGHT = datetime(2000, 1, 6, 20, 0, tzinfo=UTC)


def _when(number: int) -> datetime:
    """Game `number`'s start: eight games half an hour apart each night, a night a day."""
    night, game = divmod(number, A_NIGHT)
    return FIRST_NIGHT + timedelta(days=night, minutes=30 * game)


def _players(number: int) -> list[str]:
    return [NAMES[(number + seat * 3) % len(NAMES)] for seat in range(4)]


def _records(count: int) -> list[dict[str, Any]]:
    templates = [json.loads((ROOT / "tests" / "data" / name).read_text()) for name in TEMPLATES]
    made = []
    for number in range(count):
        record = dict(templates[number % len(templates)])
        record["players"] = _players(number)
        record["created_at"] = _when(number).isoformat()
        record.pop("updated_at", None)
        made.append(record)
    return made


def make_tables(instance: str, big: int) -> tuple[dict[str, str], dict[str, str]]:
    """The small and the big table in the instance's database: each one's links."""
    for key, value in bench_env(instance).items():
        if key in ("SCOREKEEPER_INSTANCE", "SECRET_KEY"):
            os.environ[key] = value
    from scorekeeper import create_app
    from scorekeeper.stats import stored_form
    from scorekeeper.store.db import db
    from scorekeeper.store.tables import create_table, import_into_table

    app = create_app({"INSTANCE_PATH": instance})
    with app.app_context():
        small = create_table("Ten games")
        import_into_table(small, json.dumps(_records(SMALL)), stored_form)
        table = create_table("Ten thousand games")
        head = min(big, A_NIGHT)
        import_into_table(table, json.dumps(_records(head)), stored_form)  # the roster
        _bulk(table.id, head, big)
        links = [{"token": t.token, "view": t.view_token, "name": t.name} for t in (small, table)]
        db.session.remove()
        db.engine.dispose()
    return links[0], links[1]


def _bulk(table_id: int, start: int, count: int) -> None:
    """Games `start`…`count - 1` of the table, as the store writes a record's row, in bulk."""
    from sqlalchemy import insert, select

    from scorekeeper.rules.record import load_records
    from scorekeeper.store.db import db
    from scorekeeper.store.games import new_token, row_of
    from scorekeeper.store.models import GameRow, PlayerRow, SeatRow

    templates = load_records(json.dumps(_records(len(TEMPLATES))))
    columns = [
        {
            key: value
            for key, value in vars(row_of(record)).items()
            if not key.startswith("_") and key not in ("id", "token", "view_token")
        }
        for record in templates
    ]
    roster = dict(
        db.session.execute(
            select(PlayerRow.name, PlayerRow.id).where(PlayerRow.table_id == table_id)
        ).all()
    )
    rows = []
    for number in range(start, count):
        when = _when(number)
        rows.append(
            {
                **columns[number % len(columns)],
                "token": new_token(),
                "view_token": new_token(),
                "players": _players(number),
                "table_id": table_id,
                "created_at": when,
                "updated_at": when,
            }
        )
    if not rows:
        return
    ids = db.session.execute(
        insert(GameRow).returning(GameRow.id, sort_by_parameter_order=True), rows
    )
    seats = [
        {"game_id": game_id, "seat": seat, "player_id": roster[name]}
        for (game_id,), row in zip(ids.all(), rows, strict=True)
        for seat, name in enumerate(row["players"])
    ]
    db.session.execute(insert(SeatRow), seats)
    db.session.commit()


def _cpu_ms(base: str, client: Client, url: str, requests: int) -> tuple[float, int, int]:
    """Server CPU ms a request of `url` over `requests` of them, and the last answer's bytes
    (decoded, and as sent with gzip)."""
    before = server_cpu_seconds(base)
    for _ in range(requests):
        reply = client.request("GET", url)
        assert reply.status == 200, (url, reply.status)
    spent = server_cpu_seconds(base) - before
    return spent * 1000 / requests, len(reply.body), len(reply.raw)


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Both tables' page and view, alternately, on one server of one worker."""
    results = Results()
    big = 60 if smoke else BIG
    rounds, requests = (1, 2) if smoke else (3, 15) if quick else (7, 30)
    with temp_instance() as instance:
        init_db(instance)
        log(f"big table: a table of {SMALL} games and one of {big:,} (bulk)")
        small_links, big_links = make_tables(instance, big)
        pages = {
            "table page": ("/t/{token}", ""),
            "view link": ("/v/t/{view}", ""),
            "older games (page 300)": ("/t/{token}", "?page=300"),
        }
        with server(instance, workers=1) as base:
            client = Client(base)
            samples: dict[tuple[str, str], list[float]] = {}
            sizes: dict[tuple[str, str], tuple[int, int]] = {}
            for _ in range(3):  # templates compiled, the tables read once
                for links in (small_links, big_links):
                    for path, query in pages.values():
                        client.request("GET", path.format(**links) + query)
            log(f"big table: {rounds} rounds of {requests} requests each page")
            for number in range(rounds):
                order = [("big", big_links), ("small", small_links)]
                for size, links in order if number % 2 == 0 else order[::-1]:
                    for kind, (path, query) in pages.items():
                        if query and size == "small":
                            continue
                        ms, body, sent = _cpu_ms(
                            base, client, path.format(**links) + query, requests
                        )
                        samples.setdefault((kind, size), []).append(ms)
                        sizes[(kind, size)] = (body, sent)
            client.close()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    median = {key: statistics.median(values) for key, values in samples.items()}
    for kind in ("table page", "view link"):
        ratio = median[(kind, "big")] / median[(kind, "small")]
        results.add(
            f"big table: {kind}, {big:,} games vs {SMALL}: server CPU a request",
            f"{ratio:.2f}× ({median[(kind, 'big')]:.1f} / {median[(kind, 'small')]:.1f} ms)",
            f"≤ {CPU_RATIO:.0f}×",
            ratio <= CPU_RATIO,
            f"median of {rounds} rounds of {requests} requests, one worker; load average {load}",
        )
        body, sent = sizes[(kind, "big")]
        results.add(
            f"big table: {kind} of {big:,} games: bytes",
            f"{body / 1000:.1f} KB ({sent / 1000:.1f} KB gzip)",
            f"≤ {PAGE_BYTES // 1000} KB",
            body <= PAGE_BYTES,
            f"decoded; the {SMALL}-game table's: {sizes[(kind, 'small')][0] / 1000:.1f} KB",
        )
    deep = ("older games (page 300)", "big")
    results.add(
        f"big table: older games (?page=300) of {big:,} games: server CPU a request",
        f"{median[deep]:.1f} ms ({median[deep] / median[('table page', 'small')]:.2f}× the "
        f"{SMALL}-game page)",
        "–",
        None,
        f"{sizes[deep][0] / 1000:.1f} KB; load average {load}",
    )
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv, smoke="--smoke" in sys.argv))
