"""A few fixed seeds of the chaos driver (bench/chaos.py, issue 42): two phones on one Trix game,
deals by taps online and offline, undos, reloads, lost and late answers, the server killed -9 and
started again, conflict panels answered; then nothing a phone showed as saved or kept is lost,
nothing is stored twice, the export passes `scorekeeper check` and every phone's totals are the
server's. The driver is the bench's (one owner); each seed serves its own game and database."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))  # (the bench's own imports: common, taps)
chaos = importlib.import_module("chaos")

pytestmark = pytest.mark.browser

SEEDS = (3, 11)
STEPS = 8


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seeded_scenario_loses_nothing_and_stores_nothing_twice(
    whole_browser: Any, seed: int
) -> None:
    options = chaos.options_from(["--phones", "2", "--steps", str(STEPS)])
    violations, made = chaos.scenario(whole_browser, seed, options)
    assert violations == [], "\n".join([*violations, *made.steps, *made.notes])
