"""Names that fit every chip (issue 32, items 3, 4 and 5) at 360 × 740 and 390 × 844, in
Arabic, English, Russian and Hindi: every chip a finger wide and tall inside its row, the names'
chips of a row alike in width (a short name is not squeezed beside a long one), each showing a
form of its own name the scoreboard uses (scorekeeper.words.names), whole on two lines where it
fits, never cut by its box; the first name kept where it fits («Александр» over «Петров», not
«А…ров»); team names and the deal's preview cut alike, never one whole beside one cut."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.words.names import all_name_forms

from .conftest import serving
from .driver import check_layout, load_example, settle, tap_contract
from .test_names import SHOWN_JS
from .test_table_polish import imported, part

pytestmark = pytest.mark.browser

SIZES = {"360": {"width": 360, "height": 740}, "390": {"width": 390, "height": 844}}
ARABIC = ("عمر", "عبدالله الراشدي العتيبي", "سامي", "عبدالله الراشد العنزي")
RUSSIAN = ("Александр Петров", "Александр Павлов", "Мария", "Ольга")
HINDI = ("राजेश्वरी शर्मा", "अनुराधा श्रीवास्तव", "मोहनलाल", "सुरेश कुमार")
HINDI_LONG = (
    "राजेश्वरी कुमारी श्रीवास्तव शर्मा वर्मा",
    "राजेश्वरी कुमारी श्रीवास्तव शर्मा",
    "अनुराधा",
    "मोहनलाल",
)
# (language, players, game, contracts whose chips name the players)
FORMS = [
    ("ar", ARABIC, "trix", ("king-of-hearts", "queens")),
    ("en", ARABIC, "trix", ("king-of-hearts", "queens")),
    ("ru", RUSSIAN, "turkish-king", ("no-king", "no-last-two")),
    ("ru", RUSSIAN, "trix", ("king-of-hearts",)),
    ("hi", HINDI, "trix", ("king-of-hearts", "queens")),
    ("hi", HINDI_LONG, "trix", ("queens",)),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: it imports more games than one address may a session."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


def begun(page: Page, game: str, players: tuple[str, ...]) -> str:
    """A game of `game` with no deal yet, imported by this browser: its address."""
    if game == "turkish-king":
        record = part(load_example("turkish-king-complete"), 0, players=list(players))
    else:
        record = part(load_example("trix-partnership-complete"), 0, players=list(players))
    imported(page, record)
    return page.url


CHIPS_JS = """
() => [...document.querySelectorAll('#deal-form .group:not(.group-counts) .chip-row')]
  .map((row) => {
    const chips = row.querySelector('.chips').getBoundingClientRect();
    return {row: [chips.left, chips.right], chips: [...row.querySelectorAll('label.chip')]
      .map((chip) => { const box = chip.getBoundingClientRect();
        return {value: chip.querySelector('input').value, text: chip.textContent.trim(),
                left: box.left, right: box.right, width: box.width, height: box.height}; })};
  })
"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("lang", "players", "game", "contracts"), FORMS)
def test_every_chip_is_a_finger_wide_and_shows_a_form_of_its_name(
    new_context: Any,
    size: str,
    lang: str,
    players: tuple[str, ...],
    game: str,
    contracts: tuple[str, ...],
) -> None:
    """«عمر» was a 30 px chip beside «عبدالله الراشدي ا…» (a cut, one letter from the other
    Abdullah's), and a Hindi chip ran past the row's edge at 360."""
    page = new_context(locale=lang).new_page()
    page.set_viewport_size(SIZES[size])
    address = begun(page, game, players)
    forms = all_name_forms(players)
    for contract in contracts:
        tap_contract(page, address, contract)
        where = f"{lang} {contract} at {size}"
        rows = page.evaluate(CHIPS_JS)
        assert rows, where
        for row in rows:
            names = [chip for chip in row["chips"] if chip["value"] != ""]
            assert len(names) == 4, (where, row)
            for chip in row["chips"]:
                assert chip["width"] >= 44 - 0.5 and chip["height"] >= 44 - 0.5, (where, chip)
                assert row["row"][0] - 0.5 <= chip["left"] and chip["right"] <= row["row"][1] + 0.5
            widths = [chip["width"] for chip in names]
            assert max(widths) - min(widths) <= 1, f"{where}: names squeezed unequally {widths}"
            for chip in names:
                seat = int(chip["value"])
                assert chip["text"] in forms[seat], (
                    f"{where}: {chip['text']!r} for {players[seat]!r}"
                )
            assert len({chip["text"] for chip in names}) == 4, (where, names)
        shown = page.evaluate(SHOWN_JS, "#deal-form .group:not(.group-counts) label.chip")
        cut = [place["text"] for place in shown if place["cut"]]
        assert not cut, f"{where}: chips cut by their box: {cut}"
        check_layout(page, where)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_first_name_is_kept_where_it_fits(new_context: Any, size: str) -> None:
    """At 360 «Александр Петров / Александр Павлов» became «А…ров / А…лов» on the score
    cards; the whole name fits on two lines there («Александр» over «Петров»)."""
    page = new_context(locale="ru").new_page()
    page.set_viewport_size(SIZES[size])
    address = begun(page, "turkish-king", RUSSIAN)
    shown = page.evaluate(SHOWN_JS, ".scoreboard .totals .name")
    for seat in (0, 1):
        assert shown[seat]["text"].startswith("Александр"), shown
        assert not shown[seat]["cut"], shown
    tap_contract(page, address, "no-king")
    chips = page.evaluate(SHOWN_JS, "#r-taker label.chip")
    for seat in (0, 1):
        assert chips[seat]["text"].startswith("Александр") and not chips[seat]["cut"], chips


def test_arabic_teams_and_the_preview_are_cut_alike(new_context: Any) -> None:
    """At 360 the team cards were cut unevenly and the preview showed «عبدالله ا…بي» beside
    «عبدالله الراشد العنزي» whole."""
    page = new_context(locale="ar").new_page()
    page.set_viewport_size(SIZES["360"])
    address = begun(page, "trix", ARABIC)
    forms = all_name_forms(ARABIC)
    teams = page.evaluate(SHOWN_JS, ".scoreboard .teams li .name")
    assert [team["cut"] for team in teams] == [False, False], teams
    team_b = teams[1]["text"]
    # both partners at one width: their forms at the same place in the list of widths
    assert any(forms[1][level] in team_b and forms[3][level] in team_b for level in range(4)), (
        team_b
    )
    assert_alike(page.evaluate(SHOWN_JS, ".scoreboard .totals li .name"), forms, "score cards")
    tap_contract(page, address, "king-of-hearts")
    page.locator("#r-taker label.chip").nth(2).click()
    settle(page)
    expect(page.locator(".deal-scores li")).to_have_count(4)
    assert_alike(page.evaluate(SHOWN_JS, ".deal-scores li"), forms, "the preview")
    check_layout(page, "Arabic preview at 360")


def assert_alike(shown: list[dict[str, Any]], forms: Any, where: str) -> None:
    """The two Abdullahs (seats 2 and 4) both whole, or both cut to one width; none cut by
    its box."""
    assert not [place for place in shown if place["cut"]], (where, shown)
    texts = [place["text"] for place in shown]  # each name's own box
    level = [forms[seat].index(text) for seat, text in enumerate(texts)]
    whole = [text == ARABIC[seat] for seat, text in enumerate(texts)]
    assert whole[1] == whole[3] and (whole[1] or level[1] == level[3]), (where, texts)
