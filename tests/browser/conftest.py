"""The real app under `scorekeeper serve`, and Debian's Chromium driven by Playwright.

One server per session on a free port with a fresh instance folder (its own SQLite database);
the `browser` fixture (tests/conftest.py: one Chromium for the whole run); each test opens its
own context (viewport, language, JavaScript).
Screenshots go to test-artifacts/screenshots (git-ignored); the folder is printed at the end.
"""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.serving.assets import minified_js

PHONE = {"width": 390, "height": 844}
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.iterdir()):
        terminalreporter.write_line(f"browser screenshots: {SCREENSHOTS}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`scorekeeper serve` on a free port with a fresh database; its base URL."""
    with serving(tmp_path_factory.mktemp("browser-instance")) as base:
        yield base


@contextmanager
def serving(instance: Path, tls: tuple[Path, Path] | None = None, **environ: str) -> Iterator[str]:
    """`scorekeeper serve` on a free port with the database of `instance`; its base URL (a
    test module that imports many games serves its own: imports are limited per address).
    `tls`: a certificate for 127.0.0.1 and its key (`serve --certificate --key`: an https://
    base URL); `environ`: more of its environment."""
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_ACCESS_CODE", "SCOREKEEPER_HTTPS")
    }
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    env.update(environ)
    # `scorekeeper serve` from this checkout: the console script would import whichever copy
    # was pip-installed last (another clone, say), so run the same CLI as a module from here.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    argv = [
        sys.executable,
        "-m",
        "scorekeeper.cli",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "2",
        *(("--certificate", str(tls[0]), "--key", str(tls[1])) if tls else ()),
    ]
    log = (instance / "server.log").open("w")
    process = subprocess.Popen(
        argv, env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    trusting = ssl.create_default_context(cafile=tls[0]) if tls else None
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/", timeout=2, context=trusting) as response:
                if response.status == 200:
                    break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            _stop(process)
            pytest.fail(
                "scorekeeper serve did not answer:\n"
                + (instance / "server.log").read_text()[-3000:]
            )
        time.sleep(0.2)
    try:
        with urllib.request.urlopen(
            base + "/static/js/app.js", timeout=5, context=trusting
        ) as response:
            served = response.read()
        if served != minified_js((ROOT / "static" / "js" / "app.js").read_bytes()):
            pytest.fail("the server does not serve this checkout's files")
        yield base
    finally:
        _stop(process)
        log.close()


def _stop(process: subprocess.Popen) -> None:  # type: ignore[type-arg]
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The folder screenshots are saved to; each run overwrites the files it takes."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


def block_engine(context) -> None:  # type: ignore[no-untyped-def]
    """No engine in the phone for this context (its config is never fetched): the tests of
    the pages take the server's path; tests/browser/test_engine.py takes the phone's."""
    context.route("**/engine/*.json*", lambda route: route.abort())


@pytest.fixture
def new_context(browser, server):  # type: ignore[no-untyped-def]
    """Open a phone-sized context: new_context(locale="ar", javascript=True)."""
    contexts = []

    def open_context(locale: str = "en", javascript: bool = True, engine: bool = False):  # type: ignore[no-untyped-def]
        context = browser.new_context(  # type: ignore[attr-defined]
            viewport=PHONE,
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            locale=locale,
            java_script_enabled=javascript,
            base_url=server,
            extra_http_headers={"Accept-Language": locale},
        )
        context.set_default_timeout(10_000)
        if not engine:  # taps ask the server, as on a phone whose engine is not ready yet
            block_engine(context)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()
