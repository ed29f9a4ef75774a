"""A finished game's result as text to share (scorekeeper.words.share): winners first, in the
reader's words, each line marked right-to-left for Arabic; no isolate (U+2066–U+2069, drawn as
boxes by several chat apps), RLM and LRM only where the order needs them (how a browser lays
the text out: tests/browser/test_round_three_pages.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.rules import load_record, replay
from scorekeeper.words.share import LRM, RLM, plain_name, plain_score, result_text

DATA = Path(__file__).parents[1] / "data"


def _result(name: str, **changes: object):  # type: ignore[no-untyped-def]
    record = {**json.loads((DATA / f"{name}.json").read_text(encoding="utf-8")), **changes}
    return replay(load_record(json.dumps(record)).game)


def _plain(text: str) -> str:
    return text.translate({ord(mark): None for mark in (RLM, LRM)})


ISOLATES = "\u2066\u2067\u2068\u2069"


def test_solo_winners_first_with_their_totals() -> None:
    result = _result("trix-solo-complete")
    players = result.game.players
    lines = _plain(result_text(result, "Trix · 2025-01-31")).split("\n")
    assert lines[0] == "Trix · 2025-01-31" and len(lines) == 5
    shown = []
    for place, line in enumerate(lines[1:], start=1):
        number, rest = line.split(". ", 1)
        entry, _, winner = rest.partition(" · ")
        name, total = entry.rsplit(" ", 1)
        assert number == str(place) and winner in ("", "Winner")
        shown.append((bool(winner), int(total.replace("−", "-")), name))
    assert result.winners is not None
    assert {name for won, _, name in shown if won} == {players[s] for s in result.winners}
    assert shown == sorted(shown, key=lambda entry: (not entry[0], -entry[1]))
    assert sorted(total for _, total, _ in shown) == sorted(result.totals)


def test_partnership_teams_first_then_each_player() -> None:
    result = _result("trix-partnership-complete")
    players = result.game.players
    lines = _plain(result_text(result, "Trix")).split("\n")
    assert lines[1] == f"1. {players[0]} & {players[2]} +250 · Winner"
    assert lines[2] == f"2. {players[1]} & {players[3]} −250"
    assert lines[3].count(" · ") == 3 and lines[3].startswith(players[0])


def test_arabic_lines_read_right_to_left_and_names_and_scores_keep_their_place() -> None:
    result = _result("trix-partnership-complete")
    text = result_text(
        result, "تركس", lambda words: {"Winner": "الفائز"}.get(words, words), rtl=True
    )
    lines = text.split("\n")
    assert all(line.startswith(RLM) for line in lines)
    assert f"{LRM}+250{RLM}" in lines[1] and lines[1].endswith("الفائز")
    assert f"{result.game.players[0]}{RLM}" in lines[1]  # a Latin name, closed right-to-left


@pytest.mark.parametrize("rtl", [False, True])
@pytest.mark.parametrize(
    "players",
    [
        ["Rami", "Lina", "Omar", "Dana"],
        ["رامي", "لينا", "عمر", "دانة"],
        ["Rami", "لينا", "Omar", "دانة"],
    ],
)
def test_no_isolate_reaches_a_chat(rtl: bool, players: list[str]) -> None:
    for example in ("trix-partnership-complete", "trix-solo-complete"):
        text = result_text(_result(example, players=players), "Trix", rtl=rtl)
        assert not set(text) & set(ISOLATES), repr(text)


def test_marks_only_where_the_order_needs_them() -> None:
    """A name whose letters run the paragraph's way needs no mark; one that runs the other way
    is closed by the paragraph's own mark; scores need LRM … RLM in right-to-left text only."""
    assert plain_name("Rami", rtl=False) == "Rami"
    assert plain_name("عمر", rtl=True) == "عمر"
    assert plain_name("عمر", rtl=False) == f"عمر{LRM}"
    assert plain_name("Rami", rtl=True) == f"Rami{RLM}"
    assert plain_name("Omar 2", rtl=True) == f"Omar 2{RLM}"
    assert plain_score(-250, rtl=False) == "−250"
    assert plain_score(-250, rtl=True) == f"{LRM}−250{RLM}"
    english = result_text(_result("trix-solo-complete"), "Trix")
    assert not set(english) & {LRM, RLM}  # an English game in English: plain text
