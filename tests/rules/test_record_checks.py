"""Record-level checks (docs/record-format.md): shape, setup, names, house rules, derived keys."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import (
    Record,
    dump_record,
    dumps_record,
    load_record,
    record_from_json,
)
from tests.rules.builders import (
    COMPLEX,
    DIAMONDS,
    FULL_GAME,
    KING_OF_HEARTS,
    LTOOSH,
    QUEENS,
    SAMPLE_DEAL,
    TRIX,
    TRIX_KINGDOM,
    first_problem,
    load,
    not_a_record,
    raw_record,
    refusal,
    refusal_text,
)

# --- not a game record (exit 2) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "{",
        "not json",
        "{'format': 'scorekeeper-game/1'}",
        "[1, 2",
        '{"a": 1,}',
        "NaN",
        "Infinity",
        "-Infinity",
        '{"format": "scorekeeper-game/1", "game": "trix", "first": NaN}',
        '{"format": "scorekeeper-game/1", "deals": [{"contract": "diamonds", "counts": [Infinity]}]}',  # noqa: E501
        '{"format": "scorekeeper-game/1", "first": -Infinity}',
        b'\xff\xfe{"format"',
        "[" * 100_000,
    ],
)
def test_not_json(text: str | bytes) -> None:
    error = not_a_record(text if isinstance(text, str) else text.decode("latin-1"))
    assert str(error).startswith("not JSON")


@pytest.mark.parametrize("text", ["[]", "[{}]", '"scorekeeper-game/1"', "1", "null", "true"])
def test_not_an_object(text: str) -> None:
    assert "not an object" in str(not_a_record(text))


@pytest.mark.parametrize(
    "fmt",
    [
        None,
        "scorekeeper-game/2",
        "scorekeeper-game",
        "",
        1,
        ["scorekeeper-game/1"],
        "SCOREKEEPER-GAME/1",
    ],
)
def test_wrong_format(fmt: object) -> None:
    data = raw_record()
    if fmt is None:
        del data["format"]
    else:
        data["format"] = fmt
    assert "format" in str(not_a_record(json.dumps(data)))


def test_bytes_are_read_as_utf8() -> None:
    data = raw_record(players=["سامي", "ليلى", "Ayşe", "Zoë"])
    record = load_record(json.dumps(data, ensure_ascii=False).encode("utf-8"))
    assert record.game.players == ("سامي", "ليلى", "Ayşe", "Zoë")


# --- unknown and duplicate keys ------------------------------------------------------------------


@pytest.mark.parametrize("key", ["colour", "Game", "deal", "house_rule", "version", "kingdom"])
def test_unknown_top_level_key(key: str) -> None:
    error = refusal(raw_record(**{key: 1}))
    assert error.deal_number is None
    assert first_problem(error) == (key, "unknown_key")


@pytest.mark.parametrize(
    ("game", "before", "deal", "key"),
    [
        ("trix", KING_OF_HEARTS, DIAMONDS, "count"),
        ("trix", KING_OF_HEARTS, DIAMONDS, "doubled_by"),
        ("trix", DIAMONDS, KING_OF_HEARTS, "takers"),
        ("trix", KING_OF_HEARTS, QUEENS, "taker"),
        ("trix", KING_OF_HEARTS, TRIX, "winner"),
        ("trix", KING_OF_HEARTS, TRIX, "totals"),
        ("trix-complex", TRIX, COMPLEX, "counts"),
        ("trix-complex", COMPLEX, TRIX, "doubled_by"),
    ],
)
def test_unknown_deal_key(
    game: str, before: dict[str, Any], deal: dict[str, Any], key: str
) -> None:
    error = refusal(raw_record(game, [before, {**deal, key: 1}]))
    assert (error.deal_number, error.contract) == (2, deal["contract"])
    assert first_problem(error) == (key, "unknown_key")


@pytest.mark.parametrize("key", ["doubled", "Doubling", "swap", "trumps"])
def test_unknown_house_rule(key: str) -> None:
    error = refusal(raw_record(house_rules={key: True}))
    assert first_problem(error) == (f"house_rules.{key}", "unknown_key")


RECORD_TEXT = """{
  "format": "scorekeeper-game/1", "game": "trix", "mode": "solo",
  "players": ["Rami", "Lina", "Omar", "Dana"], "first": 0, %s
  "deals": [
    {"contract": "king-of-hearts", "taker": 1},
    %s
  ]
}"""


@pytest.mark.parametrize(
    ("top", "deal", "field", "number"),
    [
        ('"first": 1,', '{"contract": "diamonds", "counts": [3, 4, 5, 1]}', "first", None),
        ('"mode": "solo",', '{"contract": "diamonds", "counts": [3, 4, 5, 1]}', "mode", None),
        (
            '"house_rules": {"doubling": true, "doubling": false},',
            '{"contract": "diamonds", "counts": [3, 4, 5, 1]}',
            "house_rules.doubling",
            None,
        ),
        (
            '"next": {"chooser": 0, "chooser": 0, "contracts": []},',
            '{"contract": "diamonds", "counts": [3, 4, 5, 1]}',
            "next.chooser",
            None,
        ),
        (
            "",
            '{"contract": "diamonds", "counts": [3, 4, 5, 1], "counts": [3, 4, 5, 1]}',
            "counts",
            2,
        ),
        (
            "",
            '{"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3, "S": 2}}',
            "takers.S",
            2,
        ),
        (
            "",
            '{"contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}, '
            '"doubled_by": {"H": 0, "H": 1}}',
            "doubled_by.H",
            2,
        ),
        (
            "",
            '{"contract": "queens", "contract": "queens", "takers": {"S": 0, "H": 1, "D": 1, "C": 3}}',  # noqa: E501
            "contract",
            2,
        ),
    ],
)
def test_duplicate_keys(top: str, deal: str, field: str, number: int | None) -> None:
    error = refusal_text(RECORD_TEXT % (top, deal))
    assert error.deal_number == number
    assert first_problem(error) == (field, "duplicate_key")


def test_duplicate_key_in_complex_doubling() -> None:
    text = json.dumps(raw_record("trix-complex", [TRIX, {**COMPLEX, "doubled_by": "X"}]))
    text = text.replace('"X"', '{"KH": 1, "KH": 1}')
    error = refusal_text(text)
    assert (error.deal_number, first_problem(error)) == (2, ("doubled_by.KH", "duplicate_key"))


def test_record_text_template_is_valid() -> None:
    deal = '{"contract": "diamonds", "counts": [3, 4, 5, 1]}'
    assert len(load_record(RECORD_TEXT % ("", deal)).game.deals) == 2


# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["game", "mode", "players", "first", "deals"])
@pytest.mark.parametrize("how", ["absent", "null"])
def test_setup_fields_are_required(key: str, how: str) -> None:
    data = raw_record()
    if how == "absent":
        del data[key]
    else:
        data[key] = None
    assert first_problem(refusal(data)) == (key, "missing")


@pytest.mark.parametrize(
    ("top", "field", "code"),
    [
        ({"game": "bridge"}, "game", "unknown_game"),
        ({"game": "Trix"}, "game", "unknown_game"),
        ({"game": 1}, "game", "unknown_game"),
        ({"mode": "duo"}, "mode", "unknown_mode"),
        ({"mode": 2}, "mode", "unknown_mode"),
        ({"mode": "Solo"}, "mode", "unknown_mode"),
        ({"game": "turkish-king", "mode": "partnership"}, "mode", "solo_only"),
        ({"first": 4}, "first", "not_seat"),
        ({"first": -1}, "first", "not_seat"),
        ({"first": True}, "first", "not_seat"),
        ({"first": 1.5}, "first", "not_seat"),
        ({"first": 3.0}, "first", "not_seat"),
        ({"first": "3"}, "first", "not_seat"),
        ({"deals": {}}, "deals", "not_list"),
        ({"deals": "none"}, "deals", "not_list"),
        ({"players": "Rami, Lina, Omar, Dana"}, "players", "not_list"),
        ({"players": ["Rami", "Lina", "Omar"]}, "players", "wrong_length"),
        ({"players": ["Rami", "Lina", "Omar", "Dana", "Ziad"]}, "players", "wrong_length"),
        ({"players": []}, "players", "wrong_length"),
        ({"players": ["Rami", "Lina", 3, "Dana"]}, "players[2]", "not_text"),
        ({"players": ["Rami", "Lina", None, "Dana"]}, "players[2]", "not_text"),
        ({"house_rules": []}, "house_rules", "not_object"),
        ({"house_rules": {"doubling": "yes"}}, "house_rules.doubling", "not_bool"),
        ({"house_rules": {"doubling": 1}}, "house_rules.doubling", "not_bool"),
        (
            {"house_rules": {"swap_diamonds_ltoosh": 0}},
            "house_rules.swap_diamonds_ltoosh",
            "not_bool",
        ),
        (
            {"house_rules": {"doubled_self_take": "half"}},
            "house_rules.doubled_self_take",
            "bad_self_take",
        ),
        (
            {"house_rules": {"doubled_self_take": True}},
            "house_rules.doubled_self_take",
            "bad_self_take",
        ),
        (
            {"house_rules": {"doubled_self_take": "NET"}},
            "house_rules.doubled_self_take",
            "bad_self_take",
        ),
    ],
)
def test_setup_checks(top: dict[str, Any], field: str, code: str) -> None:
    error = refusal(raw_record(**top))
    assert error.deal_number is None
    assert first_problem(error) == (field, code)


@pytest.mark.parametrize("game", ["trix", "trix-complex"])
def test_trix_games_allow_partnership(game: str) -> None:
    assert load(raw_record(game, mode="partnership")).game.mode == "partnership"


# --- names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "seat", "code"),
    [
        (["", "Lina", "Omar", "Dana"], 0, "blank_name"),
        (["Rami", "   ", "Omar", "Dana"], 1, "blank_name"),
        (["Rami", "Lina", "\t\n", "Dana"], 2, "blank_name"),
        (["Rami", "Lina", "Omar", "x" * 41], 3, "long_name"),
        (["Rami", "ل" * 41, "Omar", "Dana"], 1, "long_name"),
        (["Rami", "rami", "Omar", "Dana"], 1, "same_name"),
        (["Rami", "Lina", " RAMI ", "Dana"], 2, "same_name"),
        (["Rami", "Lina", "Omar", "Rami\t"], 3, "same_name"),
        (["Straße", "Lina", "Omar", "STRASSE"], 3, "same_name"),
        (["Ayşe", "Lina", "Omar", "ayşe"], 3, "same_name"),
        # one person in two Unicode forms (composed, and with a combining accent): as the statistics
        # and a table's roster count people
        (["\u00c9mile", "Lina", "Omar", "E\u0301mile"], 3, "same_name"),
        (["Rami", "\u202eLina", "Omar", "Dana"], 1, "control_in_name"),
        (["Rami", "Lina", "Om\x00ar", "Dana"], 2, "control_in_name"),
        (["\x1b[2J\x1b[31mRami", "Lina", "Omar", "Dana"], 0, "control_in_name"),
        (["Rami", "Lina", "Omar", "\u2066Dana\u2069"], 3, "control_in_name"),
        (["Rami", "Li\nna", "Omar", "Dana"], 1, "control_in_name"),
        (["Rami", "Lina", "\x07", "Dana"], 2, "control_in_name"),
        (["Rami", "\u200b", "Omar", "Dana"], 1, "blank_name"),
        (["Rami", "Lina", " \u200b\u200d\u3164 \u2800", "Dana"], 2, "blank_name"),
        (["Rami", "Lina", "Omar", "\u00a0\u2060\ufeff"], 3, "blank_name"),
    ],
)
def test_player_names(names: list[str], seat: int, code: str) -> None:
    error = refusal(raw_record(players=names))
    assert first_problem(error) == (f"players[{seat}]", code)
    if code == "long_name":
        assert dict(error.problems[0].params) == {"maximum": 40}


@pytest.mark.parametrize(
    "names",
    [
        ["Rami", "Lina", "Omar", "x" * 40],
        ["سامي", "ليلى", "يوسف", "مريم"],
        ["A", "B", "C", "D"],
        ["Rami", "Rami Jr", "Omar", "Dana"],
        ["Rami", "Lina", "Omar", "R ami"],
        ["رامي", "لينا", "عمر", "می\u200cخواهم"],  # a zero-width non-joiner belongs to the name
        ["Rami", "Lina", "Omar", "Da\u200fna"],  # a right-to-left mark does not reorder anything
    ],
)
def test_good_player_names(names: list[str]) -> None:
    assert load(raw_record(players=names)).game.players == tuple(names)


# --- house rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "rules", "field"),
    [
        ("trix-complex", {"swap_diamonds_ltoosh": True}, "house_rules.swap_diamonds_ltoosh"),
        ("turkish-king", {"swap_diamonds_ltoosh": True}, "house_rules.swap_diamonds_ltoosh"),
        ("turkish-king", {"doubling": False}, "house_rules.doubling"),
        ("turkish-king", {"doubled_self_take": "full"}, "house_rules.doubled_self_take"),
    ],
)
def test_house_rule_that_does_not_apply(game: str, rules: dict[str, Any], field: str) -> None:
    error = refusal(raw_record(game, house_rules=rules))
    assert first_problem(error) == (field, "rule_not_for_game")


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("trix-complex", {"swap_diamonds_ltoosh": False}),
        (
            "turkish-king",
            {"doubling": True, "doubled_self_take": "net", "swap_diamonds_ltoosh": False},
        ),
        ("turkish-king", {"doubling": None}),
        ("turkish-king", {}),
        ("turkish-king", None),
        ("trix", {"doubling": False, "doubled_self_take": "full", "swap_diamonds_ltoosh": True}),
        ("trix-complex", {"doubling": False, "doubled_self_take": "full"}),
    ],
)
def test_house_rule_at_its_default_is_fine(game: str, rules: dict[str, Any] | None) -> None:
    load(raw_record(game, house_rules=rules))


def test_house_rule_defaults() -> None:
    rules = load(raw_record(house_rules={"doubled_self_take": "full"})).game.house_rules
    assert (rules.doubling, rules.doubled_self_take, rules.swap_diamonds_ltoosh) == (
        True,
        "full",
        False,
    )


# --- the table's own text ------------------------------------------------------------------------


def test_text_fields_are_kept() -> None:
    text = {
        "name": "Friday at Omar's",
        "notes": "Lina's first game\nلعبة",
        "created_at": "2024-03-01T20:15:00+02:00",
        "updated_at": "2024-03-01T22:40:05Z",
    }
    record = load(raw_record(**text))
    assert (record.name, record.notes, record.created_at, record.updated_at) == tuple(text.values())
    assert load_record(dumps_record(record)) == record
    assert {key: dump_record(record)[key] for key in text} == text


@pytest.mark.parametrize("key", ["name", "notes", "created_at", "updated_at"])
def test_text_fields_may_be_null(key: str) -> None:
    assert getattr(load(raw_record(**{key: None})), key) is None


@pytest.mark.parametrize("key", ["name", "notes", "created_at", "updated_at"])
@pytest.mark.parametrize("value", [1, True, ["x"], {"x": 1}])
def test_text_fields_are_text(key: str, value: object) -> None:
    assert first_problem(refusal(raw_record(**{key: value}))) == (key, "not_text")


@pytest.mark.parametrize("key", ["created_at", "updated_at"])
@pytest.mark.parametrize("value", ["yesterday", "", "2024-13-01", "1/3/2024 20:15"])
def test_timestamps_are_iso_8601(key: str, value: str) -> None:
    assert first_problem(refusal(raw_record(**{key: value}))) == (key, "bad_timestamp")


@pytest.mark.parametrize("key", ["created_at", "updated_at"])
@pytest.mark.parametrize(
    "value", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:30:00-01:00", "0001-01-01T13:59:59+14:00"]
)
def test_timestamps_stay_within_years_1_to_9999_in_utc(key: str, value: str) -> None:
    """Converted to UTC these leave the years datetime (and a database) can hold."""
    error = refusal(raw_record(**{key: value}))
    assert first_problem(error) == (key, "bad_timestamp")
    assert error.headline().startswith(f"{key} must be a date and time")


@pytest.mark.parametrize(
    "value",
    [
        "0001-01-01T00:00:00+00:00",
        "0001-01-01T14:00:00+14:00",
        "9999-12-31T23:59:59.999999+00:00",
        "9999-12-31T20:00:00-03:00",
    ],
)
def test_the_edges_of_the_years_load(value: str) -> None:
    assert load(raw_record(created_at=value)).created_at == value


@pytest.mark.parametrize("key", ["name", "notes"])
def test_text_is_cleaned_as_the_forms_clean_it(key: str) -> None:
    record = load(raw_record(**{key: "  \u202eFriday\x00 \x1b[31mnight\u2066  "}))
    assert getattr(record, key) == "Friday [31mnight"
    assert load(raw_record(notes="line one\r\n\u202eline two\x07")).notes == ("line one\nline two")
    assert getattr(load(raw_record(**{key: " \u200b\u202e "})), key) is None


@pytest.mark.parametrize(("key", "limit"), [("name", 80), ("notes", 2000)])
def test_text_limits_are_the_forms(key: str, limit: int) -> None:
    assert getattr(load(raw_record(**{key: "x" * limit})), key) == "x" * limit
    # characters cleaning removes do not count
    assert getattr(load(raw_record(**{key: "\u202e" * 50 + "x" * limit})), key) == "x" * limit
    error = refusal(raw_record(**{key: "x" * (limit + 1)}))
    assert first_problem(error) == (key, "long_text")
    assert error.headline() == f"{key}: at most {limit} characters"


@pytest.mark.parametrize("value", ["2024-03-01", "2024-03-01T20:15:00", "2024-03-01 20:15:00.123"])
def test_timestamp_forms(value: str) -> None:
    assert load(raw_record(created_at=value)).created_at == value


# --- deals as a whole ----------------------------------------------------------------------------


@pytest.mark.parametrize("entry", [[], "diamonds", 3, None, True])
def test_a_deal_must_be_an_object(entry: object) -> None:
    error = refusal(raw_record("trix", [KING_OF_HEARTS, entry]))
    assert error.deal_number == 2
    assert first_problem(error) == ("deal", "not_object")


@pytest.mark.parametrize("deal", [{"counts": [3, 4, 5, 1]}, {"contract": None}])
def test_a_deal_names_its_contract(deal: dict[str, Any]) -> None:
    error = refusal(raw_record("trix", [KING_OF_HEARTS, deal]))
    assert error.deal_number == 2
    assert first_problem(error) == ("contract", "missing")


def test_unknown_contract_is_reported_before_its_fields() -> None:
    error = refusal(raw_record("trix", [{"contract": "bridge", "tricks": [13, 0, 0, 0]}]))
    assert first_problem(error) == ("contract", "unknown_contract")
    assert str(error) == "deal 1 (bridge): contract: there is no such contract in this game"


def test_top_level_is_checked_before_the_deals() -> None:
    bad_deal = {"contract": "diamonds", "counts": [1, 1, 1, 1]}
    error = refusal(raw_record("trix", [bad_deal], players=["A", "a", "B", "C"]))
    assert (error.deal_number, first_problem(error)) == (None, ("players[1]", "same_name"))


def test_the_first_illegal_deal_is_reported() -> None:
    # deal 2 repeats a contract (illegal only in context); deal 3 has an unknown key and
    # deal 4 does not add up: the first violation, deal 2, is the one reported
    deals = [
        KING_OF_HEARTS,
        KING_OF_HEARTS,
        {**DIAMONDS, "oops": 1},
        {**LTOOSH, "tricks": [1, 1, 1, 1]},
    ]
    error = refusal(raw_record("trix", deals))
    assert (error.deal_number, first_problem(error)) == (2, ("contract", "contract_played"))
    error = refusal(raw_record("trix", [KING_OF_HEARTS, QUEENS, *deals[2:]]))
    assert (error.deal_number, first_problem(error)) == (3, ("oops", "unknown_key"))


def test_an_empty_game_loads() -> None:
    for game in ("trix", "trix-complex", "turkish-king"):
        record = load(raw_record(game))
        assert record.game.deals == ()


# --- derived keys --------------------------------------------------------------------------------


def exported(game: str, deals: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """The record as an export writes it, derived keys included."""
    return json.loads(dumps_record(load(raw_record(game, deals, **top)), derived=True))


EXPORTS = [
    ("trix", TRIX_KINGDOM[:3], {}),
    ("trix", TRIX_KINGDOM[:3], {"mode": "partnership", "first": 2}),
    ("trix", FULL_GAME["trix"], {"mode": "partnership"}),
    ("trix-complex", FULL_GAME["trix-complex"], {}),
    ("turkish-king", FULL_GAME["turkish-king"][:7], {"first": 3}),
    ("turkish-king", FULL_GAME["turkish-king"], {}),
    ("trix", [], {}),
]


@pytest.mark.parametrize(("game", "deals", "top"), EXPORTS)
def test_derived_keys_equal_to_the_engine_are_accepted(
    game: str, deals: list[dict[str, Any]], top: dict[str, Any]
) -> None:
    data = exported(game, deals, **top)
    assert {"totals", "team_totals", "finished", "next", "winners"} <= set(data)
    for deal in data["deals"]:
        assert {"number", "chooser", "kingdom", "scores"} <= set(deal)
    assert load(data) == load(raw_record(game, deals, **top))


TOP_MISMATCHES = [
    ("totals", lambda v: [v[0] + 1, *v[1:]]),
    ("totals", lambda v: v[:3]),
    ("totals", lambda v: [float(x) for x in v]),
    ("totals", lambda v: None),
    ("team_totals", lambda v: [0, 0] if v is None else [v[1], v[0] + 1]),
    ("team_totals", lambda v: [0, 0] if v is None else None),
    ("finished", lambda v: not v),
    ("finished", lambda v: int(v)),
    ("finished", lambda v: None),
    ("next", lambda v: None if v else {"chooser": 0, "contracts": []}),
    ("next", lambda v: {**v, "chooser": (v["chooser"] + 1) % 4} if v else {}),
    ("next", lambda v: {**v, "contracts": v["contracts"][::-1]} if v else [0]),
    ("next", lambda v: {**v, "chooser": float(v["chooser"])} if v else 0),
    ("next", lambda v: {**v, "extra": 1} if v else False),
    ("winners", lambda v: [0, 1, 2, 3] if v is None else None),
    ("winners", lambda v: [] if v is None else [*v[::-1], v[0]]),
]


@pytest.mark.parametrize(("game", "deals", "top"), EXPORTS)
@pytest.mark.parametrize(("key", "change"), TOP_MISMATCHES)
def test_top_derived_keys_must_match(
    game: str, deals: list[dict[str, Any]], top: dict[str, Any], key: str, change: Any
) -> None:
    data = exported(game, deals, **top)
    data[key] = change(data[key])
    error = refusal(data)
    assert error.deal_number is None
    assert first_problem(error) == (key, "derived_mismatch")


DEAL_MISMATCHES = [
    ("number", lambda v: v + 1),
    ("number", lambda v: v - 1),
    ("number", lambda v: float(v)),
    ("number", lambda v: str(v)),
    ("chooser", lambda v: (v + 1) % 4),
    ("chooser", lambda v: float(v)),
    ("chooser", lambda v: None),
    ("kingdom", lambda v: 0 if v is None else v + 1),
    ("kingdom", lambda v: False if v in (None, 0) else None),
    ("scores", lambda v: [v[1], v[0], *v[2:]] if v[0] != v[1] else [v[0] + 1, *v[1:]]),
    ("scores", lambda v: [*v, 0]),
    ("scores", lambda v: None),
]


@pytest.mark.parametrize(("game", "deals", "top"), EXPORTS[:-1])
@pytest.mark.parametrize(("key", "change"), DEAL_MISMATCHES)
@pytest.mark.parametrize("which", [0, -1])
def test_deal_derived_keys_must_match(
    game: str, deals: list[dict[str, Any]], top: dict[str, Any], key: str, change: Any, which: int
) -> None:
    data = exported(game, deals, **top)
    deal = data["deals"][which]
    deal[key] = change(deal[key])
    error = refusal(data)
    assert error.deal_number == len(deals) + 1 + which if which < 0 else which + 1
    assert error.contract == deal["contract"]
    assert first_problem(error) == (key, "derived_mismatch")


def test_true_is_not_one() -> None:
    # deal 2 is number 2 and its kingdom 0; deal 6 opens kingdom 1 and is dealt by seat 1
    data = exported("trix", FULL_GAME["trix"][:6])
    data["deals"][5]["kingdom"] = True
    assert first_problem(refusal(data)) == ("kingdom", "derived_mismatch")
    data = exported("trix", FULL_GAME["trix"][:6])
    data["deals"][5]["chooser"] = True
    assert first_problem(refusal(data)) == ("chooser", "derived_mismatch")
    data = exported("trix", FULL_GAME["trix"][:6])
    data["deals"][0]["number"] = True
    assert first_problem(refusal(data)) == ("number", "derived_mismatch")
    data = exported("trix", FULL_GAME["trix"][:6])
    data["deals"][0]["kingdom"] = False
    assert first_problem(refusal(data)) == ("kingdom", "derived_mismatch")


def test_derived_keys_may_be_partial() -> None:
    data = raw_record("trix", [{**KING_OF_HEARTS, "number": 1}], finished=False)
    assert len(load(data).game.deals) == 1
    data = raw_record(
        "turkish-king",
        [{**SAMPLE_DEAL["turkish-king"], "kingdom": None}],
        team_totals=None,
        winners=None,
    )
    assert len(load(data).game.deals) == 1


def test_a_wrong_derived_key_on_an_earlier_deal_comes_first() -> None:
    deals = [{**KING_OF_HEARTS, "scores": [0, 0, 0, 0]}, {**DIAMONDS, "counts": [1, 1, 1, 1]}]
    error = refusal(raw_record("trix", deals))
    assert (error.deal_number, first_problem(error)) == (1, ("scores", "derived_mismatch"))


def test_record_from_json_takes_parsed_data() -> None:
    data = raw_record("trix", TRIX_KINGDOM)
    record = record_from_json(data)
    assert isinstance(record, Record)
    assert record == load(data)
