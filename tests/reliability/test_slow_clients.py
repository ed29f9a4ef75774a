"""Slow clients cannot starve the real server: with 64 connections trickling the headers of a
request that never ends (one byte every 2 s) and a few silent ones, `scorekeeper serve` still
answers a normal request promptly, and closes the trickling and silent connections within a
bounded time."""

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

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TRICKLERS = 64
SILENT = 4
TRICKLE_EVERY_S = 2.0
PROMPT_S = 2.0  # a normal request is answered within this, beside the slow ones
CLOSED_WITHIN_S = 15.0  # every slow or silent connection is closed by then


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def serve(instance: Path) -> Iterator[int]:
    """`scorekeeper serve` of this checkout on a free loopback port; its port."""
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_ACCESS_CODE")}
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    log = instance / "server.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.cli", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--workers", "2"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while get(port, timeout=2) != 200:
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield port
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


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed this connection (anything it sent first is read)."""
    try:
        while True:
            if not sock.recv(65536):
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_trickling_clients_neither_starve_the_server_nor_stay_connected(
        tmp_path: Path) -> None:
    with serve(tmp_path) as port:
        opened = time.monotonic()
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(TRICKLERS)]
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(SILENT)]
        for sock in slow:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        for sock in slow + silent:
            sock.setblocking(False)
        try:
            time.sleep(0.5)  # every trickling request has reached a worker
            took = []
            for _ in range(5):
                started = time.monotonic()
                assert get(port, timeout=PROMPT_S + 1) == 200
                took.append(time.monotonic() - started)
            assert max(took) < PROMPT_S, took

            still_open = slow + silent
            while still_open and time.monotonic() - opened < CLOSED_WITHIN_S:
                for sock in still_open:
                    with contextlib.suppress(OSError):
                        sock.send(b"a" if sock in slow else b"")
                time.sleep(TRICKLE_EVERY_S)
                still_open = [sock for sock in still_open if not closed(sock)]
            assert not still_open, (f"{len(still_open)} of {TRICKLERS + SILENT} slow or silent "
                                    f"connections still open after {CLOSED_WITHIN_S:.0f} s")
            assert get(port, timeout=PROMPT_S) == 200
        finally:
            for sock in slow + silent:
                sock.close()
