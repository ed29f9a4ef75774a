"""`scorekeeper serve`: its options, the checks before it starts (the port, the certificate and
its key), and what it says (the addresses, a QR code, the access code)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The `serve` subcommand and its options."""
    server = commands.add_parser("serve", help="run the app for the table (production server)")
    server.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    server.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    server.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="worker processes (default: SCOREKEEPER_WORKERS, else one per CPU core)",
    )
    server.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="threads per worker that run the app (default: SCOREKEEPER_THREADS, else 2)",
    )
    server.add_argument(
        "--new-access-code",
        action="store_true",
        help="ask every browser for a new strong access code (printed)",
    )
    server.add_argument(
        "--weak-access-code",
        action="store_true",
        help="start even though the access code is easy to guess (warned)",
    )
    server.add_argument(
        "--certificate",
        metavar="FILE",
        type=Path,
        help="serve HTTPS with this certificate (PEM, its chain after it); needs --key",
    )
    server.add_argument(
        "--key", metavar="FILE", type=Path, help="the certificate's private key (PEM)"
    )
    server.set_defaults(refuse=server.error)  # a bad option: its usage, one sentence, exit 2


def tls_files(args: argparse.Namespace) -> tuple[Path, Path] | None:
    """The certificate and key `serve` was given (None: plain HTTP), refused as a bad option is
    (the usage, one sentence, exit 2) when only one is given or the server cannot use them."""
    from ..serving.server import tls_problem

    certificate, key = args.certificate, args.key
    if certificate is None and key is None:
        return None
    if certificate is None or key is None:
        given, missing = ("--certificate", "--key") if key is None else ("--key", "--certificate")
        args.refuse(f"{given} needs {missing} too: HTTPS takes a certificate and its key.")
    problem = tls_problem(certificate, key)
    if problem:
        args.refuse(problem)
    return certificate, key


def local_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, for the phones on the same Wi-Fi.

    Read from the network interfaces (ifaddr) and the host name; nothing is sent.
    """
    import socket

    import ifaddr

    candidates = [
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)
    ]  # IPv6 addresses come as tuples
    with contextlib.suppress(OSError):
        candidates += [
            str(info[4][0])
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        ]
    found: list[str] = []
    for address in candidates:
        if not address.startswith("127.") and address not in found:
            found.append(address)
    return found


def can_listen(host: str, port: int) -> None:
    """Refuse, in one sentence, an address this process cannot listen on (before saying it runs)."""
    import socket

    from ..settings import SetupError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind((host, port))
        except OSError as error:
            raise SetupError(
                f"Cannot listen on {host} port {port}: {error.strerror or error}. "
                "Choose another --port, or stop the program using it."
            ) from error


def serve(
    host: str,
    port: int,
    workers: int | None,
    threads: int | None,
    *,
    new_code: bool = False,
    weak_code: bool = False,
    tls: tuple[Path, Path] | None = None,
) -> int:
    """Migrate the database, then run the app under granian with several worker processes.

    `new_code`: a new strong access code for this run (printed); `weak_code`: the operator
    insists on a weak one (warned about); `tls`: a certificate and its key (checked: tls_files)
    to serve HTTPS with, which also makes the app's cookies Secure and sends HSTS, as
    SCOREKEEPER_HTTPS=1 does — the workers read all three from the environment."""
    import os

    from .. import settings
    from ..serving.server import run, sized
    from ..store import limits
    from .database import opened

    workers, threads = sized(workers, threads)
    can_listen(host, port)
    if new_code:
        os.environ["SCOREKEEPER_ACCESS_CODE"] = limits.new_code()
    if weak_code:
        os.environ[settings.WEAK_CODE_VARIABLE] = "1"
    if tls:
        os.environ["SCOREKEEPER_HTTPS"] = "1"
    # refuses a weak code (unless told) and a database it could read but never save to
    code = opened(writes=True).config.get("ACCESS_CODE")
    where = say_where(host, port, scheme="https" if tls else "http")
    if tls:
        warn_unnamed(tls, where, port)
    if code:
        print(f"Access code: {code}" if new_code else "Access code: as configured")
        guesses = limits.code_guesses(code)
        if guesses < limits.STRONG_CODE_GUESSES:
            years = limits.years_to_guess(guesses)
            print(
                f"Warning: the access code is weak: about {guesses:.0e} guesses, which "
                f"{limits.GUESSES_A_SECOND:,} a second would find in "
                f"{_duration(years)}. Start with --new-access-code for a strong one.",
                file=sys.stderr,
            )
    sys.stdout.flush()
    run(host, port, workers, threads=threads, tls=tls)
    return 0


EVERY_ADDRESS = ("0.0.0.0", "::", "")


def this_machine_only(host: str) -> bool:
    """Whether an address to listen on is this machine's own (loopback): no phone reaches it."""
    import ipaddress

    if host.strip("[]").casefold() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def say_where(host: str, port: int, scheme: str = "http") -> list[str]:
    """Where the app is open: to the phones on the network (the addresses, and the first as a
    QR code), or, listening on loopback, to this machine only (no QR code: no phone can open
    it). `scheme`: "https" when the server has a certificate. The addresses said."""
    if this_machine_only(host):
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        print("Scorekeeper is running for this machine only (no phone can reach it):")
        print(f"  {scheme}://{shown}:{port}/")
        print("To open it from a phone on the same network, start it with --host 0.0.0.0.")
        return [host.strip("[]")]
    shown_hosts = local_addresses() if host in EVERY_ADDRESS else [host]
    print("Scorekeeper is running. Open it from a phone on the same network:")
    for address in shown_hosts or ["127.0.0.1"]:
        print(f"  {scheme}://{address}:{port}/")
    if host in EVERY_ADDRESS:
        print(f"  (on this machine: {scheme}://127.0.0.1:{port}/)")
    print_qr(f"{scheme}://{(shown_hosts or ['127.0.0.1'])[0]}:{port}/")
    return shown_hosts or ["127.0.0.1"]


def warn_unnamed(tls: tuple[Path, Path], addresses: list[str], port: int) -> None:
    """Say which of the addresses printed the certificate does not name: a phone opening one
    refuses the page (and its service worker) however it is told to trust the certificate."""
    from ..serving.server import unnamed

    missing = unnamed(tls[0], tls[1], addresses)
    if missing:
        print(
            f"Warning: the certificate does not name {', '.join(missing)}, so a phone opening "
            f"https://{missing[0]}:{port}/ refuses it: make one that names "
            f"{'it' if len(missing) == 1 else 'them'} (mkcert {' '.join(missing)}), or open "
            "a name it has.",
            file=sys.stderr,
        )


def _duration(years: float) -> str:
    """'3 hours', '12 days', '4 years': how long, roughly."""
    seconds = years * 365.25 * 24 * 3600
    for unit, size in (
        ("years", 365.25 * 24 * 3600),
        ("days", 24 * 3600),
        ("hours", 3600),
        ("minutes", 60),
    ):
        if seconds >= size:
            return f"about {seconds / size:.0f} {unit}"
    return "seconds"


def print_qr(address: str) -> None:
    """The address as a QR code in the terminal, for a phone's camera."""
    try:
        import segno

        segno.make(address, error="m").terminal(compact=True)
    except (ImportError, OSError, UnicodeError):
        pass  # the printed address is enough
