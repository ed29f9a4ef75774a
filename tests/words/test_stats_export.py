"""The statistics as CSV (scorekeeper.words.stats_export): one file per table (standings,
contracts, partnerships), each one table a spreadsheet opens whole, without empty columns; the
figures of compute(), translated headers and file names, formulas neutralised, numbers left as
numbers."""

from __future__ import annotations

import csv
import io
import re
from datetime import date

import pytest

from scorekeeper.stats import compute
from scorekeeper.words.stats_export import (
    TABLES,
    stats_csv,
    stats_csv_filename,
    stats_csv_rows,
    stats_unicode_filename,
)
from tests.rules.builders import TURKISH_GAME
from tests.stats.records import trix, turkish, unfinished_trix

RAMI_WINS = ["Omar", "Lina", "Rami", "Dana"]


def parse(text: str) -> list[list[str]]:
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def tables(stats, translate=lambda text: text):  # type: ignore[no-untyped-def]
    """The three files, parsed: each must be one table (a header, rows as wide, no blank row)."""
    found = []
    for table in ("standings", "contracts", "partnerships"):
        rows = parse(stats_csv(stats, translate, table))
        assert rows and all(len(row) == len(rows[0]) for row in rows), table
        found.append(rows)
    return found


def test_standings_contracts_and_partnerships() -> None:
    stats = compute([trix(mode="partnership"), unfinished_trix(), turkish(TURKISH_GAME)])
    standings, contracts, partnerships = tables(stats)
    assert standings[0][:7] == [
        "Game",
        "Player",
        "Games",
        "Finished",
        "Wins",
        "Win rate (%)",
        "Points",
    ]
    omar = next(row for row in standings if row[:2] == ["All games", "Omar"])
    # his own totals, 420 in the Trix he won with Rami and -360 in Turkish King, are never
    # added up: no points for all games together
    assert omar[2:7] == ["3", "2", "1", "50", ""]
    assert next(row for row in standings if row[:2] == ["Trix", "Omar"])[6] == "420"
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
    assert partnerships[0] == ["Partnership", "Games", "Finished", "Wins", "Win rate (%)", "Points"]
    assert partnerships[1:] == [
        ["Omar & Rami", "1", "1", "1", "100", "560"],
        ["Dana & Lina", "1", "1", "0", "0", "-560"],
    ]


def test_rows_are_the_stats_figures() -> None:
    stats = compute([trix(), unfinished_trix()])
    rows = stats_csv_rows(stats)
    # one kind of game played: its rows, not the same rows again as "All games"
    assert not any(row[0] == "All games" for row in rows)
    lina = next(row for row in rows if row[:2] == ["Trix", "Lina"])
    assert lina[2:7] == [2, 1, 0, 0, -640]


def test_headers_and_labels_go_through_translate() -> None:
    standings, contracts, partnerships = tables(
        compute([trix(mode="partnership")]), lambda text: f"<{text}>"
    )
    assert standings[0][0] == "<Game>"
    assert standings[1][0] == "<Trix>"
    assert contracts[0][4] == "<K♥ per deal>"
    assert contracts[1][1] == "<King of Hearts>"
    assert partnerships[1][0] == "<Omar & Rami>"


DANGEROUS = ('=HYPERLINK("http://x")', "+1+2", "-3+4", "@SUM(A1)")


def test_formula_injection_is_neutralised() -> None:
    stats = compute([trix(list(DANGEROUS), mode="partnership")])
    found = tables(stats)
    rows = [row for table in found for row in table]
    number = re.compile(r"-?\d+(\.\d+)?")
    names = {row[1] for row in found[0][1:]}
    assert names == {f"'{name}" for name in DANGEROUS}
    for row in rows:
        for cell in row:
            if not number.fullmatch(cell):
                assert not cell.lstrip(" ").startswith(("=", "+", "-", "@")), cell
    # negative points stay numbers a spreadsheet can add up
    assert any(cell.startswith("-") and number.fullmatch(cell) for row in rows for cell in row)


def test_no_games_leaves_the_headers() -> None:
    assert [len(table) for table in tables(compute([]))] == [1, 1, 1]


def test_arabic_names_survive_as_utf8() -> None:
    text = stats_csv(compute([trix(["سامي", "ليلى", "عمر", "دانة"])]))
    assert "سامي" in text.encode("utf-8").decode("utf-8-sig")


@pytest.mark.parametrize(
    ("name", "file"),
    [
        ("Thursdays at Karim's", "thursdays-at-karims-standings-2025-01-31.csv"),
        ("سهرة الخميس", "table-standings-2025-01-31.csv"),
        (None, "table-standings-2025-01-31.csv"),
        ("../../etc", "etc-standings-2025-01-31.csv"),
    ],
)
def test_file_name(name: str | None, file: str) -> None:
    assert stats_csv_filename(name, date(2025, 1, 31)) == file


def test_file_names_in_the_readers_words() -> None:
    """Issue 24 item 9: "Perşembe-Sıralama-…" under a Turkish interface, not "…-standings"."""
    words = {"Standings": "Sıralama", "Contracts": "Kontratlar", "Partnerships": "الشراكات"}

    def turkish(text: str) -> str:
        return words.get(text, text)

    day = date(2025, 1, 31)
    assert stats_csv_filename("Perşembe", day, "standings", turkish) == (
        "persembe-siralama-2025-01-31.csv"
    )
    assert stats_unicode_filename("Perşembe", day, "contracts", turkish) == (
        "Perşembe-Kontratlar-2025-01-31.csv"
    )
    # a word with no Latin letters: the ASCII name says the table in English
    assert stats_csv_filename("Perşembe", day, "partnerships", turkish) == (
        "persembe-partnerships-2025-01-31.csv"
    )
    assert stats_unicode_filename("Perşembe", day, "partnerships", turkish) == (
        "Perşembe-الشراكات-2025-01-31.csv"
    )
    assert set(TABLES) == {
        "standings",
        "contracts",
        "partnerships",
        *("nights", "ratings", "rivals", "leaders"),  # the evening's (issue 34)
    }
    assert stats_csv_filename("Perşembe", day, "leaders") == (
        "persembe-who-takes-what-2025-01-31.csv"
    )


def test_a_trix_only_table_has_no_king_columns_and_no_empty_column() -> None:
    """Issue 24 item 9: no column that no row fills."""
    standings, contracts, partnerships = tables(
        compute([trix(mode="partnership"), trix(RAMI_WINS), unfinished_trix()])
    )
    for table in (standings, contracts, partnerships):
        header, body = table[0], table[1:]
        assert body
        for index, title in enumerate(header):
            assert any(row[index] != "" for row in body), title
    contracts = tables(compute([trix()]))[1][0]
    for king_only in ("Hearts per deal", "Kings and jacks per deal", "Last two tricks per deal"):
        assert king_only not in contracts
    assert "K♥ per deal" in contracts and "Average place" in contracts
