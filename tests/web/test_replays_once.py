"""A save parses the deal once and replays the game once; a preview of a new deal replays
nothing (issue 25). Counted, not timed: every replay of the engine builds one tally of turns."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import Phone, form_fields
from tests.rules.builders import DIAMONDS, KING_OF_HEARTS, QUEENS

# the module (the package's `replay` names its function)
replay_module = importlib.import_module("scorekeeper.rules.replay")


class Replays:
    """How many times the engine replayed a game since the last `taken()`."""

    def __init__(self) -> None:
        self.count = 0

    def taken(self) -> int:
        count, self.count = self.count, 0
        return count


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[Replays]:
    counter = Replays()
    tally = replay_module._Tally  # the engine's own: one is made per replay, by every caller

    class Counted(tally):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            counter.count += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(replay_module, "_Tally", Counted)
    yield counter


def _started(phone: Phone, replays: Replays) -> None:
    phone.new_game("trix", first=0)
    phone.enter(KING_OF_HEARTS)
    phone.game_page()  # the page the players look at: its replay is kept
    replays.taken()


def test_a_save_replays_once(phone: Phone, replays: Replays) -> None:
    _started(phone, replays)
    form = phone.open_deal("queens")
    assert replays.taken() == 0  # the game page's replay is kept
    response = phone.save(form, form_fields(QUEENS))
    assert response.status_code == 303
    assert replays.taken() == 1  # the game with the deal, written and kept
    phone.game_page()
    assert replays.taken() == 0  # the page after the save shows the kept replay


def test_an_inline_save_replays_once(phone: Phone, replays: Replays) -> None:
    _started(phone, replays)
    form = phone.open_deal("queens")
    replays.taken()
    data = {**form.checked("/deal"), **form_fields(QUEENS)}
    response = phone.client.post(
        f"{phone.url}/deal",
        data=data,
        headers={"HX-Request": "true", "X-CSRFToken": form.csrf_token},
    )
    assert response.status_code == 200
    assert replays.taken() == 1


def test_a_preview_of_a_new_deal_replays_nothing(phone: Phone, replays: Replays) -> None:
    _started(phone, replays)
    form = phone.open_deal("diamonds")
    replays.taken()
    assert phone.preview(form, form_fields(DIAMONDS)).status_code == 200
    assert replays.taken() == 0


def test_an_edit_replays_once_to_preview_and_once_to_save(phone: Phone, replays: Replays) -> None:
    _started(phone, replays)
    phone.enter(QUEENS)
    phone.game_page()
    form = phone.open_edit(1)
    replays.taken()
    changed = {**KING_OF_HEARTS, "taker": 3}
    assert phone.preview(form, form_fields(changed)).status_code == 200
    assert replays.taken() == 1  # the later deals are judged again
    assert phone.save(form, form_fields(changed)).status_code == 303
    assert replays.taken() == 1


def test_a_double_tap_replays_nothing(phone: Phone, replays: Replays) -> None:
    _started(phone, replays)
    form = phone.open_deal("queens")
    assert phone.save(form, form_fields(QUEENS)).status_code == 303
    replays.taken()
    assert phone.save(form, form_fields(QUEENS)).status_code == 303  # the twin: already saved
    assert replays.taken() == 0
