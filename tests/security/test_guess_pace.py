"""Guesses from many addresses slow down together: wrong codes are answered in one queue that
every worker and host shares (in the database), a right code never waits in it.

The queue gives each wrong answer its moment (`limits.wrong_answer_at`); the server holds the
answer until then on its event loop (tests/serving/test_gateway.py). Here the moments, under a
clock moved by hand, and from threads asking at the same instant."""

from __future__ import annotations

import threading

import pytest
from flask import Flask, request

from scorekeeper.store import limits
from tests.security.test_access import CODE, Clock, client_at, enter_code

ANSWER_AT = "scorekeeper.answer_at"


def _entered(app: Flask, address: str, code: str) -> tuple[int, float | None]:
    """The code entered from `address`: the answer's status, and the moment the app asked the
    server to hold it until (None: at once)."""
    client = client_at(app, address)
    with client:  # the last request's context stays: its environ, as the server sees it
        status = enter_code(client, code).status_code
        found = request.environ.get(ANSWER_AT)
    return status, None if found is None else float(found)


def test_wrong_codes_from_new_addresses_wait_their_turn_and_the_right_one_never(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """64 addresses guessing at one instant: each wrong answer is given one interval after the
    one before, whatever its address; the host's right code, from yet another address, is let
    in at its first try and waits for nothing."""
    clock = Clock(monkeypatch)
    app.config["ACCESS_CODE"] = CODE
    every = limits.WRONG_ANSWERS_EVERY_S
    wrong = [_entered(app, f"10.9.0.{n + 1}", f"guess {n}") for n in range(8)]
    # each checked (422), and answered in its turn
    assert wrong == [(422, clock.now + n * every) for n in range(8)]
    assert _entered(app, "192.0.2.80", CODE) == (303, None)
    clock.advance(60.0)  # a quiet minute later, a typo is answered at once
    assert _entered(app, "192.0.2.81", "blue tigre 42") == (422, clock.now)


def test_the_queue_holds_an_answer_at_most_so_long(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(monkeypatch)
    with app.app_context():
        moments = [limits.wrong_answer_at() for _ in range(40)]
        limits.db.session.remove()
    latest = clock.now + limits.WRONG_ANSWER_HELD_AT_MOST_S
    assert max(moments) == latest
    assert moments[-3:] == [latest] * 3


def test_wrong_answers_at_the_same_instant_each_get_their_own_turn(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many workers at once (threads with a barrier, each its own connection): the database
    decides the order, no two share a turn, none is lost."""
    clock = Clock(monkeypatch)
    count = 12
    barrier = threading.Barrier(count)
    moments: list[float] = []
    errors: list[BaseException] = []

    def wrong() -> None:
        with app.app_context():
            try:
                barrier.wait()
                moments.append(limits.wrong_answer_at())
            except BaseException as error:
                errors.append(error)
            finally:
                limits.db.session.remove()

    threads = [threading.Thread(target=wrong) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    every = limits.WRONG_ANSWERS_EVERY_S
    assert sorted(moments) == pytest.approx([clock.now + n * every for n in range(count)])
