"""Ratings: the same numbers openskill gives the same matches rated by hand, hidden until five
rated games, the same every time, and re-rated when the history changes."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from scorekeeper.stats import compute, to_json
from scorekeeper.stats.evening_model import RATED_AFTER
from scorekeeper.stats.ratings import ratings
from tests.stats.evening_history import HISTORY, history_figures, trix


def test_ratings_are_openskills_own_for_the_same_matches() -> None:
    model = PlackettLuce()
    people = {name: model.rating() for name in ("Rami", "Lina", "Omar", "Dana", "Sami")}

    def solo(order: list[str], ranks: list[float]) -> None:
        rated = model.rate([[people[name]] for name in order], ranks=ranks)
        for name, (rating,) in zip(order, rated, strict=True):
            people[name] = rating

    # G1: totals 140, −640, 420, 80 → ranks 2, 4, 1, 3
    solo(["Rami", "Lina", "Omar", "Dana"], [2, 4, 1, 3])
    solo(["Lina", "Omar", "Dana", "Sami"], [2, 4, 1, 3])  # G2
    # G3: Rami and Lina (560) against Omar and Sami (−560)
    (rami, lina), (omar, sami) = model.rate(
        [[people["Rami"], people["Lina"]], [people["Omar"], people["Sami"]]], ranks=[1, 2]
    )
    people.update(Rami=rami, Lina=lina, Omar=omar, Sami=sami)
    # G4 (King): −200, 280, −360, 280: two share the first rank
    solo(["Omar", "Sami", "Rami", "Dana"], [3, 1, 4, 1])
    # G5 is unfinished: not rated; G6 as G1
    solo(["Dana", "Rami", "Sami", "Omar"], [2, 4, 1, 3])

    found = {rating.name: rating for rating in ratings(history_figures())}
    for name, expected in people.items():
        assert found[name].mu == pytest.approx(expected.mu, rel=1e-12)
        assert found[name].sigma == pytest.approx(expected.sigma, rel=1e-12)
        assert found[name].scaled == pytest.approx(1000 + 20 * (expected.mu - 3 * expected.sigma))
    assert {name: rating.games for name, rating in found.items()} == {
        "Rami": 4,
        "Lina": 3,
        "Omar": 5,
        "Dana": 4,
        "Sami": 4,
    }


def test_a_rating_is_hidden_until_five_rated_games() -> None:
    assert RATED_AFTER == 5
    found = ratings(history_figures())
    shown = [rating.name for rating in found if rating.value is not None]
    assert shown == ["Omar"]  # the only one with five finished games
    assert found[0].name == "Omar"  # shown ratings come first
    data = to_json(compute(HISTORY, rated=True))["ratings"]
    assert [(entry["name"], entry["games"]) for entry in data if entry["rating"] is None] == [
        (rating.name, rating.games) for rating in found[1:]
    ]
    assert all(entry["mu"] is None for entry in data if entry["rating"] is None)
    assert "ratings" not in to_json(compute(HISTORY))  # not asked for: not made, no null


def test_the_one_who_always_wins_rates_highest_and_order_follows_places() -> None:
    games = [
        trix(["Rami", "Lina", "Omar", "Dana"], f"2025-05-0{day}T20:00:00+00:00")
        for day in range(1, 8)
    ]
    # every game: Omar first, Rami second, Dana third, Lina last
    found = compute(games, rated=True).ratings
    assert found is not None
    assert [rating.name for rating in found] == ["Omar", "Rami", "Dana", "Lina"]
    values = [rating.value for rating in found]
    assert all(value is not None for value in values)
    assert values == sorted(values, reverse=True)  # type: ignore[type-var]
    assert found[0].value is not None and found[0].value > 1000  # everyone starts at 1000


def test_the_same_history_rates_the_same_and_an_edit_re_rates() -> None:
    first = compute(HISTORY, rated=True).ratings
    assert compute(HISTORY, rated=True).ratings == first
    # Sami's G2 seat goes to Rami (a merge of two entries of one person would do this)
    edited = [HISTORY[0], trix(["Lina", "Omar", "Dana", "Rami"], "2025-03-06T20:30:00+00:00")]
    edited += HISTORY[2:]
    again = compute(edited, rated=True).ratings
    assert again is not None and first is not None
    assert {r.name: r.games for r in again}["Rami"] == 5
    assert {r.name: r.mu for r in again} != {r.name: r.mu for r in first}
