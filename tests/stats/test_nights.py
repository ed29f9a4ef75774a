"""A night's standings, worked out by hand on a small history (tests/stats/evening_history.py),
and the rule that says which games are one sitting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from scorekeeper.stats import compute, game_figures, to_json
from scorekeeper.stats.evening_model import NIGHT_GAP
from scorekeeper.stats.nights import game_halves, nights, partnership_halves, place_halves, sittings
from tests.stats.evening_history import HISTORY, history_figures, trix


def table(night: object) -> list[tuple[str, float, int, int, int]]:
    """A night's standings as (name, points, games, finished, wins)."""
    return [
        (player.name, player.points, player.games, player.finished, player.wins)
        for player in night.standings  # type: ignore[attr-defined]
    ]


def test_a_game_scores_places_not_points_with_ties_shared() -> None:
    assert place_halves([140, -640, 420, 80]) == [4, 0, 6, 2]  # 2, 0, 3, 1 points
    assert place_halves([-200, 280, -360, 280]) == [2, 5, 0, 5]  # two share first: 2½ each
    assert place_halves([560, -560, 560, -560]) == [5, 1, 5, 1]  # a partnership: 2½ and ½
    assert place_halves([0, 0, 0, 0]) == [3, 3, 3, 3]
    assert sum(place_halves([7, 7, 1, 9])) == 12  # every game gives out 6 points


def test_what_a_partnership_game_gives_is_what_the_pages_say() -> None:
    # the pages say it with these figures: winners 2½ each, losers ½, level teams 1½ each
    assert partnership_halves() == (5, 1, 3)
    won = game_halves(game_figures(HISTORY[2]))  # G3, a partnership game won by seats 0, 2
    assert won == [5, 1, 5, 1]
    assert sorted(set(won)) == sorted(partnership_halves()[:2])


def test_the_history_makes_two_nights_with_standings_worked_out_by_hand() -> None:
    found = nights(history_figures())
    assert [night.positions for night in found] == [(0, 1, 2), (3, 4, 5)]
    first, second = found
    assert (first.number, first.games, first.finished, first.day) == (1, 3, 3, "2025-03-06")
    # G1 Omar 3 Rami 2 Dana 1 Lina 0; G2 Dana 3 Lina 2 Sami 1 Omar 0; G3 (partnership,
    # Rami and Lina won) Rami 2½ Lina 2½ Omar ½ Sami ½. Rami and Lina tie on points and
    # wins: fewer games first.
    assert table(first) == [
        ("Rami", 4.5, 2, 2, 1),
        ("Lina", 4.5, 3, 3, 1),
        ("Dana", 4.0, 2, 2, 1),
        ("Omar", 3.5, 3, 3, 1),
        ("Sami", 1.5, 2, 2, 0),
    ]
    assert first.kinds == ("trix",)
    # G4 (King: Sami and Dana share first) Sami 2½ Dana 2½ Omar 1 Rami 0; G5 unfinished
    # counts a game and no points; G6 Sami 3 Dana 2 Omar 1 Rami 0
    assert (second.games, second.finished, second.kinds) == (3, 2, ("turkish-king", "trix"))
    assert table(second) == [
        ("Sami", 5.5, 3, 2, 2),
        ("Dana", 4.5, 2, 2, 1),
        ("Omar", 2.0, 3, 2, 0),
        ("Lina", 0.0, 1, 0, 0),
        ("Rami", 0.0, 3, 2, 0),
    ]


def test_a_night_started_on_purpose_splits_the_sitting() -> None:
    start = datetime(2025, 3, 7, 22, 0, tzinfo=UTC)
    found = nights(history_figures(), [start])
    assert [night.positions for night in found] == [(0, 1, 2), (3, 4), (5,)]
    assert table(found[2]) == [
        ("Sami", 3.0, 1, 1, 1),
        ("Dana", 2.0, 1, 1, 0),
        ("Omar", 1.0, 1, 1, 0),
        ("Rami", 0.0, 1, 1, 0),
    ]
    # a start before the first game, or between nights anyway, changes nothing
    early = datetime(2025, 3, 1, tzinfo=UTC)
    between = datetime(2025, 3, 7, 12, 0, tzinfo=UTC)
    assert [n.positions for n in nights(history_figures(), [early, between])] == [
        (0, 1, 2),
        (3, 4, 5),
    ]


def test_the_pause_that_closes_a_night() -> None:
    begin = datetime(2025, 1, 1, 20, 0, tzinfo=UTC)
    second = begin + NIGHT_GAP
    assert timedelta(hours=6) == NIGHT_GAP
    assert sittings([begin, second]) == [[0, 1]]  # exactly the gap: still the same night
    assert sittings([begin, second + timedelta(seconds=1)]) == [[0], [1]]
    # the pause is between one game's beginning and the next's, however long the night
    chain = [begin + timedelta(hours=5 * index) for index in range(5)]
    assert sittings(chain) == [[0, 1, 2, 3, 4]]
    # a start exactly when a game begins starts the night with that game
    assert sittings([begin, begin + timedelta(hours=1)], [begin + timedelta(hours=1)]) == [
        [0],
        [1],
    ]
    assert sittings([None, begin, None]) == [[1]]  # an untimed game is in no night


def test_untimed_games_are_in_no_night_and_the_json_says_what_the_page_says() -> None:
    records = [*HISTORY, trix(["Rami", "Lina", "Omar", "Dana"], None)]
    data = to_json(compute(records))
    assert [night["games"] for night in data["nights"]] == [3, 3]
    assert data["nights"][0]["standings"][0] == {
        "name": "Rami",
        "key": "rami",
        "games": 2,
        "finished": 2,
        "wins": 1,
        "points": 4.5,
    }
    assert data["nights"][1]["first"] == "2025-03-07T20:00:00+00:00"
    assert data["nights"][1]["last"] == "2025-03-07T22:30:00+00:00"


def test_whether_a_night_is_still_open_is_asked_with_a_clock_of_the_callers() -> None:
    last = nights(history_figures())[-1]
    begun = datetime(2025, 3, 7, 22, 30, tzinfo=UTC)
    assert last.open_at(begun + NIGHT_GAP)
    assert not last.open_at(begun + NIGHT_GAP + timedelta(seconds=1))
