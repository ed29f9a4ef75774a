"""Issue 44, items 15 and 16 on the page. Can still win? under the totals at 360 px (its lines
whole, nothing to scroll sideways, axe 0); and the game page printed (its print stylesheet) as a
paper score sheet on one A4 page, in Arabic right to left and in English: names, totals, every
deal's scores, no control."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import block_engine
from .driver import check_layout, load_example, settle
from .test_accessibility import AXE, findings
from .test_table_polish import SIGN_FIRST_JS, imported, part

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 780}


def _page(browser: Any, server: str, locale: str, *, axe: bool = False) -> Page:
    context = browser.new_context(
        viewport=NARROW,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale=locale,
        base_url=server,
        bypass_csp=axe,
        extra_http_headers={"Accept-Language": locale},
    )
    block_engine(context)
    if axe:
        context.add_init_script(path=AXE)
    context.set_default_timeout(20_000)
    return context.new_page()


@pytest.mark.parametrize("locale", ["ar", "en", "ru", "hi"])
def test_can_still_win_reads_whole_at_360_px(browser, server, locale: str) -> None:  # type: ignore[no-untyped-def]
    """A partnership decided a deal before its end, and a King game with a player out of reach:
    the outlook's lines under the totals, whole at 360 px, and axe finds nothing."""
    page = _page(browser, server, locale, axe=True)
    found: dict[str, Any] = {}
    signs: list[dict[str, Any]] = []  # every "−195" of the lines: its minus before its digits
    for example, deals, lines in (
        ("trix-partnership-complete", 19, 2),
        ("turkish-king-complete", 19, 2),
    ):
        imported(page, part(load_example(example), deals))
        settle(page)
        outlook = page.locator("#outlook")
        assert outlook.is_visible()
        assert outlook.locator("p").count() == lines
        box = outlook.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
        check_layout(page, f"outlook {example} {locale}")
        signs += page.evaluate(SIGN_FIRST_JS, "#outlook")
        found.update(findings(page, f"{example} {locale}"))
    assert not found, found
    assert signs and all(sign["first"] for sign in signs), signs
    page.context.close()


def _pdf_pages(pdf: bytes) -> int:
    """How many pages a PDF has (its /Type /Page objects; /Pages is the tree, not a page)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("example", ["trix-partnership-complete", "turkish-king-complete"])
@pytest.mark.parametrize("locale", ["ar", "en"])
def test_a_complete_game_prints_as_one_a4_sheet(browser, server, locale: str, example: str) -> None:  # type: ignore[no-untyped-def]
    page = _page(browser, server, locale)
    record = load_example(example)
    imported(page, record)
    settle(page)
    page.emulate_media(media="print")
    # the sheet: the names, the totals and every deal's row; no control of the page
    assert page.locator("html").get_attribute("dir") == ("rtl" if locale == "ar" else "ltr")
    assert page.locator("#scoreboard").is_visible()
    for name in record["players"]:
        assert page.locator("#scoreboard").get_by_text(name, exact=False).first.is_visible()
    assert page.locator("#history-rows > tr").count() == 2 * len(record["deals"])
    assert page.locator("#history-rows > tr").last.is_visible()
    for control in ("header.top", ".rematch", ".share", ".game-admin", "#chart", "a.edit"):
        assert not page.locator(control).first.is_visible(), control
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert _pdf_pages(pdf) == 1, f"{example} in {locale}: {_pdf_pages(pdf)} pages"
    page.context.close()
