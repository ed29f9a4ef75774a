"""What the store keeps exactly as it was given, found missing by a mutation run: an imported
record's name, notes, stamps and caches; a new game's name; a table's games in the order they
were played and its roster by games played; the numbers of a refused import."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import HouseRules, replay
from scorekeeper.store import tables as store
from scorekeeper.store.db import db
from scorekeeper.store.games import (
    create_game,
    delete_game,
    find_game,
    format_timestamp,
    house_rules_of,
    record_of,
)
from scorekeeper.store.records import ImportCaps, ImportLimited, parse_records, store_records
from tests.rules.builders import FULL_GAME, raw_record

DATA = Path(__file__).resolve().parent.parent / "data"
PLAYERS = ["Rami", "Lina", "Omar", "Dana"]


def complete(**top: Any) -> dict[str, Any]:
    """A complete Turkish King record (tests/data) with these top-level keys."""
    data = json.loads((DATA / "turkish-king-complete.json").read_text())
    for key in ("name", "notes", "created_at", "updated_at"):
        data.pop(key, None)
    return {**data, **top}


def stored(data: dict[str, Any]) -> Any:
    """The record imported, then read back from a fresh session."""
    [row] = store_records(parse_records(json.dumps(data)))
    token = row.token
    db.session.remove()
    found = find_game(token)
    assert found is not None
    return found


def test_an_imported_record_comes_back_as_it_was(ctx: None) -> None:
    row = stored(
        complete(
            name="Eid at Ayşe's",
            notes="Can dealt",
            created_at="2026-03-02T21:00:00+03:00",
            updated_at="2026-03-02T23:30:00+03:00",
        )
    )
    deals = len(complete()["deals"])
    assert (row.deal_count, row.finished, row.version) == (deals, True, 1)
    assert row.players == ["Ayşe", "Mehmet", "Zeynep", "Can"]
    record = record_of(row)
    assert (record.name, record.notes) == ("Eid at Ayşe's", "Can dealt")
    # the same moments, at the offset they were written with: where the game was played
    # (issue 44 item 11; they came back in UTC)
    assert row.utc_offset == 180
    assert (record.created_at, record.updated_at) == (
        "2026-03-02T21:00:00+03:00",
        "2026-03-02T23:30:00+03:00",
    )
    assert len(record.game.deals) == deals


@pytest.fixture
def riyadh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The server's clock set to Riyadh (UTC+3), as an operator's machine may be."""
    monkeypatch.setenv("TZ", "Asia/Riyadh")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_stamps_are_written_in_utc_whatever_the_servers_zone(riyadh: None) -> None:
    # PostgreSQL hands back aware stamps in the session's zone, SQLite naive ones in UTC
    riyadh_time = timezone(timedelta(hours=3))
    aware = datetime(2026, 3, 2, 21, 0, tzinfo=riyadh_time)
    assert format_timestamp(aware) == "2026-03-02T18:00:00+00:00"
    assert format_timestamp(datetime(2026, 3, 2, 18, 0)) == "2026-03-02T18:00:00+00:00"
    assert format_timestamp(None) is None


def test_a_new_games_stamps_are_now_in_utc_whatever_the_servers_zone(
    ctx: None, riyadh: None
) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    token = create_game("trix", "solo", PLAYERS, HouseRules(), None).token
    db.session.remove()
    row = find_game(token)
    assert row is not None
    created = format_timestamp(row.created_at)
    assert created is not None
    assert before <= datetime.fromisoformat(created) <= datetime.now(UTC)


def test_an_imported_record_without_stamps_is_stamped_once(ctx: None) -> None:
    before = datetime.now(UTC) - timedelta(seconds=1)
    record = record_of(stored(complete()))
    assert record.created_at is not None and record.created_at == record.updated_at
    assert before <= datetime.fromisoformat(record.created_at) <= datetime.now(UTC)
    # only created_at: it was last changed then
    created = "2026-03-02T18:00:00+00:00"
    assert record_of(stored(complete(created_at=created))).updated_at == created


def test_a_new_game_keeps_its_name_and_house_rules(ctx: None) -> None:
    row = create_game("trix", "solo", PLAYERS, HouseRules(doubled_self_take="full"), "Friday")
    assert row.name == "Friday"
    assert house_rules_of(row) == HouseRules(doubled_self_take="full")
    assert create_game("trix", "solo", PLAYERS, HouseRules(), "").name is None
    table = store.create_table("Majlis")
    game = store.start_game(table, "trix", "solo", PLAYERS, HouseRules(), "Eid")
    assert (game.name, game.version, game.deal_count, game.finished) == ("Eid", 1, 0, False)


def test_a_table_lists_its_games_in_the_order_they_were_played(ctx: None) -> None:
    table = store.create_table("Istanbul")
    # imported after it, played before it
    later, earlier = store.store_table_records(
        table,
        parse_records(
            json.dumps(
                [
                    complete(created_at="2026-03-02T20:00:00Z"),
                    complete(created_at="2026-03-01T20:00:00Z"),
                ]
            )
        ),
    )
    assert [row.id for row in store.table_games(table)] == [earlier.id, later.id]
    newest = store.last_game(table)
    assert newest is not None and newest.id == later.id


def test_the_roster_puts_who_played_most_first(ctx: None) -> None:
    from scorekeeper.store.deals import choose_first

    table = store.create_table("Majlis")
    for players in (
        ["Rami", "Lina", "Omar", "Dana"],
        ["Rami", "Lina", "Omar", "Sami"],
        ["Rami", "Lina", "Can", "Sami"],
    ):
        row = store.start_game(table, "trix", "solo", players, HouseRules(), None)
        choose_first(row, 0, row.version)  # begun: it counts (store.tables.BEGUN)
    gone = store.start_game(
        table, "trix", "solo", ["Rami", "Lina", "Can", "Aaron"], HouseRules(), None
    )
    choose_first(gone, 0, gone.version)
    delete_game(gone)  # Aaron stays on the roster, with no game
    store.start_game(  # seated, not begun: counts for nobody
        table, "trix", "solo", ["Sami", "Dana", "Can", "Aaron"], HouseRules(), None
    )
    assert [player.name for player in store.roster(table)] == [
        "Lina",  # 3 games
        "Rami",
        "Omar",  # 2
        "Sami",
        "Can",  # 1
        "Dana",
        "Aaron",  # 0
    ]


def test_a_refused_import_says_how_many_and_how_many_at_most() -> None:
    data = json.dumps([complete(), complete(), complete()])
    with pytest.raises(ImportLimited) as refused:
        parse_records(data, ImportCaps(records=2, deals=10_000))
    assert (refused.value.what, refused.value.count, refused.value.maximum) == ("records", 3, 2)


def test_a_partnership_comes_back_a_partnership(ctx: None) -> None:
    row = stored(raw_record("trix", FULL_GAME["trix"], mode="partnership"))
    record = record_of(row)
    assert record.game.mode == "partnership"
    assert replay(record.game).team_totals == (560, -560)
