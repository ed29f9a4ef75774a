"""Names that never mislead and tables that fit a phone (issue 24, items 1, 3, 4 and 10): every
place that names a player shows a form no other of the four could be read as, spelt as the
name is (every space kept), the whole name where it fits; the deal preview keeps each name
beside its score; the history has no column off the screen; the chart writes scores as the app
does; Arabic team columns come first, each heading on one line; the language links take one
row; a merge page reopened after the merge says what happened."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import block_engine, serving
from .driver import check_layout, load_example, settle
from .test_table_polish import imported, part

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: it imports more games than one address may a session."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


NARROW = {"width": 360, "height": 844}

# 40 characters in every script the app speaks (and names alike to their last letters)
FORTY = (
    "Muhammed Ali Karakaya Abdurrahmanoğlu Xy",
    "عبد الرحمن بن محمد الحسيني القرشي الهاشم",
    "Александра Константинопольская-Петровна",
    "राजेश्वरी कुमारी श्रीवास्तव शर्मा वर्मा",
)
TABLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "issue": ("en", ("Abdullah Saleh", "Abdullah Salem", "Maria", "Marianne")),
    "arabic": ("ar", ("عبد الرحمن الحسيني", "عبد الرحيم", "İbrahim", "ليلى")),
    "forty": ("en", FORTY),
    "forty-ar": ("ar", FORTY),
    "forty-alike": (
        "tr",
        (
            "Çağla Öztürk Karakaya Abdurrahmanoğlu Xy",
            "Çağla Öztürk Karakaya Abdurrahmanoğlu Xw",
            "Ayşe",
            "İbrahim",
        ),
    ),
    "russian": ("ru", ("Константинопольская", "Преображенский", "Александра Петрова", "Мария")),
    "hindi": (
        "hi",
        ("राजेश्वरी कुमारी श्रीवास्तव शर्मा वर्मा", "राजेश्वरी कुमारी श्रीवास्तव शर्मा", "अनुराधा", "मोहनलाल"),
    ),
}

SHOWN_JS = """
(selector) => [...document.querySelectorAll(selector)].map((place) => {
  // what the place shows of the name: its box's text, and whether the box cuts it: a line of
  // it past the box's side (by a fraction of a pixel too: the ellipsis shows then) or below
  // its bottom (a box that holds two lines: a third one hidden)
  const box = place.querySelector('.nm, bdi') || place;
  const cut = (el) => el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
  const style = getComputedStyle(box), outer = box.getBoundingClientRect();
  const left = outer.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
  const right = outer.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
  const lines = [];  // the text's own boxes (not a radio the chip holds)
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    lines.push(...range.getClientRects());
  }
  const past = box.clientWidth > 0 && lines.some((line) => line.left < left - 0.05
    || line.right > right + 0.05 || line.bottom > outer.bottom + 0.5);
  return {text: box.textContent.trim(), cut: cut(box) || cut(place) || past};
})
"""

FITS_JS = """
([selector, names]) => [...document.querySelectorAll(selector)].map((place, index) => {
  const box = place.querySelector('.nm, bdi') || place;
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
  probe.textContent = names[index % 4];
  box.appendChild(probe);
  const fits = probe.getBoundingClientRect().width <= box.clientWidth - 1;
  probe.remove();
  return fits;
})
"""


def could_be(form: str, name: str) -> bool:
    """Whether a reader could take `form` for `name`: the name, its first word(s), or a start
    and an end of it with "…" for what is left out (case aside)."""
    form, name = form.casefold(), name.casefold()
    if "…" not in form:
        return name == form or name.startswith(form + " ")
    head, _, tail = form.partition("…")
    tail = tail.strip(" ")
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


def check_names(shown: list[dict[str, Any]], players: tuple[str, ...], where: str) -> None:
    """Four places in seat order: each shows all its text, a form of its own player's name
    spelt as written, that no other of the four could be read as."""
    assert len(shown) == 4, (where, shown)
    for seat, place in enumerate(shown):
        text, name = place["text"], players[seat]
        assert not place["cut"], f"{where}: {text!r} is cut by its box (seat {seat + 1})"
        head, _, tail = text.partition("…")
        assert name.startswith(head) and name.endswith(tail.strip(" ")), (
            f"{where}: {text!r} is not how {name!r} is spelt"
        )
        assert could_be(text, name), (where, text, name)
        if text != name:
            others = [other for other in players if other != name and could_be(text, other)]
            assert not others, f"{where}: {text!r} could be {others[0]!r} as well as {name!r}"


def check_whole_where_it_fits(
    page: Page, selector: str, players: tuple[str, ...], where: str
) -> None:
    shown = page.evaluate(SHOWN_JS, selector)
    fits = page.evaluate(FITS_JS, [selector, list(players)])
    for seat, (place, fit) in enumerate(zip(shown, fits, strict=True)):
        if fit:
            assert place["text"] == players[seat % 4], (
                f"{where}: {place['text']!r} shown where {players[seat % 4]!r} fits"
            )


def legend_texts(page: Page) -> list[str]:
    return [
        text.strip() for text in page.locator("svg.running-totals .legend text").all_text_contents()
    ]


@pytest.mark.parametrize("table", list(TABLES))
def test_every_place_that_names_a_player_tells_the_four_apart(browser, server, table: str) -> None:
    """At 360 and 390 px: score cards, team cards, the history's columns, the chart's legend,
    the chips of a deal form, the preview."""
    lang, players = TABLES[table]
    context = browser.new_context(
        viewport=NARROW,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale=lang,
        base_url=server,
        extra_http_headers={"Accept-Language": lang},
    )
    block_engine(context)  # no engine booting in the phone: the pages as the server paints them
    try:
        page = context.new_page()
        solo = part(
            load_example("trix-partnership-complete"), 6, players=list(players), mode="solo"
        )
        imported(page, solo)
        game = page.url
        imported(page, part(load_example("trix-partnership-complete"), 3, players=list(players)))
        partnership = page.url
        for size in (NARROW, {"width": 390, "height": 844}):
            page.set_viewport_size(size)
            check_places(page, game, partnership, players, f"{table} at {size['width']} px")
    finally:
        context.close()


def check_places(
    page: Page, game: str, partnership: str, players: tuple[str, ...], table: str
) -> None:
    """Each place of a solo game (cards, history, legend, chips, preview), then the team
    cards of a partnership game."""
    page.goto(game)
    settle(page)
    # score cards, the history's columns (fixed widths: the whole name wherever it fits)
    for selector in (".scoreboard .totals li .name", ".history thead th:nth-last-child(-n+4)"):
        check_names(page.evaluate(SHOWN_JS, selector), players, f"{table} {selector}")
        check_whole_where_it_fits(page, selector, players, f"{table} {selector}")
    legend = legend_texts(page)
    check_names([{"text": text, "cut": False} for text in legend], players, "chart legend")
    check_layout(page, f"{table}: game page")
    # the chips of a deal form (doubling rows: "nobody" and four names share 360 px)
    page.goto(game + "/deal?contract=queens")
    settle(page)
    for row in ("doubled_by-S", "takers-S"):
        chips = f"#r-{row} label.chip:not(:has(input[value='']))"
        check_names(page.evaluate(SHOWN_JS, chips), players, f"{table} chips {row}")
    check_layout(page, f"{table}: deal form")
    # the preview of a deal being edited: each name beside its score
    page.goto(game)
    page.locator("#history a.edit").first.click()
    settle(page)
    expect(page.locator(".deal-scores li")).to_have_count(4)
    check_names(page.evaluate(SHOWN_JS, ".deal-scores li"), players, f"{table} preview")
    check_whole_where_it_fits(page, ".deal-scores li", players, f"{table} preview")
    # a partnership game: its teams' cards
    page.goto(partnership)
    settle(page)
    teams = page.evaluate(SHOWN_JS, ".scoreboard .teams li .name")
    for team in teams:
        assert not team["cut"], f"{table}: team card {team['text']!r} is cut"
    firsts = [team["text"] for team in teams]
    for (first, second), text in zip(((0, 2), (1, 3)), firsts, strict=True):
        assert players[first].split(" ")[0][:1] in text and players[second][:1] in text
    check_layout(page, f"{table}: partnership game")


def test_a_space_is_never_dropped_in_arabic(new_context) -> None:  # type: ignore[no-untyped-def]
    """ "عبد الرحمن" was cut to "عبدالرح…" on the chips."""
    page = new_context(locale="ar").new_page()
    players = ["عبد الرحمن الشامي", "عبد الرحيم", "سامي", "ليلى"]
    imported(page, part(load_example("trix-partnership-complete"), 1, players=players))
    page.goto(page.url + "/deal?contract=king-of-hearts")
    settle(page)
    expect(page.locator("#r-taker label.chip")).to_have_count(4)
    texts = (
        page.locator("label.chip").all_inner_texts()
        + page.locator(".scoreboard .name").all_inner_texts()
    )
    assert not [text for text in texts if "عبدال" in text], texts


# --- item 3: the preview in Russian ---------------------------------------------------------


def test_russian_names_in_the_preview_never_run_into_each_other(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ru").new_page()
    players = ["Константинопольская", "Преображенский", "Александра Петрова", "Мария"]
    imported(page, part(load_example("turkish-king-complete"), 3, players=players))
    page.locator("#history a.edit").first.click()
    settle(page)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.deal-scores li')].map((li) => {
        const r = li.getBoundingClientRect();
        return {li: [r.left, r.right], parts: [...li.children].map((el) => {
          const b = el.getBoundingClientRect();
          return [b.left, b.right, b.top, b.bottom]; })}; })""")
    assert len(boxes) == 4
    for box in boxes:
        left, right = box["li"]
        (name_left, name_right, name_top, name_bottom), score = box["parts"]
        score_left, score_right, score_top, score_bottom = score
        inside = (
            left - 1 <= min(name_left, score_left) and max(name_right, score_right) <= right + 1
        )
        assert inside, f"a name or score leaves its cell: {box}"
        # beside it or over it (the Save bar's row: each name over its score), never on it
        apart = (
            name_right <= score_left + 1
            or score_right <= name_left + 1
            or name_bottom <= score_top + 1
            or score_bottom <= name_top + 1
        )
        assert apart, f"a name runs into its score: {box}"
    check_layout(page, "Russian deal preview")


