"""Issue 44 item 10: a past deal's edit form offers only the contracts the engine would accept
there; the others are shown closed with the reason, as on the next step's choice."""

from __future__ import annotations

import re

from tests.conftest import Phone

DIAMONDS = {"contract": "diamonds", "counts": [3, 4, 5, 1]}
LTOOSH = {"contract": "ltoosh", "tricks": [4, 3, 3, 3]}


def _choices(html: str) -> str:
    found = re.search(r'<p class="change-contract">(.*?)</p>', html, re.S)
    assert found, "no choice of another contract"
    return found.group(1)


def test_deal_1_does_not_offer_the_contract_deal_2_played(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    phone.enter(DIAMONDS)
    phone.enter(LTOOSH)
    first = _choices(phone.client.get(f"{phone.url}/deal/1/edit").get_data(as_text=True))
    assert "contract=ltoosh" not in first  # no link the save would then refuse
    assert re.search(
        r'<span class="closed" aria-disabled="true">Ltoosh <small>\(played in this kingdom · '
        r"Deal 2\)</small></span>",
        first,
    ), first
    assert "contract=trix" in first and "contract=queens" in first
    second = _choices(phone.client.get(f"{phone.url}/deal/2/edit").get_data(as_text=True))
    assert "contract=diamonds" not in second
    assert re.search(r"Diamonds <small>\(played in this kingdom\)</small>", second), second


def test_a_turkish_hand_names_the_later_hand_it_would_break(phone: Phone) -> None:
    phone.new_game("turkish-king", "solo", first=0)
    phone.enter({"contract": "trump", "suit": "S", "tricks": [4, 3, 3, 3]})
    for _ in range(2):  # no-king at hands 2 and 3: hand 1 cannot become a third
        phone.enter({"contract": "no-king", "taker": 2})
    choices = _choices(phone.client.get(f"{phone.url}/deal/1/edit").get_data(as_text=True))
    assert "contract=no-king" not in choices
    assert "(played twice · Deal 3)" in choices, choices
    assert "contract=no-queens" in choices
