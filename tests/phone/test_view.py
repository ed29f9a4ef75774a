"""The game as the phone's engine shows it with deals not yet sent (the worker's "view" and
"form" messages): the engine's replay of the record plus those deals, worded in the page's
language; a pending deal the engine refuses stops there, with why."""

from __future__ import annotations

from scorekeeper.phone.cases import PLAYERS, _played, accepted_deal
from scorekeeper.phone.worker import SERVER, Engine
from scorekeeper.rules import Game, dump_deal, dump_record, replay, with_deal
from scorekeeper.rules.record import Record, record_from_json
from scorekeeper.words.labels import signed

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


def test_the_view_counts_the_deals_the_phone_keeps_in_the_readers_words() -> None:
    deal = accepted_deal("diamonds", TRIX.house_rules)
    assert _engine(TRIX).view("g", [])["waiting"] == ""
    assert _engine(TRIX).view("g", [deal])["waiting"] == (
        "1 deal on this phone is waiting for the server."
    )
    # all it keeps, shown or not (those after one another phone's deal took its place)
    assert _engine(TRIX).view("g", [deal], waiting=3)["waiting"] == (
        "3 deals on this phone are waiting for the server."
    )
    russian = [_engine(TRIX, "ru").view("g", [deal], waiting=n)["waiting"] for n in (1, 3, 5)]
    assert len(set(russian)) == 3 and all("сдач" in said for said in russian)
    arabic = [_engine(TRIX, "ar").view("g", [deal], waiting=n)["waiting"] for n in (1, 2, 3, 11)]
    assert len(set(arabic)) == 4 and "waiting" not in arabic[0]


def test_the_view_names_undo_and_the_final_standings() -> None:
    view = _engine(TURKISH, "ar").view("g", [accepted_deal("trump", TURKISH.house_rules)])
    assert "1" in view["undo"] and "اليد" in view["undo"]  # Turkish King's hand, in its words
    assert view["standings"] is None and view["winning_teams"] is None
    assert _engine(TRIX).view("g", [])["undo"] == ""
    played = _played(TRIX, 19)
    last = accepted_deal(replay(played).next.contracts[0], TRIX.house_rules)  # type: ignore[union-attr]
    finished = _engine(played).view("g", [last])
    assert finished["finished"] and finished["next"] is None
    expected = replay(
        record_from_json(
            {
                **dump_record(Record(played)),
                "deals": [*[dump_deal(deal) for deal in played.deals], last],
            }
        ).game
    )
    assert len(finished["standings"]) == 4
    assert finished["standings"][0].startswith("1. ")
    winners = [PLAYERS[seat] for seat in expected.winners or ()]
    assert all(name in " ".join(finished["standings"]) for name in winners)
    assert "Winner" in finished["standings"][0]


def test_a_deal_kept_here_is_named_as_a_history_row_names_it() -> None:
    mine = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
    said = _engine(TRIX).describe("g", [mine, {"contract": "nothing"}])
    assert said[0] == {"name": "Diamonds", "takes": "3 · 4 · 5 · 1"}
    assert said[1] == {"name": "nothing", "takes": ""}  # not a deal: its id, nothing more


def test_a_tap_after_deals_kept_here_is_judged_after_them() -> None:
    """The phone with no network: the form of the deal after those it keeps is judged on the
    game with them, and a deal it may save comes back as the record holds it."""
    engine = _engine(TRIX)
    kept = [accepted_deal("diamonds", TRIX.house_rules)]

    def fields(contract: str, **values: str) -> list[list[str]]:
        return [
            ["contract", contract],
            ["number", "2"],
            ["version", "7"],
            ["autofilled", ""],
            *[[name, value] for name, value in values.items()],
        ]

    again = engine.preview(
        "g", fields("diamonds", **{f"counts-{s}": "3" for s in range(3)}, **{"counts-3": "4"}), kept
    )
    assert again["local"] and not again["ok"] and again["deal"] is None  # played in this kingdom
    ltoosh = engine.preview(
        "g", fields("ltoosh", **{f"tricks-{s}": "3" for s in range(3)}, **{"tricks-3": "4"}), kept
    )
    assert ltoosh["ok"] and ltoosh["deal"] == {"contract": "ltoosh", "tricks": [3, 3, 3, 4]}
    alone = engine.preview(
        "g", fields("diamonds", **{f"counts-{s}": "3" for s in range(3)}, **{"counts-3": "4"})
    )
    assert alone["ok"]  # without them, Diamonds is open
    refused = engine.preview("g", fields("ltoosh"), [*kept, *kept])  # a kept deal refused
    assert refused == SERVER


def test_a_preview_rendered_in_the_phone_escapes_what_players_typed() -> None:
    """The phone renders the server's templates with autoescape on: a name is text, never
    markup (the parity test holds the rest equal to the server's HTML)."""
    hostile = ('<img src=x onerror="alert(1)">', "Lina & Omar", "Omar", 'Dana"><b>')
    engine = _engine(Game("trix", "solo", hostile, 0))
    fields = [
        ["contract", "diamonds"],
        ["number", "1"],
        ["version", "7"],
        ["autofilled", ""],
        ["counts-0", "5"],
        ["counts-1", "4"],
        ["counts-2", "3"],
    ]
    html = engine.preview("g", fields)["html"]
    # a refusal that names a player: the engine's message, text inside the template
    twice = [["contract", "trix"], ["number", "1"], ["version", "7"], ["autofilled", ""]]
    twice += [["order-0", "0"], ["order-1", "0"], ["order-2", "1"], ["order-3", "2"]]
    refused = engine.preview("g", twice)["html"]
    assert "alert(1)" in refused and "<img" not in refused, refused
    assert "<img" not in html and "<b>" not in html
    assert "&lt;img src=x onerror=" in html and "&lt;b&gt;" in html
    assert "Lina &amp; Omar" in html
