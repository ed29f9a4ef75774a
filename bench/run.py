"""Run every benchmark and print one table: figure | measured | target | ok.

    python bench/run.py            # everything (about 14 minutes on a 2-core machine)
    python bench/run.py --quick    # shorter load runs, SQLite only (under 4 minutes)
    python bench/run.py --only bytes,taps
    python bench/run.py --smoke    # every script in bench/ in its smoke mode (.ci/run): it runs

Figures are measured in this run; throughput is a share of a bare Flask "hello" endpoint served
in the same run with the same server settings, so a busy machine changes little.
Progress goes to stderr; the table (Markdown) to stdout and, with --write FILE, to a file.
"""

from __future__ import annotations

import argparse
import subprocess
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
    "held",
    "growth",
    "table_stats",
    "big_table",
    "ratings",
    "engine",
    "tap_latency",
    "phone",
    "offline",
)


HERE = Path(__file__).resolve().parent
HELPERS = {"common.py", "hello_app.py", "httpraw.py", "run.py"}
"""What the benchmarks import or start (not benchmarks themselves)."""
SMOKE_TIMEOUT_S = 600  # a hung bench is stopped; nothing is judged by time


def bench_scripts() -> list[Path]:
    """Every benchmark script in bench/: a new one is in the smoke run without being listed."""
    return sorted(path for path in HERE.glob("*.py") if path.name not in HELPERS)


def smoke() -> int:
    """Run every benchmark script once with --smoke, each in its own process (seconds each: few
    requests, short runs, no figure judged), so none can rot unseen; exit 1 if one fails or has
    no smoke mode."""
    started = time.monotonic()
    failed: list[str] = []
    print("| bench | smoke run | seconds | CPU seconds |\n| --- | --- | --- | --- |")
    for script in bench_scripts():
        began, cpu = time.monotonic(), _children_cpu()
        if "--smoke" not in script.read_text(encoding="utf-8"):
            outcome, output = "**no --smoke mode**", ""
        else:
            log(f"== {script.name} --smoke")
            try:
                done = subprocess.run(
                    [sys.executable, str(script), "--smoke"],
                    capture_output=True,
                    text=True,
                    timeout=SMOKE_TIMEOUT_S,
                    cwd=HERE.parent,
                )
                ran = done.returncode == 0 and bool(done.stdout.strip())
                outcome = "ran" if ran else f"**failed (exit {done.returncode})**"
                output = done.stdout + done.stderr
            except subprocess.TimeoutExpired as error:
                outcome, output = f"**hung: stopped after {SMOKE_TIMEOUT_S} s**", str(error)
        if outcome != "ran":
            failed.append(script.name)
            print(output[-4000:], file=sys.stderr)
        print(
            f"| {script.name} | {outcome} | {time.monotonic() - began:.0f} | "
            f"{_children_cpu() - cpu:.0f} |",
            flush=True,
        )
    print(f"\n_smoke run of {len(bench_scripts())} benches, {time.monotonic() - started:.0f} s_")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (and theirs): a busy machine's wall clock
    says little of what a smoke run costs."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _loader(name: str) -> Callable[[bool], Results]:
    module = __import__(
        {
            "bytes": "bytes_bench",
            "engine": "engine_bench",
            "slow": "slow_clients",
            "phone": "engine_phone",
            "offline": "offline_phone",
        }.get(name, name)
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
    parser.add_argument(
        "--smoke", action="store_true", help="every script in bench/ in its smoke mode: it runs"
    )
    args = parser.parse_args(argv)
    if args.smoke:
        return smoke()
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
