"""POST /g/<token>/sync: deals a phone saved offline, sent in order when the network is back.

Each entry once (by its key), in order; another phone's deal N stands and is answered beside
the phone's; whatever is not a sync is refused whole with a clear JSON message, never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorekeeper.rules import load_record, replay
from tests.conftest import Phone, page, snapshot, totals_shown
from tests.rules.builders import FULL_GAME

KEYS = [f"{index:08x}-2222-4222-a222-222222222222" for index in range(1, 30)]
PENDING = FULL_GAME["trix"][3:8]  # deals 4 to 8: a kingdom's last two, then the next one's
OTHER_LTOOSH = {"contract": "ltoosh", "tricks": [1, 4, 4, 4]}


def sync(phone: Phone, body: Any, *, raw: bytes | None = None, **headers: str) -> Any:
    """What the phone's sync sends: JSON, the CSRF token in its header (as htmx sends it)."""
    headers.setdefault("X-CSRFToken", phone.csrf())
    return phone.client.post(
        f"{phone.url}/sync",
        data=raw if raw is not None else json.dumps(body),
        headers={"Content-Type": "application/json", **headers},
    )


def chain(deals: list[dict[str, Any]], first: int, base: int, keys: list[str]) -> list[Any]:
    """Pending deals in order: the first on version `base`, each next one after the one before."""
    return [
        {"key": key, "number": first + index, "deal": deal}
        | ({"base": base} if index == 0 else {"after": keys[index - 1]})
        for index, (key, deal) in enumerate(zip(keys, deals, strict=False))
    ]


@pytest.fixture
def three_deals(phone: Phone) -> Phone:
    phone.new_game("trix", "solo", first=0)
    for deal in FULL_GAME["trix"][:3]:
        phone.enter(deal)
    return phone


def test_five_pending_deals_across_a_kingdom_are_stored_in_order_once(three_deals: Phone) -> None:
    phone = three_deals
    base = phone.row().version
    pending = chain(PENDING, 4, base, KEYS)
    answer = sync(phone, {"entries": pending})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    body = answer.get_json()
    assert [r["outcome"] for r in body["results"]] == ["stored"] * 5
    assert [r["number"] for r in body["results"]] == [4, 5, 6, 7, 8]
    assert [r["version"] for r in body["results"]] == [base + i for i in range(1, 6)]
    assert body["results"][0]["message"] == "Deal 4 saved."
    assert (body["version"], body["deals"], body["finished"]) == (base + 5, 8, False)
    assert body["record"]["deals"] == FULL_GAME["trix"][:8]
    # the totals the phone showed (the engine over the record plus its pending deals)
    local = replay(load_record(json.dumps(body["record"])).game)
    shown = totals_shown(phone.game_page())
    assert shown == [f"+{t}" if t > 0 else (f"−{-t}" if t < 0 else "0") for t in local.totals]
    # the answer was lost: the whole sync sent again stores nothing twice
    before = snapshot(phone.app)
    again = sync(phone, {"entries": pending}).get_json()
    assert [r["outcome"] for r in again["results"]] == ["kept"] * 5
    assert [r["version"] for r in again["results"]] == [base + i for i in range(1, 6)]
    assert again["results"][0]["message"] == "Deal 4 is in the game."
    assert snapshot(phone.app) == before


def test_two_phones_offline_both_send_deal_four(app: Any, three_deals: Phone) -> None:
    phone = three_deals
    other = type(phone)(app, app.test_client())
    other.token = phone.token
    base = phone.row().version
    first = sync(
        other, {"entries": [{"key": KEYS[20], "number": 4, "base": base, "deal": OTHER_LTOOSH}]}
    )
    assert first.get_json()["results"][0]["outcome"] == "stored"
    answer = sync(phone, {"entries": chain(PENDING, 4, base, KEYS)}).get_json()
    conflict, *rest = answer["results"]
    assert conflict["outcome"] == "conflict"
    assert conflict["stored"] == OTHER_LTOOSH and conflict["yours"] == PENDING[0]
    assert conflict["same"] is False
    assert conflict["message"] == "Another phone saved deal 4 first; yours was not saved."
    assert [r["outcome"] for r in rest] == ["waiting"] * 4
    assert rest[0]["message"] == "Waiting for the deal before it."
    assert answer["record"]["deals"][3:] == [OTHER_LTOOSH] and answer["deals"] == 4
    # followers and view links show the stored deals only
    view = phone.client.get(f"/v/{phone.row().view_token}/export.json").get_json()
    assert [deal["tricks"] for deal in view["deals"][3:]] == [OTHER_LTOOSH["tricks"]]
    # "drop mine": the rest, on the game as it is now (their keys were never stored)
    rest_again = [
        {"key": KEYS[1], "number": 5, "base": answer["version"], "deal": PENDING[1]},
        *chain(PENDING, 4, base, KEYS)[2:],
    ]
    again = sync(phone, {"entries": rest_again}).get_json()
    assert [r["outcome"] for r in again["results"]] == ["stored"] * 4
    assert again["record"]["deals"] == [*FULL_GAME["trix"][:3], OTHER_LTOOSH, *PENDING[1:]]


