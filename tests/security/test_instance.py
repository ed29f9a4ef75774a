"""The instance folder holds every capability token (the session key, the database): what the
app writes there is private to its user and whole, and a folder it cannot write gives the
operator one sentence and a non-zero exit, not a traceback.

A full disk is simulated with RLIMIT_FSIZE=0 in the child process: the kernel then refuses every
byte written to a file, as a full disk does (with EFBIG instead of ENOSPC). A read-only folder
is a folder without write permission; when the tests run as root, the child drops the
capabilities that let root write anywhere (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.settings import SetupError, load_secret_key

ROOT = Path(__file__).resolve().parents[2]
KEY = "0123456789abcdef0123456789abcdef"
PR_CAPBSET_DROP = 24
ROOT_WRITES_ANYWHERE = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def full_disk() -> None:
    """In the child: no byte may be written to any file."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


def permissions_apply() -> None:
    """In the child: file permissions bind even a root process."""
    if os.geteuid() == 0:
        libc = ctypes.CDLL(None, use_errno=True)
        for capability in ROOT_WRITES_ANYWHERE:
            assert libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) == 0, ctypes.get_errno()


def cli(
    instance: Path, *args: str, key: str | None = None, before: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """This checkout's `scorekeeper` command, in a fresh process."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_ACCESS_CODE")
    }
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if key:
        env["SECRET_KEY"] = key
    command = [sys.executable, "-m", "scorekeeper.cli", *args]
    with subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=before,
        start_new_session=True,  # a server it started is stopped whole (its workers too)
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            raise AssertionError(f"still running after 60 s: {stdout} {stderr}") from None
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def one_sentence(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    # (what the migrations say as they look at the database, on every start)
    lines = [
        line for line in done.stderr.strip().splitlines() if not line.startswith("INFO  [alembic")
    ]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], lines[0]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_key_is_written_whole_and_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    key = load_secret_key(str(tmp_path))
    path = tmp_path / "secret_key"
    assert path.read_text() == key and len(key) == 64
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret_key"]  # no temporary left
    assert load_secret_key(str(tmp_path)) == key


@pytest.mark.parametrize("content", [b"", b"\n", b"\x00" * 64, b"\xff\xfe\x00garbage", b"abc"])
def test_an_empty_or_damaged_key_file_is_named(
    tmp_path: Path, content: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    (tmp_path / "secret_key").write_bytes(content)
    with pytest.raises(SetupError, match="secret_key is empty or damaged"):
        load_secret_key(str(tmp_path))
    assert (tmp_path / "secret_key").read_bytes() == content  # left for the operator


def test_serve_says_the_key_file_is_empty(tmp_path: Path) -> None:
    (tmp_path / "secret_key").write_text("")
    done = cli(tmp_path, "serve", "--host", "127.0.0.1", "--port", str(free_port()))
    one_sentence(done, str(tmp_path / "secret_key"), "empty or damaged", "Delete it")
    assert "running" not in done.stdout


def test_a_full_disk_leaves_no_empty_key(tmp_path: Path) -> None:
    done = cli(tmp_path, "init-db", before=full_disk)
    one_sentence(done, f"Cannot write to the instance folder {tmp_path}", "full", "Free some space")
    assert "read-only" not in done.stderr
    assert not (tmp_path / "secret_key").exists()
    assert [p.name for p in tmp_path.iterdir() if "secret" in p.name] == []
    again = cli(tmp_path, "init-db")  # space again: the next start just works
    assert again.returncode == 0, again.stderr
    assert len((tmp_path / "secret_key").read_text()) == 64


def test_a_full_disk_while_the_database_is_made(tmp_path: Path) -> None:
    done = cli(tmp_path, "init-db", key=KEY, before=full_disk)
    one_sentence(
        done, f"Cannot use the database {tmp_path / 'scorekeeper.sqlite'}", "free some space"
    )


@pytest.mark.parametrize("command", [["init-db"], ["serve", "--host", "127.0.0.1", "--port"]])
def test_a_read_only_instance_folder(tmp_path: Path, command: list[str]) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    if command[0] == "serve":
        command = [*command, str(free_port())]
    instance.chmod(0o555)
    try:
        done = cli(instance, *command, before=permissions_apply)
    finally:
        instance.chmod(0o700)
    one_sentence(done, f"Cannot write to the instance folder {instance}", "read-only", "writable")
    assert "free some space" not in done.stderr  # it is not full (issue 32, item 15)
    assert "running" not in done.stdout


def test_a_read_only_database_folder_with_a_key(tmp_path: Path) -> None:
    """The key comes from the environment: SQLite itself is the first to be refused."""
    instance = tmp_path / "instance"
    instance.mkdir()
    assert cli(instance, "init-db", key=KEY).returncode == 0
    (instance / "scorekeeper.sqlite").chmod(0o400)
    instance.chmod(0o555)
    try:
        done = cli(instance, "init-db", key=KEY, before=permissions_apply)
    finally:
        instance.chmod(0o700)
    one_sentence(done, "Cannot use the database", "read-only", "writable")
    assert "free some space" not in done.stderr


MS_RDONLY, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 32, 4096, 16384, 1 << 18
CLONE_NEWNS = 0x00020000


def read_only_mount(folder: Path) -> Callable[[], None]:
    """In the child: `folder` seen through a read-only bind mount of its own (as `mount --bind`
    then `remount,ro`), in a mount namespace of the child's alone."""

    def mount() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        path = str(folder).encode()
        for done in (
            libc.unshare(CLONE_NEWNS),
            libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None),
            libc.mount(path, path, None, MS_BIND, None),
            libc.mount(None, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY, None),
        ):
            assert done == 0, os.strerror(ctypes.get_errno())

    return mount


