"""The engine's help while a deal is entered (scorekeeper.rules.autofill): the value a partial
entry determines, recomputed while the player corrects the others; running sums; a player
placed twice."""

from __future__ import annotations

from scorekeeper.rules.autofill import Sum, autofill


def test_the_last_count_is_filled_in() -> None:
    result = autofill({"contract": "diamonds", "counts": [5, 4, 3, None]})
    assert result.raw["counts"] == [5, 4, 3, 1]
    assert result.filled == {("counts", 3)}
    assert result.sums["counts"] == Sum(13, 13)


def test_a_filled_count_is_recomputed_when_another_changes() -> None:
    """5/4/3 filled 1; 5 → 6 refills 0 instead of a sum of 14."""
    result = autofill({"contract": "diamonds", "counts": [6, 4, 3, 1]}, [("counts", 3)])
    assert result.raw["counts"] == [6, 4, 3, 0]
    assert result.filled == {("counts", 3)}
    assert not result.sums["counts"].over


def test_a_tapped_count_is_never_changed() -> None:
    result = autofill({"contract": "diamonds", "counts": [6, 4, 3, 1]})
    assert result.raw["counts"] == [6, 4, 3, 1]
    assert result.filled == frozenset()
    assert result.sums["counts"] == Sum(14, 13) and result.sums["counts"].over


def test_a_filled_count_no_longer_determined_is_cleared() -> None:
    result = autofill({"contract": "diamonds", "counts": [10, 4, 3, 0]}, [("counts", 3)])
    assert result.raw["counts"] == [10, 4, 3, None]
    assert result.filled == frozenset()
    assert result.sums["counts"] == Sum(17, 13)


def test_a_filled_place_is_recomputed() -> None:
    first = autofill({"contract": "trix", "order": [0, 1, 2, None]})
    assert first.raw["order"] == [0, 1, 2, 3] and first.filled == {("order", 3)}
    # the 1st place changed to the seat the app had put 4th: the 4th is worked out again
    again = autofill({"contract": "trix", "order": [3, 1, 2, 3]}, [("order", 3)])
    assert again.raw["order"] == [3, 1, 2, 0]
    assert again.problems == ()


def test_a_player_placed_twice_is_named_at_once() -> None:
    result = autofill({"contract": "trix", "order": [2, None, 2, None]})
    assert [(p.field, p.code, dict(p.params)) for p in result.problems] == [
        ("order[2]", "placed_twice", {"seat": 2})
    ]
    assert result.raw["order"] == [2, None, 2, None]


def test_complex_keeps_a_sum_per_count_field() -> None:
    result = autofill(
        {"contract": "complex", "tricks": [5, None, None, None], "diamonds": [1, 2, None, None]}
    )
    assert result.sums == {"tricks": Sum(5, 13), "diamonds": Sum(3, 13)}
