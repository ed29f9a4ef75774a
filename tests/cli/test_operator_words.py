"""What the operator's commands say (issue 32, items 13, 14 and 16): `serve` on a loopback
address says it is for this machine only (no QR code a phone could not open); a reader that
closes the pipe (`| head`) ends any command quietly, and so does Ctrl-C before a command has set
its own way to stop (`serve` while it starts); `export` and `import` say nothing about
migrations unless one runs; `check` prints its JSON as before."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.cli import main
from tests.servers import python

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
QR_BLOCKS = "█▀▄"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def served(host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    """What `scorekeeper serve --host HOST` prints before the server runs (it is not run)."""
    from scorekeeper.serving import server

    ran: list[str] = []
    monkeypatch.setattr(server, "run", lambda host, *args, **kwargs: ran.append(host))
    monkeypatch.setattr("scorekeeper.cli.local_addresses", lambda: ["192.168.1.20"])
    assert main(["serve", "--host", host, "--port", str(free_port()), "--workers", "1"]) == 0
    assert ran == [host]
    return capsys.readouterr().out


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "127.0.1.1"])
def test_serve_on_loopback_is_for_this_machine_only(
    instance: Path, host: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = served(host, monkeypatch, capsys)
    assert "this machine only" in out
    assert "phone on the same network:" not in out
    assert "--host 0.0.0.0" in out  # how to open it to the phones
    assert not any(block in out for block in QR_BLOCKS), out


def test_serve_on_every_address_offers_the_phones_a_qr_code(
    instance: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = served("0.0.0.0", monkeypatch, capsys)
    assert "Open it from a phone on the same network:" in out
    assert "http://192.168.1.20:" in out
    assert any(block in out for block in QR_BLOCKS)
    assert "this machine only" not in out


def command(
    *args: str, instance: Path, stdout: int | None = None
) -> subprocess.CompletedProcess[str]:
    """This checkout's `scorekeeper`, in a fresh process on `instance`."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env["SECRET_KEY"] = "cli-test-" + "k" * 40
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def many(tmp_path: Path) -> Path:
    """Records enough that their statistics and export fill more than a pipe's buffer."""
    records = [json.loads(path.read_text()) for path in sorted(DATA.glob("*-complete.json"))]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(records * 40), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "{many}"],
        ["check", "{one}"],
        ["export", "-"],
        ["init-db"],
    ],
    ids=["stats", "check", "export", "init-db"],
)
def test_a_reader_gone_ends_every_command_quietly(
    tmp_path: Path, many: Path, args: list[str]
) -> None:
    """`scorekeeper stats FILE | head` said "Cannot start: Broken pipe." (exit 1) one time in
    five; here the reader is gone before the first byte, every time."""
    instance = tmp_path / "instance"
    one = sorted(DATA.glob("*-complete.json"))[0]
    if args[0] == "export":
        assert command("import", str(many), instance=instance).returncode == 0
    reading, writing = os.pipe()
    os.close(reading)  # `head` has read its lines and left
    try:
        done = command(
            *[arg.format(many=many, one=one) for arg in args], instance=instance, stdout=writing
        )
    finally:
        os.close(writing)
    assert "Broken pipe" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert "Cannot" not in done.stderr and "Exception" not in done.stderr, done.stderr
    assert done.returncode == 128 + signal.SIGPIPE, done.stderr  # as `cat` ends there


def alembic_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "alembic" in line]


@pytest.fixture(params=["as a terminal starts it", "from a suite started with &"])
def sigint_as_inherited(request: pytest.FixtureRequest) -> Iterator[None]:
    """The suite's own SIGINT: as a terminal leaves it, or ignored, as a shell's `&` leaves a
    job started in the background (and a child inherits an ignored signal)."""
    if request.param == "as a terminal starts it":
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("sigint_as_inherited")
def test_ctrl_c_ends_a_command_quietly_with_a_shells_status(tmp_path: Path) -> None:
    """Ctrl-C while `serve` started (importing, migrating) printed a 30-line traceback. The
    test's child gets Ctrl-C's default however the suite was started (issue 44, item 14: with
    `bash scripts/test &` it inherited SIGINT ignored, and went on)."""
    stop_while_serving = (
        "import signal, sys\n"
        "import scorekeeper.cli as cli\n"
        "cli.serve = lambda *given, **named: signal.raise_signal(signal.SIGINT)\n"
        "sys.exit(cli.main(['serve']))\n"
    )
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)}
    done = subprocess.run(
        python("-c", stop_while_serving),
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (128 + signal.SIGINT, "", "")


def test_export_and_import_say_which_database_and_nothing_of_migrations(
    tmp_path: Path, many: Path
) -> None:
    """Alembic's INFO lines (10 for a new database) are not the operator's: one line says what
    was done (issue 44, item 14), in a process of its own as the operator runs it."""
    instance = tmp_path / "instance"
    database = instance / "scorekeeper.sqlite"
    first = command("export", str(tmp_path / "first.json"), instance=instance)
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines() == [f"Created the database in {database}", "exported 0 games"]
    imported = command("import", str(many), instance=instance)
    exported = command("export", str(tmp_path / "again.json"), instance=instance)
    for done in (imported, exported):
        assert done.returncode == 0, done.stderr
        assert alembic_lines(done.stderr) == [], done.stderr
        assert done.stderr.splitlines()[0] == f"Using the database {database}", done.stderr
        assert len(done.stderr.splitlines()) == 2, done.stderr  # and its own line
    assert exported.stderr.splitlines()[1].startswith("exported ")


def test_check_prints_its_json_alone(tmp_path: Path) -> None:
    one = sorted(DATA.glob("*-complete.json"))[0]
    done = command("check", str(one), instance=tmp_path / "instance")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["finished"] is True
