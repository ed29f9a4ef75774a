"""The `scorekeeper` console command.

`check` imports only the rules engine so it starts fast; the web commands import Flask lazily.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def check(path: str) -> int:
    """Replay one record and print what the engine derives (exit 0), or why not (1 or 2)."""
    from .rules.errors import NotARecordError, RuleError
    from .rules.record import check_output, load_record
    from .rules.replay import replay

    try:
        data = _read(path)
    except OSError as error:
        print(f"cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    try:
        record = load_record(data)
    except NotARecordError as error:
        print(str(error), file=sys.stderr)
        return 2
    except RuleError as error:
        print(error.headline(), file=sys.stderr)
        return 1
    print(json.dumps(check_output(replay(record.game)), ensure_ascii=False))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per task."""
    parser = argparse.ArgumentParser(
        prog="scorekeeper",
        description="Keep score at a real card table: Trix, Trix Complex and Turkish King.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    checker = commands.add_parser("check", help="check a game record and print its scores")
    checker.add_argument("file", metavar="FILE", help="a game record (JSON), or - for stdin")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.file)
    parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
