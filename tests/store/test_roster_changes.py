"""Renames and merges change one table, once per form; links find what they name, in their
order. Found missing by a mutation run: another table's roster or version touched, a stale
form accepted, a count written as 2.0, a seat's player taken from another table."""

from __future__ import annotations

import pytest

from scorekeeper.rules import HouseRules
from scorekeeper.store import tables as store
from scorekeeper.store.db import db
from scorekeeper.store.games import (
    create_game,
    games_for_tokens,
    version_by_token,
    version_by_view_token,
)
from scorekeeper.store.models import PlayerRow, TableRow
from scorekeeper.store.roster import Changed, TableStale, merge_players, rename_player

PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


def player(table: TableRow, name: str) -> PlayerRow:
    found = store.player_by_name(table, name)
    assert found is not None
    return found


def version(table: TableRow) -> int:
    db.session.refresh(table)
    return table.version


def test_a_rename_changes_one_table_once(ctx: None) -> None:
    here = store.create_table("Majlis")
    there = store.create_table("Thursdays")
    store.start_game(here, "trix", "solo", PLAYERS, HouseRules(), None)
    store.start_game(here, "trix", "solo", PLAYERS, HouseRules(), None)
    store.start_game(there, "trix", "solo", ["Zed", "Lina", "Omar", "Dana"], HouseRules(), None)
    assert version(here) == version(there) == 1
    rami = player(here, "Rami")
    # Zed at another table does not take the name here
    outcome = rename_player(here, rami, "Zed", 1)
    assert outcome == Changed(2) and type(outcome.games) is int  # a page writes the count
    assert (version(here), version(there)) == (2, 1)
    assert player(here, "zed").id == rami.id  # found by the new name, as a newcomer would be
    assert player(there, "Zed").id != rami.id
    # a second form made before the rename is refused, even after another change
    lina = player(here, "Lina")
    assert rename_player(here, lina, "Lena", 1) == TableStale()
    store.start_game(here, "trix", "solo", ["Zed", "Lina", "Omar", "Sami"], HouseRules(), None)
    assert rename_player(here, lina, "Lena", 1) == TableStale()
    assert rename_player(here, lina, "Lena", 2) == Changed(3)


def test_a_merge_counts_its_games_and_keeps_the_seats(ctx: None) -> None:
    table = store.create_table("Majlis")
    store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None)
    game = store.start_game(
        table, "trix", "solo", ["Ramy", "Lina", "Omar", "Dana"], HouseRules(), None
    )
    ramy, rami = player(table, "Ramy"), player(table, "Rami")
    before = store.seat_players(game)
    outcome = merge_players(table, ramy, rami, 1)
    assert outcome == Changed(1) and type(outcome.games) is int
    db.session.expire_all()
    # the merged seat keeps its place among the others (a rematch seats them so)
    assert store.seat_players(game) == [rami.id, *before[1:]]
    assert store.rematch(game).row.players == PLAYERS


def test_a_seat_is_a_player_of_this_table(ctx: None) -> None:
    here = store.create_table("Majlis")
    there = store.create_table("Thursdays")
    store.start_game(there, "trix", "solo", ["Zed", "Lina", "Omar", "Dana"], HouseRules(), None)
    store.start_game(here, "trix", "solo", PLAYERS, HouseRules(), None)
    zed = player(there, "Zed")
    with pytest.raises(store.RosterMoved):
        store.start_game(here, "trix", "solo", [zed.id, "Lina", "Omar", "Dana"], HouseRules(), None)
    # a player merged away since the form was made
    ramy = store.start_game(
        here, "trix", "solo", ["Ramy", "Lina", "Omar", "Dana"], HouseRules(), None
    )
    gone = player(here, "Ramy").id
    assert ramy.players[0] == "Ramy"
    merge_players(here, player(here, "Ramy"), player(here, "Rami"), version(here))
    with pytest.raises(store.RosterMoved):
        store.start_game(here, "trix", "solo", [gone, "Lina", "Omar", "Dana"], HouseRules(), None)


def test_links_find_their_games_and_tables_in_their_order(ctx: None) -> None:
    first = create_game("trix", "solo", PLAYERS, HouseRules(), None)
    second = create_game("trix", "solo", PLAYERS, HouseRules(), None)
    tokens = [second.token, "not a token!", "x" * 43, first.token]
    assert [row.id for row in games_for_tokens(tokens)] == [second.id, first.id]
    assert games_for_tokens([]) == [] and games_for_tokens(["not a token!"]) == []
    here, there = store.create_table("Majlis"), store.create_table("Thursdays")
    tables = store.tables_for_tokens([there.token, "not a token!", here.token])
    assert [table.id for table in tables] == [there.id, here.id]
    assert store.tables_for_tokens([]) == [] and store.tables_for_tokens(["not a token!"]) == []
    assert version_by_token(first.token) == 1
    assert version_by_token("x" * 43) is None and version_by_token("not a token!") is None
    assert version_by_view_token(first.view_token) == 1
    assert version_by_view_token("x" * 43) is None
    assert version_by_view_token("not a token!") is None


def test_a_newcomer_already_on_the_roster_is_refused(ctx: None) -> None:
    """Typed as new to the table, a name someone added a moment ago: pick them from the
    roster."""
    table = store.create_table("Majlis")
    store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None)
    seats: list[int | str] = [player(table, name).id for name in PLAYERS[:3]]
    with pytest.raises(store.RosterMoved) as moved:
        store.start_game(
            table, "trix", "solo", [*seats, "dana "], HouseRules(), None, newcomers=True
        )
    assert moved.value.joined == "Dana"
    game = store.start_game(
        table, "trix", "solo", [*seats, "Sami"], HouseRules(), None, newcomers=True
    )
    assert game.players == ["Rami", "Lina", "Omar", "Sami"]