def test_a_refused_deal_says_why_in_the_readers_language(three_deals: Phone) -> None:
    phone = three_deals
    wrong = {"contract": "ltoosh", "tricks": [4, 4, 4, 4]}
    entries = [{"key": KEYS[0], "number": 4, "base": phone.row().version, "deal": wrong}]
    before = snapshot(phone.app)
    english = sync(phone, {"entries": entries}).get_json()["results"][0]
    assert english["outcome"] == "refused"
    assert english["problems"][0]["field"] == "tricks"
    assert "13" in english["message"]
    phone.client.get("/?lang=ar")
    arabic = sync(phone, {"entries": entries}).get_json()["results"][0]
    assert arabic["outcome"] == "refused" and arabic["message"] != english["message"]
    assert any("\u0600" <= letter <= "\u06ff" for letter in arabic["message"])
    assert snapshot(phone.app) == before


def test_a_deal_made_on_an_old_version_is_stale_until_sent_on_the_new_one(
    three_deals: Phone,
) -> None:
    phone = three_deals
    base = phone.row().version
    notes = page(phone.game_page()).hidden("/notes")
    assert (
        phone.client.post(f"{phone.url}/notes", data={**notes, "name": "Friday"}).status_code == 303
    )
    answer = sync(phone, {"entries": chain(PENDING, 4, base, KEYS)}).get_json()
    assert [r["outcome"] for r in answer["results"]] == ["stale"] + ["waiting"] * 4
    assert answer["record"]["name"] == "Friday"
    rebased = chain(PENDING, 4, answer["version"], KEYS)
    assert [r["outcome"] for r in sync(phone, {"entries": rebased}).get_json()["results"]] == [
        "stored"
    ] * 5


def test_keys_of_another_game(three_deals: Phone) -> None:
    phone = three_deals
    base = phone.row().version
    assert sync(phone, {"entries": chain(PENDING[:1], 4, base, KEYS)}).status_code == 200
    first = phone.token
    phone.new_game("trix", "solo", first=0)
    for deal in FULL_GAME["trix"][:3]:
        phone.enter(deal)
    assert phone.token != first
    # based on an entry of the other game: not this game's, stale here
    after_other = [{"key": KEYS[1], "number": 4, "after": KEYS[0], "deal": PENDING[0]}]
    assert sync(phone, {"entries": after_other}).get_json()["results"][0]["outcome"] == "stale"
    # the other game's key, sent here: an entry of this game's own
    same_key = chain(PENDING[:1], 4, phone.row().version, KEYS)
    assert sync(phone, {"entries": same_key}).get_json()["results"][0]["outcome"] == "stored"


GOOD = {"key": KEYS[0], "number": 4, "base": 4, "deal": PENDING[0]}
BAD_BODIES: list[tuple[str, bytes, str]] = [
    ("not JSON", b"entries: [1]", "is not valid JSON"),
    ("not UTF-8", b'{"entries": ["\xff"]}', "is not valid JSON"),
    ("NaN", b'{"entries": [{"number": NaN}]}', "is not valid JSON"),
    ("a key twice", b'{"entries": [], "entries": []}', "is not valid JSON"),
    ("deep", b"[" * 100_00 + b"]" * 100_00, "is not valid JSON"),
    ("an array", json.dumps([GOOD]).encode(), "a list (1 to 40)"),
    ("another key", json.dumps({"entries": [GOOD], "format": 1}).encode(), "a list (1 to 40)"),
    ("no entries", json.dumps({"entries": []}).encode(), "a list (1 to 40)"),
    ("too many", json.dumps({"entries": [GOOD] * 41}).encode(), "a list (1 to 40)"),
    ("a string", json.dumps({"entries": "GOOD"}).encode(), "a list (1 to 40)"),
]
BAD_ENTRIES: list[tuple[str, Any, str]] = [
    ("not an object", [1], "entries"),
    ("unknown key", [GOOD | {"scores": [0, 0, 0, 0]}], "scores"),
    ("no key", [{k: v for k, v in GOOD.items() if k != "key"}], "key"),
    ("key in capitals", [GOOD | {"key": KEYS[0].upper()}], "key"),
    ("key of version 1", [GOOD | {"key": "0b5c8a52-7f3e-1c1d-9a6b-2f4e8d1c7a90"}], "key"),
    ("key in braces", [GOOD | {"key": "{" + KEYS[0] + "}"}], "key"),
    ("key a number", [GOOD | {"key": 7}], "key"),
    ("one key twice", [GOOD | {"key": KEYS[5], "number": 5, "base": 5}], "key"),
    ("number a string", [GOOD | {"number": "4"}], "number"),
    ("number true", [GOOD | {"number": True}], "number"),
    ("number 4.0", [GOOD | {"number": 4.0}], "number"),
    ("number 0", [GOOD | {"number": 0}], "number"),
    ("number huge", [GOOD | {"number": 10**40}], "number"),
    ("deal a list", [GOOD | {"deal": [1, 2]}], "deal"),
    ("no deal", [{k: v for k, v in GOOD.items() if k != "deal"}], "deal"),
    ("base and after", [GOOD | {"after": KEYS[1]}], "base"),
    ("neither", [{k: v for k, v in GOOD.items() if k != "base"}], "base"),
    ("base a string", [GOOD | {"base": "4"}], "base"),
    ("base negative", [GOOD | {"base": -1}], "base"),
    (
        "after malformed",
        [{**{k: v for k, v in GOOD.items() if k != "base"}, "after": "x"}],
        "after",
    ),
    (
        "after itself",
        [{**{k: v for k, v in GOOD.items() if k != "base"}, "after": KEYS[0]}],
        "after",
    ),
    ("editing a string", [GOOD | {"editing": "yes"}], "editing"),
    ("editing null", [GOOD | {"editing": None}], "editing"),
]


