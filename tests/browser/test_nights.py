"""Two games in one evening, played by taps at 360 × 740, and the night they make shared: outside
a table ("Same four again", in Arabic, right to left) and at a table (its Rematch, then the
table's page: Tonight, Share the night, Start a new night)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .driver import GAME_PAGE, Player, load_example
from .test_round_two_b import NO_SHARE_SHEET, SHARE_SHEET
from .test_tables import create_table, pick

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 740}


def _second_game(player: Player, record: dict[str, Any], button: str) -> None:
    """The finished game's one-tap next game, who is first, then every deal by taps."""
    page = player.page
    finished = page.url
    page.locator(f"form.rematch button:has-text('{button}')").click()
    page.wait_for_url(lambda url: url != finished and GAME_PAGE.search(url) is not None)
    player.tap(f'.seat-buttons button[value="{record["first"]}"]')
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".next .contracts")).to_be_visible()
    player.play(record)


def test_same_four_again_makes_a_night_shared_right_to_left(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-complex-solo-complete")  # 8 deals: −105, −335, 280, 110
    context = new_context(locale="ar")
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    page.set_viewport_size(SMALL_PHONE)
    player = Player(page, javascript=True, shots=screenshots, prefix="ar-night")
    player.start_game(record)
    player.play(record)
    expect(page.locator("section.finished")).to_be_visible()
    expect(page.locator("section.night")).to_have_count(0)  # one game is no night yet
    _second_game(player, record, "الأربعة أنفسهم مرة أخرى")
    night = page.locator("section.night")
    expect(night).to_be_visible()  # loaded once the second game is over
    player.check("the night after two games")
    player.shot("night", element="section.night")
    # both games the same: 280 first (3 points a game), 110, −105, −335 last
    rows = [
        [cell.strip() for cell in row.locator("td, th").all_inner_texts()]
        for row in night.locator("tbody tr").all()
    ]
    players = record["players"]
    assert rows == [
        ["1", players[2], "6", "2", "2"],
        ["2", players[3], "4", "0", "2"],
        ["3", players[0], "2", "0", "2"],
        ["4", players[1], "0", "0", "2"],
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    night.locator(".share-result button").click()
    page.wait_for_function("() => window.shared.length === 1")
    lines = page.evaluate("() => window.shared[0].text").split("\n")
    assert all(line.startswith("\u200f") for line in lines)  # each line right to left
    assert lines[0].startswith("\u200fسهرة ")
    # an Arabic name needs no mark; the points stay one left-to-right run
    assert lines[1] == f"\u200f1. {players[2]} \u200e6\u200e"
    assert lines[-1] == "\u200fالنقاط بحسب الترتيب في كل لعبة: 3، 2، 1، 0؛ والتعادل يقتسمها."


def test_a_tables_evening_of_two_games_shared_from_the_table_page(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    record = {
        **load_example("trix-complex-solo-complete"),
        "players": ["Sami", "Lina", "Yusuf", "Maryam"],
    }
    context = new_context(locale="en")
    context.add_init_script(NO_SHARE_SHEET)
    page = context.new_page()
    page.set_viewport_size(SMALL_PHONE)
    player = Player(page, javascript=True, shots=screenshots, prefix="en-night")
    table = create_table(player, "Thursdays at Karim's")
    pick(player, record["players"])
    page.click('input[name="game"][value="trix-complex"] + label')
    page.click("form button.primary[name=start]")
    page.wait_for_url(GAME_PAGE)
    player.tap(f'.seat-buttons button[value="{record["first"]}"]')
    page.wait_for_url(GAME_PAGE)
    player.play(record)
    _second_game(player, record, "Rematch")
    expect(page.locator("section.night")).to_be_visible()
    page.goto(table)
    night = page.locator("section.night")
    expect(night.locator("h2")).to_contain_text("Tonight")
    expect(night).to_contain_text("2 games")
    player.check("the table's night")
    player.shot("table-night", element="section.night")
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    night.locator(".share-result button").click()
    expect(night.locator(".share-said")).to_have_text("Copied: paste it into your chat.")
    copied = page.evaluate("() => window.copied")[0].split("\n")
    assert copied[0].startswith("Thursdays at Karim's · Night of ")
    winner = record["players"][2]  # 280 in both games: 3 points each
    assert copied[1] == f"1. {winner} 6"  # no marks where the order cannot go wrong
    night.locator("form.start-night button").click()
    page.wait_for_url(re.compile(r"/t/[^/?#]+(#night)?$"))
    expect(page.locator(".flash")).to_contain_text("A new night starts with the next game.")
    expect(page.locator("form.start-night")).to_have_count(0)
