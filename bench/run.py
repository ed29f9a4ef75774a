"""Run every benchmark and print one table: figure | measured | target | ok.

    python bench/run.py            # everything (about 14 minutes on a 2-core machine)
    python bench/run.py --quick    # shorter load runs, SQLite only (under 4 minutes)
    python bench/run.py --only bytes,taps

Figures are measured in this run; throughput is a share of a bare Flask "hello" endpoint served
in the same run with the same server settings, so a busy machine changes little.
Progress goes to stderr; the table (Markdown) to stdout and, with --write FILE, to a file.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import Results, log

BENCHES = (
    "taps",
    "bytes",
    "throughput",
    "tables",
    "slow",
    "growth",
    "table_stats",
    "ratings",
    "engine",
    "tap_latency",
)


def _loader(name: str) -> Callable[[bool], Results]:
    module = __import__(
        {"bytes": "bytes_bench", "engine": "engine_bench", "slow": "slow_clients"}.get(name, name)
    )
    return module.run  # type: ignore[no-any-return]


def mark(ok: bool | None) -> str:
    """The ok column."""
    return {True: "yes", False: "**NO**", None: "–"}[ok]


def table(all_results: list[tuple[str, Results]]) -> str:
    """The figures as a Markdown table, then the notes."""
    lines = ["| bench | figure | measured | target | ok |", "| --- | --- | --- | --- | --- |"]
    notes: list[str] = []
    for bench, results in all_results:
        for figure in results.figures:
            lines.append(
                f"| {bench} | {figure.name} | {figure.measured} | {figure.target} | "
                f"{mark(figure.ok)} |"
            )
            if figure.note:
                notes.append(f"- {bench} · {figure.name}: {figure.note}")
        notes.extend(f"- {bench}: {note}" for note in results.notes)
    return "\n".join(lines + (["", *notes] if notes else []))


def print_table(results: Results, bench: str = "") -> None:
    """Print one benchmark's figures (when a bench script is run on its own)."""
    print(table([(bench, results)]))


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks and print the table; exit 1 if a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs, under 4 minutes")
    parser.add_argument(
        "--only", default=",".join(BENCHES), help=f"comma-separated subset of {','.join(BENCHES)}"
    )
    parser.add_argument("--write", metavar="FILE", help="also write the table to FILE")
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    started = time.monotonic()
    collected: list[tuple[str, Results]] = []
    for name in chosen:
        log(f"== {name}")
        try:
            collected.append((name, _loader(name)(args.quick)))
        except Exception as error:  # one broken bench must not hide the others' figures
            traceback.print_exc()
            failed = Results()
            failed.add("ran", f"failed: {type(error).__name__}: {error}"[:200], "runs", False)
            collected.append((name, failed))
    elapsed = time.monotonic() - started
    mode = "quick" if args.quick else "full"
    text = (
        f"{table(collected)}\n\n_{mode} run, {elapsed:.0f} s, {time.strftime('%Y-%m-%d %H:%M')}_\n"
    )
    print(text)
    if args.write:
        Path(args.write).write_text(text)
    missed = any(f.ok is False for _, r in collected for f in r.figures)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
