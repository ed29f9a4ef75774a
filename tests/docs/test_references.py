"""Nothing in the project refers to a file it lacks.

- Every relative link and image in the project's Markdown (README.md, docs/, bench/README.md,
  the glossary) resolves to a file or folder of the repository, and a link's `#anchor` to a
  heading of the page it names (GitHub's way of making a heading's anchor).
- Every path the Markdown quotes as code (`` `scorekeeper/store/limits.py` ``,
  `` `bench/tables.py` ``, `` `store/versions.py` ``) exists.
- Every Markdown file the code, templates, scripts and tests name (a rules page, a format page,
  `docs/…`) exists in the repository: a reader sent to a page finds it here.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"


NOT_OURS = {".git", "instance", "test-artifacts", "mutants", "build", "dist", ".venv", "venv"}
"""Folders of a checkout that are not the project's files (outside git: .gitignore's)."""


def repository_files() -> list[Path]:
    """The repository's files (tracked or new, not ignored), as git lists them; outside a git
    checkout, the files under the root but for the ignored folders."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout.decode("utf-8")
    except (OSError, subprocess.CalledProcessError):
        return [
            path
            for path in ROOT.rglob("*")
            if path.is_file()
            and not NOT_OURS & set(parts := path.relative_to(ROOT).parts)
            and not any(
                part.endswith(("cache", "cache__", ".egg-info")) or part == ".hypothesis"
                for part in parts
            )
        ]
    return [ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()]


FILES = repository_files()
NAMES = {path.name for path in FILES}
MARKDOWN = sorted(path for path in FILES if path.suffix == ".md")
SOURCES = sorted(
    path
    for path in FILES
    if (
        path.suffix in {".py", ".html", ".js", ".css", ".toml", ".cfg", ".sh"}
        or path.parent.name in {"scripts", ".ci"}
    )
    and "vendor" not in path.parts
    and path != Path(__file__).resolve()
)

FENCE = re.compile(r"^```.*?^```$", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:src|href)=\"([^\"]+)\"")
CODE = re.compile(r"`([^`\s]+)`")
ROOMS = ("scorekeeper", "tests", "bench", "docs", "static", "templates", "scripts", "typings")
MODULE_ROOMS = ("cli", "rules", "serving", "stats", "store", "web", "words", "translations")
MARKDOWN_MENTION = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b")
DOCS_MENTION = re.compile(r"(?<![\w/.-])(docs/[\w/.-]*[\w/])")


def text_outside_code_blocks(path: Path) -> str:
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: its text without markup, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").replace("*", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    for line in text_outside_code_blocks(path).splitlines():
        heading = re.match(r"#{1,6} (.*)", line)
        if heading:
            base = anchor(heading[1])
            name, count = base, 1
            while name in found:
                name, count = f"{base}-{count}", count + 1
            found.add(name)
    return found


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def broken_links(page: Path) -> list[str]:
    broken = []
    for match in LINK.finditer(text_outside_code_blocks(page)):
        target = match[1] or match[2]
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
            continue  # another site
        file_part, _, fragment = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.exists() or ROOT not in (linked, *linked.parents):
            broken.append(f"{rel(page)}: {target} (no such file)")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{rel(page)}: {target} (no such heading)")
    return broken


def quoted_path_exists(quoted: str) -> bool | None:
    """Whether a path quoted as code exists (None: not a path of the repository)."""
    path = quoted.rstrip(".,:;").split(":")[0]
    if any(mark in path for mark in "<>*…{}$") or "/" not in path:
        return None
    first = path.split("/")[0]
    if first in ROOMS:
        return (ROOT / path).exists()
    if first in MODULE_ROOMS and Path(path).suffix in {".py", ".md", ""}:
        return (PACKAGE / path).exists()
    return None


def missing_quoted_paths(page: Path) -> list[str]:
    return [
        f"{rel(page)}: `{quoted}`"
        for quoted in CODE.findall(text_outside_code_blocks(page))
        if quoted_path_exists(quoted) is False
    ]


def missing_mentions(source: Path) -> list[str]:
    """Markdown files and docs/ paths `source` names that the repository lacks."""
    # a page's code blocks show commands (their file names are the reader's own)
    text = (
        text_outside_code_blocks(source)
        if source.suffix == ".md"
        else source.read_text(encoding="utf-8")
    )
    missing = []
    for name in MARKDOWN_MENTION.findall(text):
        if "/" in name:
            found = any((base / name).exists() for base in (ROOT, PACKAGE, source.parent))
        else:
            found = name in NAMES
        if not found:
            missing.append(f"{rel(source)}: {name}")
    missing += [
        f"{rel(source)}: {name}"
        for name in DOCS_MENTION.findall(text)
        if not (ROOT / name.rstrip(".")).exists()
    ]
    return missing


def test_the_project_has_its_pages() -> None:
    assert ROOT / "README.md" in MARKDOWN
    assert len([page for page in MARKDOWN if page.parent == ROOT / "docs"]) >= 5
    assert len(SOURCES) > 100


@pytest.mark.parametrize("page", MARKDOWN, ids=rel)
def test_every_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize("page", MARKDOWN, ids=rel)
def test_every_quoted_path_exists(page: Path) -> None:
    assert missing_quoted_paths(page) == []


def test_every_page_named_exists() -> None:
    missing = [name for path in [*SOURCES, *MARKDOWN] for name in missing_mentions(path)]
    assert missing == []
