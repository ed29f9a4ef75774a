"""Run the app under granian (a production server, Rust/hyper) from Python, no config file.

Why granian: hyper reads every request's headers asynchronously, so a client that trickles its
headers holds no Python thread, and a connection that has not sent a whole request head within
HEADER_TIMEOUT_MS (a silent one, a trickling one, a kept-alive one gone idle) is closed.
`bench/slow_clients.py` measures it beside gunicorn (gthread, gevent) and waitress.

The WSGI app is served through granian's RSGI interface and :mod:`.gateway`, which
reads each request's body on the worker's event loop, within a deadline, before one of the
worker's threads runs the app: a client trickling a body holds no thread either
(`bench/slow_bodies.py`).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from granian.constants import HTTPModes, Interfaces, SSLProtocols
from granian.http import HTTP1Settings
from granian.log import LogLevels
from granian.server import Server

from .gateway import BODY_LIMIT, QUICK_ANSWER, BodyFirst

APP = "scorekeeper:create_app"
THREADS = 2  # Python threads per worker process that run the app (see sized())
HEADER_TIMEOUT_MS = 10_000  # a request head (or the next one, kept alive) within 10 s
STOP_TIMEOUT_S = 10  # a worker that has not stopped 10 s after SIGTERM is killed


def cores() -> int:
    """CPU cores this process may run on (its affinity; never more than the machine has)."""
    machine = multiprocessing.cpu_count()
    try:
        return max(1, min(machine, len(os.sched_getaffinity(0))))
    except (AttributeError, OSError):  # no affinity on this platform
        return max(1, machine)


def sized(workers: int | None = None, threads: int | None = None) -> tuple[int, int]:
    """Worker processes and threads per worker: those asked for, else SCOREKEEPER_WORKERS and
    SCOREKEEPER_THREADS, else one worker per core and THREADS threads each.

    One process per core lets Python use every core (each process has its own GIL), and no
    more: a second process on a core only adds memory and switching. Two threads per process
    keep its core busy while one request waits on the disk (SQLite's fsync at a save) or on
    PostgreSQL; a request's body is read before a thread is given it, so threads are never
    held by a slow client.
    """
    from ..settings import SetupError

    chosen = []
    for asked, variable, default in (
        (workers, "SCOREKEEPER_WORKERS", cores()),
        (threads, "SCOREKEEPER_THREADS", THREADS),
    ):
        if asked is None:
            text = os.environ.get(variable, "").strip()
            if text and not (text.isdigit() and int(text) >= 1):
                raise SetupError(f"{variable} must be a whole number of at least 1, not {text!r}.")
            asked = int(text) if text else default
        if asked < 1:
            raise SetupError("--workers and --threads must be at least 1.")
        chosen.append(asked)
    return chosen[0], chosen[1]


def stop_at_once() -> None:
    """A stop (SIGTERM, or Ctrl-C's SIGINT, sent to the server's whole process group) ends
    this process at once: a worker from the moment it is forked until it has loaded the app,
    when granian sets its own handlers, which stop it gracefully. It serves nothing before.

    A forked worker starts with its server's handlers, which only tell that copy of the server
    to stop: a stop in those seconds was lost (one sent while the server was still starting
    its workers, or while a worker loaded the app on a busy machine), and the worker was killed
    STOP_TIMEOUT_S later with "Killing worker-1 after it refused to gracefully stop"."""
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, signal.SIG_DFL)


def load_app(
    target: str, *, factory: bool, threads: int, workers: int, working_dir: str | None
) -> BodyFirst:
    """In each worker: import the WSGI app `target` ("module:name", built by calling it when
    `factory`) and put the gateway in front of it."""
    if working_dir is not None and working_dir not in sys.path:
        sys.path.insert(0, working_dir)
    module_name, _, name = target.partition(":")
    app: Any = importlib.import_module(module_name)
    for part in (name or "app").split("."):
        app = getattr(app, part)
    if factory:
        app = app()
    freeze_what_loading_made()
    offered = getattr(app, "extensions", {})  # a Flask app's registry
    return BodyFirst(
        app,
        threads,
        multiprocess=workers > 1,
        quick=offered.get(QUICK_ANSWER),
        body_limit=offered.get(BODY_LIMIT),
    )


def freeze_what_loading_made() -> None:
    """Leave what loading the app made (modules, compiled templates, the engine's tables: it
    lives as long as the worker) out of the garbage collector's full passes, which then walk
    only what requests made: a full pass stopped a worker for 96-135 ms on a busy night, every
    request it held waiting, and 17-27 ms after (`bench/tables.py`)."""
    gc.collect()
    gc.freeze()


def run(
    host: str,
    port: int,
    workers: int,
    *,
    threads: int = THREADS,
    target: str = APP,
    factory: bool = True,
    working_dir: Path | None = None,
    tls: tuple[Path, Path] | None = None,
) -> None:
    """Serve until interrupted: `workers` processes, each with `threads` threads.

    `target` is "module:name" of the WSGI app (of a function building it when `factory`), which
    each worker imports (from `working_dir` first, when given). `tls`: a certificate and its
    key (see tls_problem) to serve HTTPS with, TLS 1.2 or newer; else plain HTTP.
    """
    os.register_at_fork(after_in_child=stop_at_once)  # granian forks its workers (on Linux)
    loader: Callable[..., Any] = partial(
        load_app,
        factory=factory,
        threads=max(1, threads),
        workers=workers,
        working_dir=str(working_dir) if working_dir else None,
    )
    Server(
        target,
        address=host,
        port=port,
        interface=Interfaces.RSGI,
        workers=max(1, workers),
        # HTTP/1 only: in "auto" mode a connection that never sends a byte is never closed
        # (the protocol sniffing waits before hyper's header timer starts)
        http=HTTPModes.http1,
        http1_settings=HTTP1Settings(header_read_timeout=HEADER_TIMEOUT_MS),
        websockets=False,
        log_level=LogLevels.warning,
        respawn_failed_workers=True,
        workers_kill_timeout=STOP_TIMEOUT_S,
        ssl_cert=tls[0] if tls else None,
        ssl_key=tls[1] if tls else None,
        # granian's default is TLS 1.3 only, which a phone's browser from before 2019 (Safari
        # before iOS 12.2) does not speak; TLS 1.2 with the suites rustls offers is still safe
        ssl_protocol_min=SSLProtocols.tls12,
    ).serve(target_loader=loader)


def tls_problem(certificate: Path, key: Path) -> str | None:
    """What keeps the server from serving HTTPS with this certificate and key, in one sentence
    for the operator; None when it can. Both are PEM files (the certificate first in its file,
    its chain after it); the key is not protected by a passphrase and belongs to the
    certificate."""
    import ssl

    texts: dict[str, bytes] = {}
    for what, path in (("certificate", certificate), ("key", key)):
        try:
            texts[what] = path.read_bytes()
        except OSError as error:
            return f"Cannot read the {what} file {path}: {error.strerror or error}."
    if b"-----BEGIN CERTIFICATE-----" not in texts["certificate"]:
        return (
            f"{certificate} is not a certificate: give the PEM file that begins with "
            "-----BEGIN CERTIFICATE----- (its chain, if any, after it)."
        )
    if b"ENCRYPTED" in texts["key"]:
        return (
            f"The key {key} is protected by a passphrase, which the server cannot ask for: "
            f"give it without one (openssl pkey -in {key} -out plain-key.pem)."
        )
    if b"PRIVATE KEY-----" not in texts["key"]:
        return (
            f"{key} is not a private key: give the PEM file that begins with "
            "-----BEGIN PRIVATE KEY----- (or RSA PRIVATE KEY, EC PRIVATE KEY)."
        )
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(certificate, key)
    except ssl.SSLError as error:
        # another key of its kind; a key of another kind (RSA for an EC certificate)
        if error.reason in ("KEY_VALUES_MISMATCH", "NO_CERTIFICATE_ASSIGNED"):
            return f"The key {key} does not belong to the certificate {certificate}."
        return (
            f"Cannot use the certificate {certificate} with the key {key}: they are damaged "
            f"or of a kind the server does not read ({error.reason or error})."
        )
    return None


def unnamed(certificate: Path, key: Path, addresses: list[str]) -> list[str]:
    """The addresses (host names or IP addresses) the certificate does not name, which a
    browser opening https://ADDRESS/ refuses: found by a TLS handshake in memory between the
    server with this certificate and a client trusting it, as a phone that trusts it would
    check the name."""
    import ssl

    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(certificate, key)
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client.load_verify_locations(cafile=certificate)
    client.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN  # the certificate itself is trusted
    missing = []
    for address in addresses:
        wires = [ssl.MemoryBIO() for _ in range(4)]
        ends = (
            client.wrap_bio(wires[0], wires[1], server_hostname=address),
            server.wrap_bio(wires[2], wires[3], server_side=True),
        )
        for _ in range(4):  # a TLS 1.3 handshake takes two flights each way
            try:
                for end in ends:
                    with contextlib.suppress(ssl.SSLWantReadError):
                        end.do_handshake()
            except ssl.SSLCertVerificationError as error:
                if error.verify_code in (X509_HOSTNAME_MISMATCH, X509_IP_ADDRESS_MISMATCH):
                    missing.append(address)
                break
            except ssl.SSLError:  # anything else: not a name this check can judge
                break
            wires[2].write(wires[1].read())
            wires[0].write(wires[3].read())
    return missing


X509_HOSTNAME_MISMATCH, X509_IP_ADDRESS_MISMATCH = 62, 64
"""OpenSSL's verify codes for a certificate that does not name the host or address asked."""
