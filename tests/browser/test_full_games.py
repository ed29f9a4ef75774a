"""Complete games by taps at 390 × 844: Trix partnership in Arabic, Turkish King in Turkish, and
Trix Complex with JavaScript switched off; the final standings must be the engine's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.words.labels import signed

from .driver import (
    GAME_PAGE,
    Player,
    check_signs_lead,
    engine_totals,
    expected_standings,
    load_example,
)

pytestmark = pytest.mark.browser


def _finish(player: Player, record: dict, where: str) -> None:  # type: ignore[type-arg]
    page = player.page
    player.check(f"{where}: finished game")
    page.evaluate("window.scrollTo(0, 0)")
    player.shot("finished", full_page=False)
    player.shot("history", element=".history")
    player.shot("chart", element=".chart-section")
    assert player.finished_standings() == expected_standings(record)
    totals, teams = engine_totals(record)
    shown_totals = page.locator(".scoreboard .totals .total").all_inner_texts()
    assert shown_totals == [signed(total) for total in totals]
    if teams is not None:
        shown_teams = page.locator(".scoreboard .teams .total").all_inner_texts()
        assert shown_teams == [signed(total) for total in teams]
    rows = page.locator(".history tbody tr:not(.deal-details)")
    expect(rows).to_have_count(len(record["deals"]))
    # every column, the teams' too, fits a phone's width: nothing to scroll sideways to
    wide = page.evaluate(
        "() => { const box = document.querySelector('.history table');"
        " return [box.scrollWidth, box.parentElement.clientWidth]; }"
    )
    assert wide[0] <= wide[1] + 1, f"{where}: history is {wide[0]} px wide in {wide[1]} px"
    game_url = page.url
    view_url = page.locator("a.view-link").get_attribute("href")
    assert view_url
    page.goto(view_url)
    player.check(f"{where}: the view link's page")
    player.shot("view-link", full_page=False)
    assert player.finished_standings() == expected_standings(record)
    page.goto("/")
    player.check(f"{where}: home with a finished game")
    player.shot("home", full_page=False)
    page.goto(game_url)


def test_trix_partnership_in_arabic(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-partnership-complete")
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="ar-trix")
    player.start_game(record)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.locator(".next .contracts")).to_contain_text("شيخ الكبة")
    player.play(record)
    _finish(player, record, "Arabic Trix")
    expect(page.locator(".finished h2")).to_have_text("الترتيب النهائي")
    check_signs_lead(page, ".total, .standings strong, .team-line strong, td.num span")
    page.click(".rules-link a")
    page.wait_for_url(re.compile(r"/rules$"))
    player.check("rules of this game")
    player.shot("rules")
    check_signs_lead(page, ".signed")
    expect(page.locator("h1")).to_contain_text("تركس")


def test_turkish_king_in_turkish(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    record = load_example("turkish-king-complete")
    page = new_context(locale="en-US").new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.click(".languages a[lang=tr]")  # switched once, remembered from then on
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    player = Player(page, javascript=True, shots=screenshots, prefix="tr-king")
    player.start_game(record)
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.locator(".next .contracts")).to_contain_text("Rıfkı")
    player.play(record)
    _finish(player, record, "Turkish King")
    expect(page.locator(".finished h2")).to_have_text("Son sıralama")


def test_trix_complex_without_javascript(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-complex-solo-complete")
    page = new_context(locale="en", javascript=False).new_page()
    player = Player(page, javascript=False, shots=screenshots, prefix="en-complex-nojs")
    player.start_game(record)
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    player.play(record)
    _finish(player, record, "Trix Complex without JavaScript")
    assert GAME_PAGE.search(page.url)


def test_trix_complex_penalty_tricks_in_arabic(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    """House rule complex_tricks "penalty" (issue 22), chosen by its chip: each Complex deal
    taps per player the tricks that held a penalty card, the sum reads "n من 13 على الأكثر",
    nothing is filled in for the last player, and the totals are the engine's."""
    record = load_example("trix-complex-penalty-complete")
    page = new_context(locale="ar").new_page()
    assert page.viewport_size == {"width": 390, "height": 844}
    player = Player(page, javascript=True, shots=screenshots, prefix="ar-complex-penalty")
    player.start_game(record)
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    for number, raw in enumerate(record["deals"], start=1):
        player.check(f"game page before deal {number}")
        player.choose(raw["contract"])
        if raw["contract"] == "complex":
            group = page.locator("fieldset.group", has=page.locator('input[name="tricks-0"]'))
            expect(group.locator("> legend")).to_have_text("لطشات فيها ورقة عقوبة")
            for seat in range(3):
                player.chip(f"tricks-{seat}", str(raw["tricks"][seat]))[1].click()
                player.settle()
            expect(page.locator("#e-tricks .sum")).to_have_text(
                f"{sum(raw['tricks'][:3])} من 13 على الأكثر"
            )
            # three counts do not say the fourth: the app leaves it to the player
            expect(page.locator('input[name^="tricks-3"]:checked')).to_have_count(0)
            player.shot("penalty-tricks", element="#deal-form")
        player.enter(raw)
        player.check(f"deal {number} filled in ({raw['contract']})")
        player.save(number)
    _finish(player, record, "Arabic Trix Complex, penalty tricks")
    totals, _ = engine_totals(record)
    assert sum(totals) != 0  # a kingdom no longer adds up to zero under this rule
    page.click(".rules-link a")
    page.wait_for_url(re.compile(r"/rules$"))
    player.check("rules of this game")
    expect(page.locator(".house-rules")).to_contain_text("اللطشة التي فيها ورقة عقوبة فقط")
