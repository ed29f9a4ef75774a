"""The statistics as CSV (scorekeeper.words.stats_export): the figures of compute(), translated
headers, formulas neutralised, numbers left as numbers."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest

from scorekeeper.stats import compute
from scorekeeper.words.stats_export import stats_csv, stats_csv_filename, stats_csv_rows
from tests.rules.builders import TURKISH_GAME
from tests.stats.records import trix, turkish, unfinished_trix


def parse(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def tables(rows: list[list[str]]) -> list[list[list[str]]]:
    """The three tables, split at the blank rows."""
    found: list[list[list[str]]] = [[]]
    for row in rows:
        if row:
            found[-1].append(row)
        else:
            found.append([])
    return found


def test_standings_contracts_and_partnerships() -> None:
    stats = compute([trix(mode="partnership"), unfinished_trix(), turkish(TURKISH_GAME)])
    standings, contracts, partnerships = tables(parse(stats_csv(stats)))
    assert standings[0][:7] == ["Game", "Player", "Games", "Finished", "Wins", "Win rate (%)",
                                "Points"]
    omar = next(row for row in standings if row[:2] == ["All games", "Omar"])
    # his own totals: 420 in the Trix he won with Rami, -360 in Turkish King
    assert omar[2:7] == ["3", "2", "1", "50", "60"]
    lina = next(row for row in standings if row[:2] == ["Turkish King", "Lina"])
    assert lina[2:7] == ["1", "1", "1", "100", "280"]
    assert any(row[:2] == ["Trix", "Rami"] for row in standings)
    header = contracts[0]
    king = next(row for row in contracts if row[:2] == ["Lina", "King of Hearts"])
    assert king[2:4] == ["5", "-375"]  # 4 + 1 deals of Trix, every K♥ hers
    assert king[header.index("K♥ per deal")] == "1.00"
    assert king[header.index("Queens per deal")] == ""
    assert king[header.index("Doubles")] == "0"
    trix_row = next(row for row in contracts if row[:2] == ["Omar", "Trix"])
    assert trix_row[header.index("Average place")] == "1.00"
    assert trix_row[header.index("Doubles")] == ""  # nothing to double in Trix
    trump = next(row for row in contracts if row[:2] == ["Rami", "Trump"])
    assert (trump[2:4], trump[header.index("Tricks per deal")]) == (["8", "1600"], "4.00")
    assert partnerships[0] == ["Partnership", "Games", "Finished", "Wins", "Win rate (%)",
                               "Points"]
    assert partnerships[1:] == [["Omar & Rami", "1", "1", "1", "100", "560"],
                                ["Dana & Lina", "1", "1", "0", "0", "-560"]]


def test_rows_are_the_stats_figures() -> None:
    stats = compute([trix(), unfinished_trix()])
    rows = stats_csv_rows(stats)
    lina = next(row for row in rows if row[:2] == ["All games", "Lina"])
    assert lina[2:7] == [2, 1, 0, 0, -640]


def test_headers_and_labels_go_through_translate() -> None:
    rows = parse(stats_csv(compute([trix(mode="partnership")]), lambda text: f"<{text}>"))
    standings, contracts, partnerships = tables(rows)
    assert standings[0][0] == "<Game>"
    assert standings[1][0] == "<All games>"
    assert any(row[0] == "<Trix>" for row in standings)
    assert contracts[0][4] == "<K♥ per deal>"
    assert contracts[1][1] == "<King of Hearts>"
    assert partnerships[1][0] == "<Omar & Rami>"


DANGEROUS = ("=HYPERLINK(\"http://x\")", "+1+2", "-3+4", "@SUM(A1)")


def test_formula_injection_is_neutralised() -> None:
    stats = compute([trix(list(DANGEROUS), mode="partnership")])
    rows = parse(stats_csv(stats))
    number = re.compile(r"-?\d+(\.\d+)?")
    names = {row[1] for row in tables(rows)[0][1:]}
    assert names == {f"'{name}" for name in DANGEROUS}
    for row in rows:
        for cell in row:
            if not number.fullmatch(cell):
                assert not cell.lstrip(" ").startswith(("=", "+", "-", "@")), cell
    # negative points stay numbers a spreadsheet can add up
    assert any(cell.startswith("-") and number.fullmatch(cell) for row in rows for cell in row)


def test_no_games_leaves_the_headers() -> None:
    rows = parse(stats_csv(compute([])))
    assert [len(table) for table in tables(rows)] == [1, 1, 1]


def test_arabic_names_survive_as_utf8() -> None:
    text = stats_csv(compute([trix(["سامي", "ليلى", "عمر", "دانة"])]))
    assert "سامي" in text.encode("utf-8").decode("utf-8-sig")


@pytest.mark.parametrize(("name", "file"), [
    ("Thursdays at Karim's", "thursdays-at-karims-statistics-2025-01-31.csv"),
    ("سهرة الخميس", "table-statistics-2025-01-31.csv"),
    (None, "table-statistics-2025-01-31.csv"),
    ("../../etc", "etc-statistics-2025-01-31.csv"),
])
def test_file_name(name: str | None, file: str) -> None:
    assert stats_csv_filename(name, date(2025, 1, 31)) == file
