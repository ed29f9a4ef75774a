"""Slow clients cannot starve the real server: with 64 connections trickling the headers of a
request that never ends (one byte every 2 s) and a few silent ones, or 16 trickling the body of a
POST, `scorekeeper serve` still answers a normal request promptly, and closes the trickling and
silent connections within a bounded time (a late body is answered 408 first)."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import get, serving

pytestmark = pytest.mark.slow

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


@contextlib.contextmanager
def serve(instance: Path) -> Iterator[int]:
    """`scorekeeper serve` with 2 workers of 2 threads; its port."""
    with serving(instance) as (port, _):
        yield port


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
