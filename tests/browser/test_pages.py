"""The language switch, the rules pages, the manifest and the keep-awake script in the browser."""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from .driver import DATA, GAME_PAGE, Player, check_layout, load_example, settle

pytestmark = pytest.mark.browser

GAMES = ("trix", "trix-complex", "turkish-king")


def test_language_is_switched_and_remembered(new_context) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale="tr-TR").new_page()
    page.goto("/rules/trix")
    expect(page.locator("html")).to_have_attribute("lang", "tr")  # from Accept-Language
    page.click(".languages a[lang=ar]")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    assert page.url.endswith("/rules/trix"), "the switch comes back to the same page"
    expect(page.locator("h1")).to_have_text("قواعد تركس")
    page.goto("/new")
    expect(page.locator("html")).to_have_attribute("lang", "ar")  # remembered
    expect(page.locator(".languages a[aria-current]")).to_have_text("العربية")
    page.click(".languages a[lang=en]")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.locator("h1")).to_have_text("New game")


@pytest.mark.parametrize("locale", ["ar", "en", "tr", "ru", "hi"])
def test_rules_pages_fit_the_phone(new_context, screenshots, locale: str) -> None:  # type: ignore[no-untyped-def]
    page = new_context(locale=locale).new_page()
    for game in GAMES:
        page.goto(f"/rules/{game}")
        check_layout(page, f"rules of {game} in {locale}")
        expect(page.locator(".rules-table tbody tr")).to_have_count(
            {"trix": 5, "trix-complex": 2, "turkish-king": 7}[game]
        )
        page.screenshot(path=str(screenshots / f"{locale}-rules-{game}.png"), full_page=True)


def test_rules_of_a_game_show_its_house_rules(new_context) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-complex-solo-complete")  # doubled_self_take: full
    page = new_context(locale="en").new_page()
    Player(page, javascript=True, shots=None, prefix="en-house").start_game(record)
    page.click(".rules-link a")
    expect(page.locator("h1")).to_have_text("Rules of Trix Complex")
    expect(page.locator(".house-rules")).to_contain_text("loses the full doubled penalty")
    expect(page.locator("#rules-doubling + ul")).to_contain_text("−150")
    page.click("text=Back to the game")
    expect(page.locator(".next .contracts")).to_be_visible()


def test_manifest_icons_and_keep_awake(new_context, server) -> None:  # type: ignore[no-untyped-def]
    # with the engine (a blocked engine's config would be a console error of the test's own)
    context = new_context(locale="en", engine=True)
    page = context.new_page()
    problems: list[str] = []
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto("/")
    manifest_url = page.locator('link[rel="manifest"]').get_attribute("href")
    assert manifest_url
    response = context.request.get(server + manifest_url)
    assert response.ok
    manifest = json.loads(response.text())
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        fetched = context.request.get(urljoin(server + manifest_url, icon["src"]))
        assert fetched.ok and fetched.headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            body = fetched.body()
            width = int.from_bytes(body[16:20], "big")
            assert f"{width}x{width}" == icon["sizes"]

    # The keep-awake script asks for a wake lock on game pages only, and fails quietly.
    page.add_init_script("""
        window.__wakeRequests = 0;
        Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
          request: () => { window.__wakeRequests += 1;
                           return Promise.resolve({release: () => Promise.resolve(),
                                                   addEventListener: () => {}}); }}});
    """)
    page.goto("/")
    settle(page)
    assert page.evaluate("window.__wakeRequests") == 0
    Player(page, javascript=True, shots=None, prefix="wake").start_game(
        load_example("turkish-king-complete")
    )
    page.reload()
    settle(page)
    assert page.evaluate("window.__wakeRequests") == 1
    assert page.locator("script:not([src])").count() == 0, "no inline scripts (CSP)"
    # following the game with no deal form open logs nothing either (a poll every few seconds)
    with page.expect_response(lambda response: "/live" in response.url, timeout=30_000):
        pass
    assert not problems, problems


@pytest.mark.parametrize("locale", ["ar", "tr"])
def test_other_pages_fit_the_phone(new_context, screenshots, locale: str) -> None:  # type: ignore[no-untyped-def]
    """Import, a game imported, editing a past deal, undo, delete and an error page."""
    page = new_context(locale=locale).new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix=f"{locale}-pages")
    page.goto("/import")
    player.check("import page")
    player.shot("import", full_page=False)
    page.set_input_files("input[type=file]", str(DATA / "turkish-king-in-progress.json"))
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(GAME_PAGE)
    player.check("imported game")
    page.locator(".history a.edit").first.click()
    page.wait_for_url(re.compile(r"/edit"))
    player.check("editing a past deal")
    player.shot("edit-deal")
    page.go_back()
    page.wait_for_url(GAME_PAGE)
    page.locator("a.danger-link").click()
    page.wait_for_url(re.compile(r"/delete$"))
    player.check("delete page")
    player.shot("delete", full_page=False)
    page.goto("/g/no-such-game")
    player.check("not found")
    player.shot("not-found", full_page=False)


