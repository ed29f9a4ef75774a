"""README.md is the front door: short, with the two commands exactly, and CI runs its test
command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SHELL_BLOCKS = re.findall(r"^```sh\n(.*?)^```$", README, re.S | re.M)

START = "pip install -e . && scorekeeper serve"
TEST = "bash scripts/test"


def test_the_readme_is_short() -> None:
    assert README.count("\n") <= 150


def test_the_two_commands_stand_alone_in_their_blocks() -> None:
    assert [block.strip() for block in SHELL_BLOCKS if block.strip() in (START, TEST)] == [
        START,
        TEST,
    ]


def test_ci_runs_the_readme_test_command() -> None:
    commands = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    assert TEST in commands  # (then every bench's smoke run: bench/run.py --smoke)


def test_the_readme_indexes_every_docs_page() -> None:
    pages = sorted(path.name for path in (ROOT / "docs").glob("*.md"))
    assert [page for page in pages if f"(docs/{page}" not in README] == []
