"""Random complete games through the forms: whatever the table chooses, the page agrees with
`scorekeeper check`.

At each step the test picks one of the contract buttons the game page shows (so only what the
chooser may pick), makes up takes for it that the engine accepts, and enters them. The buttons
shown must be exactly the engine's open contracts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scorekeeper.rules import SUITS, evaluate, replay
from scorekeeper.rules.deal import FieldKind
from scorekeeper.web.forms import chip_groups
from tests.conftest import Phone, form_fields, page, signed, snapshot, totals_shown
from tests.web.test_full_games import run_check


def composition(rng: random.Random, total: int, maximum: int) -> list[int]:
    """Four counts from 0 to `maximum` adding up to `total`."""
    while True:
        cuts = sorted(rng.randint(0, total) for _ in range(3))
        counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], total - cuts[2]]
        if max(counts) <= maximum:
            return counts


def made_up(rng: random.Random, contract: str, doubling: bool) -> dict[str, Any]:
    """Takes for a contract, typed right but not necessarily legal."""
    raw: dict[str, Any] = {"contract": contract}
    for group in chip_groups(contract):
        spec = group.spec
        if spec.kind == FieldKind.SEAT:
            raw[spec.name] = rng.randrange(4)
        elif spec.kind == FieldKind.OPTIONAL_SEAT:
            raw[spec.name] = rng.choice([None, None, 0, 1, 2, 3]) if doubling else None
        elif spec.kind == FieldKind.SUIT:
            raw[spec.name] = rng.choice(SUITS)
        elif spec.kind == FieldKind.COUNTS:
            raw[spec.name] = composition(rng, spec.total, spec.maximum)
        elif spec.kind == FieldKind.ORDER:
            raw[spec.name] = rng.sample(range(4), 4)
        elif spec.kind == FieldKind.SEAT_PAIR:
            raw[spec.name] = [rng.randrange(4), rng.randrange(4)]
        elif spec.kind == FieldKind.CARD_SEATS:
            raw[spec.name] = {card: rng.randrange(4) for card in spec.cards}
        else:
            assert spec.kind == FieldKind.OPTIONAL_CARD_SEATS
            doubled = [card for card in spec.cards if doubling and rng.random() < 0.25]
            raw[spec.name] = {card: rng.randrange(4) for card in doubled}
    return raw


def legal_deal(rng: random.Random, phone: Phone, contract: str) -> dict[str, Any]:
    game = phone.record().game
    for _ in range(5000):
        raw = made_up(rng, contract, game.house_rules.doubling)
        if evaluate(replay(game), raw).ok:
            return raw
    raise AssertionError(f"no legal {contract} found")


SETUPS = [
    ("trix", "solo", True),
    ("trix", "partnership", False),
    ("trix-complex", "solo", False),
    ("trix-complex", "partnership", True),
    ("turkish-king", "solo", True),
]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize(("game", "mode", "doubling"), SETUPS)
def test_random_game(phone: Phone, game: str, mode: str, doubling: bool, seed: int) -> None:
    rng = random.Random(f"{game}-{mode}-{seed}")
    phone.new_game(game, mode, doubling=doubling, first=rng.randrange(4))
    while True:
        shown = page(phone.game_page())
        result = replay(phone.record().game)
        offered = sorted(
            href.split("contract=")[1] for href in shown.links if "/deal?contract=" in href
        )
        if result.next is None:
            assert offered == []
            break
        assert offered == sorted(o.contract for o in result.next.options if o.open)
        contract = rng.choice(offered)
        deal = legal_deal(rng, phone, contract)
        blank = tuple(
            name for name in ("counts-1", "tricks-3", "order-3", "diamonds-0") if rng.random() < 0.5
        )
        phone.enter(deal, blank=tuple(b for b in blank if b.split("-")[0] in deal))
    for _ in range(6):
        random_edit(rng, phone)
    stored = phone.record()
    checked = run_check(stored)
    assert checked["finished"] is True
    assert totals_shown(phone.game_page()) == [signed(total) for total in checked["totals"]]


def random_edit(rng: random.Random, phone: Phone) -> None:
    """Edit a random past deal into random takes of a random contract: saved exactly when
    the engine accepts the deal and every later one, refused (nothing saved) otherwise."""
    game = phone.record().game
    number = rng.randrange(1, len(game.deals) + 1)
    contract = rng.choice(game.definition.contracts)
    raw = made_up(rng, contract, game.house_rules.doubling)
    for _ in range(200):  # prefer takes legal on their own, so that later deals decide
        if not evaluate(replay(game), raw, number - 1).problems:
            break
        raw = made_up(rng, contract, game.house_rules.doubling)
    evaluation = evaluate(replay(game), raw, number - 1)
    form = phone.open_edit(number, contract)
    before = snapshot(phone.app)
    response = phone.save(form, form_fields(raw))
    if evaluation.ok:
        assert response.status_code == 303, page(response).text[-600:]
        assert phone.record().game.deals[number - 1] == evaluation.deal
    else:
        assert response.status_code == 422
        assert snapshot(phone.app) == before
        if evaluation.later is not None and not evaluation.problems:
            assert f"would make deal {evaluation.later.deal_number} illegal" in page(response).text
