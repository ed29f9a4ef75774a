"""The running-wins chart (scorekeeper.words.wins_chart): a CSP-safe SVG with a text alternative,
mirrored for right-to-left pages, drawn from compute()'s running wins."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from scorekeeper.stats import RunningLine, RunningWins, TableStats, compute
from scorekeeper.words.wins_chart import (
    MAX_LINES,
    MAX_POINTS,
    SPREAD,
    running_wins_summary,
    running_wins_svg,
    win_ticks,
)
from tests.rules.builders import TURKISH_GAME
from tests.stats.records import trix, turkish

SVG = "{http://www.w3.org/2000/svg}"
WIDTH = 360
OMAR_WINS = ["Rami", "Lina", "Omar", "Dana"]
RAMI_WINS = ["Omar", "Lina", "Rami", "Dana"]


def table() -> TableStats:
    return compute(
        [
            trix(OMAR_WINS, created_at="2025-01-01T20:00:00"),
            trix(RAMI_WINS, created_at="2025-01-02T20:00:00"),
            trix(OMAR_WINS, created_at="2025-01-03T20:00:00"),
            turkish(TURKISH_GAME, created_at="2025-01-04T20:00:00"),  # Lina and Dana share
        ]
    )


def series(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}polyline") if "series" in e.get("class", "").split()]


def points(line: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y))
        for x, y in (pair.split(",") for pair in line.get("points", "").split())
    ]


def test_a_line_per_player_from_zero() -> None:
    stats = table()
    root = ET.fromstring(running_wins_svg(stats.running))
    lines = series(root)
    assert [line.findtext(f"{SVG}title") for line in lines] == [p.name for p in stats.players]
    omar = points(lines[0])
    assert len(omar) == 5  # before the first game, then after each of the four
    # lines that meet are spread a few pixels around their height (none hides another)
    near = 3 * SPREAD  # four lines at most meet
    ys = [y for _, y in omar]
    assert ys[0] > ys[1] + near and abs(ys[1] - ys[2]) <= near  # wins games 1 and 3
    assert ys[2] > ys[3] + near and abs(ys[3] - ys[4]) <= near  # (y grows downwards)
    (lina_line,) = [line for line in lines if line.findtext(f"{SVG}title") == "Lina"]
    lina = [y for _, y in points(lina_line)]
    assert all(abs(y - ys[0]) <= near for y in lina[:4])  # on the zero line until her win
    assert abs(lina[4] - ys[1]) <= near
    xs = [x for x, _ in omar]
    assert xs == sorted(xs)


def test_text_alternative() -> None:
    stats = table()
    root = ET.fromstring(running_wins_svg(stats.running))
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text == "Wins over time"
    assert desc is not None
    # equal wins keep the standings' order (Trix and King points never added up: by name)
    assert desc.text == "Wins after game 4: Omar 2, Dana 1, Lina 1, Rami 1"
    assert desc.text == running_wins_summary(stats.running)
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")


def test_translate_reaches_every_word() -> None:
    def french(text: str) -> str:
        return {
            "Wins after game {number}: {wins}": "Victoires après la partie {number} : {wins}",
            "Wins over time": "Victoires",
        }.get(text, text)

    root = ET.fromstring(running_wins_svg(table().running, french))
    assert root.findtext(f"{SVG}title") == "Victoires"
    assert (root.findtext(f"{SVG}desc") or "").startswith("Victoires après la partie 4 : Omar 2")


def test_no_finished_games() -> None:
    empty = RunningWins((), (RunningLine("rami", "Rami", ()),))
    root = ET.fromstring(running_wins_svg(empty))
    assert series(root) == []
    notes = [e for e in root.iter(f"{SVG}text") if e.get("class") == "note"]
    assert [note.text for note in notes] == ["No finished games yet."]
    assert root.findtext(f"{SVG}desc") == "No finished games yet."
    assert running_wins_summary(compute([]).running) == "No finished games yet."


@pytest.mark.parametrize("rtl", [False, True])
def test_no_script_no_inline_style(rtl: bool) -> None:
    stats = compute([trix(["<script>alert(1)</script>", 'a" onload="x', "Omar", "Dana"])])
    text = running_wins_svg(stats.running, rtl=rtl)
    root = ET.fromstring(text)  # names escaped: still well-formed
    assert "style=" not in text and "<script" not in text.lower()
    assert not any(name.startswith("on") for e in root.iter() for name in e.attrib)
    assert "<script>alert(1)</script>" in "".join(root.itertext())


def test_rtl_mirrors_the_x_axis() -> None:
    running = table().running
    ltr = series(ET.fromstring(running_wins_svg(running)))
    rtl = series(ET.fromstring(running_wins_svg(running, rtl=True)))
    for a, b in zip(ltr, rtl, strict=True):
        for (x1, y1), (x2, y2) in zip(points(a), points(b), strict=True):
            assert x2 == pytest.approx(WIDTH - x1, abs=0.01)
            assert y1 == y2


def test_ids_are_prefixed_and_unique() -> None:
    text = running_wins_svg(table().running, id_prefix="table-3")
    root = ET.fromstring(text)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert ids and len(ids) == len(set(ids)) and all(str(i).startswith("table-3-") for i in ids)
    assert all(ref in ids for ref in re.findall(r"url\(#([^)]+)\)", text))
    with pytest.raises(ValueError, match="id_prefix"):
        running_wins_svg(table().running, id_prefix='x" onload="y')


def test_many_players_many_games() -> None:
    names = [f"P{i}" for i in range(12)]
    lines = tuple(
        RunningLine(name.lower(), name, tuple(range(1, 501)) if i == 0 else (0,) * 500)
        for i, name in enumerate(names)
    )
    running = RunningWins((None,) * 500, lines)
    root = ET.fromstring(running_wins_svg(running))
    drawn = series(root)
    assert len(drawn) == MAX_LINES
    assert all(len(points(line)) <= MAX_POINTS + 1 for line in drawn)
    looks = {(line.get("stroke"), line.get("stroke-dasharray")) for line in drawn}
    assert len(looks) == MAX_LINES  # colour and dash pattern tell every line apart
    desc = root.findtext(f"{SVG}desc") or ""
    assert "P11 0" in desc and desc.endswith(" The chart draws only the top of the standings.")
    assert desc.startswith("Wins after game 500: P0 500")


@pytest.mark.parametrize(
    ("high", "ticks"),
    [
        (0, [0, 1]),
        (1, [0, 1]),
        (3, [0, 1, 2, 3]),
        (7, [0, 2, 4, 6, 8]),
        (23, [0, 5, 10, 15, 20, 25]),
        (400, [0, 100, 200, 300, 400]),
    ],
)
def test_win_ticks(high: int, ticks: list[int]) -> None:
    assert win_ticks(high) == ticks


def test_the_summary_lists_players_with_the_readers_comma() -> None:
    """Arabic lists with "،", as the game chart's caption does (the catalogue's ", ")."""
    from scorekeeper.stats.model import RunningLine, RunningWins
    from scorekeeper.words.labels import LIST_SEPARATOR
    from scorekeeper.words.wins_chart import running_wins_summary

    running = RunningWins(
        times=(None, None),
        lines=(RunningLine("a", "Rami", (1, 2)), RunningLine("b", "Lina", (0, 1))),
    )
    arabic = {LIST_SEPARATOR: "، "}
    summary = running_wins_summary(running, lambda text: arabic.get(text, text))
    assert "Rami 2، Lina 1" in summary


def test_lines_that_meet_are_drawn_side_by_side_not_one_over_another() -> None:
    """Two players with the same wins after every game (issue 24 item 6): both lines show."""
    running = RunningWins(
        times=("2025-01-01", "2025-01-02"),
        lines=(
            RunningLine("a", "Omar", (1, 2)),
            RunningLine("b", "Sami", (1, 2)),
            RunningLine("c", "Dana", (0, 0)),
            RunningLine("d", "Lina", (0, 0)),
        ),
    )
    drawn = [e.get("points") for e in series(ET.fromstring(running_wins_svg(running)))]
    assert len(set(drawn)) == 4, drawn  # no two lines on the same pixels
    for first, second in ((0, 1), (2, 3)):
        a = [tuple(map(float, p.split(","))) for p in (drawn[first] or "").split()]
        b = [tuple(map(float, p.split(","))) for p in (drawn[second] or "").split()]
        # beside each other, a few pixels apart: still read at the same number of wins
        assert all(
            0 < abs(pa[1] - pb[1]) <= 4 and pa[0] == pb[0] for pa, pb in zip(a, b, strict=True)
        )
