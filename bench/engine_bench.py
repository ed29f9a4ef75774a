"""The engine's figures, from bench/engine.py (another developer's script), into the table.

Runs `python bench/engine.py [--quick | --smoke]` as its own process and reads its table (columns
separated by two or more spaces; the last says ok or FAIL).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import ROOT, Results


def run(quick: bool = False, smoke: bool = False) -> Results:
    """Run bench/engine.py and turn its rows into figures."""
    results = Results()
    script = ROOT / "bench" / "engine.py"
    if not script.exists():
        results.add(
            "engine", "bench/engine.py is not there yet", "replay ≤ 0.5 ms, check ≤ 60 ms", None
        )
        return results
    done = subprocess.run(
        [sys.executable, str(script), *(["--smoke"] if smoke else ["--quick"] if quick else [])],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=str(ROOT),
    )
    lines = done.stdout.splitlines()
    start = next(
        (i for i, line in enumerate(lines) if re.fullmatch(r"[-\s]+", line) and "---" in line), None
    )
    if start is None:
        results.add(
            "engine",
            f"no table in its output (exit {done.returncode})",
            "runs",
            False,
            (done.stdout + done.stderr)[-300:],
        )
        return results
    results.notes.extend(line for line in lines[: start - 1] if line.strip())
    for line in lines[start + 1 :]:
        cells = re.split(r"\s{2,}", line.strip())
        if len(cells) < 3:
            continue
        verdict = cells[3] if len(cells) > 3 else ""
        ok = True if verdict == "ok" else False if verdict == "FAIL" else None
        results.add(cells[0], cells[1], cells[2], ok)
    return results


if __name__ == "__main__":
    from run import print_table

    print_table(run("--quick" in sys.argv, smoke="--smoke" in sys.argv))
