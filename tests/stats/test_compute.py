"""compute(): worked figures on hand-made records, checked against sums done by hand."""

from __future__ import annotations

import pytest

from scorekeeper.rules import Problem, RuleError
from scorekeeper.stats import Item, PlayerStats, TableStats, compute, player_key
from tests.rules.builders import (
    ALL_AT_ZERO,
    FULL_GAME,
    TURKISH_GAME,
    TWO_ABOVE_ZERO,
    load,
    raw_record,
)
from tests.stats.records import trix, turkish, unfinished_trix


def by_name(stats: TableStats) -> dict[str, PlayerStats]:
    return {player.name: player for player in stats.players}


# --- one Trix game, by hand ----------------------------------------------------------------------
# each kingdom: K♥ to Lina (−75); queens S Rami, H+D Lina, C Dana (−25 each); diamonds 3/4/5/1
# (−10 each); ltoosh tricks 4/3/3/3 (−15 each); trix order Omar, Rami, Dana, Lina (200/150/100/50)
# per kingdom: Rami 35, Lina −160, Omar 105, Dana 20; four kingdoms: 140, −640, 420, 80


def test_one_trix_game_standings() -> None:
    stats = compute([trix()])
    assert [(p.name, p.games, p.finished, p.wins, p.points) for p in stats.players] == [
        ("Omar", 1, 1, 1, 420),
        ("Rami", 1, 1, 0, 140),
        ("Dana", 1, 1, 0, 80),
        ("Lina", 1, 1, 0, -640),
    ]
    assert (stats.games, stats.finished) == (1, 1)
    assert by_name(stats)["Omar"].win_rate == 1.0
    assert by_name(stats)["Rami"].win_rate == 0.0


def test_one_trix_game_contracts() -> None:
    lina = by_name(compute([trix()]))["Lina"]
    assert sorted(lina.contracts) == ["diamonds", "king-of-hearts", "ltoosh", "queens", "trix"]
    king = lina.contracts["king-of-hearts"]
    assert (king.deals, king.points, king.taken[Item.KING_OF_HEARTS]) == (4, -300, 4)
    assert king.average(Item.KING_OF_HEARTS) == 1.0
    queens = lina.contracts["queens"]
    assert (queens.points, queens.average(Item.QUEENS)) == (-200, 2.0)
    diamonds = lina.contracts["diamonds"]
    assert (diamonds.points, diamonds.average(Item.DIAMONDS)) == (-160, 4.0)
    ltoosh = lina.contracts["ltoosh"]
    assert (ltoosh.points, ltoosh.average(Item.TRICKS)) == (-180, 3.0)
    trix_contract = lina.contracts["trix"]
    assert (trix_contract.points, trix_contract.average_place) == (200, 4.0)
    assert trix_contract.average(Item.TRICKS) is None  # trix counts no tricks


def test_average_trix_place_per_player() -> None:
    places = {p.name: p.contracts["trix"].average_place for p in compute([trix()]).players}
    assert places == {"Omar": 1.0, "Rami": 2.0, "Dana": 3.0, "Lina": 4.0}


def test_points_count_finished_games_only_but_contracts_count_every_deal() -> None:
    stats = compute([trix(), unfinished_trix()])
    lina = by_name(stats)["Lina"]
    assert (lina.games, lina.finished, lina.wins, lina.points) == (2, 1, 0, -640)
    # 4 + 1 king-of-hearts deals, all taken by Lina
    assert (lina.contracts["king-of-hearts"].deals, lina.contracts["king-of-hearts"].points) == (
        5,
        -375,
    )
    assert (stats.games, stats.finished) == (2, 1)


def test_a_player_of_unfinished_games_only_has_no_win_rate() -> None:
    stats = compute([unfinished_trix(["Rami", "Lina", "Omar", "Sami"])])
    sami = by_name(stats)["Sami"]
    assert (sami.games, sami.finished, sami.wins, sami.points, sami.win_rate) == (1, 0, 0, 0, None)
    assert sami.contracts["diamonds"].deals == 1


# --- identity ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ayşe", "AYŞE"),
        ("Ayşe", "  ayşe "),
        ("José", "Jose\u0301"),  # composed é and e + combining acute
        ("Straße", "STRASSE"),  # case folding, not lower()
        ("İlker", "i\u0307lker"),  # Turkish dotted capital I folds to i + combining dot
    ],
)
def test_one_person_across_spellings(first: str, second: str) -> None:
    assert player_key(first) == player_key(second)
    stats = compute([trix([first, "Lina", "Omar", "Dana"]), trix([second, "Lina", "Omar", "Dana"])])
    person = [p for p in stats.players if p.key == player_key(first)]
    assert len(person) == 1
    assert (person[0].games, person[0].name) == (2, first.strip())  # first spelling met


def test_different_people_stay_apart() -> None:
    assert player_key("Ali") != player_key("Alí")
    stats = compute([trix(["Ali", "Lina", "Omar", "Dana"]), trix(["Alí", "Lina", "Omar", "Dana"])])
    assert len(stats.players) == 5


def test_first_spelling_is_the_first_record_given() -> None:
    stats = compute(
        [
            trix(["rami", "Lina", "Omar", "Dana"], created_at="2025-02-01T20:00:00"),
            trix(["RAMI", "Lina", "Omar", "Dana"], created_at="2025-01-01T20:00:00"),
        ]
    )
    assert stats.player("rami") is not None
    assert stats.player("rami").name == "rami"  # type: ignore[union-attr]


# --- wins ----------------------------------------------------------------------------------------


