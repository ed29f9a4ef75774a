"""A game's date as the reader says it (scorekeeper.words.dates): the server's zone, the
reader's language, never an ISO date in UTC (issue 32, item 12)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from scorekeeper.words.dates import day_text, machine_text, moment_text

STARTED = datetime(2025, 3, 1, 22, 30, tzinfo=UTC)


@pytest.fixture
def kolkata(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process in a zone five and a half hours east of UTC."""
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("kolkata")
@pytest.mark.parametrize(
    ("language", "day", "clock"),
    [
        ("en", "Mar 2, 2025", "4:00"),
        ("ar", "2 مارس 2025", "4:00"),
        ("tr", "2 Mar 2025", "04:00"),
        ("ru", "2 мар. 2025", "04:00"),
        ("hi", "2 मार्च 2025", "4:00"),
    ],
)
def test_the_day_and_time_in_the_servers_zone_and_the_readers_words(
    language: str, day: str, clock: str
) -> None:
    assert day_text(STARTED, language).startswith(day)
    shown = moment_text(STARTED, language)
    assert shown.startswith(day) and clock in shown and "2025-03" not in shown
    assert machine_text(STARTED) == "2025-03-02T04:00+05:30"


@pytest.mark.usefixtures("kolkata")
def test_a_naive_moment_is_read_as_utc() -> None:
    assert machine_text(STARTED.replace(tzinfo=None)) == "2025-03-02T04:00+05:30"