def test_serve_refuses_a_read_only_instance_that_holds_a_database(tmp_path: Path) -> None:
    """Reading works (another server may hold the database open on a writable path), but no save
    could be stored: refused at start, in one sentence, not a 500 at every save."""
    instance = tmp_path / "instance"
    instance.mkdir()
    assert cli(instance, "init-db", key=KEY).returncode == 0
    # a server at work on the same database: its write-ahead log and shared memory are there
    holder = sqlite3.connect(instance / "scorekeeper.sqlite")
    try:
        assert holder.execute("SELECT count(*) FROM games").fetchone() == (0,)
        assert (instance / "scorekeeper.sqlite-shm").exists()
        if os.geteuid() == 0:
            read_only = read_only_mount(instance)
        else:  # without root, permissions are enough
            for path in instance.iterdir():
                path.chmod(0o400)
            instance.chmod(0o555)
            read_only = permissions_apply
        try:
            done = cli(
                instance,
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(free_port()),
                key=KEY,
                before=read_only,
            )
        finally:
            instance.chmod(0o700)
    finally:
        holder.close()
    one_sentence(done, f"Cannot use the database {instance / 'scorekeeper.sqlite'}", "writable")
    assert "running" not in done.stdout


def test_database_files_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from flask_migrate import upgrade
    from sqlalchemy import text

    from scorekeeper.store.db import db
    from scorekeeper.store.versions import changed_here

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SECRET_KEY", KEY)
    previous = os.umask(0o022)  # the usual umask: files readable by everyone unless made private
    try:
        app = create_app({"INSTANCE_PATH": str(tmp_path)})
        with app.app_context():
            upgrade()
            db.session.execute(text("CREATE TABLE probe (x)"))
            db.session.execute(text("INSERT INTO probe VALUES (1)"))
            db.session.commit()
            changed_here(db.engine, "probe")  # a game's change: the processes' change marks
            files = {
                p.name: stat.S_IMODE(p.stat().st_mode)
                for p in tmp_path.iterdir()
                if p.name.startswith("scorekeeper.sqlite")
            }
            db.session.remove()
            db.engine.dispose()
    finally:
        os.umask(previous)
    assert set(files) == {
        "scorekeeper.sqlite",
        "scorekeeper.sqlite-wal",
        "scorekeeper.sqlite-shm",
        "scorekeeper.sqlite-changes",
    }
    assert all(mode == 0o600 for mode in files.values()), files


def test_an_existing_readable_database_is_made_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("SECRET_KEY", KEY)
    database = tmp_path / "scorekeeper.sqlite"
    database.touch()
    database.chmod(0o644)
    create_app({"INSTANCE_PATH": str(tmp_path)})
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_a_port_in_use_is_one_sentence(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = cli(tmp_path, "serve", "--host", "127.0.0.1", "--port", str(port), key=KEY)
    one_sentence(done, f"Cannot listen on 127.0.0.1 port {port}", "another --port")
    assert "running" not in done.stdout
