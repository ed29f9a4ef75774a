"""Tables in the store: rosters of people, games seated from them, rematches, renames, merges
and imports, each game still replaying through the engine afterwards."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.rules import HouseRules, Problem, check_players, replay
from scorekeeper.rules.record import RecordsRefused
from scorekeeper.store import tables as store
from scorekeeper.store.db import db
from scorekeeper.store.deals import Saved, choose_first
from scorekeeper.store.games import delete_game, record_of
from scorekeeper.store.models import GameRow, PlayerRow, SeatRow, TableRow

DATA = Path(__file__).resolve().parent.parent / "data"
PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


def names(table: TableRow) -> list[str]:
    return sorted(player.name for player in store.roster(table))


def begun(row: GameRow) -> GameRow:
    """The game with its first king chosen: from now on it counts (store.tables.BEGUN)."""
    assert isinstance(choose_first(row, 0, row.version), Saved)
    return row


def replays(table: TableRow) -> list[tuple[str, ...]]:
    """Every finished-chooser game of the table replayed from its stored record."""
    return [
        replay(record_of(row).game).game.players
        for row in store.table_games(table)
        if row.first_chooser is not None
    ]


def test_a_game_at_a_table_puts_its_players_on_the_roster_once(ctx: None) -> None:
    table = store.create_table("Thursdays at Karim's")
    first = begun(store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None))
    assert first.table_id == table.id
    # the same people typed differently: case, spaces, a decomposed é
    decomposed = unicodedata.normalize("NFD", "Zoé")
    second = begun(
        store.start_game(
            table, "trix", "solo", ["  rami", "LINA ", "omar", decomposed], HouseRules(), None
        )
    )
    assert second.players == ["Rami", "Lina", "Omar", decomposed]
    third = store.start_game(
        table, "trix", "solo", ["Rami", "Lina", "Omar", "zoé"], HouseRules(), None
    )
    assert third.players[3] == decomposed  # NFC: one person
    assert names(table) == sorted(["Dana", "Lina", "Omar", "Rami", decomposed])
    assert store.seat_players(first)[:3] == store.seat_players(second)[:3]
    assert store.roster(table)[0].name in {"Rami", "Lina", "Omar"}  # most games first
    assert [row.id for row in store.table_games(table)] == [first.id, second.id, third.id]
    assert store.last_game(table).id == third.id  # type: ignore[union-attr]


def test_a_game_counts_once_begun_on_the_roster_as_in_the_statistics(ctx: None) -> None:
    """One definition (issue 32, item 2): a game only seated counts for neither (the
    statistics are made of the games game_stamps lists)."""
    table = store.create_table("Thursday")
    load(table, "trix-solo-complete.json")
    seated = store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None)
    dana = next(player for player in store.roster(table) if player.name == "Dana")
    assert store.games_played(table)[dana.id] == 1
    assert len(store.game_stamps(table)) == 1
    begun(seated)
    assert store.games_played(table)[dana.id] == 2
    assert len(store.game_stamps(table)) == 2


def test_rosters_are_per_table(ctx: None) -> None:
    one, two = store.create_table("One"), store.create_table("Two")
    store.start_game(one, "trix", "solo", PLAYERS, HouseRules(), None)
    store.start_game(two, "trix", "solo", PLAYERS, HouseRules(), None)
    assert names(one) == names(two) == sorted(PLAYERS)
    player = store.roster(one)[0]
    assert store.player_of(two, player.id) is None
    assert store.player_of(one, player.id) is player


def test_a_rematch_keeps_players_seats_game_mode_and_house_rules(ctx: None) -> None:
    table = store.create_table("Majlis")
    rules = HouseRules(doubling=False)
    game = store.start_game(table, "trix-complex", "partnership", PLAYERS, rules, "Evening")
    started = store.rematch(game)
    again = started.row
    assert started.started and again.id != game.id and again.token != game.token
    assert (again.game, again.mode, again.players, again.house_rules, again.first_chooser) == (
        "trix-complex",
        "partnership",
        PLAYERS,
        game.house_rules,
        None,
    )
    assert store.seat_players(again) == store.seat_players(game)
    assert again.table_id == table.id and again.continues_id == game.id
    assert store.continuation(game) is again


def test_a_game_is_continued_once_asked_again_it_gives_the_same_game(ctx: None) -> None:
    from scorekeeper.store.games import create_game

    table = store.create_table("Majlis")
    for game in (
        store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None),
        create_game("trix", "solo", PLAYERS, HouseRules(doubling=False), None),
    ):
        first, second = store.rematch(game), store.rematch(game)
        assert first.started and not second.started and second.row.id == first.row.id
        assert store.continuation(game).id == first.row.id  # type: ignore[union-attr]


def test_a_game_outside_any_table_continues_outside_any_table(ctx: None) -> None:
    from scorekeeper.store.games import create_game

    game = create_game("turkish-king", "solo", PLAYERS, HouseRules(), "Friday")
    again = store.rematch(game).row
    assert (
        again.game,
        again.mode,
        again.players,
        again.house_rules,
        again.table_id,
        again.name,
        again.first_chooser,
    ) == ("turkish-king", "solo", PLAYERS, game.house_rules, None, None, None)


def load(table: TableRow, *files: str) -> list[int]:
    rows = store.import_into_table(
        table, json.dumps([json.loads((DATA / name).read_text()) for name in files])
    )
    return [row.id for row in rows]


def test_renaming_a_player_rewrites_every_game_and_each_still_replays(ctx: None) -> None:
    table = store.create_table("Majlis")
    load(table, "trix-solo-complete.json", "trix-partnership-complete.json")
    store.start_game(table, "trix", "solo", ["Omar", "Rami", "Lina", "Sami"], HouseRules(), None)
    omar = next(p for p in store.roster(table) if p.name == "Omar")
    versions = [row.version for row in store.table_games(table)]
    outcome = store.rename_player(table, omar, "Omar K.", table.version)
    assert outcome == store.Changed(3)
    assert [row.version for row in store.table_games(table)] == [v + 1 for v in versions]
    assert replays(table) == [("Rami", "Lina", "Omar K.", "Dana")] * 2
    assert store.table_games(table)[2].players == ["Omar K.", "Rami", "Lina", "Sami"]
    assert "Omar K." in names(table) and "Omar" not in names(table)
    # a stale form changes nothing
    lina = next(p for p in store.roster(table) if p.name == "Lina")
    assert store.rename_player(table, lina, "Lena", table.version - 1) == store.TableStale()
    assert "Lina" in names(table)
    # a name another player has (whatever its case) is refused: merge them instead
    taken = store.rename_player(table, lina, "rami", table.version)
    assert isinstance(taken, store.NameTaken) and taken.other.name == "Rami"
    # the same person's name with another spelling is fine
    assert store.rename_player(table, lina, "LINA", table.version) == store.Changed(3)
    assert replays(table)[0] == ("Rami", "LINA", "Omar K.", "Dana")


def test_merging_two_entries_of_one_person(ctx: None) -> None:
    table = store.create_table("Majlis")
    load(table, "trix-solo-complete.json")
    begun(
        store.start_game(
            table, "trix", "solo", ["Rami", "Lina", "Omar", "Dina"], HouseRules(), None
        )
    )
    roster = {player.name: player for player in store.roster(table)}
    # Dana and Dina sat at different games: the same person spelled two ways
    refused = store.merge_players(table, roster["Lina"], roster["Rami"], table.version)
    assert refused == store.PlayedTogether(2)
    dina_id = roster["Dina"].id
    outcome = store.merge_players(table, roster["Dina"], roster["Dana"], table.version)
    assert outcome == store.Changed(1)
    assert names(table) == ["Dana", "Lina", "Omar", "Rami"]
    assert replays(table) == [("Rami", "Lina", "Omar", "Dana")] * 2  # both begun
    assert [row.players for row in store.table_games(table)] == [PLAYERS, PLAYERS]
    dana = next(p for p in store.roster(table) if p.name == "Dana")
    assert store.games_played(table)[dana.id] == 2
    assert db.session.get(PlayerRow, dina_id) is None


def test_importing_records_into_a_table_adds_their_players(ctx: None) -> None:
    table = store.create_table("Istanbul")
    store.start_game(
        table, "turkish-king", "solo", ["ayşe", "Ali", "Veli", "Ece"], HouseRules(), None
    )
    load(table, "turkish-king-complete.json")
    assert names(table) == sorted(["ayşe", "Ali", "Veli", "Ece", "Mehmet", "Zeynep", "Can"])
    imported = store.table_games(table)[1]
    assert imported.players[0] == "ayşe"  # the roster's spelling
    assert replays(table) == [("ayşe", "Mehmet", "Zeynep", "Can")]


def test_a_refused_import_stores_nothing(ctx: None) -> None:
    table = store.create_table("Istanbul")
    good = json.loads((DATA / "turkish-king-complete.json").read_text())
    bad = {**good, "players": ["Ali", "Ali", "Can", "Ece"]}
    with pytest.raises(RecordsRefused):
        store.import_into_table(table, json.dumps([good, bad]))
    assert store.table_games(table) == [] and store.roster(table) == []


def test_deleting_a_game_removes_its_seats(ctx: None) -> None:
    table = store.create_table("Majlis")
    game = store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), None)
    delete_game(game)
    assert db.session.query(SeatRow).count() == 0
    assert names(table) == sorted(PLAYERS)  # the people stay on the roster


def test_a_newcomer_another_phone_adds_at_the_same_moment_is_one_person(app: Flask) -> None:
    """Two phones seat the same newcomer at once: the table is held by one of them, so the
    other finds the newcomer on the roster (one person, two games)."""
    import threading

    with app.app_context():
        token = store.create_table("Majlis").token
        db.session.remove()
    barrier = threading.Barrier(2, timeout=10)
    started: list[object] = []

    def phone(names: list[str]) -> None:
        with app.app_context():
            table = store.find_table(token)
            assert table is not None
            barrier.wait()
            try:
                started.append(
                    store.start_game(table, "trix", "solo", names, HouseRules(), None).players
                )
            except Exception as error:  # reported below
                started.append(error)
            db.session.remove()

    threads = [
        threading.Thread(target=phone, args=(names,))
        for names in (["Rami", "Lina", "Omar", "eve"], ["Sami", "Dina", "Nour", "Eve"])
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(started) == 2 and all(isinstance(players, list) for players in started), started
    with app.app_context():
        table = store.find_table(token)
        assert table is not None
        assert [player.name for player in store.roster(table)].count("eve") + [
            player.name for player in store.roster(table)
        ].count("Eve") == 1
        assert len(names(table)) == 7
        db.session.remove()


def test_one_person_in_two_seats_is_refused_at_a_table(ctx: None) -> None:
    composed, decomposed = "José", unicodedata.normalize("NFD", "José")
    names_ = ["Lina", composed, "Omar", decomposed]
    assert check_players(names_) == [Problem("players[3]", "same_name")]  # the engine's check
    assert check_players(PLAYERS) == []
    table = store.create_table("Majlis")
    record = json.loads((DATA / "trix-solo-complete.json").read_text())
    with pytest.raises(RecordsRefused) as refused:
        store.import_into_table(table, json.dumps([record, {**record, "players": names_}]))
    assert refused.value.record == 2
    assert store.table_games(table) == [] and store.roster(table) == []
