"""The night's shared text and the evening's CSV tables (nights, ratings, rivals, who takes
what), on the small history of tests/stats/evening_history.py."""

from __future__ import annotations

import csv
import io

from scorekeeper.stats import combine, compute
from scorekeeper.words.night_share import night_text, places, points_text
from scorekeeper.words.stats_export import stats_csv, stats_csv_rows
from tests.stats.evening_history import HISTORY, TIED


def test_night_points_are_written_with_halves() -> None:
    assert [points_text(halves) for halves in (0, 1, 2, 9, 11)] == ["0", "½", "1", "4½", "5½"]


def test_a_shared_night_lists_places_with_ties_sharing_one() -> None:
    first = compute(HISTORY).nights[0]
    assert places(first) == [1, 1, 3, 4, 5]  # Rami and Lina both 4½
    text = night_text(first, "Majlis · Night of 2025-03-06")
    assert text.split("\n") == [
        "Majlis · Night of 2025-03-06",
        "1. Rami 4½",
        "1. Lina 4½",
        "3. Dana 4",
        "4. Omar 3½",
        "5. Sami 1½",
        "Points by place in each game: 3, 2, 1, 0; a tie shares them.",
    ]
    rtl = night_text(first, "T", lambda text: text.upper(), rtl=True).split("\n")
    assert all(line.startswith("\u200f") for line in rtl)
    assert rtl[1] == "\u200f1. Rami\u200f \u200e4½\u200e"  # a Latin name closed, ½ after 4
    assert rtl[-1] == "\u200fPOINTS BY PLACE IN EACH GAME: 3, 2, 1, 0; A TIE SHARES THEM."


def test_the_nights_file() -> None:
    rows = stats_csv_rows(compute(HISTORY), table="nights")
    assert rows[0] == [
        "Night",
        "Date",
        "Games played",
        "Player",
        "Night points",
        "Wins",
        "Games",
        "Finished",
    ]
    assert rows[1] == [1, "2025-03-06", "Trix", "Rami", "4.5", 1, 2, 2]
    assert rows[6] == [2, "2025-03-07", "Turkish King, Trix", "Sami", "5.5", 2, 3, 2]
    assert len(rows) == 1 + 5 + 5


def test_the_ratings_file_keeps_a_hidden_rating_empty() -> None:
    rows = stats_csv_rows(compute(HISTORY, rated=True), table="ratings")
    assert rows[0] == ["Player", "Rating", "Rated games"]
    assert rows[1][0] == "Omar" and isinstance(rows[1][1], int) and rows[1][2] == 5
    assert [row[1] for row in rows[2:]] == ["", "", "", ""]  # fewer than five games: hidden


def test_the_rivals_and_leaders_files() -> None:
    stats = compute(HISTORY)
    rivals = list(csv.reader(io.StringIO(stats_csv(stats, table="rivals").lstrip("\ufeff"))))
    assert rivals[0][:5] == [
        "Mode",
        "Player",
        "Finishes ahead of most often",
        "Games together",
        "Ahead",
    ]
    assert rivals[0][5:12] == [
        "Behind",
        "Level",
        "Finishes behind most often",
        "Games together",
        "Ahead",
        "Behind",
        "Level",
    ]
    # Rami finishes ahead of nobody more often than behind; behind Omar 3 of 3
    rami = next(row for row in rivals if row[:2] == ["Solo", "Rami"])
    assert rami[2:12] == ["", "", "", "", "", "Omar", "3", "0", "3", "0"]
    leaders = stats_csv_rows(stats, table="leaders")
    assert ["Solo", "Trump", "Tricks per deal", "Omar", 8, "4.00"] in leaders
    assert ["Solo", "Trix", "Average place", "Dana", 12, "2.00"] in leaders


def test_the_rivals_file_names_everyone_tied() -> None:
    rows = stats_csv_rows(combine(TIED), table="rivals")
    lina = next(row for row in rows if row[:2] == ["Solo", "Lina"])
    # nobody she is ahead of more often; Dana and Omar share the most she is behind
    assert lina[2:12] == ["", "", "", "", "", "Dana, Omar", 6, 1, 3, 2]
