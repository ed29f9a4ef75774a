"""Issue 44, item 16: the game page printed (its print stylesheet) as a paper score sheet on one
A4 page, in Arabic right to left and in English: names, totals, every deal's scores, no control.
(Item 15, can still win? at 360 px, is in test_accessibility.py, beside its axe.)"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from .conftest import serving
from .driver import load_example, settle
from .test_table_polish import imported

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server (its imports count against no other module's allowance)."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


NARROW = {"width": 360, "height": 780}  # the page as a phone opened it before printing


def _pdf_pages(pdf: bytes) -> int:
    """How many pages a PDF has (its /Type /Page objects; /Pages is the tree, not a page)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("example", ["trix-partnership-complete", "turkish-king-complete"])
@pytest.mark.parametrize("locale", ["ar", "en"])
def test_a_complete_game_prints_as_one_a4_sheet(
    new_context,  # type: ignore[no-untyped-def]
    locale: str,
    example: str,
) -> None:
    page = new_context(locale=locale).new_page()
    page.set_viewport_size(NARROW)
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
