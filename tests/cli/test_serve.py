"""`scorekeeper serve` sized to its machine: one worker process per core and two threads each
unless the operator says otherwise (flags first, then SCOREKEEPER_WORKERS/SCOREKEEPER_THREADS),
and nothing for a new user to worry about under the QR code (no warning from granian); an
access code that could be guessed is refused unless the operator insists (then warned about),
and a strong one is offered."""

from __future__ import annotations

import multiprocessing
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.cli import build_parser
from scorekeeper.serving.server import THREADS, cores, sized
from scorekeeper.settings import SetupError
from tests.servers import serving


@pytest.fixture(autouse=True)
def _no_sizing_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCOREKEEPER_WORKERS", raising=False)
    monkeypatch.delenv("SCOREKEEPER_THREADS", raising=False)


def test_by_default_one_worker_per_core_and_two_threads_each() -> None:
    assert sized() == (cores(), THREADS) == (cores(), 2)
    assert 1 <= cores() <= multiprocessing.cpu_count()
    if hasattr(os, "sched_getaffinity"):
        assert cores() == min(multiprocessing.cpu_count(), len(os.sched_getaffinity(0)))


def test_the_environment_sizes_it_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_WORKERS", "3")
    monkeypatch.setenv("SCOREKEEPER_THREADS", " 5 ")
    assert sized() == (3, 5)
    assert sized(workers=1) == (1, 5)
    assert sized(threads=4) == (3, 4)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("SCOREKEEPER_WORKERS", "0"),
        ("SCOREKEEPER_WORKERS", "many"),
        ("SCOREKEEPER_THREADS", "-1"),
        ("SCOREKEEPER_THREADS", "2.5"),
    ],
)
def test_a_size_that_is_not_a_count_is_refused_in_a_sentence(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SetupError, match=f"{variable} must be a whole number of at least 1"):
        sized()


@pytest.mark.parametrize("asked", [{"workers": 0}, {"threads": 0}])
def test_a_flag_below_one_is_refused(asked: dict[str, int]) -> None:
    with pytest.raises(SetupError, match="at least 1"):
        sized(**asked)


def test_the_flags_are_optional() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.workers, args.threads) == (None, None)
    args = build_parser().parse_args(["serve", "--workers", "3", "--threads", "4"])
    assert (args.workers, args.threads) == (3, 4)


def worker_processes(pid: int) -> int:
    """How many processes the server's main process has started (its workers)."""
    children = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        children += len((task / "children").read_text().split())
    return children


@pytest.mark.slow
def test_serve_starts_one_worker_per_core_without_a_warning(tmp_path: Path) -> None:
    with serving(tmp_path, sizing=()) as (_, process):
        # the first worker up answers while the others may still be starting (a busy machine)
        deadline = time.monotonic() + 30
        while worker_processes(process.pid) < cores() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert worker_processes(process.pid) == cores()
        # what granian says as it starts (all before its workers): read before the stop, whose
        # own words are tests/serving/test_server.py's (granian can still lose a stop that comes
        # as a worker sets up its loop, and kill that worker 10 s later with a warning)
        log = (tmp_path / "server.log").read_text()
    assert "WARNING" not in log.upper(), log
    assert "appears to be higher" not in log


WEAK = "blue tiger 42"


def test_serve_refuses_a_weak_access_code_in_a_sentence(tmp_path: Path) -> None:
    from tests.servers import ROOT, free_port

    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_WEAK_ACCESS_CODE")
    }
    env.update(
        SCOREKEEPER_INSTANCE=str(tmp_path),
        SCOREKEEPER_ACCESS_CODE=WEAK,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(free_port()),
        ],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1, done.stderr  # one sentence, no traceback
    assert "too easy to guess" in done.stderr
    assert re.search(r"SCOREKEEPER_ACCESS_CODE='\d{4} \d{4} \d{4} \d{4}'", done.stderr)


@pytest.mark.slow
def test_serve_keeps_a_weak_code_when_told_and_warns(tmp_path: Path) -> None:
    with serving(tmp_path, ("--workers", "1", "--weak-access-code"), SCOREKEEPER_ACCESS_CODE=WEAK):
        pass
    log = (tmp_path / "server.log").read_text()
    assert "Warning: the access code is weak" in log
    assert WEAK not in log  # the code is not written out


@pytest.mark.slow
def test_serve_makes_a_new_strong_code_when_asked(tmp_path: Path) -> None:
    from scorekeeper.store.limits import STRONG_CODE_GUESSES, code_guesses

    with serving(tmp_path, ("--workers", "1", "--new-access-code")):
        pass
    found = re.search(
        r"Access code: (\d{4} \d{4} \d{4} \d{4})\n", (tmp_path / "server.log").read_text()
    )
    assert found is not None
    assert code_guesses(found.group(1)) >= STRONG_CODE_GUESSES
