"""A table of more games than a page, at 360 × 740: its page lists the latest 20, "More games"
brings the rest under them in place (htmx), and with no JavaScript the same link is a page of
the older games; axe finds nothing on the page with its older games brought in, nor on the
older games' own page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import block_engine
from .driver import Player, check_layout, load_example
from .test_accessibility import AXE, axe
from .test_tables import create_table, import_into

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
GAMES = 23
NAMES = ("Rami", "Lina", "Omar", "Dana", "Sami", "Maya")


def _records() -> list[dict[str, Any]]:
    made = []
    for number in range(GAMES):
        record = load_example("trix-partnership-complete")
        record["players"] = [NAMES[(number + seat) % len(NAMES)] for seat in range(4)]
        record["created_at"] = f"2026-02-{1 + number:02d}T20:00:00Z"
        made.append(record)
    return made


def _context(browser: Any, server: str, javascript: bool) -> Any:
    context = browser.new_context(
        viewport=NARROW,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        java_script_enabled=javascript,
        base_url=server,
        bypass_csp=True,
    )
    block_engine(context)
    if javascript:
        context.add_init_script(path=AXE)
    context.set_default_timeout(20_000)
    return context


@pytest.fixture(scope="module")
def table(browser, server, tmp_path_factory) -> Iterator[str]:  # type: ignore[no-untyped-def]
    """A table of GAMES finished games: its link."""
    context = _context(browser, server, javascript=True)
    try:
        player = Player(context.new_page(), javascript=True, shots=None, prefix="big")
        link = create_table(player, "Majlis")
        import_into(player, link, _records(), Path(tmp_path_factory.mktemp("big")))
        yield link
    finally:
        context.close()


def _listed(page: Page) -> Any:
    return page.locator(".game-list li")


def test_more_games_brings_the_older_ones_in_place(browser, server, table: str) -> None:  # type: ignore[no-untyped-def]
    context = _context(browser, server, javascript=True)
    try:
        page = context.new_page()
        page.goto(table)
        expect(_listed(page)).to_have_count(20)
        page.get_by_role("link", name="More games").click()
        expect(_listed(page)).to_have_count(GAMES)
        expect(page.get_by_role("link", name="More games")).to_have_count(0)
        assert page.url.rstrip("/").endswith(table.rsplit("/", 1)[1])  # no new page
        check_layout(page, "the table with its older games")
        assert axe(page) == []
        page.goto(table + "?page=2")
        expect(_listed(page)).to_have_count(GAMES - 20)
        check_layout(page, "the older games' page")
        assert axe(page) == []
    finally:
        context.close()


def test_with_no_javascript_more_games_is_a_page(browser, server, table: str) -> None:  # type: ignore[no-untyped-def]
    context = _context(browser, server, javascript=False)
    try:
        page = context.new_page()
        page.goto(table)
        expect(_listed(page)).to_have_count(20)
        page.get_by_role("link", name="More games").click()
        page.wait_for_url("**?page=2")
        expect(page.get_by_role("heading", name="Earlier games")).to_be_visible()
        expect(_listed(page)).to_have_count(GAMES - 20)
        page.get_by_role("link", name="Latest games").click()
        expect(_listed(page)).to_have_count(20)
    finally:
        context.close()
