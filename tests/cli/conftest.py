"""What the operator's commands' tests share."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty instance folder the commands use (no DATABASE_URL, no access code)."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.setenv("SECRET_KEY", "cli-test-" + "k" * 40)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SCOREKEEPER_ACCESS_CODE", raising=False)
    return folder