# --- item 4: the history at 360 px in every language ----------------------------------------


@pytest.fixture(scope="module")
def long_games(browser, server) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """A finished game of each kind with long Russian names: its address."""
    context = browser.new_context(viewport=NARROW, base_url=server)
    block_engine(context)
    games = {}
    try:
        page = context.new_page()
        for example in ("trix-partnership-complete", "turkish-king-complete"):
            imported(
                page,
                {
                    **load_example(example),
                    "players": [
                        "Константинопольская",
                        "Преображенский",
                        "Александра Петрова",
                        "Мария",
                    ],
                },
            )
            games[example] = page.url
    finally:
        context.close()
    return games


@pytest.mark.parametrize("lang", ["ru", "hi", "ar", "tr", "en"])
@pytest.mark.parametrize("example", ["trix-partnership-complete", "turkish-king-complete"])
def test_the_history_fits_360_px_with_every_edit_on_screen(
    browser,
    server,
    long_games,  # type: ignore[no-untyped-def]
    lang: str,
    example: str,
) -> None:
    """It was 585 px wide inside 366 px in Russian and Hindi: players 2-4 and deal 1's Edit
    off the screen."""
    context = browser.new_context(
        viewport=NARROW,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale=lang,
        base_url=server,
        extra_http_headers={"Accept-Language": lang},
    )
    block_engine(context)
    try:
        page = context.new_page()
        page.goto(long_games[example])
        settle(page)
        width = page.evaluate("() => window.innerWidth")
        table = page.locator(".history table").bounding_box()
        assert table and table["x"] >= 0 and table["x"] + table["width"] <= width + 1, (
            f"the history is {table} wide in {width} px"
        )
        edits = page.locator("#history a.edit")
        assert edits.count() == len(load_example(example)["deals"])
        for link in edits.all():
            box = link.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, box
        # every number whole in its column
        cut = page.evaluate("""() => [...document.querySelectorAll('.history td.num span')]
            .filter((el) => el.getBoundingClientRect().right > el.closest('td')
                            .getBoundingClientRect().right + 1
                         || el.getBoundingClientRect().left < el.closest('td')
                            .getBoundingClientRect().left - 1).length""")
        assert cut == 0
        check_layout(page, f"{lang} history")
    finally:
        context.close()


