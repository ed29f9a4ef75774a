"""The statistics are pure like the engine: standard library and scorekeeper.rules only (and
the ratings' one library, openskill, loaded only when ratings are made), and neither importing
them nor `scorekeeper stats` pulls in the web stack."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import scorekeeper.stats
from tests.rules.test_engine_imports import loaded_after

STATS_DIR = Path(scorekeeper.stats.__file__).parent
DATA = Path(__file__).parents[1] / "data"
LIBRARIES = {"ratings.py": {"openskill"}}
"""The few libraries a module of the statistics may import (pure Python math, no web stack)."""


def stats_files() -> list[Path]:
    return sorted(STATS_DIR.rglob("*.py"))


def test_there_are_files_to_scan() -> None:
    assert {"__init__.py", "compute.py", "model.py"} <= {path.name for path in stats_files()}


@pytest.mark.parametrize("path", stats_files(), ids=lambda path: path.name)
def test_stats_import_only_the_standard_library_and_the_engine(path: Path) -> None:
    outside: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 1:  # inside scorekeeper.stats
                continue
            # level 2: scorekeeper.<room>
            names = [f"scorekeeper.{node.module}" if node.level == 2 else node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            if name.startswith("scorekeeper."):
                if name.split(".")[1] != "rules":
                    outside.append(name)
            elif top not in {*sys.stdlib_module_names, "__future__", *LIBRARIES.get(path.name, ())}:
                outside.append(name)
    assert outside == []


def test_importing_the_stats_does_not_import_the_web_stack() -> None:
    modules = sorted(
        f"scorekeeper.stats.{path.stem}" for path in stats_files() if path.stem != "__init__"
    )
    assert (
        loaded_after(
            "\n".join(["import scorekeeper.stats", *(f"import {module}" for module in modules)])
        )
        == []
    )


def test_scorekeeper_stats_does_not_import_the_web_stack() -> None:
    code = (
        "import contextlib, io\n"
        "from scorekeeper.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    assert main(['stats', {str(DATA / 'trix-solo-complete.json')!r}]) == 0\n"
        "assert json.loads(out.getvalue())['players']\n"
    )
    assert loaded_after(code) == []


def test_the_statistics_words_import_no_web_stack() -> None:
    assert loaded_after("import scorekeeper.words.stats_export, scorekeeper.words.wins_chart") == []


def test_ratings_load_openskill_only_when_asked() -> None:
    code = (
        "import contextlib, io\n"
        "import scorekeeper.stats, scorekeeper.stats.ratings\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['stats', {str(DATA / 'trix-solo-complete.json')!r}]) == 0\n"
        "assert 'openskill' not in sys.modules\n"
    )
    assert loaded_after(code) == []
