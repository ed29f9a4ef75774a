"""The `scorekeeper` console command.

`check` imports only the rules engine so it starts fast (not even the command line's parser:
`scorekeeper check FILE` is read as it is); the web commands import Flask lazily.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .lines import one_line as _one_line

if TYPE_CHECKING:
    import argparse


def _read(path: str) -> bytes | None:
    """The file's bytes (standard input for "-"), or None once it has said why it cannot."""
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        print(_one_line(f"cannot read {path}: {error.strerror}"), file=sys.stderr)
        return None


def check(path: str) -> int:
    """Replay one record and print what the engine derives (exit 0), or why not (1 or 2)."""
    from ..rules.errors import NotARecordError, RuleError
    from ..rules.record import check_output, load_record
    from ..rules.replay import replay

    data = _read(path)
    if data is None:
        return 2
    try:
        record = load_record(data)
    except NotARecordError as error:
        print(_one_line(str(error)), file=sys.stderr)
        return 2
    except RuleError as error:
        print(_one_line(error.headline()), file=sys.stderr)
        return 1
    print(json.dumps(check_output(replay(record.game)), ensure_ascii=False))
    return 0


def stats(path: str, rated: bool = False) -> int:
    """Print the statistics of an array of records (or one) as JSON (exit 0), or refuse the
    input as `check` does: 1 naming the record and the deal that breaks a rule, 2 if not records.
    `rated`: the players' ratings too (opt-in, as a table's are)."""
    from scorekeeper.rules.record import RecordsRefused, load_records
    from scorekeeper.stats import compute, to_json

    data = _read(path)
    if data is None:
        return 2
    try:
        records = load_records(data)
    except RecordsRefused as refused:
        print(_one_line(refused.headline()), file=sys.stderr)
        return 1 if refused.is_rule else 2
    print(json.dumps(to_json(compute(records, rated=rated)), ensure_ascii=False))
    return 0


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
) -> int:
    """Migrate the database, then run the app under granian with several worker processes.

    `new_code`: a new strong access code for this run (printed); `weak_code`: the operator
    insists on a weak one (warned about) — the workers read both from the environment."""
    import os

    from .. import settings
    from ..serving.server import run, sized
    from ..store import limits

    workers, threads = sized(workers, threads)
    can_listen(host, port)
    if new_code:
        os.environ["SCOREKEEPER_ACCESS_CODE"] = limits.new_code()
    if weak_code:
        os.environ[settings.WEAK_CODE_VARIABLE] = "1"
    # refuses a weak code (unless told) and a database it could read but never save to
    from .database import opened

    code = opened(writes=True).config.get("ACCESS_CODE")
    say_where(host, port)
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
    run(host, port, workers, threads=threads)
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


def say_where(host: str, port: int) -> None:
    """Where the app is open: to the phones on the network (the addresses, and the first as a
    QR code), or, listening on loopback, to this machine only (no QR code: no phone can open
    it)."""
    if this_machine_only(host):
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        print("Scorekeeper is running for this machine only (no phone can reach it):")
        print(f"  http://{shown}:{port}/")
        print("To open it from a phone on the same network, start it with --host 0.0.0.0.")
        return
    shown_hosts = local_addresses() if host in EVERY_ADDRESS else [host]
    print("Scorekeeper is running. Open it from a phone on the same network:")
    for address in shown_hosts or ["127.0.0.1"]:
        print(f"  http://{address}:{port}/")
    if host in EVERY_ADDRESS:
        print(f"  (on this machine: http://127.0.0.1:{port}/)")
    print_qr(f"http://{(shown_hosts or ['127.0.0.1'])[0]}:{port}/")


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


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per task."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="Keep score at a real card table: Trix, Trix Complex and Turkish King.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    checker = commands.add_parser("check", help="check a game record and print its scores")
    checker.add_argument("file", metavar="FILE", help="a game record (JSON), or - for stdin")
    statistics = commands.add_parser("stats", help="statistics of game records, as JSON")
    statistics.add_argument(
        "file", metavar="FILE", help="an array of game records or one record, or - for stdin"
    )
    statistics.add_argument(
        "--ratings",
        action="store_true",
        help="rate the players (OpenSkill over the finished games, in the order played)",
    )
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
    commands.add_parser("init-db", help="create or migrate the database, then exit")
    exporter = commands.add_parser("export", help="write every game as a JSON array of records")
    exporter.add_argument("file", metavar="FILE", help="where to write, or - for stdout")
    importer = commands.add_parser("import", help="load game records (all or nothing)")
    importer.add_argument("file", metavar="FILE", help="a record or an array, or - for stdin")
    importer.add_argument(
        "--table",
        metavar="LINK",
        help="as games of this table (its link or token); players join it",
    )
    return parser


