"""Accessibility at 390 × 844 (issue 24): axe-core finds nothing on the main pages in English,
Arabic, Russian and Hindi, light and dark, nor on the deal forms in every state a table reaches
by taps (issue 32, item 1: the form that takes the next step's place left the skip link without
its target); every text reads at 4.5:1 (3:1 when large), measured from the page's own styles
too, because axe skips most Arabic text; a keyboard reaches the game's next step through a skip
link. Nor does axe find anything on can still win? under the totals at 360 px (issue 44,
item 15).

axe-core is vendored for these tests only (tests/browser/vendor, its licence beside it) and
given to the test's browser context once, as a script it runs in each page it loads (sending its
650 kB into each page again took a sixth of this module's time, issue 31); the pages keep their
Content-Security-Policy, the test's browser context bypasses it to run the script.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import PHONE, block_engine, serving
from .driver import GAME_PAGE, Player, check_layout, load_example, settle, tap_contract
from .test_table_polish import SIGN_FIRST_JS, imported, part
from .test_tables import create_table, import_into

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server: it imports more games than one address may a session."""
    with serving(tmp_path_factory.mktemp("instance")) as base:
        yield base


AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"

AXE_JS = """
async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' ' + n.failureSummary)}));
}
"""

CONTRAST_JS = """
() => {
  // the colour of a point inside an element, painted from the root down: each background over
  // what is behind it, the text's colour last, every opacity group blended over what it covers
  const rgba = (text) => {
    const n = (text.match(/[\\d.]+/g) || []).map(Number);
    return n.length < 3 ? [0, 0, 0, 0] : [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
  };
  const mix = (top, under, alpha) => under.map((v, i) => top[i] * alpha + v * (1 - alpha));
  const paint = (chain, withText) => {
    const render = (index, behind) => {
      const style = getComputedStyle(chain[index]);
      let colour = behind;
      const back = rgba(style.backgroundColor);
      if (back[3] > 0) colour = mix(back, colour, back[3]);
      if (index === chain.length - 1) {
        if (withText) { const text = rgba(style.color); colour = mix(text, colour, text[3]); }
      } else {
        colour = render(index + 1, colour);
      }
      return mix(colour, behind, Number(style.opacity));
    };
    return render(0, [255, 255, 255]);
  };
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => { v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const problems = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.data).join('').trim();
    if (!/[\\p{L}\\p{N}]/u.test(own)) continue;  // words and numbers (as axe: not a lone ♥)
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    if (box.width < 2 || box.height < 2 || style.visibility !== 'visible'
        || box.bottom + scrollY < 0 || el.closest('[hidden], svg, .visually-hidden, option')
        || el.closest('[aria-disabled="true"], :disabled')) continue;
    const chain = [];
    for (let e = el; e; e = e.parentElement) chain.unshift(e);
    const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const value = ratio(luminance(paint(chain, true)), luminance(paint(chain, false)));
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    if (value < needed - 0.005) {
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      problems.push(`${name} "${own.slice(0, 24)}" ${value.toFixed(2)}:1 (${needed}:1 needed)`);
    }
  }
  return problems;
}
"""


@pytest.fixture(scope="module")
def pages(browser, server, tmp_path_factory) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """The main pages, each (name, address): home, a new game, import, the rules, a game in
    progress and finished, a deal form, a table with its new game, roster, merge and
    statistics, a view link."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    block_engine(context)  # no engine booting in the phone: the pages as the server paints them
    try:
        page = context.new_page()
        player = Player(page, javascript=True, shots=None, prefix="axe")
        table = create_table(player, "Thursday")
        trix = load_example("trix-partnership-complete")
        import_into(
            player,
            table,
            [
                trix,
                {
                    **part(load_example("turkish-king-complete"), 9),
                    "players": ["Rami", "Lina", "Omar", "Dina"],
                },
            ],
            tmp_path_factory.mktemp("axe"),
        )
        games = [
            link.get_attribute("href") or ""
            for link in page.locator(".game-list a[href*='/g/']").all()
        ]
        finished, playing = games[0], games[1]
        if "Deal 20" in page.locator(".game-list a").nth(1).inner_text():
            finished, playing = playing, finished
        page.goto(playing)
        view = page.locator("a.view-link").get_attribute("href") or ""
        page.goto(table + "/players")
        merge = page.locator("a[href*='/merge']").first.get_attribute("href") or ""
        return [
            ("home", "/"),
            ("new game", "/new"),
            ("import", "/import"),
            ("rules", "/rules"),
            ("game", playing),
            ("deal form", playing + "/deal?contract=no-queens"),
            ("finished game", finished),
            ("table", table),
            ("table game", table + "/new"),
            ("roster", table + "/players"),
            ("merge", merge),
            ("statistics", table + "/stats"),
            ("view link", view),
            ("new table", "/tables/new"),
        ]
    finally:
        context.close()


@pytest.fixture
def checker(browser, server) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    contexts = []

    def open_page(locale: str, scheme: str) -> Page:
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=1,
            is_mobile=True,
            has_touch=True,
            locale=locale,
            base_url=server,
            color_scheme=scheme,
            bypass_csp=True,
            extra_http_headers={"Accept-Language": locale},
        )
        block_engine(context)
        context.add_init_script(path=AXE)
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def axe(page: Page) -> list[Any]:
    """What axe-core finds on the page as it stands (no axe in the page: a ReferenceError)."""
    found: list[Any] = page.evaluate(AXE_JS)
    return found


def findings(page: Page, name: str) -> dict[str, Any]:
    """What axe finds on the page as it stands (under `name`), and the texts under 4.5:1 (3:1
    when large) measured from its own styles, which axe does not measure (most Arabic text)."""
    found: dict[str, Any] = {}
    violations = axe(page)
    if violations:
        found[name] = violations
    faint = page.evaluate(CONTRAST_JS)
    if faint:
        found[f"{name} (contrast)"] = faint[:6]
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en", "ar", "ru", "hi"])
def test_axe_finds_nothing_on_the_main_pages(checker, pages, locale: str, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """axe on each main page, and every text at 4.5:1 from the same styles (the contrast axe
    does not measure in Arabic): one load of each page for both."""
    page = checker(locale, scheme)
    found = {}
    for name, url in pages:
        page.goto(url)
        settle(page)
        found.update(findings(page, name))
    assert not found, f"axe ({locale}, {scheme}): {found}"


@pytest.fixture(scope="module")
def deal_games(browser, server) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Games whose deal forms a table reaches: Trix (partnership, doubling on) before its first
    deal and after three, and Trix Complex before its first."""
    context = browser.new_context(viewport=PHONE, base_url=server)
    block_engine(context)
    try:
        page = context.new_page()
        trix = load_example("trix-partnership-complete")
        games = {}
        for name, record in (
            ("trix", part(trix, 0)),
            ("played", part(trix, 3)),
            ("complex", part(load_example("trix-complex-solo-complete"), 0)),
        ):
            imported(page, record)
            games[name] = page.url
        return games
    finally:
        context.close()


