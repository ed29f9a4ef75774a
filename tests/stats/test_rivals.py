"""Rivals, partners and contract leaders, worked out by hand on the small history
(tests/stats/evening_history.py) and three partnership games; solo and partnership apart."""

from __future__ import annotations

from scorekeeper.rules.contracts import Item
from scorekeeper.stats import combine, compute, to_json
from scorekeeper.stats.evening_model import ModeRivals, Rival
from tests.stats.evening_history import HISTORY, TIED, solo_ending, trix


def rival(found: tuple[Rival, ...]) -> tuple[str, int, int, int] | None:
    """The one rival named (none: None): name, together, ahead, behind."""
    if not found:
        return None
    (only,) = found
    return (only.name, only.together, only.ahead, only.behind)


def partner(player: object) -> tuple[str, int] | None:
    """The one best partner named (none: None): name, together."""
    found = player.partner  # type: ignore[attr-defined]
    if not found:
        return None
    (only,) = found
    return (only.name, only.together)


def by_name(mode: ModeRivals) -> dict[str, tuple[object, object, object]]:
    return {
        player.name: (
            rival(player.beats),
            rival(player.beaten_by),
            partner(player),
        )
        for player in mode.players
    }


def test_solo_rivals_worked_out_by_hand() -> None:
    solo, partnership = compute(HISTORY).rivals
    assert (solo.mode, solo.games, partnership.mode, partnership.games) == (
        "solo",
        5,
        "partnership",
        1,
    )
    # finished solo games: G1 G2 G4 G6 (G5 is unfinished)
    # Rami meets Omar 3 times and finishes behind him 3 times; Dana 3 times, ahead once (G1)
    # Omar is ahead of Rami 3/3, behind Sami 3/3 (G2, G4, G6), Dana ahead 3 of 4
    # Dana: ahead of Omar 3 of 4 and of Rami 2 of 3; Sami 1 ahead, 1 behind, 1 level (G4):
    # nobody she finishes behind more often than ahead
    # Sami: ahead of Omar 3 of 3; Dana as even as above; Lina met nobody 3 times
    assert by_name(solo) == {
        "Dana": (("Omar", 4, 3, 1), None, None),
        "Lina": (None, None, None),
        "Omar": (("Rami", 3, 3, 0), ("Sami", 3, 0, 3), None),
        "Rami": (None, ("Omar", 3, 0, 3), None),
        "Sami": (("Omar", 3, 3, 0), None, None),
    }
    # the one partnership game (G3) makes nobody a rival or a partner
    assert all(value == (None, None, None) for value in by_name(partnership).values())


def test_contract_leaders_worked_out_by_hand() -> None:
    solo = compute(HISTORY).rivals[0]
    leaders = {(leader.contract, leader.item): leader for leader in solo.leaders}
    # K♥: Rami took it in 5 of his 9 King of Hearts deals (G5 once, G6 four times); Lina 4 of
    # 9, Omar 4 of 13
    king = leaders["king-of-hearts", Item.KING_OF_HEARTS]
    assert (king.name, king.amount, king.deals) == ("Rami", 5, 9)
    # King's trump hands: Omar took 4 tricks in each of the 8 (everyone else 3)
    trump = leaders["trump", Item.TRICKS]
    assert (trump.name, trump.amount, trump.deals, trump.average) == ("Omar", 32, 8, 4.0)
    no_king = leaders["no-king", Item.KING_OF_HEARTS]
    assert (no_king.name, no_king.amount, no_king.deals) == ("Rami", 2, 2)
    # Trix's order: Dana's places 3, 1, 2 (×4) average 2.0; Sami's 3 ×4, 3, 1 ×4 = 19/9
    place = leaders["trix", None]
    assert (place.name, place.amount, place.deals) == ("Dana", 24, 12)
    # every contract of the solo games played has its leader
    assert {contract for contract, _ in leaders} == {
        "king-of-hearts",
        "queens",
        "diamonds",
        "ltoosh",
        "trix",
        "trump",
        "no-king",
        "no-queens",
        "no-boys",
        "no-hearts",
        "no-last-two",
        "no-tricks",
    }


PARTNERSHIP_GAMES = [
    trix(["Rami", "Omar", "Lina", "Sami"], "2025-04-01T19:00:00+00:00", "partnership"),
    trix(["Rami", "Omar", "Lina", "Dana"], "2025-04-01T20:00:00+00:00", "partnership"),
    trix(["Omar", "Rami", "Dana", "Lina"], "2025-04-01T21:00:00+00:00", "partnership"),
    trix(["Omar", "Lina", "Rami", "Sami"], "2025-04-01T22:00:00+00:00", "partnership"),
]
"""Seats 0 and 2 win every one: Rami and Lina win twice together and lose once."""


