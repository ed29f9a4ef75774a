"""The statistics page at 360 px when rivals tie and a table plays Trix and King (issue 44,
items 3 to 5): everyone tied for the most is named with the games ahead, behind and level; all
games together show no points; the night note says what a partnership game gives; axe finds
nothing, in English and in Arabic (right to left)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import serving
from .driver import Player, load_example, settle
from .test_accessibility import AXE, findings
from .test_tables import create_table, import_into

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 780}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server (its imports count against no other module's allowance)."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


def tied_records() -> list[dict[str, Any]]:
    """Three Turkish King games of the same four (Rami 620 each time, Dana 150, Omar −180, Lina
    −590) and a partnership Trix game."""
    king = {**load_example("turkish-king-complete"), "players": ["Rami", "Omar", "Dana", "Lina"]}
    games = [{**king, "created_at": f"2026-03-0{day}T20:00:00+00:00"} for day in (1, 2, 3)]
    for game in games:
        game.pop("updated_at", None)
    trix = {**load_example("trix-partnership-complete"), "created_at": "2026-03-03T22:00:00Z"}
    trix.pop("updated_at", None)
    return [*games, trix]


WORDS = {
    "en": {
        "both": "Dana, Lina, Omar",
        "figures": "3 ahead · 0 behind · 0 level",
        "points": "Points",
        "partnership": "each winner gets 2½, each loser ½",
        "all": "All games",
    },
    "ar": {
        "both": "Dana، Lina، Omar",
        "figures": "تقدّم 3 · تأخّر 0 · تعادل 0",
        "points": "النقاط",
        "partnership": "لكلّ فائز 2½، ولكلّ خاسر ½",
        "all": "كل الألعاب",
    },
}


@pytest.mark.parametrize("locale", sorted(WORDS))
def test_ties_and_points_apart_at_360_px(
    new_context, screenshots, tmp_path: Path, locale: str
) -> None:  # type: ignore[no-untyped-def]
    words = WORDS[locale]
    context = new_context(locale=locale)
    context.add_init_script(path=AXE)
    page = context.new_page()
    page.set_viewport_size(SMALL_PHONE)
    player = Player(page, javascript=True, shots=screenshots, prefix=f"{locale}-stats-ties")
    table = create_table(player, "Majlis")
    import_into(player, table, tied_records(), tmp_path)
    page.goto(table + "/stats")
    settle(page)
    player.check("statistics with ties")
    player.shot("stats-ties")
    # Rami: ahead of the three others in all three games (all named, by name): no one he
    # finishes behind
    rivals = page.locator("#rivals-solo tbody tr")
    rami = rivals.filter(has=page.locator("th", has_text="Rami")).locator("td")
    expect(rami.nth(0)).to_have_text(f"{words['both']} {words['figures']}")
    expect(rami.nth(1)).to_have_text("–")
    # Trix and King: all games together have no points column, and say why
    together = page.locator(
        "table.stats-table", has=page.locator(f"caption:text-is('{words['all']}')")
    )
    expect(together.locator("thead th")).to_have_count(5)
    expect(together.locator("thead")).not_to_contain_text(words["points"])
    expect(page.locator("#nights")).to_contain_text(words["partnership"])
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    assert not findings(page, f"statistics with ties ({locale})")
