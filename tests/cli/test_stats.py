"""`scorekeeper stats FILE|-`: the statistics of records as JSON (exit 0); a record that breaks a
rule refused as `scorekeeper check` refuses it, naming the record and the deal (exit 1); input
that is not JSON or not records (exit 2). Run as a real process on this checkout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import dump_record
from tests.rules.builders import DIAMONDS, KING_OF_HEARTS, QUEENS, raw_record
from tests.stats.records import trix, unfinished_trix

DATA = Path(__file__).parents[1] / "data"
CHECKOUT = Path(__file__).resolve().parents[2]
BAD_DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 4, 1]}  # 12 of 13


def run(
    command: str,
    *args: str,
    stdin: bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", command, *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": path},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


@pytest.fixture
def write(tmp_path: Path) -> Any:
    def write(data: Any, name: str = "records.json") -> str:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return str(path)

    return write


def all_data() -> list[Any]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(DATA.glob("*.json"))]


def test_an_array_of_records(write: Any) -> None:
    done = run("stats", write(all_data()))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.count("\n") == 1
    players = json.loads(done.stdout)["players"]
    assert {"name", "games", "finished", "wins", "points", "contracts"} <= set(players[0])
    order = [(-p["wins"], p["key"]) for p in players]  # Trix and King: points never added
    assert order == sorted(order)
    assert all(p["points"] is None for p in players)
    rami = next(p for p in players if p["name"] == "Rami")
    assert (rami["games"], rami["finished"]) == (2, 2)
    assert set(rami["contracts"]["trix"]) >= {"deals", "points"}


def test_the_issue_format_on_worked_figures(write: Any) -> None:
    records = [dump_record(trix()), dump_record(unfinished_trix())]
    done = run("stats", write(records))
    assert done.returncode == 0
    lina = next(p for p in json.loads(done.stdout)["players"] if p["name"] == "Lina")
    assert {k: lina[k] for k in ("name", "games", "finished", "wins", "points")} == {
        "name": "Lina",
        "games": 2,
        "finished": 1,
        "wins": 0,
        "points": -640,
    }
    assert {c: (v["deals"], v["points"]) for c, v in lina["contracts"].items()} == {
        "king-of-hearts": (5, -375),
        "queens": (5, -250),
        "diamonds": (5, -200),
        "ltoosh": (5, -225),
        "trix": (5, 250),
    }


def test_one_record_and_standard_input() -> None:
    data = (DATA / "turkish-king-complete.json").read_bytes()
    done = run("stats", "-", stdin=data)
    assert (done.returncode, done.stderr) == (0, "")
    players = json.loads(done.stdout)["players"]
    assert len(players) == 4
    assert sum(p["wins"] for p in players) >= 1


def test_an_empty_array_has_no_players(write: Any) -> None:
    done = run("stats", write([]))
    assert (done.returncode, json.loads(done.stdout)["players"]) == (0, [])


def test_a_bad_record_is_named_with_its_deal(write: Any) -> None:
    bad = raw_record("trix", [KING_OF_HEARTS, QUEENS, BAD_DIAMONDS])
    done = run("stats", write([dump_record(trix()), bad]))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "record 2: deal 3 (diamonds): counts add up to 12; there are 13 diamonds\n"
    )
    # the same words `scorekeeper check` says of that record alone
    alone = run("check", write(bad, "bad.json"))
    assert alone.returncode == 1
    assert done.stderr == f"record 2: {alone.stderr}"


def test_a_lone_bad_record_is_refused_as_check_refuses_it(write: Any) -> None:
    bad = write(raw_record("trix", [KING_OF_HEARTS, QUEENS, BAD_DIAMONDS, DIAMONDS]))
    done, check = run("stats", bad), run("check", bad)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == check.stderr


def test_a_deal_illegal_in_context_is_named(write: Any) -> None:
    twice = raw_record("trix", [KING_OF_HEARTS, KING_OF_HEARTS])
    done = run("stats", write([twice]))
    assert done.returncode == 1
    assert done.stderr.startswith("record 1: deal 2 (king-of-hearts): ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ("42", "not a game record"),
        ('"a string"', "not a game record"),
        ('{"format": "other"}', "not a game record: format must be"),
    ],
)
def test_not_records(write: Any, text: str, message: str) -> None:
    done = run("stats", write(text))
    assert (done.returncode, done.stdout) == (2, "")
    assert message in done.stderr and done.stderr.count("\n") == 1


def test_a_value_that_is_not_a_record_is_named(write: Any) -> None:
    done = run("stats", write([dump_record(trix()), 7]))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "record 2: not a game record: the JSON value is not an object\n"


def test_a_missing_file(tmp_path: Path) -> None:
    done = run("stats", str(tmp_path / "nowhere.json"))
    assert done.returncode == 2
    assert done.stderr.startswith("cannot read ")


def test_a_complex_tricks_penalty_record_counts_as_scored(write: Any) -> None:
    # issue 22: a record under complex_tricks "penalty" loads with its rule, and its points are
    # the engine's (docs/rules.md's worked example: −155, −120, 0, −120)
    worked = {
        "contract": "complex",
        "tricks": [3, 2, 0, 1],
        "diamonds": [6, 4, 0, 3],
        "queens": {"S": 0, "H": 0, "D": 1, "C": 1},
        "king_of_hearts": 3,
    }
    record = raw_record(
        "trix-complex",
        [{"contract": "trix", "order": [0, 1, 2, 3]}, worked],
        house_rules={"complex_tricks": "penalty"},
    )
    done = run("stats", write(record))
    assert done.returncode == 0, done.stderr
    players = {player["name"]: player for player in json.loads(done.stdout)["players"]}
    complex_points = {
        name: player["contracts"]["complex"]["points"] for name, player in players.items()
    }
    assert complex_points == {"Rami": -155, "Lina": -120, "Omar": 0, "Dana": -120}
    # what the table recorded: the tricks that held a penalty card
    assert players["Rami"]["details"]["complex"]["taken"]["tricks"] == 3