def setup_failure(error: Exception) -> str | None:
    """One sentence for the operator when the app cannot start (None: not such an error).

    The instance folder or the database cannot be written (read-only, full, not ours), the
    session key is refused or damaged: the cause and what to do, without a traceback."""
    from sqlalchemy.exc import OperationalError

    from .. import settings

    if isinstance(error, settings.SetupError):
        return str(error)
    if isinstance(error, OperationalError):
        url = settings.database_url(settings.default_instance_path())
        files = settings.sqlite_files(url)
        reason = _one_line(str(error.orig)).rstrip(".")
        if files:
            return f"Cannot use the database {files[0]}: " + settings.what_to_do(
                _sqlite_errno(error.orig, files[0].parent), reason
            )
        return f"Cannot use the database: {reason}. Check DATABASE_URL and that it is reachable."
    if isinstance(error, OSError):
        where = f" {error.filename}" if error.filename else ""
        return f"Cannot start: {error.strerror or error}{where}."
    return None


SQLITE_PERM, SQLITE_READONLY, SQLITE_FULL, SQLITE_CANTOPEN = 3, 8, 13, 14
"""SQLite's primary result codes for a file it may not, or cannot, write."""


def _sqlite_errno(error: BaseException | None, folder: os.PathLike[str]) -> int | None:
    """The operating system's error number a SQLite refusal stands for (EACCES for a
    read-only database or folder, ENOSPC for a full disk), or None."""
    import errno

    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return None
    code &= 0xFF  # the primary code of an extended one (SQLITE_READONLY_DIRECTORY …)
    if code in (SQLITE_PERM, SQLITE_READONLY):
        return errno.EACCES
    if code == SQLITE_FULL:
        return errno.ENOSPC
    if code == SQLITE_CANTOPEN and not os.access(folder, os.W_OK):
        return errno.EACCES
    return None


CLOSED_PIPE = 128 + 13
"""The exit status of a command whose reader closed the pipe (`| head`): a shell's for a
program ended by SIGPIPE, as `cat` or `grep` end there."""
STOPPED = 128 + 2
"""The exit status of a command stopped by Ctrl-C (SIGINT) before it has set its own way to
stop, as a shell gives a program ended by SIGINT: `serve` while it starts, say."""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    given = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(given) == 2 and given[0] == "check" and (given[1] == "-" or given[1][:1] != "-"):
            status = check(given[1])  # the engine alone: no parser built for the one way to ask
        else:
            parser = build_parser()
            status = _run(parser, parser.parse_args(given))
        sys.stdout.flush()  # here, not at exit: a reader gone is caught below
    except BrokenPipeError:
        # the reader has what it wanted and went away: end quietly; what is left to print
        # goes nowhere (Python flushes standard output once more as it exits)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return CLOSED_PIPE
    except KeyboardInterrupt:
        # Ctrl-C: the operator knows; no traceback (a write in progress is one transaction,
        # never committed: the database drops it as this process ends)
        return STOPPED
    return status


def _on_the_database(args: argparse.Namespace) -> int:
    """`init-db`, `export` or `import` (a file to import is read before the database opens)."""
    from . import database

    if args.command == "init-db":
        return database.init_db()
    if args.command == "export":
        return database.export_games(args.file)
    data = _read(args.file)
    return 2 if data is None else database.import_games(data, args.table)


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The command the arguments name; a setup failure said in one sentence (exit 1)."""
    if args.command == "check":
        return check(args.file)
    try:
        if args.command == "stats":
            return stats(args.file, rated=args.ratings)
        if args.command == "serve":
            return serve(
                args.host,
                args.port,
                args.workers,
                args.threads,
                new_code=args.new_access_code,
                weak_code=args.weak_access_code,
            )
        if args.command in ("init-db", "export", "import"):
            return _on_the_database(args)
    except BrokenPipeError:
        raise  # not a setup failure: main ends quietly
    except Exception as error:
        sentence = setup_failure(error)
        if sentence is None:
            raise
        print(f"scorekeeper: {sentence}", file=sys.stderr)
        return 1
    parser.print_help()
    return 0
