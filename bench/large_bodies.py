"""Large request bodies against the server's memory: how much more does `scorekeeper serve`
hold while many connections each send most of a large `POST /import` and stall, and is the home
page still answered beside them?

`scorekeeper serve --workers 2 --threads 2` on 127.0.0.1, a fresh server for each case: 100 and
300 connections, each sending the head of a multipart `POST /import` and then as much as it can
of a body it never finishes (at most 3.9 MB), for 8 s; the server's resident memory (its process
and its workers', from /proc) before, at its peak while they send and hang on, and 2 s after
they have gone. Three kinds of body: declared 4 MB (more than an import takes), declared 2 MB
(within an import's size), and chunked (no length given). Meanwhile the home page, a request at
a time on new connections: its slowest answer. Target (issue 33): 100 connections add at most
100 MB (before the gateway judged bodies from their heads: +450 MB; 300: 1.57 GB).

    python bench/large_bodies.py [--quick | --smoke] [--checkout PATH]

`--smoke`: 10 connections of one kind for a second, no figure judged (CI runs it so the bench
cannot rot).

`--checkout` runs another checkout's code (the one before a change, say) with the same load.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, SERVER_PIDS, Results, init_db, log, server, temp_instance

GROWTH_TARGET_MB = 100.0
MOST_OF = 3_900_000
SENDING_FOR_S = 8.0
CHUNK = b"x" * 65536
BOUNDARY = "----scorekeeper-bench"
KINDS = {"declared 4 MB": 4_000_000, "declared 2 MB": 2_000_000, "chunked": None}


def resident_mb(root: int) -> float:
    """Resident memory of the server process and every process under it, MB."""
    total = 0
    for task in Path("/proc").iterdir():
        if not task.name.isdigit():
            continue
        with contextlib.suppress(OSError, KeyError, ValueError):
            fields = dict(line.split(":", 1) for line in (task / "status").read_text().splitlines())
            if int(task.name) == root or int(fields["PPid"]) == root:
                total += int(fields.get("VmRSS", "0 kB").split()[0])
    return total / 1024


def head(declared: int | None, port: int) -> bytes:
    """The head of a multipart `POST /import` and the start of its body."""
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


def home_page(port: int, stop: threading.Event, slowest: list[float], failed: list[str]) -> None:
    """The home page, one request at a time on new connections, until stopped."""
    while not stop.is_set():
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
        try:
            connection.request("GET", "/")
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failed.append(str(response.status))
        except (OSError, http.client.HTTPException) as error:
            failed.append(type(error).__name__)
        finally:
            connection.close()
        slowest[0] = max(slowest[0], time.monotonic() - started)
        time.sleep(0.2)


def flood(
    base: str, connections: int, declared: int | None, sending_for: float = SENDING_FOR_S
) -> dict[str, float | int | str]:
    """One case against a running server: memory before, at its peak, after."""
    port = int(base.rsplit(":", 1)[1])
    root = SERVER_PIDS[base]
    for _ in range(20):
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port)).sendall(
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
            )
    time.sleep(1.0)
    before = resident_mb(root)
    chunk = CHUNK if declared is not None else b"%x\r\n%s\r\n" % (len(CHUNK), CHUNK)
    stop, slowest, failed = threading.Event(), [0.0], []
    watcher = threading.Thread(target=home_page, args=(port, stop, slowest, failed))
    sockets = []
    for _ in range(connections):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(head(declared, port))
        sock.setblocking(False)
        sockets.append(sock)
    sent = dict.fromkeys(sockets, 0)
    peak = before
    watcher.start()
    started = time.monotonic()
    try:
        while time.monotonic() - started < sending_for:
            moving = False
            for sock in sockets:
                if sent[sock] >= MOST_OF:
                    continue
                try:
                    sent[sock] += sock.send(chunk)
                    moving = True
                except BlockingIOError:
                    continue
                except OSError:
                    sent[sock] = MOST_OF
            peak = max(peak, resident_mb(root))
            if not moving:
                time.sleep(0.1)
        peak = max(peak, resident_mb(root))
    finally:
        for sock in sockets:
            sock.close()
        stop.set()
        watcher.join()
    time.sleep(2.0)
    return {
        "before": before,
        "peak": peak,
        "after": resident_mb(root),
        "slowest home page": slowest[0],
        "home page failures": ", ".join(sorted(set(failed))) or "none",
    }


def run(quick: bool = False, checkout: Path = ROOT, smoke: bool = False) -> Results:
    """Every case, each against a fresh server (smoke: one small case, nothing judged)."""
    results = Results()
    counts = (10,) if smoke else (100,) if quick else (100, 300)
    kinds = dict(list(KINDS.items())[:1]) if smoke else KINDS
    for kind, declared in kinds.items():
        for connections in counts:
            with temp_instance() as instance:
                init_db(instance)
                with server(instance, workers=2, threads=2, root=checkout) as base:
                    log(f"large bodies: {connections} connections, {kind}")
                    found = flood(base, connections, declared, 1.0 if smoke else SENDING_FOR_S)
            growth = float(found["peak"]) - float(found["before"])
            judged = connections == 100
            results.add(
                f"{connections} connections, {kind}: memory added at its peak",
                f"{growth:.0f} MB",
                f"≤ {GROWTH_TARGET_MB:.0f} MB" if judged else "–",
                growth <= GROWTH_TARGET_MB if judged else None,
                f"resident {found['before']:.0f} → {found['peak']:.0f} MB, "
                f"{found['after']:.0f} MB 2 s after they left; home page slowest "
                f"{found['slowest home page']:.2f} s, failures: {found['home page failures']}",
            )
    results.notes.append(
        f"code of {checkout}; load average {', '.join(f'{v:.2f}' for v in os.getloadavg())}"
    )
    return results


if __name__ == "__main__":
    from run import print_table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 connections only")
    parser.add_argument("--smoke", action="store_true", help="10 connections for 1 s, not judged")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="serve this checkout's code (default: this one)"
    )
    args = parser.parse_args()
    print_table(run(args.quick, args.checkout.resolve(), args.smoke))
