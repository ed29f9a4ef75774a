"""No hard-coded secret: a production app refuses to start with a known default or short key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper import create_app


def production_app(tmp_path: Path, **config: Any) -> Any:
    return create_app(
        {
            "INSTANCE_PATH": str(tmp_path),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/db.sqlite",
            **config,
        }
    )


@pytest.mark.parametrize(
    "key",
    [
        "dev",
        "changeme",
        "secret",
        "Secret-Key",
        "your-secret-key-here",
        "short-key",
        b"dev",
        "  changeme  ",
    ],
)
def test_known_or_short_key_is_refused(tmp_path: Path, key: str | bytes) -> None:
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        production_app(tmp_path, SECRET_KEY=key)


def test_key_from_the_environment_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "changeme")
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        production_app(tmp_path)


@pytest.mark.parametrize("mode", [{"TESTING": True}, {"DEBUG": True}])
def test_tests_and_debugging_may_use_any_key(tmp_path: Path, mode: dict[str, bool]) -> None:
    assert production_app(tmp_path, SECRET_KEY="dev", **mode).secret_key == "dev"


def test_generated_key_is_kept_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = production_app(tmp_path)
    second = production_app(tmp_path)
    assert len(first.secret_key) >= 32
    assert first.secret_key == second.secret_key == (tmp_path / "secret_key").read_text().strip()
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_a_long_random_key_is_accepted(tmp_path: Path) -> None:
    assert production_app(tmp_path, SECRET_KEY="k" * 8 + "9f3a1c77e0b2d4").secret_key


def test_serve_refuses_to_start_with_a_default_key(tmp_path: Path) -> None:
    """The production command stops before it listens, and says why."""
    import os
    import subprocess
    import sys

    checkout = str(Path(__file__).resolve().parents[2])  # this checkout's CLI, not an installed one
    env = {
        **os.environ,
        "SECRET_KEY": "changeme",
        "SCOREKEEPER_INSTANCE": str(tmp_path),
        "PYTHONPATH": checkout,
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scorekeeper.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "1",
            "--workers",
            "1",
        ],
        env=env,
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stderr.startswith("scorekeeper: Refusing to start: SECRET_KEY"), done.stderr
    assert "Traceback" not in done.stderr
    assert "running" not in done.stdout
