"""`scorekeeper serve` of this checkout as a process of its own, for the tests that start the
real server (slow clients, large bodies, `serve` itself, a stop while a worker loads)."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SIZING = ("--workers", "2", "--threads", "2")


RESTORE_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
)


def python(*arguments: str) -> list[str]:
    """The command line of this Python with `arguments`, started as a terminal starts a program:
    with Ctrl-C's default (SIGINT ends it; in Python, KeyboardInterrupt). A suite started in the
    background (`bash scripts/test &`) runs with SIGINT ignored, as a shell's `&` leaves its
    job, and a child inherits an ignored signal: so a small Python first restores the default,
    then becomes the program itself (exec: the same process, no thread to race a fork)."""
    return [sys.executable, "-c", RESTORE_SIGINT, *arguments]


def launch(arguments: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Python with `arguments`, this checkout first on its path, in a session of its own (to
    be signalled as a whole, as a terminal's Ctrl-C or systemd does), Ctrl-C's default
    restored; its output in `log`."""
    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))}
    with open(log, "wb") as output:
        return subprocess.Popen(
            python(*arguments),
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


@contextlib.contextmanager
def serving(
    instance: Path, sizing: tuple[str, ...] = SIZING, **environ: str
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """`scorekeeper serve` of this checkout on a free loopback port (its log in the instance
    folder, server.log; `environ`: more of its environment); its port and process."""
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in (
            "DATABASE_URL",
            "SECRET_KEY",
            "SCOREKEEPER_ACCESS_CODE",
            "SCOREKEEPER_WORKERS",
            "SCOREKEEPER_THREADS",
        )
    }
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env.update(environ)
    log = instance / "server.log"
    process = launch(
        ["-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1", "--port", str(port), *sizing],
        env,
        log,
    )
    try:
        deadline = time.monotonic() + 30
        while get(port, timeout=2) not in (200, 303):  # 303: to the access code's page
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port, process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


def get(port: int, timeout: float) -> int | None:
    """GET / on a new connection: the status, or None when unanswered in `timeout` seconds."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()