@pytest.mark.parametrize(("case", "raw", "said"), BAD_BODIES, ids=[c[0] for c in BAD_BODIES])
def test_what_is_not_a_sync_is_refused_whole(
    three_deals: Phone, case: str, raw: bytes, said: str
) -> None:
    before = snapshot(three_deals.app)
    answer = sync(three_deals, None, raw=raw)
    assert answer.status_code == 400 and answer.mimetype == "application/json"
    assert said in answer.get_json()["error"]
    assert snapshot(three_deals.app) == before


@pytest.mark.parametrize(("case", "entries", "field"), BAD_ENTRIES, ids=[c[0] for c in BAD_ENTRIES])
def test_a_wrong_entry_is_refused_whole_naming_its_field(
    three_deals: Phone, case: str, entries: Any, field: str
) -> None:
    before = snapshot(three_deals.app)
    answer = sync(three_deals, {"entries": [GOOD | {"key": KEYS[5]}, *entries]})
    assert answer.status_code == 400
    assert answer.get_json()["error"] == f"Entry 2: “{field}” is missing or wrong."
    assert snapshot(three_deals.app) == before  # nothing stored, not even the good first one


def test_a_malformed_deal_inside_an_entry_is_the_engines_to_refuse(three_deals: Phone) -> None:
    odd = {"contract": "ltoosh", "tricks": [4, 3, 3, "3"], "\ud800": 1}
    entry = {"key": KEYS[0], "number": 4, "base": three_deals.row().version, "deal": odd}
    answer = sync(three_deals, {"entries": [entry]})
    assert answer.status_code == 200
    assert answer.get_json()["results"][0]["outcome"] == "refused"


def test_csrf_type_size_and_links_are_refused_in_json(three_deals: Phone, app: Any) -> None:
    phone = three_deals
    entries = {"entries": chain(PENDING[:1], 4, phone.row().version, KEYS)}
    before = snapshot(app)
    for answer, status in (
        (sync(phone, entries, **{"X-CSRFToken": ""}), 400),
        (sync(phone, entries, **{"X-CSRFToken": "forged"}), 400),
        (sync(phone, entries, **{"Content-Type": "text/plain"}), 415),
        (sync(phone, None, raw=b'{"entries": [' + b" " * 70_000 + b"]}"), 413),
    ):
        assert answer.status_code == status and answer.mimetype == "application/json"
        assert answer.get_json()["error"]
    assert snapshot(app) == before
    fresh = app.test_client().post(
        f"{phone.url}/sync", data=json.dumps(entries), content_type="application/json"
    )
    assert fresh.status_code == 400 and "expired" in fresh.get_json()["error"]
    phone.token = "AAAAAAAAAAAAAAAAAAAAAA"
    missing = sync(phone, entries)
    assert missing.status_code == 404 and missing.get_json()["error"]
    phone.new_game("trix", "solo")  # its first king not chosen yet
    assert sync(phone, entries).status_code == 409


def test_a_key_sent_again_with_another_deal_is_answered_as_its_first(three_deals: Phone) -> None:
    """A phone that reused a key for its next deal (a bug, or a hostile sender): the game
    holds that key already, so the database refuses the second entry whatever its version."""
    phone = three_deals
    base = phone.row().version
    first = {"key": KEYS[0], "number": 4, "base": base, "deal": PENDING[0]}
    assert sync(phone, {"entries": [first]}).get_json()["results"][0]["outcome"] == "stored"
    before = snapshot(phone.app)
    reused = {"key": KEYS[0], "number": 5, "base": base + 1, "deal": PENDING[1]}
    answer = sync(phone, {"entries": [reused]}).get_json()["results"][0]
    assert (answer["outcome"], answer["number"], answer["version"]) == ("kept", 4, base + 1)
    assert snapshot(phone.app) == before
