"""A table at 390 × 844: its players picked from the roster by taps, a rematch after the last
deal, and its statistics page in Arabic (right to left) and Turkish; the pick without
JavaScript too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules.record import load_records
from scorekeeper.stats import compute, to_json

from .driver import GAME_PAGE, Player, check_signs_lead, load_example

pytestmark = pytest.mark.browser

TABLE_PAGE = re.compile(r"/t/[^/?#]+$")
TABLE_GAME = re.compile(r"/t/[^/?#]+/new$")


def create_table(player: Player, name: str) -> str:
    """From the home page: New table, its name; the table's new-game page. Returns its link."""
    page = player.page
    page.goto("/")
    player.check("home")
    page.click("a.button[href$='/tables/new']")
    page.wait_for_url(re.compile(r"/tables/new$"))
    player.check("new table")
    page.fill('input[name="table_name"]', name)
    page.click("form button.primary")
    page.wait_for_url(TABLE_GAME)
    return page.url.rsplit("/", 1)[0]


def import_into(player: Player, table: str, records: list[dict[str, Any]], tmp_path: Path) -> None:
    page = player.page
    upload = tmp_path / "games.json"
    upload.write_text(json.dumps(records), encoding="utf-8")
    page.goto(table)
    player.check("table page")
    page.click("a.button[href$='/import']")
    player.check("import into the table")
    page.set_input_files("input[type=file]", str(upload))
    page.click("form button.primary")
    page.wait_for_url(TABLE_PAGE)


def pick(player: Player, names: list[str], first_seat: int = 0) -> None:
    """On the table's new-game page: tap each name (a roster chip, or type a newcomer); they
    take the seats from `first_seat` on."""
    page = player.page
    for seat, name in enumerate(names, start=first_seat):
        chip = page.locator(".roster-chips button", has_text=name)
        if chip.count():
            player.press(chip.first)
        else:
            page.fill('input[name="newcomer"]', name)
            player.press('.newcomer button[name="add"]')
        expect(page.locator(".seats li").nth(seat).locator(".seat-name")).to_have_text(name)
        player.check(f"seat {seat + 1} picked")


def clear_seats(player: Player) -> None:
    """Free the seats the page filled with the last game's four, one tap each."""
    page = player.page
    while page.locator('.seats button[name="remove"]').count():
        player.press('.seats button[name="remove"][value="0"]')


def seats_shown(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".seats .seat-name").all_inner_texts()]


def test_roster_pick_and_rematch_in_turkish(new_context, screenshots, tmp_path) -> None:  # type: ignore[no-untyped-def]
    record = load_example("turkish-king-complete")
    page = new_context(locale="tr").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="tr-table")
    table = create_table(player, "Perşembe akşamı Kerim'de")
    # the first game: everyone is new, typed once
    expect(page.locator(".roster-chips")).to_have_count(0)
    pick(player, record["players"])
    player.shot("first-pick")
    page.click('input[name="game"][value="turkish-king"] + label')
    page.click("form button.primary[name=start]")
    page.wait_for_url(GAME_PAGE)
    page.goto(table)
    player.check("table with one game")
    for name in record["players"]:
        expect(page.locator(".roster")).to_contain_text(name)

    # the next game from the roster, by taps, in another order of play; King already chosen
    page.click("a.button.primary[href$='/new']")
    page.wait_for_url(TABLE_GAME)
    expect(page.locator('input[name="game"][value="turkish-king"]')).to_be_checked()
    assert seats_shown(page) == record["players"]  # the last four already seated
    clear_seats(player)
    order = [record["players"][index] for index in (2, 0, 3, 1)]
    pick(player, order[:3])
    expect(page.locator(".roster-chips button")).to_have_count(1)  # seated ones are not offered
    page.click('.seats button[name="remove"][value="0"]')  # a wrong tap, undone
    player.settle()
    assert seats_shown(page) == order[1:3]
    pick(player, [order[0], order[3]], first_seat=2)
    assert seats_shown(page) == [order[1], order[2], order[0], order[3]]
    player.shot("roster-pick")
    page.click("form button.primary[name=start]")
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".seat-buttons")).to_contain_text(order[1])  # who declares first?

    # a game of the table one deal from its end: the last deal by taps, then the rematch
    import_into(player, table, [{**record, "deals": record["deals"][:-1]}], tmp_path)
    page.locator(".game-list a").first.click()
    page.wait_for_url(GAME_PAGE)
    player.choose(record["deals"][-1]["contract"])
    player.enter(record["deals"][-1])
    player.save(len(record["deals"]))
    rematch = page.locator("form.rematch button")
    expect(rematch).to_be_visible()
    player.check("finished game of a table")
    player.shot("rematch", full_page=False)
    finished = page.url
    rematch.click()
    page.wait_for_url(lambda url: url != finished and GAME_PAGE.search(url) is not None)
    expect(page.locator(".seat-buttons button")).to_have_text(record["players"])
    player.check("rematch: who declares first")
    page.click(f'.seat-buttons button[value="{record["first"]}"]')
    expect(page.locator(".next .contracts")).to_be_visible()
    player.check("rematch started")
    page.goto(table)
    expect(page.locator(".game-list li")).to_have_count(4)