@pytest.mark.parametrize("locale", ["ar", "tr"])
def test_a_small_phone_still_fits(new_context, locale: str) -> None:  # type: ignore[no-untyped-def]
    """320 px wide (an old or small phone): the header, the new-game form, a deal form."""
    page = new_context(locale=locale).new_page()
    page.set_viewport_size({"width": 320, "height": 640})
    player = Player(page, javascript=True, shots=None, prefix=f"{locale}-small")
    player.start_game(load_example("trix-complex-solo-complete"))
    player.choose("complex")
    player.check("Complex deal form at 320 px")
    page.goto("/rules/trix")
    player.check("rules at 320 px")


def test_complex_doubles_are_open_and_the_chart_follows(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    """Complex shows its doubles open, as Trix does (issue 44 item 2). After the save, the
    form gives way to the next step and the chart is fetched when it scrolls into view."""
    page = new_context(locale="en").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="en-complex-double")
    player.start_game(load_example("trix-complex-solo-complete"))
    player.choose("complex")
    expect(page.locator('input[name="doubled_by-KH"]')).to_have_count(5)
    player.check("Complex deal form, its doubles open")
    player.enter(
        {
            "contract": "complex",
            "tricks": [5, 4, 3, 1],
            "diamonds": [5, 4, 3, 1],
            "queens": {"S": 0, "H": 1, "D": 2, "C": 3},
            "king_of_hearts": 1,
            "doubled_by": {"KH": 2},
        }
    )
    player.shot("form")
    # a thumb scrolled down the long form to the last chips: after the save, focus brings the
    # next step back into sight, below the sticky totals (the driver's save checks it)
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    player.save(1)
    expect(page.locator("#deal-form")).to_have_count(0)
    expect(page.locator("#play h2")).to_be_focused()
    expect(page.locator("#history-rows tr:not(.deal-details)")).to_have_count(1)
    page.evaluate("() => document.getElementById('chart').scrollIntoView()")
    expect(page.locator("#chart svg")).to_be_visible()  # fetched as it came into view
    player.check("game page after a deal saved in place")
    player.shot("saved")


def test_a_refusal_is_shown_in_arabic(new_context, screenshots) -> None:  # type: ignore[no-untyped-def]
    """The engine's refusal, next to its field, in the reader's language; nothing is saved."""
    page = new_context(locale="ar").new_page()
    player = Player(page, javascript=True, shots=screenshots, prefix="ar-refusal")
    player.start_game(load_example("trix-complex-solo-complete"))
    player.choose("complex")
    player.enter(
        {
            "contract": "complex",
            "tricks": [0, 5, 4, 4],
            "diamonds": [0, 5, 4, 4],
            "queens": {"S": 0, "H": 1, "D": 1, "C": 2},
            "king_of_hearts": 3,
        }
    )
    error = page.locator("#deal-form .error").first
    expect(error).to_contain_text("من لم يأكل أي لطشة لم يأكل أي ورقة")
    expect(page.locator("#deal-form button.save")).to_be_disabled()
    player.check("a refused Complex deal")
    error.scroll_into_view_if_needed()
    player.shot("deal-error", full_page=False)


@pytest.mark.parametrize("javascript", [True, False])
@pytest.mark.parametrize("locale", ["ar", "en"])
def test_the_new_house_rules_are_chosen_by_taps(
    new_context,
    screenshots,
    locale: str,  # type: ignore[no-untyped-def]
    javascript: bool,
) -> None:
    """docs/rules.md's doubled_queen_of_diamonds and winners on the new-game page, with and without
    JavaScript: chosen by a tap, kept for their own game, shown on its rules page."""
    page = new_context(locale=locale, javascript=javascript).new_page()
    for game, rule, value in (
        ("trix-complex", "doubled_queen_of_diamonds", "whole"),
        ("turkish-king", "winners", "positive"),
    ):
        page.goto("/new")
        page.click(f"label[for=game-{GAMES.index(game)}]")
        check_layout(page, f"new {game} in {locale}")
        for seat, name in enumerate(("Rami", "Lina", "Omar", "Dana")):
            page.fill(f"#player_{seat}", name)
        page.click(f"input[name={rule}][value={value}] + label")
        expect(page.locator(f"input[name={rule}][value={value}]")).to_be_checked()
        suffix = "js" if javascript else "nojs"
        page.screenshot(path=str(screenshots / f"{locale}-new-{game}-{suffix}.png"), full_page=True)
        page.click("form button[type=submit].primary")
        page.wait_for_url(re.compile(r"/g/[^/]+$"))
        page.goto(page.url + "/rules")
        shown = page.locator(".house-rules")
        if game == "turkish-king":
            expect(shown).to_contain_text(
                "everyone above zero" if locale == "en" else "كل من أنهى فوق الصفر"
            )
        else:
            # a right-to-left catalogue isolates each number, so its sign leads
            expect(shown).to_contain_text(
                re.compile("\\(\u2066?−70\u2069? / \u2066?\\+35\u2069?\\)")
            )
