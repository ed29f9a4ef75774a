"""Words at 360 px (issue 44, items 7 and 8): a doubled card's «(×2 name)» in the history stays
one unit on a narrow phone, in Arabic above all (it broke after «(×2», leaving the name and its
closing bracket alone on the next line); the Arabic contract choice marks seed 001's names as
another text's, as the rules page does, and fits the phone with them (axe finds nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from . import test_accessibility
from .conftest import serving
from .driver import check_layout, load_example, settle
from .test_table_polish import imported, part

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server (its imports count against no other module's allowance)."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


NARROW = {"width": 360, "height": 780}
PLAYERS = {
    "ar": ["سامي", "ليلى عبد الكريم", "أبو سامي الحلبي", "مريم"],
    "en": ["Sami", "Layla Abdelkarim", "Abu Sami Halabi", "Maryam"],
    "ru": ["Сами", "Лейла Абделькарим", "Абу Сами Халаби", "Марьям"],
    "hi": ["समीर", "लैला अब्दुल करीम", "अबू समी हलबी", "मरियम"],
}
DOUBLED = [
    {
        "contract": "queens",
        "takers": {"S": 0, "H": 1, "D": 2, "C": 3},
        "doubled_by": {"S": 1, "H": 2, "D": 3, "C": 2},
    },
    {"contract": "king-of-hearts", "taker": 3, "doubled_by": 2},
]
"""Every card doubled, by players of names of several words."""
checker = test_accessibility.checker
"""A page with axe in it (the accessibility tests' fixture)."""

BRACKETS_JS = """
(worst) => {
  // each «(…)» in the history's takes: the distinct lines its characters are drawn on
  const found = [];
  for (const takes of document.querySelectorAll('#history-rows .takes')) {
    if (worst) {
      // every place a line may break, broken: the narrowest a phone could make it (but for
      // the cell's last resort, a break inside a word too long for a whole line)
      takes.style.display = 'inline-block';
      takes.style.width = 'min-content';
      takes.style.overflowWrap = 'normal';
    }
    const walker = document.createTreeWalker(takes, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/\\([^()]*\\)/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()]
          .filter((box) => box.width > 0).map((box) => Math.round(box.top + box.height / 2)));
        found.push({text: match[0], lines: lines.size});
      }
    }
  }
  return found;
}
"""


def _history_with_doubles(page: Page, language: str) -> None:
    record = part(load_example("trix-partnership-complete"), 0, players=PLAYERS[language])
    imported(page, {**record, "mode": "solo", "first": 0, "deals": DOUBLED})
    settle(page)


@pytest.mark.parametrize("language", ["ar", "en", "ru", "hi"])
def test_a_doubled_cards_bracket_stays_on_one_line_at_360(new_context: Any, language: str) -> None:
    page = new_context(locale=language).new_page()
    page.set_viewport_size(NARROW)
    _history_with_doubles(page, language)
    check_layout(page, f"{language} history at 360")
    for worst in (False, True):
        brackets = page.evaluate(BRACKETS_JS, worst)
        assert len(brackets) == 5, brackets  # four doubled queens and the K♥
        split = [bracket for bracket in brackets if bracket["lines"] != 1]
        assert split == [], f"{language} (narrowest: {worst}): {split}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_arabic_contract_choice_names_seed_001s_words_as_another_texts_at_360(
    checker: Any, scheme: str
) -> None:
    page = checker("ar", scheme)
    page.set_viewport_size(NARROW)
    record = part(load_example("trix-partnership-complete"), 0, players=PLAYERS["ar"])
    imported(page, {**record, "mode": "solo", "first": 0})
    settle(page)
    king = page.locator("#play a.contract[href*='contract=king-of-hearts']").inner_text()
    assert "في نصّ آخر للقواعد: «لطّش»" in king and "«شايب الكبّة»" in king, king
    ltoosh = page.locator("#play a.contract[href*='contract=ltoosh']").inner_text()
    assert "لطّش" not in ltoosh, ltoosh
    check_layout(page, f"ar contract choice at 360 ({scheme})")
    found = test_accessibility.findings(page, "contract choice")
    page.goto("/rules/trix")
    settle(page)
    check_layout(page, f"ar rules at 360 ({scheme})")
    found.update(test_accessibility.findings(page, "rules"))
    assert not found, found