def test_partners_and_partnership_rivals_worked_out_by_hand() -> None:
    (partnership,) = compute(PARTNERSHIP_GAMES).rivals
    found = by_name(partnership)
    # Rami's opponents: Omar 3 times (P1, P2 ahead; P3 behind), Sami 2, Dana 2: too few; Omar
    # is the one Rami finishes ahead of, and so not also the one he finishes behind
    assert found["Rami"] == (("Omar", 3, 2, 1), None, ("Lina", 3))
    assert found["Lina"][2] == ("Rami", 3)
    rami = next(player for player in partnership.players if player.name == "Rami")
    assert [(p.name, p.wins) for p in rami.partner] == [("Lina", 2)]
    # Omar partnered Sami once, Dana twice, Rami once: no partner named
    assert found["Omar"][2] is None


def test_the_json_names_rivals_per_mode() -> None:
    data = to_json(compute(HISTORY))["rivals"]
    assert list(data) == ["solo", "partnership"]
    rami = next(player for player in data["solo"]["players"] if player["name"] == "Rami")
    assert rami["beaten_by"] == [
        {"name": "Omar", "key": "omar", "together": 3, "ahead": 0, "behind": 3, "level": 0}
    ]
    assert rami["beats"] == []
    assert rami["partner"] == []
    assert {
        "contract": "trump",
        "item": "tricks",
        "name": "Omar",
        "key": "omar",
        "deals": 8,
        "amount": 32,
        "average": 4.0,
    } in data["solo"]["contracts"]
    assert {"contract": "trix", "item": "place"}.items() <= next(
        leader for leader in data["solo"]["contracts"] if leader["contract"] == "trix"
    ).items()


def test_ties_are_said_never_broken_by_name() -> None:
    (solo,) = combine(TIED).rivals
    found = {
        player.name: (
            [(r.name, r.together, r.ahead, r.behind, r.level) for r in player.beats],
            [(r.name, r.together, r.ahead, r.behind, r.level) for r in player.beaten_by],
        )
        for player in solo.players
    }
    # Lina and Rami, 2 ahead and 2 behind: neither is the other's rival either way; Omar and
    # Dana share the most (3 of 6) and both are named
    assert found["Lina"] == ([], [("Dana", 6, 1, 3, 2), ("Omar", 6, 1, 3, 2)])
    assert found["Rami"] == ([], [("Dana", 6, 1, 3, 2), ("Omar", 6, 1, 3, 2)])
    assert found["Omar"] == ([("Lina", 6, 3, 1, 2), ("Rami", 6, 3, 1, 2)], [])
    assert found["Dana"] == found["Omar"]
    for player in solo.players:  # never both ahead of and behind the same one
        assert not {r.key for r in player.beats} & {r.key for r in player.beaten_by}


def test_an_even_rival_is_neither_ahead_nor_behind() -> None:
    # Lina and Rami: 1 ahead, 1 behind, 1 level (the "Dana 1 of 3" both ways); the
    # others always level with Lina
    games = [
        solo_ending(totals, at)
        for totals, at in (
            ([5, -15, 5, 5], "2025-06-01T19:00:00+00:00"),
            ([-5, 15, -5, -5], "2025-06-01T20:00:00+00:00"),
            ([0, 0, 0, 0], "2025-06-01T21:00:00+00:00"),
        )
    ]
    (solo,) = combine(games).rivals
    assert all(not player.beats and not player.beaten_by for player in solo.players)


def test_partners_tied_for_the_most_are_all_named() -> None:
    # seats 0 and 2 win every game: Rami wins twice and loses once with Lina, and the same
    # with Omar; both are his best partner, not the first by name
    games = [
        trix(players, f"2025-07-01T{hour}:00:00+00:00", "partnership")
        for hour, players in zip(
            ("14", "15", "16", "17", "18", "19"),
            (
                ["Rami", "Sami", "Lina", "Dana"],
                ["Rami", "Sami", "Lina", "Dana"],
                ["Sami", "Rami", "Dana", "Lina"],
                ["Rami", "Sami", "Omar", "Dana"],
                ["Rami", "Sami", "Omar", "Dana"],
                ["Sami", "Rami", "Dana", "Omar"],
            ),
            strict=True,
        )
    ]
    (partnership,) = compute(games).rivals
    rami = next(player for player in partnership.players if player.name == "Rami")
    assert [(p.name, p.together, p.wins) for p in rami.partner] == [("Lina", 3, 2), ("Omar", 3, 2)]
    data = to_json(compute(games))["rivals"]["partnership"]["players"]
    assert [p["name"] for p in next(p for p in data if p["name"] == "Rami")["partner"]] == [
        "Lina",
        "Omar",
    ]
