"""Run the app under granian (a production WSGI server, Rust/hyper) from Python, no config file.

Why granian: hyper reads every request's headers asynchronously, so a client that trickles its
headers holds no Python thread, and a connection that has not sent a whole request head within
HEADER_TIMEOUT_MS (a silent one, a trickling one, a kept-alive one gone idle) is closed.
`bench/slow_clients.py` measures it beside gunicorn (gthread, gevent) and waitress.
"""

from __future__ import annotations

from pathlib import Path

from granian.constants import HTTPModes, Interfaces
from granian.http import HTTP1Settings
from granian.log import LogLevels
from granian.server import Server

APP = "scorekeeper:create_app"
THREADS = 2  # Python threads per worker process that run the app
HEADER_TIMEOUT_MS = 10_000  # a request head (or the next one, kept alive) within 10 s
STOP_TIMEOUT_S = 10  # a worker that has not stopped 10 s after SIGTERM is killed


def run(host: str, port: int, workers: int, *, target: str = APP, factory: bool = True,
        working_dir: Path | None = None) -> None:
    """Serve until interrupted: `workers` processes, each with a few threads.

    `target` is "module:name" of the WSGI app (of a function building it when `factory`), which
    each worker imports (from `working_dir` first, when given).
    """
    Server(
        target,
        address=host,
        port=port,
        interface=Interfaces.WSGI,
        workers=max(1, workers),
        blocking_threads=THREADS,
        # HTTP/1 only: in "auto" mode a connection that never sends a byte is never closed
        # (the protocol sniffing waits before hyper's header timer starts)
        http=HTTPModes.http1,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_TIMEOUT_MS),
        websockets=False,
        log_level=LogLevels.warning,
        respawn_failed_workers=True,
        workers_kill_timeout=STOP_TIMEOUT_S,
        factory=factory,
        working_dir=working_dir,
    ).serve()
