"""The game as the phone's engine shows it with deals not yet sent (the worker's "view" and
"form" messages): the engine's replay of the record plus those deals, worded in the page's
language; a pending deal the engine refuses stops there, with why."""

from __future__ import annotations

from scorekeeper.rules import Game, dump_record, replay, with_deal
from scorekeeper.rules.record import Record, record_from_json
from scorekeeper.words.labels import signed
from scorekeeper.words.worker import Engine
from scorekeeper.words.worker_cases import PLAYERS, accepted_deal

TRIX = Game("trix", "solo", PLAYERS, 1)
TURKISH = Game("turkish-king", "solo", PLAYERS, 0)


def _engine(game: Game, language: str = "en") -> Engine:
    engine = Engine(language)
    engine.hold("g", dump_record(Record(game)), 7)
    return engine


def test_the_view_is_the_replay_of_the_record_and_the_pending_deals() -> None:
    pending = [accepted_deal("diamonds", TRIX.house_rules), accepted_deal("trix", TRIX.house_rules)]
    view = _engine(TRIX).view("g", pending)
    record = {**dump_record(Record(TRIX)), "deals": pending}
    expected = replay(record_from_json(record).game)
    assert (view["stored"], view["deals"], view["refused"]) == (0, 2, None)
    assert view["totals"] == [signed(total) for total in expected.totals]
    assert [row["scores"] for row in view["history"]] == [
        [signed(score) for score in deal.scores] for deal in expected.deals
    ]
    assert expected.next is not None and view["next"]["number"] == expected.next.number
    closed = {option["contract"] for option in view["next"]["options"] if not option["open"]}
    assert closed == {"diamonds", "trix"}
    assert view["next"]["heading"] == f"\u2068{PLAYERS[1]}\u2069 is king and chooses"


def test_a_refused_pending_deal_stops_the_view_there() -> None:
    good = accepted_deal("diamonds", TRIX.house_rules)
    view = _engine(TRIX, "ar").view("g", [good, good])  # Diamonds twice in one kingdom
    assert view["deals"] == 1 and view["refused"]["pending"] == 1
    assert view["refused"]["messages"] and all(m for m in view["refused"]["messages"])
    assert "Diamonds" not in view["refused"]["messages"][0]  # said in Arabic


def test_a_blank_form_for_the_next_deal() -> None:
    game = with_deal(
        TURKISH,
        record_from_json(
            {**dump_record(Record(TURKISH)), "deals": [accepted_deal("trump", TURKISH.house_rules)]}
        ).game.deals[0],
    )
    engine = _engine(game)
    form = engine.form("g", [], "no-hearts")
    assert form["open"] and form["number"] == 2
    assert [group["name"] for group in form["groups"]] == ["counts"]
    assert form["left"] == "4 values left to tap."
    refused = engine.form("g", [accepted_deal("no-hearts", game.house_rules)], "no-hearts")
    assert refused["open"] is True  # another player declares it: still open
    assert engine.form("g", [], "nothing")["open"] is False
