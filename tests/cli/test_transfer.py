"""`scorekeeper export` and `scorekeeper import`: the operator's backup and restore.

Each test points the command at a temporary instance folder (SCOREKEEPER_INSTANCE, SQLite) and
runs `main()` in process, or the installed module with `-` for standard input and output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main
from scorekeeper.rules import load_record

DATA = Path(__file__).parents[1] / "data"
COMPLETE = sorted(DATA.glob("*-complete.json"))


def records() -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in COMPLETE]


def exported(path: Path) -> list[dict[str, Any]]:
    assert main(["export", str(path)]) == 0
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_export_of_an_empty_database(instance: Path, tmp_path: Path) -> None:
    assert exported(tmp_path / "out.json") == []
    assert (instance / "scorekeeper.sqlite").exists()


def test_import_then_export_round_trips(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "games.json"
    source.write_text(json.dumps(records(), ensure_ascii=False), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    assert main(["import", str(COMPLETE[0])]) == 0  # a single record is fine too

    first = tmp_path / "first.json"
    games = exported(first)
    assert len(games) == len(COMPLETE) + 1
    originals = [load_record(path.read_bytes()) for path in (*COMPLETE, COMPLETE[0])]
    loaded = [load_record(json.dumps(game)) for game in games]
    assert sorted(repr(r.game) for r in loaded) == sorted(repr(r.game) for r in originals)

    # restore on another server: same records back
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "other"))
    assert main(["import", str(first)]) == 0
    second = tmp_path / "second.json"
    exported(second)
    assert second.read_text(encoding="utf-8") == first.read_text(encoding="utf-8")


def test_a_bad_record_imports_nothing(
    instance: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch = records()
    batch[2]["deals"][0]["scores"] = [1, 2, 3, -6]
    source = tmp_path / "games.json"
    source.write_text(json.dumps(batch), encoding="utf-8")
    assert main(["import", str(source)]) == 1
    err = capsys.readouterr().err
    assert "nothing imported: record 3: deal 1" in err
    assert exported(tmp_path / "out.json") == []


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (
            {"created_at": "0001-01-01T00:00:00+14:00"},
            "created_at must be a date and time with its UTC offset, within the years 1 to 9999",
        ),
        (
            {"players": ["Rami", "\u202eLina", "Omar", "Dana"]},
            "players[1]: a name cannot hold control characters or direction overrides",
        ),
        ({"players": ["Rami", "Lina", "\u200b", "Dana"]}, "players[2]: every player needs a name"),
        ({"notes": "x" * 2001}, "notes: at most 2000 characters"),
    ],
)
def test_what_check_refuses_imports_nothing(
    instance: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: dict[str, Any],
    line: str,
) -> None:
    """`check`, the import command and the import page share one loader: a record `check`
    refuses is refused here too, with a sentence naming the field (no traceback)."""
    batch = records()
    batch[1].update(change)
    source = tmp_path / "games.json"
    source.write_text(json.dumps(batch), encoding="utf-8")
    assert main(["import", str(source)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == f"nothing imported: record 2: {line}"
    assert exported(tmp_path / "out.json") == []


def test_the_command_is_not_capped_like_the_page(instance: Path, tmp_path: Path) -> None:
    """The operator's import takes more records than the import page allows in one request."""
    from scorekeeper.web.views.imports import IMPORT_MAX_RECORDS

    batch = [records()[0]] * (IMPORT_MAX_RECORDS + 1)
    source = tmp_path / "games.json"
    source.write_text(json.dumps(batch), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    assert len(exported(tmp_path / "out.json")) == IMPORT_MAX_RECORDS + 1


@pytest.mark.parametrize("body", [b"{not json", b'{"format": "other"}', b"[1, 2]"])
def test_not_records_exit_2(instance: Path, tmp_path: Path, body: bytes) -> None:
    source = tmp_path / "bad.json"
    source.write_bytes(body)
    assert main(["import", str(source)]) == 2
    assert exported(tmp_path / "out.json") == []


def test_missing_file(instance: Path, tmp_path: Path) -> None:
    assert main(["import", str(tmp_path / "nope.json")]) == 2


def test_standard_input_and_output(instance: Path) -> None:
    env = {**os.environ}
    body = json.dumps(records(), ensure_ascii=False).encode()
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "import", "-"],
        input=body,
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "export", "-"],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)
    assert len(games) == len(COMPLETE)
    assert {game["name"] for game in games if "name" in game} == {
        json.loads(path.read_text()).get("name") for path in COMPLETE
    } - {None}


