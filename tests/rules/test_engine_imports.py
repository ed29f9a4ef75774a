"""The import boundary (docs/architecture.md): the rules engine is standard library only, and
neither it nor `scorekeeper check` pulls in the web stack."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import scorekeeper.rules

RULES_DIR = Path(scorekeeper.rules.__file__).parent
EXAMPLE = Path(__file__).parent / "examples" / "trix-partnership-complete.json"
WEB_STACK = [
    "flask",
    "sqlalchemy",
    "wtforms",
    "flask_wtf",
    "flask_babel",
    "flask_sqlalchemy",
    "flask_migrate",
    "alembic",
    "jinja2",
    "werkzeug",
    "babel",
]


def loaded_after(code: str) -> list[str]:
    """The web-stack modules present in sys.modules after running `code` in a fresh Python."""
    probe = (
        "import json, sys\n"
        f"{code}\n"
        f"web = {WEB_STACK!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in web)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


def test_importing_the_engine_does_not_import_the_web_stack() -> None:
    assert loaded_after("import scorekeeper.rules") == []


def test_importing_every_engine_module_does_not_import_the_web_stack() -> None:
    modules = sorted(
        f"scorekeeper.rules.{path.stem}"
        for path in RULES_DIR.glob("*.py")
        if path.stem != "__init__"
    )
    assert loaded_after("\n".join(f"import {module}" for module in modules)) == []


def test_scorekeeper_check_does_not_import_the_web_stack() -> None:
    code = (
        "import contextlib, io\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['check', {str(EXAMPLE)!r}]) == 0\n"
    )
    assert loaded_after(code) == []


def engine_files() -> list[Path]:
    return sorted(RULES_DIR.rglob("*.py"))


def test_the_engine_has_files_to_scan() -> None:
    names = {path.name for path in engine_files()}
    assert {"__init__.py", "record.py", "replay.py", "contracts.py"} <= names


@pytest.mark.parametrize("path", engine_files(), ids=lambda path: path.name)
def test_engine_imports_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    depth = len(path.relative_to(RULES_DIR).parts)  # 1 for a module directly in rules/
    outside: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            top_names = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                # relative: fine while it stays inside scorekeeper.rules
                if node.level > depth:
                    outside.append("." * node.level + (node.module or ""))
                continue
            top_names = [(node.module or "").split(".")[0]]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and getattr(node.func, "id", getattr(node.func, "attr", ""))
            in ("__import__", "import_module")
        ):
            outside.append(ast.unparse(node))
            continue
        else:
            continue
        outside.extend(
            name
            for name in top_names
            if name not in sys.stdlib_module_names and name != "__future__"
        )
    assert outside == [], f"{path.name} imports from outside the standard library"