# --- item 10 ----------------------------------------------------------------------------------


def test_the_chart_writes_minus_as_the_app_does(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context().new_page()
    imported(page, part(load_example("trix-partnership-complete"), 6))
    texts = page.locator("svg.running-totals text").all_text_contents()
    caption = page.locator(".chart-figure figcaption").inner_text()
    assert any(text.startswith("−") for text in texts)
    assert not [text for text in [*texts, caption] if re.search(r"-\d", text)]
    assert "−" in caption
    cards = page.locator(".scoreboard .teams .total").all_inner_texts()
    for total in cards:  # the caption's numbers are the cards'
        assert total in caption


def test_arabic_team_columns_come_first_on_one_line(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="ar").new_page()
    imported(page, part(load_example("trix-partnership-complete"), 4))
    headings = page.locator(".history thead th")
    texts = [text.strip() for text in headings.all_inner_texts()]
    assert texts[1:3] == ["الفريق أ", "الفريق ب"], texts
    for index in (1, 2):
        lines = headings.nth(index).evaluate("""(th) => {
            const range = document.createRange(); range.selectNodeContents(th);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }""")
        assert lines == 1, f"{texts[index]} takes {lines} lines"
        assert headings.nth(index).evaluate("(th) => th.scrollWidth <= th.clientWidth + 1")
    # the numbers under them are the teams'
    first = page.locator("#history-rows tr:not(.deal-details)").first.locator("td.num")
    team_cell = first.nth(0).locator(".score").inner_text()
    seats = [first.nth(index).locator(".score").inner_text() for index in range(2, 6)]

    def number(text: str) -> int:
        return int(text.replace("−", "-").replace("+", ""))

    assert number(team_cell) == number(seats[0]) + number(seats[2])


@pytest.mark.parametrize("size", [NARROW, {"width": 390, "height": 844}], ids=["360", "390"])
@pytest.mark.parametrize("lang", ["en", "ar", "ru", "hi", "tr"])
def test_the_language_links_take_one_row(
    browser,
    server,
    long_games,
    lang: str,  # type: ignore[no-untyped-def]
    size: dict[str, int],
) -> None:
    context = browser.new_context(
        viewport=size,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale=lang,
        base_url=server,
        extra_http_headers={"Accept-Language": lang},
    )
    block_engine(context)
    try:
        page = context.new_page()
        for url in ("/", "/new", "/rules", long_games["turkish-king-complete"]):
            page.goto(url)
            tops = page.evaluate("""() => [...document.querySelectorAll('.languages a')]
                .map((a) => Math.round(a.getBoundingClientRect().top))""")
            assert len(tops) == 5 and len(set(tops)) == 1, f"{url}: rows at {tops}"
            for link in page.locator(".languages a").all():
                box = link.bounding_box()
                assert box and box["height"] >= 44 and box["width"] >= 24, box
            check_layout(page, f"{lang} {url}")
    finally:
        context.close()


def test_a_merge_page_reopened_after_the_merge_says_so(new_context, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from .driver import Player
    from .test_tables import create_table, import_into

    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=None, prefix="merge")
    table = create_table(player, "الخميس")
    record = load_example("trix-partnership-complete")
    import_into(
        player, table, [record, {**record, "players": ["Rami", "Lina", "Omar", "Dina"]}], tmp_path
    )
    page.goto(table + "/players")
    page.locator(".roster-edit li", has_text="Dina").locator("a[href*='/merge']").click()
    page.locator(".game-list a", has_text="Dana").click()
    merge_url = page.url
    page.locator("form button.primary").click()
    page.wait_for_url(re.compile(r"/players$"))
    page.goto(merge_url)  # reopened: the address in the history, a second phone's tab
    assert page.url.endswith("/players")
    expect(page.locator(".flash")).to_contain_text("دُمج")
    expect(page.locator(".roster-edit li", has_text="Dina")).to_have_count(0)
    check_layout(page, "the roster after a merge page reopened")