def test_check_stays_free_of_flask() -> None:
    code = (
        "import sys, scorekeeper.cli as c; c.main(['check', sys.argv[1]]); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('flask', 'sqlalchemy', 'segno')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(COMPLETE[0])], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_serve_prints_its_address_as_a_qr_code(capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.cli import print_qr

    print_qr("http://192.168.1.20:8000/")
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) >= 10  # a version-2 code, two module rows per line (compact)
    assert any(block in out for block in "█▀▄")


@pytest.mark.parametrize(
    ("rules", "line"),
    [
        ({"winners": "most"}, "house_rules.winners must be highest or positive"),
        (
            {"winners": "positive", "doubled_queen_of_diamonds": "whole"},
            "house_rules.doubled_queen_of_diamonds does not apply to this game",
        ),
    ],
)
def test_a_bad_house_rule_imports_nothing(
    instance: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    rules: dict[str, str],
    line: str,
) -> None:
    """docs/rules.md's two newest house rules: import refuses a value that is not a choice, or a
    rule of another game, and stores none of the batch."""
    batch = records()
    turkish = next(index for index, record in enumerate(batch) if record["game"] == "turkish-king")
    batch[turkish]["house_rules"] = rules
    batch[turkish].pop("winners", None)
    source = tmp_path / "games.json"
    source.write_text(json.dumps(batch), encoding="utf-8")
    assert main(["import", str(source)]) == 1
    assert f"nothing imported: record {turkish + 1}: {line}" in capsys.readouterr().err
    assert exported(tmp_path / "out.json") == []


def test_positive_winners_round_trip(instance: Path, tmp_path: Path) -> None:
    from tests.rules.builders import TWO_ABOVE_ZERO, raw_record

    source = tmp_path / "game.json"
    record = raw_record("turkish-king", TWO_ABOVE_ZERO, house_rules={"winners": "positive"})
    source.write_text(json.dumps(record), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    [game] = exported(tmp_path / "out.json")
    assert game["house_rules"] == {"winners": "positive"} and game["winners"] == [1, 3]


def test_complex_tricks_penalty_round_trips(instance: Path, tmp_path: Path) -> None:
    """Issue 22: a Trix Complex record under complex_tricks "penalty" goes out and comes back
    with its rule and docs/rules.md's worked example's scores."""
    from tests.rules.builders import TRIX, raw_record
    from tests.rules.test_complex_tricks import WORKED

    source = tmp_path / "game.json"
    record = raw_record("trix-complex", [TRIX, WORKED], house_rules={"complex_tricks": "penalty"})
    source.write_text(json.dumps(record), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    [game] = exported(tmp_path / "out.json")
    assert game["house_rules"]["complex_tricks"] == "penalty"
    assert game["deals"][1]["scores"] == [-155, -120, 0, -120]
    again = tmp_path / "again.json"
    again.write_text(json.dumps(game), encoding="utf-8")
    assert main(["import", str(again)]) == 0
    games = exported(tmp_path / "both.json")
    assert [load_record(json.dumps(one)) for one in games] == [load_record(json.dumps(game))] * 2


class _Counting:
    """Standard output that notes, at each write, how many games the process holds."""

    def __init__(self, alive: weakref.WeakSet[Any]) -> None:
        self.alive = alive
        self.parts: list[str] = []
        self.held: list[int] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        self.held.append(len(self.alive))
        return len(text)

    def flush(self) -> None:
        pass


def test_export_writes_a_record_at_a_time_holding_a_batch_of_games(
    instance: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many games the database holds, the export holds the rows of one or two batches
    at once (it used to read every game, then write them all: 3.26 GB for 100,000)."""
    from sqlalchemy import event

    from scorekeeper.store.models import GameRow
    from scorekeeper.store.records import EXPORT_BATCH

    many = 3 * EXPORT_BATCH + 17
    source = tmp_path / "many.json"
    source.write_text(json.dumps([records()[0]] * many), encoding="utf-8")
    assert main(["import", str(source)]) == 0
    alive: weakref.WeakSet[Any] = weakref.WeakSet()

    def loaded(row: GameRow, context: Any) -> None:
        alive.add(row)

    out = _Counting(alive)
    event.listen(GameRow, "load", loaded)
    try:
        monkeypatch.setattr(sys, "stdout", out)
        assert main(["export", "-"]) == 0
    finally:
        event.remove(GameRow, "load", loaded)
    assert max(out.held) <= 2 * EXPORT_BATCH, max(out.held)
    assert len(out.parts) >= many  # written as they come
    assert len(json.loads("".join(out.parts))) == many
