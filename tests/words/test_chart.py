"""The running-totals chart and its text alternative (scorekeeper.chart)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import Record, Replay, load_record, replay
from scorekeeper.words.chart import chart_summary, nice_ticks, running_totals_svg

# the example records of docs/record-format.md
EXAMPLES = Path(__file__).parents[1] / "rules" / "examples"
RECORDS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".check.json"))
SVG = "{http://www.w3.org/2000/svg}"
WIDTH = 360


def load(name: str) -> Record:
    return load_record((EXAMPLES / f"{name}.json").read_bytes())


def chart(record: Record, rtl: bool = False, **kwargs: object) -> tuple[str, ET.Element]:
    text = running_totals_svg(replay(record.game), record.game.players, rtl=rtl, **kwargs)  # type: ignore[arg-type]
    return text, ET.fromstring(text)


def series_lines(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}polyline") if "series" in e.get("class", "").split()]


def points(line: ET.Element) -> list[tuple[float, float]]:
    return [
        (float(x), float(y))
        for x, y in (pair.split(",") for pair in line.get("points", "").split())
    ]


def with_players(record: Record, players: tuple[str, ...]) -> Record:
    return replace(record, game=replace(record.game, players=players))


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
@pytest.mark.parametrize("rtl", [False, True])
def test_chart_of_every_example(path: Path, rtl: bool) -> None:
    record = load_record(path.read_bytes())
    result = replay(record.game)
    text, root = chart(record, rtl)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("viewBox", "").startswith("0 0 360 ")
    assert root.get("width") is None  # scales to its container
    partnership = record.game.mode == "partnership"
    lines = series_lines(root)
    assert len(lines) == (2 if partnership else 4)
    for index, line in enumerate(lines):
        assert f"series-{index}" in line.get("class", "").split()
        assert len(points(line)) == len(result.deals) + 1
        assert line.get("stroke", "").startswith("#")
        assert line.find(f"{SVG}title") is not None
    assert len({line.get("stroke") for line in lines}) == len(lines)
    assert len({line.get("stroke-dasharray") for line in lines}) == len(lines)
    assert len({line.get("marker-mid") for line in lines}) == len(lines)
    # the highest final total is the highest point at the end (smallest y)
    finals = result.team_totals if partnership else result.totals
    assert finals is not None
    last_y = [points(line)[-1][1] for line in lines]
    assert last_y.index(min(last_y)) == list(finals).index(max(finals))
    assert len(text.encode()) < 8000


def test_lines_start_at_zero_on_the_zero_line() -> None:
    _, root = chart(load("trix-solo-in-progress"))
    zero = next(e for e in root.iter(f"{SVG}line") if e.get("class") == "zero")
    for line in series_lines(root):
        x, y = points(line)[0]
        assert (x, y) == (float(zero.get("x1", "")), float(zero.get("y1", "")))


def test_values_are_plotted_to_scale() -> None:
    record = load("trix-solo-in-progress")
    result = replay(record.game)
    _, root = chart(record)
    line = series_lines(root)[0]
    ys = [y for _, y in points(line)]
    values = [0, *(deal.running[0] for deal in result.deals)]
    # y falls as the total rises, linearly: compare every step with the first nonzero one
    scale = next((ys[0] - y) / v for y, v in zip(ys, values, strict=True) if v)
    for y, value in zip(ys, values, strict=True):
        assert ys[0] - y == pytest.approx(value * scale, abs=0.11)
    xs = [x for x, _ in points(line)]
    steps = {round(b - a, 1) for a, b in pairwise(xs)}
    assert max(steps) - min(steps) <= 0.2


@pytest.mark.parametrize(
    ("name", "count"),
    [
        ("trix-partnership-complete", 3),
        ("trix-solo-in-progress", 3),
        ("trix-complex-solo-complete", 3),
        ("turkish-king-complete", 0),
    ],
)
def test_kingdom_markers(name: str, count: int) -> None:
    _, root = chart(load(name))
    kingdom_lines = [e for e in root.iter(f"{SVG}line") if e.get("class") == "kingdom-line"]
    assert len(kingdom_lines) == count
    for line in kingdom_lines:
        assert line.get("x1") == line.get("x2")


def test_kingdom_markers_sit_between_kingdoms() -> None:
    _, root = chart(load("trix-partnership-complete"))
    line = series_lines(root)[0]
    xs = [x for x, _ in points(line)]
    marks = [
        float(e.get("x1", "")) for e in root.iter(f"{SVG}line") if e.get("class") == "kingdom-line"
    ]
    assert marks == [xs[5], xs[10], xs[15]]


def test_names_are_escaped() -> None:
    hostile = ("<script>alert(1)</script>&", 'Lina"', "Omar'", "Dana\x07\x00")
    text, root = chart(with_players(load("trix-solo-in-progress"), hostile))
    assert "<script" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in text
    texts = ["".join(e.itertext()) for e in root.iter(f"{SVG}text")]
    assert any(t.startswith("<script>") for t in texts)
    assert "Dana" in texts


def test_partnership_legend_names_the_teams() -> None:
    _, root = chart(load("trix-partnership-complete"))
    texts = ["".join(e.itertext()) for e in root.iter(f"{SVG}text")]
    assert "Rami & Omar" in texts and "Lina & Dana" in texts


def test_long_names_are_shortened_in_the_legend_only() -> None:
    long_name = "A" * 40
    _, root = chart(with_players(load("trix-solo-in-progress"), (long_name, "b", "c", "d")))
    texts = ["".join(e.itertext()) for e in root.iter(f"{SVG}text")]
    assert "A" * 16 + "…" in texts
    assert long_name in "".join(root.itertext())  # still whole in the title and description


def test_legend_names_tell_the_four_apart_and_keep_their_spelling() -> None:
    players = ("Abdullah Saleh Abdurrahman", "Abdullah Saleh Abdurrahmen", "Maria", "Marianne")
    _, root = chart(with_players(load("trix-solo-in-progress"), players))
    legend = ["".join(e.itertext()) for e in root.iter(f"{SVG}text")][-4:]
    assert len(set(legend)) == 4 and "Maria" in legend and "Marianne" in legend
    for shown, name in zip(legend, players, strict=True):
        head, _, tail = shown.partition("…")
        assert name.startswith(head) and name.endswith(tail.lstrip())


def test_the_chart_writes_scores_as_the_app_does() -> None:
    record = load("trix-solo-in-progress")
    text, root = chart(record)
    assert "-" not in "".join("".join(e.itertext()) for e in root.iter(f"{SVG}text"))
    assert "−" in text
    summary = chart_summary(replay(record.game), record.game.players)
    assert "-" not in summary and ("−" in summary or "+" in summary)


@pytest.mark.parametrize("name", ["trix-solo-in-progress", "trix-partnership-complete"])
def test_rtl_mirrors_the_x_axis(name: str) -> None:
    record = load(name)
    _, ltr = chart(record)
    _, rtl = chart(record, rtl=True)
    for left, right in zip(series_lines(ltr), series_lines(rtl), strict=True):
        for (x1, y1), (x2, y2) in zip(points(left), points(right), strict=True):
            assert x2 == pytest.approx(WIDTH - x1, abs=0.01)
            assert y2 == y1
        assert points(right)[0][0] > points(right)[-1][0]  # deal 0 at the right
    ltr_text = list(ltr.iter(f"{SVG}text"))
    rtl_text = list(rtl.iter(f"{SVG}text"))
    flip = {"start": "end", "end": "start", "middle": "middle"}
    for a, b in zip(ltr_text, rtl_text, strict=True):
        assert float(b.get("x", "")) == pytest.approx(WIDTH - float(a.get("x", "")), abs=0.01)
        assert b.get("text-anchor") == flip[a.get("text-anchor", "")]


def test_title_and_desc() -> None:
    record = load("trix-solo-in-progress")
    _, root = chart(record)
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert title is not None and title.text == "Running totals"
    assert desc is not None
    assert desc.text == chart_summary(replay(record.game), record.game.players)
    assert root.get("aria-labelledby") == title.get("id")
    assert root.get("aria-describedby") == desc.get("id")


def test_translate_reaches_every_word() -> None:
    record = load("trix-partnership-complete")
    text = running_totals_svg(replay(record.game), record.game.players, lambda s: f"«{s}»")
    root = ET.fromstring(text)
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "«Running totals»"
    texts = ["".join(e.itertext()) for e in root.iter(f"{SVG}text")]
    assert "«Rami & Omar»" in texts


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_no_script_and_no_inline_style(path: Path) -> None:
    record = load_record(path.read_bytes())
    for rtl in (False, True):
        text, root = chart(record, rtl)
        assert "style=" not in text
        assert "<script" not in text.lower()
        assert "<style" not in text.lower()
        assert not any(
            attribute.startswith("on") for element in root.iter() for attribute in element.attrib
        )
        assert "javascript:" not in text.lower()


def test_ids_are_prefixed_and_unique() -> None:
    text, root = chart(load("trix-solo-in-progress"), id_prefix="game-7")
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert ids and len(ids) == len(set(ids))
    assert all(str(i).startswith("game-7-") for i in ids)
    assert re.findall(r"url\(#([^)]+)\)", text) and all(
        ref in ids for ref in re.findall(r"url\(#([^)]+)\)", text)
    )
    with pytest.raises(ValueError, match="id_prefix"):
        chart(load("trix-solo-in-progress"), id_prefix='x" onload="alert(1)')


def empty(name: str) -> Record:
    record = load(name)
    return replace(record, game=replace(record.game, deals=()))


@pytest.mark.parametrize("name", ["trix-partnership-complete", "turkish-king-in-progress"])
def test_empty_game(name: str) -> None:
    record = empty(name)
    _, root = chart(record)
    assert series_lines(root) == []
    notes = [e for e in root.iter(f"{SVG}text") if e.get("class") == "note"]
    assert len(notes) == 1 and notes[0].text == "No deals yet."
    assert chart_summary(replay(record.game), record.game.players) == "No deals yet."


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("trix-solo-in-progress", "After deal 7 of 20: Nour +140, Sami +130, Hala +75, Karim +25"),
        ("trix-partnership-complete", "After deal 20 of 20: Rami & Omar +250, Lina & Dana −250"),
        (
            "turkish-king-complete",
            "After deal 20 of 20: Ayşe +620, Zeynep +150, Mehmet −180, Can −590",
        ),
    ],
)
def test_chart_summary(name: str, summary: str) -> None:
    record = load(name)
    assert chart_summary(replay(record.game), record.game.players) == summary


def test_chart_summary_translated() -> None:
    record = load("trix-solo-in-progress")
    result: Replay = replay(record.game)
    french = {
        "After deal {number} of {total}: {totals}": "Après la donne {number}/{total} : {totals}"
    }
    text = chart_summary(result, record.game.players, lambda s: french.get(s, s))
    assert text.startswith("Après la donne 7/20 : Nour +140")


@given(st.integers(-5000, 0), st.integers(0, 5000))
def test_nice_ticks_cover_the_range_with_round_steps(low: int, high: int) -> None:
    ticks = nice_ticks(low, high)
    assert ticks[0] <= low and ticks[-1] >= high
    assert 0 in ticks
    steps = {b - a for a, b in pairwise(ticks)}
    assert len(steps) == 1
    step = steps.pop()
    assert re.fullmatch(r"[125]0*", str(step))
    assert 3 <= len(ticks) <= 7
