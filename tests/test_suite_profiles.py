"""The suite never flakes where it runs as CI: `scripts/test` chooses Hypothesis's `ci` profile
(the same examples every run, nothing timed), while local runs keep exploring new examples."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]


def test_scripts_test_runs_the_suite_derandomized() -> None:
    script = (ROOT / "scripts" / "test").read_text()
    chosen = re.search(
        r"^export HYPOTHESIS_PROFILE=\$\{HYPOTHESIS_PROFILE:-(\w+)\}$", script, re.MULTILINE
    )
    assert chosen is not None and chosen.group(1) == "ci"
    assert script.index("HYPOTHESIS_PROFILE") < script.index("python -m pytest")


def test_the_ci_profile_draws_the_same_examples_and_times_nothing() -> None:
    ci = settings.get_profile("ci")
    assert ci.derandomize is True
    assert ci.database is None
    assert ci.deadline is None
    assert HealthCheck.too_slow in ci.suppress_health_check


def test_local_runs_explore() -> None:
    explore = settings.get_profile("explore")
    assert explore.derandomize is False
    assert explore.deadline is None


def test_the_profile_in_force_is_the_one_asked_for() -> None:
    asked = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "explore"))
    assert settings.default.derandomize == asked.derandomize
    assert settings.default.database == asked.database
