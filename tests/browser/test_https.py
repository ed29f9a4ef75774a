"""HTTPS makes the phone whole (issue 45, item 3): on an origin that is secure because it is
served over HTTPS (a name that is not localhost, which Chromium would trust anyway), the service
worker controls the game page, and a phone keeps scoring and reloads with no network.

Two ways to HTTPS, each in Debian's whole Chromium, which trusts the certificate's key (its
--ignore-certificate-errors-spki-list, a certificate error ignored for those keys alone, as
a phone trusts a CA installed on it; Playwright's ignore_https_errors would not do: a service
worker refuses to register on a page with a certificate error):

- Caddy with its internal CA (`tls internal`) in front of `scorekeeper serve` with
  SCOREKEEPER_HTTPS=1, as docs/operations.md's recipe runs it: five deals saved with no
  network, a reload that shows them, then each stored once when the network is back;
- `scorekeeper serve --certificate FILE --key FILE` with a self-signed certificate, no proxy.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.caddy import caddy_or_skip, running
from tests.certificates import self_signed, spki_hash
from tests.conftest import CHROMIUM_ARGS, WHOLE_CHROMIUM

from .conftest import serving
from .driver import Player
from .offline_phone import (
    DEALS,
    ENGINE_READY,
    TRIX,
    enter_here,
    game_address,
    phone_context,
    stored_deals,
    totals_of,
    totals_shown,
    wait_ready,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BEHIND_CADDY = "scorekeeper.test"
OWN_CERTIFICATE = "scorekeeper.home.test"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def chromium(playwright) -> Iterator[object]:  # type: ignore[no-untyped-def]
    """chromium(name, *certificates): Debian's whole Chromium resolving `name` to 127.0.0.1 and
    trusting the keys of `certificates` (a CA's, or a self-signed server's)."""
    launched: list[Browser] = []

    def launch(name: str, *certificates: Path) -> Browser:
        trusted = ",".join(spki_hash(certificate) for certificate in certificates)
        browser: Browser = playwright.chromium.launch(
            executable_path=WHOLE_CHROMIUM[0],
            headless=True,
            args=[
                *CHROMIUM_ARGS,
                f"--host-resolver-rules=MAP {name} 127.0.0.1",
                f"--ignore-certificate-errors-spki-list={trusted}",
            ],
        )
        launched.append(browser)
        return browser

    yield launch
    for browser in launched:
        browser.close()


def _instance(tmp_path: Path) -> Path:
    folder = tmp_path / "instance"
    folder.mkdir()
    return folder


def _controlled(page: Page) -> None:
    """The page is a secure context over HTTPS and its service worker controls it."""
    assert page.url.startswith("https://") and "localhost" not in page.url, page.url
    assert page.evaluate("() => window.isSecureContext") is True
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_through_caddy_five_deals_offline_a_reload_then_each_stored_once(
    chromium,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    caddy_or_skip()
    with serving(_instance(tmp_path), SCOREKEEPER_HTTPS="1") as app:
        site = f"{BEHIND_CADDY} {{\n\ttls internal\n\treverse_proxy {urlsplit(app).netloc}\n}}\n"
        with running(
            tmp_path / "caddy",
            site,
            name=BEHIND_CADDY,
            https_port=_free_port(),
            http_port=_free_port(),
        ) as proxy:
            browser = chromium(BEHIND_CADDY, proxy.root, proxy.intermediate)
            context = phone_context(browser, f"https://{BEHIND_CADDY}:{proxy.https_port}")
            player = Player(context.new_page(), javascript=True, shots=None, prefix="https")
            page = player.page
            player.start_game(TRIX)
            game = game_address(page)
            wait_ready(page)
            _controlled(page)

            context.set_offline(True)
            for count, raw in enumerate(DEALS[:5], start=1):
                enter_here(player, raw)
                waiting = "1 deal on this phone is" if count == 1 else f"{count} deals on this"
                expect(page.locator("#kept")).to_contain_text(waiting)
            shown = totals_shown(page)
            assert shown == totals_of(DEALS[:5])

            page.reload()  # with no network: the service worker's copy, painted by the engine
            expect(page.locator("#kept")).to_contain_text(
                "5 deals on this phone are waiting", timeout=ENGINE_READY
            )
            expect(page.locator("#history-rows th[scope=row]")).to_have_count(5)
            assert totals_shown(page) == shown

            context.set_offline(False)
            expect(page.locator("#kept")).to_be_hidden(timeout=60_000)
            # each once, in order, through Caddy (asked of the app itself: Playwright's own
            # requests do not use Chromium's resolver)
            assert stored_deals(page, app + urlsplit(game).path) == DEALS[:5]
            context.close()


def test_serve_with_its_own_certificate_the_service_worker_controls_the_page(
    chromium,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    certificate, key = self_signed(tmp_path / "tls", OWN_CERTIFICATE, "127.0.0.1")
    with serving(_instance(tmp_path), tls=(certificate, key)) as base:
        browser = chromium(OWN_CERTIFICATE, certificate)
        context = phone_context(browser, f"https://{OWN_CERTIFICATE}:{urlsplit(base).port}")
        player = Player(context.new_page(), javascript=True, shots=None, prefix="https-own")
        page = player.page
        answer = page.goto("/")
        assert answer is not None
        assert answer.headers.get("strict-transport-security") == "max-age=31536000"
        player.start_game(TRIX)
        wait_ready(page)
        _controlled(page)
        context.close()
