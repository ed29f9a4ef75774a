"""The access code in Chromium: a wrong code says so, too many say to wait (with JavaScript on,
where the page is boosted by htmx too), and the right code gets in a few seconds later."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, ROOT, _free_port, _stop, block_engine
from .driver import check_layout

pytestmark = pytest.mark.browser

CODE = "7301 4482 9921 0573"  # strong: the server refuses a weak one


@pytest.fixture(scope="module")
def private_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`scorekeeper serve` with an access code, on a fresh database; its base URL."""
    instance = tmp_path_factory.mktemp("private-instance")
    port = _free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "SECRET_KEY", "SCOREKEEPER_HTTPS")
    }
    env.update(
        SCOREKEEPER_INSTANCE=str(instance),
        SCOREKEEPER_ACCESS_CODE=CODE,
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])),
    )
    log = (instance / "server.log").open("w")
    process = subprocess.Popen(
        [
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
        ],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    try:
        while True:
            try:
                with urllib.request.urlopen(base + "/access", timeout=2):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        "scorekeeper serve did not answer:\n"
                        + (instance / "server.log").read_text()[-3000:]
                    )
                time.sleep(0.2)
        yield base
    finally:
        _stop(process)
        log.close()


def _enter(page, code: str) -> None:  # type: ignore[no-untyped-def]
    page.fill("input[name=code]", code)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def test_too_many_wrong_codes_say_to_wait_then_the_right_one_gets_in(
    browser, private_server: str, screenshots: Path
) -> None:  # type: ignore[no-untyped-def]
    from scorekeeper.store.limits import WRONG_CODES

    for locale, wrong, wait in (
        ("en", "That is not the code", "Too many wrong codes were tried lately"),
        ("ar", "هذا ليس الرمز", "جُرّبت رموز خاطئة كثيرة مؤخرًا"),
    ):
        context = browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            locale=locale,
            base_url=private_server,
            extra_http_headers={"Accept-Language": locale},
        )
        block_engine(context)  # no engine booting in the phone: the pages as the server paints them
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.goto("/")
        assert "/access" in page.url
        if locale == "en":  # the address's allowance, then its slot
            for guess in range(WRONG_CODES.per_address + 1):
                _enter(page, f"guess {guess}")
                expect(page.locator("p.error")).to_contain_text(wrong)
        _enter(page, "one guess too many")  # the slot is taken: not even checked
        expect(page.locator("p.error")).to_contain_text(wait)
        check_layout(page, f"access code refused in {locale}")
        page.screenshot(path=str(screenshots / f"access-wait-{locale}.png"), full_page=True)
        page.wait_for_timeout(WRONG_CODES.address_interval * 1000 + 500)
        page.goto("/access")
        _enter(page, CODE)
        expect(page.locator("a[href='/new']").first).to_be_visible()  # the home page
        assert "/access" not in page.url
        context.close()
