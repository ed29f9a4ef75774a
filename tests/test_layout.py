"""The package's architecture, as docs/architecture.md draws it: rooms that import one way.

- ``rules`` (the engine) imports nothing of the app; ``stats`` imports ``rules`` only;
  ``store`` imports ``rules``; ``words`` imports ``rules`` and ``stats``; ``phone`` (what the
  phone's worker runs) imports those and nothing imports it; ``web`` imports them;
  ``serving`` (the server, its gateway, the live poll's shortcut, static files) stands
  around ``web``; nothing imports ``web`` but :func:`scorekeeper.create_app` and ``serving``;
- no import circle, counting imports made inside functions too;
- small modules, and few of them at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).resolve().parent
# The limit was 400 lines of the old hand-packed style; ruff format writes a long call one
# argument a line (the package grew 13 %, its largest modules 20-30 %), so the same size of
# module is about 500 formatted lines.
MAX_LINES = 500
MAX_TOP_LEVEL = 10  # nine rooms (serving: issue 31; phone: issue 43) and create_app


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {
    module_name(path): path for path in PACKAGE.rglob("*.py") if "migrations" not in path.parts
}


def imports_of(name: str) -> set[str]:
    """The app's modules `name` imports, at any depth of its code (lazy imports too)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join(base + ([node.module] if node.module else []))
            else:
                origin = node.module or ""
            # `from . import x` names a module when there is one
            targets = [
                f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in MODULES else origin
                for alias in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in MODULES and target != name)
    return found


GRAPH = {name: imports_of(name) for name in MODULES}


def room(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "scorekeeper"


def test_no_import_circle() -> None:
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            pytest.fail("import circle: " + " -> ".join([*path[path.index(name) :], name]))
        if name in done:
            return
        for target in sorted(GRAPH[name]):
            visit(target, [*path, name])
        done.add(name)

    for name in sorted(GRAPH):
        visit(name, [])


ALLOWED = {
    "rules": {"rules"},
    "store": {"rules", "store", "settings"},  # who a player is: the engine's, not stats'
    "stats": {"rules", "stats"},
    "words": {"rules", "stats", "words"},
    "phone": {"rules", "stats", "words", "phone"},
    "web": {"rules", "stats", "store", "words", "web"},
    # around the web app: the server, the gateway, the live poll's shortcut, static files
    "serving": {"rules", "store", "words", "web", "settings", "serving"},
    "settings": set(),
    "cli": {"rules", "stats", "store", "settings", "scorekeeper", "serving", "cli"},
    "scorekeeper": {"settings", "store", "serving", "web"},
}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_each_room_imports_only_the_rooms_below_it(name: str) -> None:
    rooms = {room(target) for target in GRAPH[name]}
    assert rooms <= ALLOWED[room(name)], (name, rooms - ALLOWED[room(name)])


def test_nothing_but_create_app_and_what_serves_it_imports_the_web() -> None:
    outside = sorted(
        room(name)
        for name, targets in GRAPH.items()
        if room(name) != "web" and any(room(t) == "web" for t in targets)
    )
    assert set(outside) == {"scorekeeper", "serving"}


def test_nothing_imports_the_phone() -> None:
    """The server names the phone's modules for the bundle; it runs none of them."""
    assert not [
        n for n, targets in GRAPH.items() if room(n) != "phone" and "phone" in map(room, targets)
    ]


def test_the_server_and_its_gateway_load_no_web_stack() -> None:
    """`scorekeeper serve` starts granian before any worker builds the app."""
    for name in ("scorekeeper.serving.server", "scorekeeper.serving.gateway"):
        assert {room(t) for t in GRAPH[name]} <= {"serving", "settings"}, name


@pytest.mark.parametrize("name", sorted(MODULES))
def test_modules_stay_small(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, (name, lines)


def test_few_rooms_at_the_top() -> None:
    top = [
        path.name
        for path in PACKAGE.iterdir()
        if (path.suffix == ".py") or (path / "__init__.py").exists()
    ]
    assert len(top) <= MAX_TOP_LEVEL, sorted(top)
