"""Partnerships, streaks and running wins: figures that depend on who sat together and when."""

from __future__ import annotations

from scorekeeper.stats import compute
from tests.rules.builders import TURKISH_GAME
from tests.stats.records import trix, turkish, unfinished_trix

# in TRIX_GAME seat 2 wins: in partnership seats 0 and 2 (team A) win, 560 against -560


def test_partnerships_are_the_pairs_sitting_opposite() -> None:
    stats = compute(
        [
            trix(["Rami", "Lina", "Omar", "Dana"], mode="partnership"),
            trix(["Omar", "Dana", "Rami", "Lina"], mode="partnership"),
            trix(["Lina", "Rami", "Dana", "Omar"], mode="partnership"),
            unfinished_trix(["Rami", "Lina", "Omar", "Dana"], mode="partnership"),
            trix(["Rami", "Lina", "Omar", "Dana"]),  # solo: no partnership
        ]
    )
    figures = {
        pair.names: (pair.games, pair.finished, pair.wins, pair.points)
        for pair in stats.partnerships
    }
    assert figures == {
        ("Omar", "Rami"): (4, 3, 2, 560 + 560 - 560),
        ("Dana", "Lina"): (4, 3, 1, -560 - 560 + 560),
    }
    assert [pair.names for pair in stats.partnerships] == [("Omar", "Rami"), ("Dana", "Lina")]
    assert stats.partnerships[0].keys == ("omar", "rami")


def test_solo_games_make_no_partnerships() -> None:
    assert compute([trix(), turkish(TURKISH_GAME)]).partnerships == ()


def test_streaks_follow_time_not_the_order_given() -> None:
    # Omar wins at seat 2; games given out of time order
    omar_wins = ["Rami", "Lina", "Omar", "Dana"]
    omar_loses = ["Omar", "Lina", "Rami", "Dana"]
    stats = compute(
        [
            trix(omar_wins, created_at="2025-01-03T20:00:00"),
            trix(omar_loses, created_at="2025-01-01T20:00:00"),
            trix(omar_wins, created_at="2025-01-02T20:00:00"),
            trix(omar_wins, created_at="2025-01-05T20:00:00"),
            trix(omar_loses, created_at="2025-01-04T20:00:00+00:00"),
            unfinished_trix(omar_loses, created_at="2025-01-06T20:00:00"),  # not a game lost
        ]
    )
    omar = stats.player("omar")
    assert omar is not None
    # time order: lose, win, win, lose, win
    assert (omar.longest_streak, omar.current_streak) == (2, 1)
    rami = stats.player("rami")
    assert rami is not None
    assert (rami.longest_streak, rami.current_streak) == (1, 0)


def test_created_at_orders_games_whatever_was_edited_later() -> None:
    stats = compute(
        [
            trix(["Omar", "Lina", "Rami", "Dana"], created_at="2025-01-02T20:00:00"),
            trix(
                ["Rami", "Lina", "Omar", "Dana"],
                created_at="2025-01-01T20:00:00",
                updated_at="2025-01-09T20:00:00",
            ),  # renamed a week later
            trix(["Rami", "Lina", "Omar", "Dana"], updated_at="2025-01-03T20:00:00"),
        ]
    )
    assert stats.running.times == (
        "2025-01-01T20:00:00",
        "2025-01-02T20:00:00",
        "2025-01-03T20:00:00",
    )
    omar = stats.player("omar")
    assert omar is not None and (omar.longest_streak, omar.current_streak) == (1, 1)


def test_running_wins_after_each_finished_game() -> None:
    stats = compute(
        [
            trix(["Rami", "Lina", "Omar", "Dana"], created_at="2025-01-01T20:00:00"),
            unfinished_trix(created_at="2025-01-02T20:00:00"),
            trix(["Omar", "Lina", "Rami", "Dana"], created_at="2025-01-03T20:00:00"),
            turkish(TURKISH_GAME, created_at="2025-01-04T20:00:00"),  # Lina and Dana share
        ]
    )
    lines = {line.name: line.wins for line in stats.running.lines}
    assert lines == {"Omar": (1, 1, 1), "Rami": (0, 1, 1), "Lina": (0, 0, 1), "Dana": (0, 0, 1)}
    assert [line.name for line in stats.running.lines] == [p.name for p in stats.players]
    assert len(stats.running.times) == 3


def test_untimed_records_count_as_oldest_in_the_order_given() -> None:
    stats = compute(
        [
            trix(["Rami", "Lina", "Omar", "Dana"], created_at="2025-01-01T20:00:00"),
            trix(["Omar", "Lina", "Rami", "Dana"]),
            trix(["Dana", "Lina", "Rami", "Omar"]),
        ]
    )
    assert stats.running.times == (None, None, "2025-01-01T20:00:00")
    assert {line.name: line.wins for line in stats.running.lines}["Rami"] == (1, 2, 2)