def stats_of(page: Page, table: str) -> dict[str, Any]:
    response = page.request.get(table + "/games.json")
    assert response.ok
    return to_json(compute(load_records(response.body())))


def check_stats_page(player: Player, table: str, where: str) -> None:
    page = player.page
    page.goto(table + "/stats")
    player.check(where)
    player.shot("stats")
    expected = stats_of(page, table)
    rows = page.locator(".stats-table").first.locator("tbody tr")
    expect(rows).to_have_count(len(expected["players"]))
    for index, figures in enumerate(expected["players"]):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        if figures["points"] is None:  # Trix and King: no points for all games together
            cells.insert(1, "None")
        assert cells[0] == figures["name"] and [cells[2], cells[4], cells[5]] == [
            str(figures["wins"]),
            str(figures["games"]),
            str(figures["finished"]),
        ], cells
        assert cells[1].replace("−", "-").lstrip("+") == str(figures["points"]), cells
    chart = page.locator(".chart-figure svg")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 391
    expect(page.locator(".chart-figure figcaption")).not_to_be_empty()
    assert page.locator(".chart-figure svg desc, .chart-figure svg title").count() >= 1
    as_table = page.locator("section[aria-labelledby=running-title] details")  # the chart's
    as_table.locator("> summary").click()
    expect(as_table.locator(".stats-table")).to_be_visible()
    for details in page.locator(".player-contracts > summary").all():
        details.click()
    player.check(f"{where}, every section open")
    player.shot("stats-open")
    check_signs_lead(page, ".stats-table .signed")


def statistics_records() -> list[dict[str, Any]]:
    trix = load_example("trix-partnership-complete")
    king = load_example("turkish-king-complete")
    return [
        trix,
        {
            **king,
            "players": [
                trix["players"][0],
                "Muhammed Ali Karakaya",
                trix["players"][2],
                king["players"][3],
            ],
        },
    ]


def test_statistics_in_arabic(new_context, screenshots, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="ar-table")
    table = create_table(player, "خميس عند كريم")
    import_into(player, table, statistics_records(), tmp_path)
    player.check("table page with games")
    player.shot("table")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    page.click("a.button[href$='/stats']")
    page.wait_for_url(re.compile(r"/stats$"))
    expect(page.locator("h1")).to_have_text("الإحصاءات")
    check_stats_page(player, table, "Arabic statistics")
    # the view link's statistics: the same figures, nothing to change
    view = page.request.get(table).text()
    view_link = re.search(r'href="(http[^"]+/v/t/[^"]+)"', view)
    assert view_link is not None
    page.goto(view_link.group(1) + "/stats")
    player.check("Arabic statistics from the view link")
    expect(page.locator("form")).to_have_count(0)


def test_statistics_in_turkish(new_context, screenshots, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="tr").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="tr-table")
    table = create_table(player, "Perşembe")
    import_into(player, table, statistics_records(), tmp_path)
    page.click("a.button[href$='/stats']")
    page.wait_for_url(re.compile(r"/stats$"))
    expect(page.locator("h1")).to_have_text("İstatistikler")
    check_stats_page(player, table, "Turkish statistics")


def test_roster_pick_without_javascript(new_context, screenshots, tmp_path) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="en", javascript=False).new_page()
    player = Player(page, javascript=False, shots=screenshots, prefix="en-table-nojs")
    table = create_table(player, "Thursdays at Karim's")
    import_into(player, table, [load_example("trix-complex-solo-complete")], tmp_path)
    page.click("a.button.primary[href$='/new']")
    page.wait_for_url(re.compile(r"/new$"))
    names = load_example("trix-complex-solo-complete")["players"]
    clear_seats(player)
    pick(player, [names[1], names[0], "Zoé", names[3]])
    expect(page.locator('input[name="game"][value="trix-complex"]')).to_be_checked()
    page.click("form button.primary[name=start]")
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".seat-buttons button")).to_have_text([names[1], names[0], "Zoé", names[3]])


def test_a_suggested_name_takes_one_tap(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="ar-names")
    record = load_example("trix-partnership-complete")
    player.start_game(record)
    page.goto("/new")
    player.check("new game with suggestions")
    page.locator(".name-suggestions button", has_text=record["players"][2]).click()
    expect(page.locator('input[name="player_0"]')).to_have_value(record["players"][2])
    page.locator(".name-suggestions button", has_text=record["players"][0]).click()
    expect(page.locator('input[name="player_1"]')).to_have_value(record["players"][0])
    assert page.url.endswith("/new")  # filled in place, nothing sent
