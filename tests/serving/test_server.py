"""Stopping the server while a worker still loads the app: the worker ends at once.

granian forks its workers, and a forked worker started with its server's signal handlers until
it had loaded the app (in a worker on a busy machine, a second or more). A stop sent then, by
Ctrl-C or a service manager to the whole process group, used to be lost: the worker went on to
serve and was killed STOP_TIMEOUT_S later with "[WARNING] Killing worker-1 after it refused to
gracefully stop" (CI saw it in tests/cli/test_serve.py on a busy machine).

Counted, never timed: the worker here never finishes loading (its app waits for good), so the
stop always comes while it loads, and what is checked is the server's log, not a clock.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from scorekeeper.serving.server import STOP_TIMEOUT_S
from tests.servers import launch

ROOT = Path(__file__).resolve().parents[2]
LOADING = "SCOREKEEPER_TEST_LOADING"  # the file the worker touches when it starts loading


def app_that_never_loads() -> None:
    """The target a worker loads here: it says it has started, then waits for good."""
    Path(os.environ[LOADING]).touch()
    threading.Event().wait()


def test_a_stop_while_a_worker_loads_the_app_ends_it_without_the_kill(tmp_path: Path) -> None:
    loading = tmp_path / "loading"
    script = (
        "from pathlib import Path\n"
        "from scorekeeper.serving.server import run\n"
        "run('127.0.0.1', 0, 1, target='tests.serving.test_server:app_that_never_loads',"
        f" working_dir=Path({str(ROOT)!r}))\n"
    )
    log = tmp_path / "server.log"
    server = launch(["-c", script], {**os.environ, LOADING: str(loading)}, log)
    try:
        deadline = time.monotonic() + 60  # (a failsafe on a very busy machine, not a measure)
        while not loading.exists():
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        os.killpg(server.pid, signal.SIGTERM)  # as Ctrl-C or systemd: the whole group
        assert server.wait(timeout=STOP_TIMEOUT_S * 6) is not None
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    said = log.read_text()
    assert "refused to gracefully stop" not in said, said
    assert "WARNING" not in said.upper(), said


def test_a_worker_leaves_what_loading_made_out_of_the_collectors_passes() -> None:
    """`load_app` freezes the loaded app's objects (the collector's full passes of a busy worker
    walked them all: bench/tables.py)."""
    import gc

    from scorekeeper.serving.server import load_app

    gc.unfreeze()
    try:
        gateway = load_app(
            "tests.serving.test_server:_tiny_app",
            factory=True,
            threads=1,
            workers=1,
            working_dir=None,
        )
        assert gc.get_freeze_count() > 0
        gateway.threads.stop()
    finally:
        gc.unfreeze()


def _tiny_app() -> object:
    from flask import Flask

    return Flask("tiny")
