"""Large bodies cannot fill the real server's memory: 100 connections that each send most of a
large `POST /import` (declared longer than an import takes, declared within it, or chunked with
no length at all) and then stall add at most 100 MB to `scorekeeper serve` (2 workers × 2
threads, its resident memory read from /proc), and the home page is still answered while they
hang on.

Before, the gateway read any body up to 4 MB into memory before the route, the access code or
the declared length was judged: 100 such connections held about 400 MB more."""

from __future__ import annotations

import contextlib
import os
import socket
import time
from pathlib import Path

import pytest

from tests.reliability.test_slow_clients import ANSWERED_WITHIN_S
from tests.servers import get, serving

pytestmark = pytest.mark.slow

CONNECTIONS = 100
MOST_OF = 3_900_000  # bytes each connection sends of its body, at most
GROWTH_AT_MOST = 100 * 1024 * 1024
SENDING_FOR_S = 8.0  # each connection keeps sending while the server reads (a stall ends it)
CHUNK = b"x" * 65536
BOUNDARY = "----scorekeeper"


def resident_bytes(pid: int) -> int:
    """The resident memory of the server: its process and every process under it."""
    total = 0
    for task in Path("/proc").iterdir():
        if not task.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            status = (task / "status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            parent = int(fields["PPid"])
            if int(task.name) == pid or parent == pid:
                total += int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    return total


def head(declared: int | None, port: int) -> bytes:
    """The head of a multipart `POST /import`: with a Content-Length, or chunked."""
    chunked = "Transfer-Encoding: chunked\r\n"
    length = f"Content-Length: {declared}\r\n" if declared is not None else chunked
    start = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="games.json"\r\n'
        "Content-Type: application/json\r\n\r\n["
    ).encode()
    return (
        f"POST /import HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}\r\n{length}\r\n"
    ).encode() + (start if declared is not None else b"%x\r\n%s\r\n" % (len(start), start))


def flood(port: int, declared: int | None, pid: int) -> tuple[int, int]:
    """CONNECTIONS connections each sending most of a body and stalling; returns the most
    resident memory seen while they send and hang on, and how many bytes they got through."""
    chunk = CHUNK if declared is not None else b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK)
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(CONNECTIONS)]
    sent = dict.fromkeys(sockets, 0)
    most = 0
    try:
        for sock in sockets:
            sock.sendall(head(declared, port))
            sock.setblocking(False)
        started = time.monotonic()
        while time.monotonic() - started < SENDING_FOR_S:
            moving = False
            for sock in sockets:
                if sent[sock] >= MOST_OF:
                    continue
                try:
                    done = sock.send(chunk)
                except BlockingIOError:
                    continue
                except OSError:  # answered and closed: nothing more is read
                    sent[sock] = MOST_OF
                    continue
                sent[sock] += done
                moving = True
            most = max(most, resident_bytes(pid))
            if not moving:
                time.sleep(0.1)
        most = max(most, resident_bytes(pid))
        # still hanging on: the home page is served beside them
        for _ in range(3):
            assert get(port, timeout=ANSWERED_WITHIN_S) == 200
        most = max(most, resident_bytes(pid))
        return most, sum(min(value, MOST_OF) for value in sent.values())
    finally:
        for sock in sockets:
            sock.close()


@pytest.mark.parametrize(
    "declared",
    [4_000_000, 2_000_000, None],
    ids=["longer than an import takes", "within an import's size", "chunked"],
)
def test_large_stalled_bodies_do_not_fill_the_servers_memory(
    tmp_path: Path, declared: int | None
) -> None:
    with serving(tmp_path) as (port, process):
        for _ in range(20):  # every worker has answered, its caches made
            assert get(port, timeout=ANSWERED_WITHIN_S) == 200
        before = resident_bytes(process.pid)
        most, through = flood(port, declared, process.pid)
        assert most - before <= GROWTH_AT_MOST, (
            f"{(most - before) / 2**20:.0f} MB more held by the server "
            f"({through / 2**20:.0f} MB sent by {CONNECTIONS} connections)"
        )
        assert get(port, timeout=ANSWERED_WITHIN_S) == 200
        os.kill(process.pid, 0)  # and it is still running