def test_turkish_king_figures() -> None:
    # TURKISH_GAME: 8 trumps with tricks 4/3/3/3, then each negative twice: totals
    # −200, 280, −360, 280 (seats 1 and 3 share the win under either rule)
    rami = by_name(compute([turkish(TURKISH_GAME)]))["Rami"]
    assert (rami.points, rami.wins) == (-200, 0)
    trump = rami.contracts["trump"]
    assert (trump.deals, trump.points, trump.average(Item.TRICKS)) == (8, 1600, 4.0)
    assert (
        rami.contracts["no-last-two"].deals,
        rami.contracts["no-last-two"].points,
        rami.contracts["no-last-two"].taken[Item.LAST_TWO],
    ) == (2, -720, 4)
    assert rami.contracts["no-hearts"].points == -240
    assert rami.contracts["no-king"].taken[Item.KING_OF_HEARTS] == 0
    omar = by_name(compute([turkish(TURKISH_GAME)]))["Omar"]
    assert (omar.contracts["no-king"].points, omar.contracts["no-king"].taken) == (
        -640,
        {Item.KING_OF_HEARTS: 2},
    )


def test_shared_win_counts_for_each() -> None:
    stats = compute([turkish(TURKISH_GAME)])
    assert {p.name: p.wins for p in stats.players} == {"Rami": 0, "Lina": 1, "Omar": 0, "Dana": 1}


@pytest.mark.parametrize(
    ("rule", "winners"),
    [
        ("highest", {"Lina"}),  # 330 beats 280
        ("positive", {"Lina", "Dana"}),  # both above zero
    ],
)
def test_turkish_king_winners_rule(rule: str, winners: set[str]) -> None:
    stats = compute([turkish(TWO_ABOVE_ZERO, rule)])
    assert {p.name for p in stats.players if p.wins} == winners


@pytest.mark.parametrize(("rule", "wins"), [("highest", 1), ("positive", 0)])
def test_all_at_zero(rule: str, wins: int) -> None:
    # highest: the four share the win; positive: nobody is above zero, nobody wins
    stats = compute([turkish(ALL_AT_ZERO, rule)])
    assert [(p.wins, p.finished, p.points) for p in stats.players] == [(wins, 1, 0)] * 4


# --- sort order ----------------------------------------------------------------------------------


def test_sorted_by_wins_then_points_then_name() -> None:
    # Omar wins both; Rami and Dana swap seats 0 and 3 (140 + 80 each); Lina and Sami take
    # seat 1 once each (-640); a third game unfinished adds nothing but a game
    stats = compute(
        [
            trix(["Rami", "Lina", "Omar", "Dana"]),
            trix(["Dana", "Sami", "Omar", "Rami"]),
            unfinished_trix(["Sami", "Lina", "Zeyd", "Dana"]),
        ]
    )
    assert [(p.name, p.wins, p.points) for p in stats.players] == [
        ("Omar", 2, 840),
        ("Dana", 0, 220),
        ("Rami", 0, 220),
        ("Zeyd", 0, 0),
        ("Lina", 0, -640),
        ("Sami", 0, -640),
    ]


def test_equal_wins_and_points_sort_by_name_ignoring_case() -> None:
    stats = compute([turkish(ALL_AT_ZERO, players=["dana", "Bilal", "ayla", "Can"])])
    assert [p.name for p in stats.players] == ["ayla", "Bilal", "Can", "dana"]


# --- per game kind -------------------------------------------------------------------------------


def test_standings_per_game_kind() -> None:
    stats = compute([trix(), turkish(TURKISH_GAME)])
    assert sorted(stats.standings) == ["trix", "trix-complex", "turkish-king"]
    assert stats.standings["trix-complex"] == ()
    leader = stats.standings["trix"][0]
    assert (leader.name, leader.wins, leader.points) == ("Omar", 1, 420)
    turkish_names = {p.name: (p.wins, p.points) for p in stats.standings["turkish-king"]}
    assert turkish_names["Lina"] == (1, 280)
    assert by_name(stats)["Lina"].contracts["trump"].deals == 8
    assert "trump" not in next(p for p in stats.standings["trix"] if p.name == "Lina").contracts
    overall = by_name(stats)["Lina"]
    # Trix points (−640) and King points (+280) are never added up
    assert (overall.games, overall.wins, overall.points) == (2, 1, None)
    assert all(player.points is None for player in stats.players)


def test_trix_and_king_points_are_never_added_but_trix_and_complex_are() -> None:
    # by wins, then name: Dana and Lina shared the King game, Omar won the Trix; the points
    # stay per kind
    mixed = compute([trix(), turkish(TURKISH_GAME)])
    assert [(p.name, p.wins, p.points) for p in mixed.players] == [
        ("Dana", 1, None),
        ("Lina", 1, None),
        ("Omar", 1, None),
        ("Rami", 0, None),
    ]
    # Trix and Trix Complex score the same cards the same way: their points add up
    complex_game = load(raw_record("trix-complex", FULL_GAME["trix-complex"]))
    trix_games = compute([trix(), complex_game])
    omar = by_name(trix_games)["Omar"]
    complex_omar = next(p for p in trix_games.standings["trix-complex"] if p.name == "Omar")
    assert complex_omar.points is not None and complex_omar.points != 0
    assert omar.points == 420 + complex_omar.points


def test_one_person_in_two_seats_is_refused() -> None:
    # "José" composed and decomposed is one person, for the engine as for the statistics: a
    # record seating them twice is refused, as `scorekeeper check` refuses it
    with pytest.raises(RuleError) as refused:
        trix(["José", "Lina", "Jose\u0301", "Dana"])
    assert refused.value.problems[0] == Problem("players[2]", "same_name")