def _chip(page: Page, row: str, index: int) -> None:
    page.locator(f"#r-{row} label.chip").nth(index).click()
    settle(page)


def deal_form_states(page: Page, games: dict[str, str]) -> Iterator[str]:
    """Each state of a deal form a table reaches by taps (and a reload, and an edit): the page
    stands in it when its name is given."""
    tap_contract(page, games["trix"], "king-of-hearts")
    yield "K♥ form in the game page"
    _chip(page, "doubled_by", 2)
    _chip(page, "taker", 1)
    expect(page.locator(".deal-scores li")).to_have_count(4)
    yield "K♥ doubled and taken: its preview"
    tap_contract(page, games["trix"], "trix")
    _chip(page, "order-0", 1)
    _chip(page, "order-1", 1)
    expect(page.locator("#deal-form .error").first).to_be_visible()
    yield "Trix with a player placed twice: its errors"
    tap_contract(page, games["complex"], "complex")
    _chip(page, "doubled_by-S", 2)  # its doubles open, as Trix's (issue 44 item 2)
    _chip(page, "tricks-0", 3)
    yield "Complex with a double and a count tapped"
    page.goto(games["trix"] + "/deal?contract=queens")
    settle(page)
    yield "queens form as a page of its own"
    page.goto(games["played"])
    settle(page)
    page.locator("#history a.edit").first.click()
    settle(page)
    expect(page.locator("#deal-form")).to_be_visible()
    expect(page.locator(".change-contract .closed")).to_have_count(2)  # deals 2 and 3's
    yield "editing deal 1: the contracts it cannot become, closed"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en", "ar", "ru", "hi"])
def test_axe_finds_nothing_on_the_deal_forms(checker, deal_games, locale: str, scheme: str) -> None:  # type: ignore[no-untyped-def]
    """axe failed every deal form a tap brings in (`skip-link` "No skip link target" and
    `region`): the skip link pointed at the next step the form had replaced."""
    page = checker(locale, scheme)
    found = {}
    states = 0
    for name in deal_form_states(page, deal_games):
        states += 1
        found.update(findings(page, name))
    assert states == 6
    assert not found, f"axe ({locale}, {scheme}): {found}"


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_a_skip_link_reaches_the_next_step(new_context, locale: str) -> None:  # type: ignore[no-untyped-def]
    """From the page's load: Tab (the skip link shows), Enter, Tab: the first contract (it took
    9 Tabs past the header's links)."""
    page = new_context(locale=locale).new_page()
    imported(page, part(load_example("trix-partnership-complete"), 3))
    page.goto(page.url)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box and box["y"] >= 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    first = page.locator("#play a.contract").first
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/deal\?contract="))
    settle(page)
    assert GAME_PAGE.search(page.url.split("/deal")[0])


# --- issue 44, item 15: can still win? under the totals, at 360 px -----------------------------


@pytest.mark.parametrize("locale", ["ar", "en", "ru", "hi"])
def test_can_still_win_reads_whole_at_360_px(checker, locale: str) -> None:  # type: ignore[no-untyped-def]
    """A partnership decided a deal before its end, and a King game with a player out of reach:
    the outlook's lines under the totals, whole at 360 px, and axe finds nothing."""
    page = checker(locale, "light")  # axe in the page
    page.set_viewport_size({"width": 360, "height": 780})
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
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
        check_layout(page, f"outlook {example} {locale}")
        signs += page.evaluate(SIGN_FIRST_JS, "#outlook")
        found.update(findings(page, f"{example} {locale}"))
    assert not found, found
    assert signs and all(sign["first"] for sign in signs), signs
