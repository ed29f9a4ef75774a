"""Keyboard only: every control of a deal form is reachable with Tab and shows where focus is;
Space picks a chip, the arrow keys move along a row (mirrored in Arabic), Enter saves."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .driver import GAME_PAGE, Player, load_example

pytestmark = pytest.mark.browser

KEY_JS = """
const keyOf = (el) => el.matches('input[type=radio]') ? `radio:${el.name}`
  : `${el.tagName.toLowerCase()}:${el.getAttribute('href') || el.name
       || el.textContent.trim().slice(0, 20)}`;
const chipOf = (el) => el.matches('.chip-input')
  ? (el.closest('label') || document.querySelector(`label[for="${el.id}"]`)) : el;
"""

FOCUS_JS = (
    """
() => {"""
    + KEY_JS
    + """
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const target = chipOf(el);
  const style = getComputedStyle(target);
  const box = target.getBoundingClientRect();
  return {
    key: keyOf(el),
    visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
    shown: box.width > 0 && box.height > 0,
    name: el.name || null, value: el.value || null, checked: !!el.checked,
  };
}
"""
)

CONTROLS_JS = (
    """
() => {"""
    + KEY_JS
    + """
  const selector = 'a[href], button:not([disabled]), input:not([type=hidden]), textarea, summary';
  return [...document.querySelectorAll(selector)].filter((el) => {
    // inside a closed <details> only its summary takes focus
    if (el.closest('details:not([open])') && !el.matches('summary')) return false;
    const box = chipOf(el).getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  }).map(keyOf);
}
"""
)


def _walk(page: Page, limit: int = 200) -> list[dict]:  # type: ignore[type-arg]
    """Tab from the top of the page until focus comes back round; every stop on the way."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    stops: list[dict] = []  # type: ignore[type-arg]
    outside = 0  # Tab past the last control leaves the page once before it comes round again
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUS_JS)
        if focused is None:
            outside += 1
            if outside > 1 or not stops:
                break
            continue
        if stops and focused["key"] == stops[0]["key"]:
            break
        stops.append(focused)
    return stops


def _tab_to(page: Page, name: str) -> None:
    for _ in range(100):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.name") == name:
            return
    raise AssertionError(f"Tab never reached {name}")


@pytest.mark.parametrize(("locale", "forward"), [("en", "ArrowRight"), ("ar", "ArrowLeft")])
def test_deal_form_by_keyboard(new_context, locale: str, forward: str) -> None:  # type: ignore[no-untyped-def]
    record = load_example("trix-partnership-complete")
    page = new_context(locale=locale).new_page()
    player = Player(page, javascript=True, shots=None, prefix=f"{locale}-keyboard")
    player.start_game(record)
    player.choose("queens")
    player.settle()

    stops = _walk(page)
    reached = {stop["key"] for stop in stops}
    missing = [key for key in page.evaluate(CONTROLS_JS) if key not in reached]
    assert not missing, f"not reachable with Tab: {missing}"
    unmarked = [stop["key"] for stop in stops if stop["shown"] and not stop["visible"]]
    assert not unmarked, f"no visible focus on: {unmarked}"
    radios = [stop for stop in stops if stop["key"].startswith("radio:")]
    assert {stop["name"] for stop in radios} >= {"takers-S", "takers-H", "takers-D", "takers-C"}

    # Space picks the focused chip; the arrow key moves to the next player's chip.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    _tab_to(page, "takers-S")
    page.keyboard.press("Space")
    player.settle()
    expect(page.locator('input[name="takers-S"][value="0"]')).to_be_checked()
    assert page.evaluate("() => document.activeElement.name") == "takers-S", (
        "focus was lost when the form updated"
    )
    assert page.evaluate(FOCUS_JS)["visible"], "the chip lost its focus ring when the form updated"
    page.keyboard.press(forward)
    player.settle()
    expect(page.locator('input[name="takers-S"][value="1"]')).to_be_checked()
    for card in "HDC":
        _tab_to(page, f"takers-{card}")
        page.keyboard.press("Space")
        player.settle()
        expect(page.locator(f'input[name="takers-{card}"][value="0"]')).to_be_checked()

    save = page.locator("#deal-form button.save")
    expect(save).to_be_enabled()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#deal-form button.save')"):
            break
    else:
        raise AssertionError("Tab never reached the Save button")
    assert page.evaluate(FOCUS_JS)["visible"]
    page.keyboard.press("Enter")
    page.wait_for_url(GAME_PAGE)
    expect(page.locator(".history tbody tr:not(.deal-details)")).to_have_count(1)
