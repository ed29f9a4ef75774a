"""Slow clients cannot starve the real server: with 64 connections trickling the headers of a
request that never ends (one byte every 2 s) and a few silent ones, or 16 trickling the body of a
POST, `scorekeeper serve` still answers a normal request promptly, and closes the trickling and
silent connections within a bounded time (a late body is answered 408 first)."""

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
CLOSED_WITHIN_S = 25.0  # every slow or silent connection is closed by then (the server: 10 s)
TRICKLING_BODIES = 16  # four times the server's threads (2 workers × 2)
BODY_CUT_WITHIN_S = 30.0  # a body not there by then is refused (the server waits 20 s)
ANSWERED_WITHIN_S = 10.0  # generous: a starved server never answers at all
SLOW_BODY = (
    b"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 100000\r\n\r\ncsrf_token="
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


SIZING = ("--workers", "2", "--threads", "2")


def launch(arguments: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Python with `arguments`, this checkout first on its path, in a session of its own (to
    be signalled as a whole, as a terminal's Ctrl-C or systemd does); its output in `log`."""
    env = {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))}
    with open(log, "wb") as output:
        return subprocess.Popen(
            [sys.executable, *arguments],
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


@contextlib.contextmanager
def serve(instance: Path) -> Iterator[int]:
    """`scorekeeper serve` with 2 workers of 2 threads; its port."""
    with serving(instance) as (port, _):
        yield port


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


def test_trickling_clients_neither_starve_the_server_nor_stay_connected(tmp_path: Path) -> None:
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
            for _ in range(5):  # a starved server never answers; a busy one may be slow
                assert get(port, timeout=ANSWERED_WITHIN_S) == 200

            still_open = slow + silent
            while still_open and time.monotonic() - opened < CLOSED_WITHIN_S:
                for sock in still_open:
                    with contextlib.suppress(OSError):
                        sock.send(b"a" if sock in slow else b"")
                time.sleep(TRICKLE_EVERY_S)
                still_open = [sock for sock in still_open if not closed(sock)]
            assert not still_open, (
                f"{len(still_open)} of {TRICKLERS + SILENT} slow or silent "
                f"connections still open after {CLOSED_WITHIN_S:.0f} s"
            )
            assert get(port, timeout=ANSWERED_WITHIN_S) == 200
        finally:
            for sock in slow + silent:
                sock.close()


def received(sock: socket.socket, sofar: bytes) -> tuple[bytes, bool]:
    """What the server has sent on this connection so far, and whether it has closed it."""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return sofar, True
            sofar += chunk
    except BlockingIOError:
        return sofar, False
    except OSError:
        return sofar, True


def test_trickling_bodies_neither_starve_the_server_nor_stay_connected(tmp_path: Path) -> None:
    with serve(tmp_path) as port:
        opened = time.monotonic()
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(TRICKLING_BODIES)]
        for sock in slow:
            sock.sendall(SLOW_BODY)
            sock.setblocking(False)
        answers = dict.fromkeys(slow, b"")
        try:
            time.sleep(1.0)  # every slow request has reached a worker
            for _ in range(5):
                assert get(port, timeout=ANSWERED_WITHIN_S) == 200

            still_open = list(slow)
            while still_open and time.monotonic() - opened < BODY_CUT_WITHIN_S:
                for sock in still_open:
                    with contextlib.suppress(OSError):
                        sock.send(b"a")
                time.sleep(TRICKLE_EVERY_S)
                closed = set()
                for sock in still_open:
                    answers[sock], done = received(sock, answers[sock])
                    if done:
                        closed.add(sock)
                still_open = [sock for sock in still_open if sock not in closed]
            assert not still_open, (
                f"{len(still_open)} of {TRICKLING_BODIES} trickling bodies "
                f"still open after {BODY_CUT_WITHIN_S:.0f} s"
            )
            statuses = {answer.split(b"\r\n", 1)[0] for answer in answers.values()}
            assert statuses == {b"HTTP/1.1 408 Request Timeout"}, statuses
            assert get(port, timeout=ANSWERED_WITHIN_S) == 200
        finally:
            for sock in slow:
                sock.close()
