"""What `scripts/test` installs from Debian's packages (scripts/test-packages.sh), run on a
pretend machine: which packages it has, which apt can install. Without the headless shell,
where it cannot be had, the suite goes on in the whole Chromium (issue 44, item 14: it stopped),
and tests/conftest.py then draws the pages in /usr/bin/chromium; README names every package."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import HEADLESS_SHELL, WHOLE_CHROMIUM, pages_chromium

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ROOT / "scripts" / "test-packages.sh"

PRETEND = """
set -euo pipefail
. scripts/test-packages.sh
has() { case " $HAVE " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
as_root() { [ "$ROOT_OK" = 1 ] && "$@"; }
apt-get() {
  echo "$*" >> "$LOG"
  case $1 in update) return 0 ;; esac
  for package in $UNKNOWN; do
    case " $* " in *" $package "*) return 100 ;; esac
  done
}
install_test_packages "$WANT_POSTGRES"
"""


def pretend(
    tmp_path: Path, have: str, *, unknown: str = "", root: bool = True, postgres: bool = False
) -> tuple[int, str, list[str]]:
    """install_test_packages on a machine that `have`s these packages, where apt knows none of
    `unknown` (and cannot run at all without `root`): its status, what it said, what apt was
    asked to install."""
    log = tmp_path / "apt.log"
    log.touch()
    done = subprocess.run(
        ["bash", "-c", PRETEND],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "HAVE": have,
            "UNKNOWN": unknown,
            "ROOT_OK": "1" if root else "0",
            "WANT_POSTGRES": "1" if postgres else "0",
            "LOG": str(log),
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    asked = [line for line in log.read_text().splitlines() if line.startswith("install")]
    return done.returncode, done.stderr, asked


ALL = "chromium chromium-headless-shell fonts-lohit-deva postgresql"


def test_a_machine_with_everything_installs_nothing(tmp_path: Path) -> None:
    assert pretend(tmp_path, ALL, postgres=True) == (0, "", [])


def test_chromium_without_a_headless_shell_to_be_had_goes_on_in_the_whole_browser(
    tmp_path: Path,
) -> None:
    status, said, asked = pretend(
        tmp_path, "chromium fonts-lohit-deva", unknown="chromium-headless-shell"
    )
    assert status == 0, said
    assert asked == ["install -y -qq chromium-headless-shell"]
    assert "the pages' tests draw in the whole Chromium (/usr/bin/chromium)" in said


def test_the_headless_shell_is_installed_when_it_can_be(tmp_path: Path) -> None:
    status, said, asked = pretend(tmp_path, "chromium fonts-lohit-deva")
    assert (status, asked) == (0, ["install -y -qq chromium-headless-shell"])
    assert "whole Chromium" not in said


def test_what_is_needed_is_still_installed_when_the_shell_cannot_be(tmp_path: Path) -> None:
    status, said, asked = pretend(tmp_path, "", unknown="chromium-headless-shell", postgres=True)
    assert status == 0, said
    assert asked == [
        "install -y -qq chromium fonts-lohit-deva postgresql chromium-headless-shell",
        "install -y -qq chromium fonts-lohit-deva postgresql",
    ]
    assert "whole Chromium" in said


@pytest.mark.parametrize("root", [True, False])
def test_what_is_needed_and_cannot_be_installed_stops_it_naming_the_packages(
    tmp_path: Path, root: bool
) -> None:
    status, said, _ = pretend(
        tmp_path,
        "chromium-headless-shell",
        unknown="" if not root else "fonts-lohit-deva",
        root=root,
    )
    assert status == 1
    assert "run 'sudo apt-get install chromium fonts-lohit-deva' and try again" in said


def test_the_pages_are_drawn_in_the_whole_browser_only_without_the_shell() -> None:
    def machine(*paths: str) -> Callable[[str], bool]:
        return lambda path: path in paths

    both = machine(HEADLESS_SHELL[0], WHOLE_CHROMIUM[0])
    assert pages_chromium(both) == HEADLESS_SHELL
    assert pages_chromium(machine(WHOLE_CHROMIUM[0])) == WHOLE_CHROMIUM
    assert pages_chromium(machine()) == HEADLESS_SHELL


def test_the_readme_names_every_package_scripts_test_may_install() -> None:
    packages = re.findall(r"^    ([a-z][a-z-]+)\) ", PACKAGES.read_text(), re.MULTILINE)
    assert sorted(packages) == sorted(ALL.split())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [package for package in packages if f"`{package}`" not in readme] == []
