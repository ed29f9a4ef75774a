"""The CSV and JSON exports of a game and their file names (scorekeeper.exports)."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from dataclasses import replace
from datetime import date
from itertools import accumulate
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import Record, load_record, replay
from scorekeeper.words.exports import (
    BOM,
    csv_filename,
    csv_text,
    export_json,
    json_filename,
    neutralise,
    slug,
    unicode_filename,
)

# the example records of docs/record-format.md
EXAMPLES = Path(__file__).parents[1] / "rules" / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".check.json"))
FIXED_COLUMNS = 5  # deal, kingdom, king, contract, takes; or deal, declarer, contract, suit, takes
TODAY = date(2025, 1, 31)


def load(path: Path) -> Record:
    return load_record(path.read_bytes())


def expected(path: Path) -> dict[str, Any]:
    """What `scorekeeper check` prints for the example: an oracle written apart from the code."""
    result: dict[str, Any] = json.loads(path.with_name(path.stem + ".check.json").read_text())
    return result


def parse(text: str) -> list[list[str]]:
    assert text.startswith(BOM)
    return list(csv.reader(io.StringIO(text[len(BOM) :], newline="")))


def test_there_are_examples() -> None:
    assert len(RECORDS) >= 5


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_csv_of_every_example(path: Path) -> None:
    record, check = load(path), expected(path)
    players = list(record.game.players)
    partnership = record.game.mode == "partnership"
    text = csv_text(record)
    assert text[0] == "\ufeff" and text[1] != "\ufeff"
    rows = parse(text)
    header, deals, totals = rows[0], rows[1:-1], rows[-1]
    assert len(deals) == len(check["deals"]) == len(record.game.deals)
    width = FIXED_COLUMNS + 8 + (2 if partnership else 0)
    assert all(len(row) == width for row in rows)

    assert header[FIXED_COLUMNS : FIXED_COLUMNS + 4] == players
    assert header[FIXED_COLUMNS + 4 : FIXED_COLUMNS + 8] == [f"Total {name}" for name in players]
    if partnership:
        assert header[-2:] == [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]

    running = list(
        accumulate(
            (entry["scores"] for entry in check["deals"]),
            lambda a, b: [x + y for x, y in zip(a, b, strict=True)],
        )
    )
    for row, entry, total in zip(deals, check["deals"], running, strict=True):
        assert int(row[0]) == entry["number"]
        if record.game.definition.kingdoms:
            assert row[1] == str(entry["kingdom"] + 1)
            assert row[2] == players[entry["chooser"]]
        else:
            assert row[1] == players[entry["chooser"]]
        assert row[FIXED_COLUMNS - 1]  # the takes
        scores = [int(cell) for cell in row[FIXED_COLUMNS:]]
        assert scores[:4] == entry["scores"]
        assert scores[4:8] == total
        if partnership:
            assert scores[8:] == [total[0] + total[2], total[1] + total[3]]

    assert totals[0] == "Total" and totals[1:FIXED_COLUMNS] == [""] * (FIXED_COLUMNS - 1)
    numbers = [int(cell) for cell in totals[FIXED_COLUMNS:]]
    assert numbers[:4] == check["totals"] == numbers[4:8]
    if partnership:
        assert numbers[8:] == check["team_totals"]
    else:
        assert check["team_totals"] is None


def test_trump_column_names_the_suit_only_in_trump_deals() -> None:
    record = load(EXAMPLES / "turkish-king-complete.json")
    rows = parse(csv_text(record))[1:-1]
    for row, deal in zip(rows, record.game.deals, strict=True):
        if deal.contract == "trump":
            suit = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
            assert row[3] == suit[deal.text("suit")]
            assert row[2] == "Trump"
        else:
            assert row[3] == ""


def test_each_game_has_only_its_own_columns() -> None:
    """No empty column from another game: no kingdom in Turkish King, no trump suit in Trix."""
    header = parse(csv_text(load(EXAMPLES / "turkish-king-complete.json")))[0]
    assert header[:5] == ["Deal", "Declarer", "Contract", "Trump suit", "Takes"]
    for path in RECORDS:
        record = load(path)
        rows = parse(csv_text(record))
        if record.game.definition.kingdoms:
            assert rows[0][:5] == ["Deal", "Kingdom", "King", "Contract", "Takes"]
        for column in range(len(rows[0])):
            assert any(row[column] for row in rows[1:-1]), (path.name, rows[0][column])


def test_takes_carry_no_invisible_direction_marks() -> None:
    """Catalogues isolate names for the screen (FSI…PDI); a CSV cell must not carry them."""
    record = load(EXAMPLES / "trix-complex-solo-complete.json")

    def arabic(text: str) -> str:  # what the Arabic catalogue does to a take
        return text.replace("{taker}", "\u2068{taker}\u2069").replace(
            "{doubler}", "\u2068{doubler}\u2069"
        )

    text = csv_text(record, arabic)
    assert not set(text) & set("\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
    assert any("K♥ " in row[4] for row in parse(text)[1:-1])


def test_csv_words_go_through_translate() -> None:
    record = load(EXAMPLES / "trix-partnership-complete.json")
    rows = parse(csv_text(record, lambda text: f"<{text}>"))
    assert rows[0][:3] == ["<Deal>", "<Kingdom>", "<King>"]
    assert rows[0][FIXED_COLUMNS : FIXED_COLUMNS + 4] == list(record.game.players)
    assert rows[0][FIXED_COLUMNS + 4] == "<Total {name}>".format(name="Rami")
    assert rows[0][-2] == "<Rami & Omar>"
    assert rows[1][3] == "<Queens>"
    assert rows[0][FIXED_COLUMNS - 1] == "<Takes>"
    assert rows[-1][0] == "<Total>"


def test_game_without_deals_has_header_and_zero_totals() -> None:
    record = load(EXAMPLES / "trix-partnership-complete.json")
    empty = replace(record, game=replace(record.game, deals=()))
    rows = parse(csv_text(empty))
    assert len(rows) == 2
    assert rows[1][FIXED_COLUMNS:] == ["0"] * 10


DANGEROUS = ('=HYPERLINK("http://x")', "+1+2", "-3+4", "@SUM(A1)")


def test_formula_injection_is_neutralised() -> None:
    record = load(EXAMPLES / "trix-partnership-complete.json")
    hostile = replace(record, game=replace(record.game, players=DANGEROUS))
    rows = parse(csv_text(hostile))
    assert rows[0][FIXED_COLUMNS : FIXED_COLUMNS + 4] == [f"'{name}" for name in DANGEROUS]
    assert rows[0][-2] == f"'{DANGEROUS[0]} & {DANGEROUS[2]}"
    number = re.compile(r"-?\d+")
    for row in rows:
        for cell in row:
            if not number.fullmatch(cell):
                assert not cell.lstrip(" ").startswith(("=", "+", "-", "@")), cell
    # the chooser column and a Trix order that starts with a hostile name
    assert rows[1][2] == "'" + DANGEROUS[1]
    trix_row = next(row for row in rows[1:-1] if row[3] == "Trix")
    assert trix_row[4].startswith("'")
    # negative scores stay numbers a spreadsheet can add up
    assert any(cell.startswith("-") and number.fullmatch(cell) for cell in rows[-1])


@pytest.mark.parametrize(
    ("cell", "result"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@x", "'@x"),
        ("\t=1", "'\t=1"),
        (" =1", "' =1"),
        ("Rami", "Rami"),
        ("a=b", "a=b"),
        (-150, -150),
        (0, 0),
        ("", ""),
    ],
)
def test_neutralise(cell: str | int, result: str | int) -> None:
    assert neutralise(cell) == result


def test_arabic_names_survive_as_utf8() -> None:
    text = csv_text(load(EXAMPLES / "trix-complex-solo-complete.json"))
    data = text.encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf")
    assert "سامي" in data.decode("utf-8-sig")


# --- file names --------------------------------------------------------------------------------

SAFE_NAME = re.compile(r"[a-z0-9][a-z0-9-]*-2025-01-31\.(csv|json)")


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        (None, "trix"),
        ("Friday night at Rami's", "friday-night-at-ramis"),
        ("Cuma akşamı: Ayşe'nin evi, İstanbul", "cuma-aksami-aysenin-evi-istanbul"),
        ("سهرة الجمعة", "trix"),
        ("   ", "trix"),
        ("../../etc/passwd", "etc-passwd"),
        ("سهرة Rami و Lina", "rami-lina"),
        ("x" * 100, "x" * 40),
        (
            "one two three four five six seven eight nine ten",
            "one-two-three-four-five-six-seven-eight",
        ),
    ],
)
def test_file_names(name: str | None, stem: str) -> None:
    record = replace(load(EXAMPLES / "trix-partnership-complete.json"), name=name)
    assert csv_filename(record, TODAY) == f"{stem}-2025-01-31.csv"
    assert json_filename(record, TODAY) == f"{stem}-2025-01-31.json"
    assert SAFE_NAME.fullmatch(csv_filename(record, TODAY))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_file_names_fall_back_to_the_game(path: Path) -> None:
    record = replace(load(path), name=None)
    assert csv_filename(record, TODAY) == f"{record.game.kind}-2025-01-31.csv"
    assert json_filename(record, date(2024, 12, 1)).endswith("-2024-12-01.json")


@pytest.mark.parametrize(
    ("name", "filename"),
    [
        ("سهرة الجمعة", "سهرة-الجمعة-2025-01-31.csv"),
        ("سَهْرة", "سَهْرة-2025-01-31.csv"),
        ("Cuma akşamı: Ayşe'nin evi", "Cuma-akşamı-Ayşenin-evi-2025-01-31.csv"),
        ("../../etc/passwd", "etc-passwd-2025-01-31.csv"),
        ("शुक्रवार की रात", "शुक्रवार-की-रात-2025-01-31.csv"),
        (None, "trix-2025-01-31.csv"),
        ("  «»  ", "trix-2025-01-31.csv"),
    ],
)
def test_unicode_file_names_keep_the_games_name(name: str | None, filename: str) -> None:
    record = replace(load(EXAMPLES / "trix-partnership-complete.json"), name=name)
    assert unicode_filename(record, TODAY, ".csv") == filename
    assert not set(filename) & set('/\\"\r\n;')


def test_slug_keeps_ascii_only() -> None:
    assert slug("Ayşe & Çağrı — Öğle") == "ayse-cagri-ogle"
    assert slug("مريم") == ""


# --- JSON ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_export_json_round_trips_with_derived_values(path: Path) -> None:
    record, check = load(path), expected(path)
    text = export_json(record)
    data = json.loads(text)
    assert data["totals"] == check["totals"]
    assert data["team_totals"] == check["team_totals"]
    assert [deal["scores"] for deal in data["deals"]] == [d["scores"] for d in check["deals"]]
    again = load_record(text.encode("utf-8"))
    assert again == record
    assert replay(again.game).totals == tuple(check["totals"])


# --- boundaries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "module",
    [
        "scorekeeper.words.labels",
        "scorekeeper.words.takes",
        "scorekeeper.words.exports",
        "scorekeeper.words.chart",
    ],
)
def test_module_imports_no_web_stack(module: str) -> None:
    code = (
        "import sys, importlib; importlib.import_module(sys.argv[1]); "
        "print(' '.join(m for m in ('flask', 'flask_babel', 'sqlalchemy', 'wtforms') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, module], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    ("words", "ascii_name", "unicode_name"),
    [
        ({}, "turkish-king-2025-01-31.csv", "turkish-king-2025-01-31.csv"),
        ({"Turkish King": "King"}, "king-2025-01-31.csv", "king-2025-01-31.csv"),
        ({"Turkish King": "Кинг"}, "turkish-king-2025-01-31.csv", "Кинг-2025-01-31.csv"),
        (
            {"Turkish King": "الكينغ التركي"},
            "turkish-king-2025-01-31.csv",
            "الكينغ-التركي-2025-01-31.csv",
        ),
    ],
)
def test_an_unnamed_games_file_is_named_in_the_readers_words(
    words: dict[str, str], ascii_name: str, unicode_name: str
) -> None:
    """Issue 24 item 9: an unnamed King game under a Turkish interface is "king-…", not
    "turkish-king-…"; a reader whose words have no Latin letters gets them in filename*."""
    record = replace(load(EXAMPLES / "turkish-king-complete.json"), name=None)

    def translate(text: str) -> str:
        return words.get(text, text)

    assert csv_filename(record, TODAY, translate) == ascii_name
    assert unicode_filename(record, TODAY, ".csv", translate) == unicode_name
