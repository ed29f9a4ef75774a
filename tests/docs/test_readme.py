"""README.md is the front door: short, with the two commands exactly, and CI runs its test
command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


def test_you_will_see_what_the_first_serve_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's "You will see" is what a new user's first `scorekeeper serve` prints, line for
    line, then the QR code (issue 44, item 14: it printed Alembic's INFO lines first)."""
    from scorekeeper.cli import main
    from scorekeeper.serving import server

    found = re.search(r"You will see:\n\n```\n(.*?)```", README, re.S)
    assert found is not None
    for variable in (
        "SCOREKEEPER_INSTANCE",
        "DATABASE_URL",
        "SECRET_KEY",
        "SCOREKEEPER_ACCESS_CODE",
    ):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.chdir(tmp_path)  # a fresh clone: no instance folder yet
    monkeypatch.setattr(server, "run", lambda *given, **named: None)  # what it prints, not runs
    monkeypatch.setattr(
        "scorekeeper.cli.can_listen", lambda host, port: None
    )  # (8000 may be in use)
    monkeypatch.setattr("scorekeeper.cli.local_addresses", lambda: ["192.168.1.20"])
    assert main(["serve"]) == 0
    out, err = capsys.readouterr()
    seen = (err + out).replace("192.168.1.20", "<this machine's address on the Wi-Fi>")
    assert seen.startswith(found.group(1)), seen
    qr_code = seen[len(found.group(1)) :]
    assert qr_code.strip() and set(qr_code) <= set("█▀▄ \n"), qr_code
