"""`scorekeeper stats` prints the nights and rivals of the records, and their ratings with
`--ratings` (the same JSON as a table's statistics export)."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.rules import dump_record
from scorekeeper.stats import compute, to_json
from tests.cli.test_stats import run
from tests.stats.evening_history import HISTORY


def test_stats_prints_nights_and_rivals_and_ratings_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    path.write_text(json.dumps([dump_record(record) for record in HISTORY]), encoding="utf-8")
    plain = run("stats", str(path))
    assert (plain.returncode, plain.stderr) == (0, "")
    printed = json.loads(plain.stdout)
    assert printed == json.loads(json.dumps(to_json(compute(HISTORY))))
    assert [night["games"] for night in printed["nights"]] == [3, 3]
    assert "ratings" not in printed  # docs/cli.md: `--ratings` adds it (issue 44, item 14)
    rated = run("stats", "--ratings", str(path))
    assert rated.returncode == 0
    ratings = json.loads(rated.stdout)["ratings"]
    assert ratings[0]["name"] == "Omar"
    assert ratings == json.loads(json.dumps(to_json(compute(HISTORY, rated=True))))["ratings"]
