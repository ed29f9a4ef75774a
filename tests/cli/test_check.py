"""`scorekeeper check FILE|-` (docs/record-format.md): exit 0 and JSON, 1 and one line, 2 for
non-records.

Run both as a real process (``python -m scorekeeper.cli`` on the code beside these tests) and
in-process through :func:`scorekeeper.cli.main`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main

EXAMPLES = Path(__file__).parents[1] / "rules" / "examples"
EXAMPLE_NAMES = sorted(p.name.removesuffix(".check.json") for p in EXAMPLES.glob("*.check.json"))
CHECKOUT = Path(__file__).resolve().parents[2]


def command() -> list[str]:
    """The command as a module: the installed console script imports whatever checkout the
    package was installed from, which need not be the one these tests belong to."""
    return [sys.executable, "-m", "scorekeeper.cli"]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    # this checkout first on the path, whatever the current directory
    path = os.pathsep.join(filter(None, [str(CHECKOUT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [*command(), "check", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": path},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


def record(deals: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "scorekeeper-game/1",
        "game": "trix",
        "mode": "solo",
        "players": ["Rami", "Lina", "Omar", "Dana"],
        "first": 0,
        "deals": deals,
    }
    data.update(top)
    return data


DIAMONDS_12 = record(
    [
        {"contract": "king-of-hearts", "taker": 1},
        {"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}},
        {"contract": "diamonds", "counts": [3, 4, 4, 1]},
    ]
)


@pytest.fixture
def write(tmp_path: Path) -> Any:
    def write(data: Any, name: str = "game.json") -> str:
        path = tmp_path / name
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return str(path)

    return write


# --- valid records ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_valid_record_prints_json(name: str) -> None:
    done = run(str(EXAMPLES / f"{name}.json"))
    assert (done.returncode, done.stderr) == (0, "")
    expected = json.loads((EXAMPLES / f"{name}.check.json").read_text(encoding="utf-8"))
    assert json.loads(done.stdout) == expected
    assert done.stdout.count("\n") == 1  # one JSON object, one line


def test_dash_reads_standard_input() -> None:
    data = (EXAMPLES / "turkish-king-in-progress.json").read_bytes()
    done = run("-", stdin=data)
    assert (done.returncode, done.stderr) == (0, "")
    expected = json.loads((EXAMPLES / "turkish-king-in-progress.check.json").read_text())
    assert json.loads(done.stdout) == expected


def test_game_record_document_example(write: Any) -> None:
    data = record(
        [{"contract": "king-of-hearts", "taker": 1, "doubled_by": 2}],
        mode="partnership",
        first=2,
        house_rules={"doubling": True, "doubled_self_take": "net", "swap_diamonds_ltoosh": False},
    )
    done = run(write(data))
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "deals": [
            {
                "number": 1,
                "contract": "king-of-hearts",
                "chooser": 2,
                "kingdom": 0,
                "scores": [0, -150, 75, 0],
            }
        ],
        "totals": [0, -150, 75, 0],
        "team_totals": [75, -150],
        "finished": False,
        "next": {"chooser": 2, "contracts": ["diamonds", "ltoosh", "queens", "trix"]},
        "winners": None,
    }


def test_an_export_with_derived_keys_checks(write: Any) -> None:
    from scorekeeper.rules import dumps_record, load_record

    text = (EXAMPLES / "trix-solo-in-progress.json").read_text(encoding="utf-8")
    exported = dumps_record(load_record(text), derived=True)
    done = run(write(exported))
    assert (done.returncode, done.stderr) == (0, "")


def test_positive_winners_are_everyone_above_zero(write: Any) -> None:
    """docs/rules.md, Every game: Turkish King under `winners` "positive"."""
    from tests.rules.builders import ALL_AT_ZERO, TWO_ABOVE_ZERO

    for deals, highest, positive in (
        (TWO_ABOVE_ZERO, [1], [1, 3]),
        (ALL_AT_ZERO, [0, 1, 2, 3], []),
    ):
        for rules, winners in (
            ({}, highest),
            ({"winners": "highest"}, highest),
            ({"winners": "positive"}, positive),
        ):
            data = record(deals, game="turkish-king", house_rules=rules)
            done = run(write(data))
            assert (done.returncode, done.stderr) == (0, "")
            output = json.loads(done.stdout)
            assert output["finished"] is True and output["winners"] == winners


def test_whole_queen_of_diamonds_scores(write: Any) -> None:
    """docs/rules.md, Trix Complex: a Q♦ doubled by seat 3, taken by seat 0 (one trick, one
    diamond)."""
    deal = {
        "contract": "complex",
        "tricks": [1, 4, 4, 4],
        "diamonds": [1, 4, 4, 4],
        "queens": {"S": 1, "H": 2, "D": 0, "C": 3},
        "king_of_hearts": 1,
        "doubled_by": {"D": 3},
    }
    trix = {"contract": "trix", "order": [0, 1, 2, 3]}
    for rule, taker, doubler in (("queen", -15 - 60, -125 + 25), ("whole", -15 - 70, -125 + 35)):
        data = record(
            [trix, deal], game="trix-complex", house_rules={"doubled_queen_of_diamonds": rule}
        )
        done = run(write(data))
        assert (done.returncode, done.stderr) == (0, "")
        scores = json.loads(done.stdout)["deals"][1]["scores"]
        assert (scores[0], scores[3]) == (taker, doubler)


def test_whole_queen_of_diamonds_taken_by_its_doubler(write: Any) -> None:
    """docs/rules.md, Trix Complex: under "whole" a doubler who takes their own Q♦ nets −35 with
    doubled_self_take "net" (−70 + 35) and −70 with "full"."""
    deal = {
        "contract": "complex",
        "tricks": [1, 4, 4, 4],
        "diamonds": [1, 4, 4, 4],
        "queens": {"S": 1, "H": 2, "D": 0, "C": 3},
        "king_of_hearts": 1,
        "doubled_by": {"D": 0},
    }
    trix = {"contract": "trix", "order": [0, 1, 2, 3]}
    for self_take, own in (("net", -35), ("full", -70)):
        data = record(
            [trix, deal],
            game="trix-complex",
            house_rules={"doubled_queen_of_diamonds": "whole", "doubled_self_take": self_take},
        )
        done = run(write(data))
        assert (done.returncode, done.stderr) == (0, "")
        assert json.loads(done.stdout)["deals"][1]["scores"][0] == -15 + own


# --- invalid records (exit 1) -------------------------------------------------------------------


def test_diamonds_that_do_not_add_up(write: Any) -> None:
    done = run(write(DIAMONDS_12))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "deal 3 (diamonds): counts add up to 12; there are 13 diamonds\n"


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            record(
                [
                    {"contract": "king-of-hearts", "taker": 1},
                    {"contract": "king-of-hearts", "taker": 2},
                ]
            ),
            "deal 2 (king-of-hearts): contract: this contract was already played in this kingdom",
        ),
        (
            record([{"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]}]),
            "deal 1 (trump): contract: there is no such contract in this game",
        ),
        (
            record([{"contract": "ltoosh", "tricks": [4, 3, 3, 3], "doubled_by": 1}]),
            "deal 1 (ltoosh): doubled_by is not a field of this record",
        ),
        (
            record([{"contract": "trix", "order": [0, 1, 2, 4]}]),
            "deal 1 (trix): order[3] must be a seat from 0 to 3",
        ),
        (
            record([{"contract": "diamonds", "counts": [3, 4, 5, 1.0]}]),
            "deal 1 (diamonds): counts[3] must be a whole number",
        ),
        (
            record(
                [{"contract": "king-of-hearts", "taker": 1, "doubled_by": 2}],
                house_rules={"doubling": False},
            ),
            "deal 1 (king-of-hearts): doubled_by: doubling is switched off in this game",
        ),
        (
            record([{"contract": "no-king", "taker": 1}] * 3, game="turkish-king"),
            "deal 3 (no-king): contract: this negative contract was already played twice",
        ),
        (
            record([{"contract": "diamonds", "counts": [3, 4, 5, 1], "scores": [0, 0, 0, 0]}]),
            "deal 1 (diamonds): scores does not match what the rules compute",
        ),
        (
            record([], players=["Rami", "Lina", "rami ", "Dana"]),
            "players[2]: two players cannot have the same name",
        ),
        (
            record([], game="turkish-king", mode="partnership"),
            "mode: Turkish King is played solo only",
        ),
        (record([], colour="red"), "colour is not a field of this record"),
        (
            record([], created_at="0001-01-01T00:00:00+14:00"),
            "created_at must be a date and time with its UTC offset, within the years 1 to 9999",
        ),
        (
            record([], updated_at="9999-12-31T23:00:00-05:00"),
            "updated_at must be a date and time with its UTC offset, within the years 1 to 9999",
        ),
        (
            record([], players=["Rami", "\u202eLina", "Omar", "Dana"]),
            "players[1]: a name cannot hold control characters or direction overrides",
        ),
        (
            record([], players=["Rami", "Lina", "Om\u0000ar", "Dana"]),
            "players[2]: a name cannot hold control characters or direction overrides",
        ),
        (
            record([], players=["\u001b[31mRami", "Lina", "Omar", "Dana"]),
            "players[0]: a name cannot hold control characters or direction overrides",
        ),
        (
            record([], players=["Rami", "Lina", "Omar", "\u200b \u2060"]),
            "players[3]: every player needs a name",
        ),
        (record([], notes="x" * 2001), "notes: at most 2000 characters"),
        (record([], name="x" * 81), "name: at most 80 characters"),
        (record([], totals=[0, 0, 0, 1]), "totals does not match what the rules compute"),
        (
            record([], game="turkish-king", house_rules={"winners": "most"}),
            "house_rules.winners must be highest or positive",
        ),
        (
            record([], game="trix-complex", house_rules={"doubled_queen_of_diamonds": "double"}),
            "house_rules.doubled_queen_of_diamonds must be queen or whole",
        ),
        (
            record([], house_rules={"winners": "positive"}),
            "house_rules.winners does not apply to this game",
        ),
        (
            record([], game="turkish-king", house_rules={"doubled_queen_of_diamonds": "whole"}),
            "house_rules.doubled_queen_of_diamonds does not apply to this game",
        ),
    ],
)
def test_invalid_record_one_line(write: Any, data: dict[str, Any], line: str) -> None:
    done = run(write(data))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == line + "\n"


def test_a_refusal_stays_on_one_line(write: Any) -> None:
    done = run(write(record([], **{"odd\nkey\u2028here": 1})))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")
    assert len(done.stderr.splitlines()) == 1
    assert "is not a field of this record" in done.stderr


def test_duplicate_key_from_standard_input() -> None:
    text = json.dumps(DIAMONDS_12).replace('"first": 0', '"first": 0, "first": 1')
    done = run("-", stdin=text.encode())
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "first appears twice\n")


# --- not a game record (exit 2) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "not json",
        "{",
        "[]",
        "42",
        '"x"',
        "null",
        '{"format": "scorekeeper-game/1", "game": "trix", "first": NaN}',
        '{"format": "scorekeeper-game/1", "game": "trix", "first": Infinity}',
        '{"game": "trix"}',
        '{"format": "scorekeeper-game/2"}',
    ],
)
def test_not_a_game_record(write: Any, text: str) -> None:
    done = run(write(text))
    assert (done.returncode, done.stdout) == (2, "")
    assert len(done.stderr.splitlines()) == 1


def test_not_a_game_record_from_standard_input() -> None:
    done = run("-", stdin=b"\xff\xfe not utf-8")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("not JSON")


def test_missing_file(tmp_path: Path) -> None:
    done = run(str(tmp_path / "nowhere.json"))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("cannot read")


# --- in process -----------------------------------------------------------------------------------


def test_main_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES / "trix-complex-solo-complete.json")]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    expected = json.loads((EXAMPLES / "trix-complex-solo-complete.check.json").read_text())
    assert json.loads(out) == expected


def test_main_invalid(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write(DIAMONDS_12)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "deal 3 (diamonds): counts add up to 12; there are 13 diamonds\n")


def test_one_person_in_two_unicode_forms_is_refused(
    write: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # composed, and with a combining accent: the statistics count one person, so does check
    data = record([], players=["\u00c9mile", "Lina", "Omar", "E\u0301mile"])
    assert main(["check", write(data)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", "players[3]: two players cannot have the same name\n")


def test_main_not_a_record(write: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", write("[1, 2, 3]")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "not an object" in err


def test_main_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    data = json.dumps(DIAMONDS_12).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["check", "-"]) == 1
    assert capsys.readouterr().err.startswith("deal 3 (diamonds): ")


def test_check_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["check"])
    assert caught.value.code == 2


def test_complex_tricks_penalty_worked_example(write: Any) -> None:
    """docs/rules.md, Trix Complex, house rule complex_tricks "penalty": its worked example."""
    worked = {
        "contract": "complex",
        "tricks": [3, 2, 0, 1],
        "diamonds": [6, 4, 0, 3],
        "queens": {"S": 0, "H": 0, "D": 1, "C": 1},
        "king_of_hearts": 3,
    }
    trix = {"contract": "trix", "order": [0, 1, 2, 3]}
    data = record([trix, worked], game="trix-complex", house_rules={"complex_tricks": "penalty"})
    done = run(write(data))
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["deals"][1]["scores"] == [-155, -120, 0, -120]
    # the same counts read as every trick: refused, exit 1, one line naming the deal
    done = run(write(record([trix, worked], game="trix-complex")))
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "deal 2 (complex): tricks add up to 6; there are 13 tricks\n"
    over = {**worked, "tricks": [3, 6, 0, 1]}
    done = run(
        write(record([trix, over], game="trix-complex", house_rules={"complex_tricks": "penalty"}))
    )
    assert done.returncode == 1
    assert done.stderr == (
        "deal 2 (complex): tricks[1]: 6 tricks held a penalty card, but the "
        "player took 5 penalty cards\n"
    )


HEAVY_FOR_A_CHECK = (
    "argparse",  # the whole command line's parser, and through it:
    "shutil",
    "lzma",
    "bz2",
    "gettext",
    "locale",
    "flask",
    "sqlalchemy",
    "werkzeug",
    "jinja2",
)


def test_check_loads_the_engine_alone() -> None:
    """`scorekeeper check FILE` imports the engine and the few standard modules it uses: no
    web stack, and not even the command line's parser (whose help formatting brought shutil,
    and with it the compression modules, into every check)."""
    record = CHECKOUT / "tests" / "data" / "trix-solo-complete.json"
    probe = (
        "import sys, io, contextlib\n"
        "before = set(sys.modules)\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['check', {str(record)!r}]) == 0\n"
        "print('\\n'.join(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", probe],  # -S: nothing imported before, by site or a .pth
        env={**os.environ, "PYTHONPATH": str(CHECKOUT)},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = done.stdout.split()
    assert "scorekeeper.rules.replay" in loaded  # (the probe saw the check's imports)
    heavy = [name for name in loaded if name.split(".")[0] in HEAVY_FOR_A_CHECK]
    assert heavy == [], heavy
