"""Playing a game through the real pages by taps, and checking every page's layout on the way."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from scorekeeper.rules import record_from_json, replay
from scorekeeper.words.labels import signed

DATA = Path(__file__).parent / "data"
GAME_PAGE = re.compile(r"/g/[^/?#]+$")

LAYOUT_JS = """
() => {
  const problems = [];
  const width = window.innerWidth;
  const root = document.documentElement;
  if (root.scrollWidth > width) {
    problems.push(`the page scrolls sideways: ${root.scrollWidth}px content in ${width}px`);
  }
  const describe = (el) => {
    const text = (el.innerText || el.getAttribute('aria-label') || el.value || '').trim();
    return `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${text.slice(0, 30)}"`;
  };
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden'
      && style.position !== 'absolute' && style.position !== 'fixed';
  };
  const scrolls = (el) => el.closest('.table-scroll') !== null;
  // Side by side things must not overlap one another.
  const rows = document.querySelectorAll(
    '.chips, .choices, .contracts, .seat-buttons, .totals, .teams, .actions, header.top, '
    + '.languages, .row, .export-links, .deal-scores, .rules-other, .negatives, .game-list');
  for (const row of rows) {
    if (!shown(row)) continue;
    const kids = [...row.children].filter(shown);
    const boxes = kids.map((el) => el.getBoundingClientRect());
    for (let i = 0; i < kids.length; i++) {
      for (let j = i + 1; j < kids.length; j++) {
        const a = boxes[i], b = boxes[j];
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) {
          problems.push(`${describe(kids[i])} overlaps ${describe(kids[j])}`);
        }
      }
    }
  }
  // Every control and piece of text is inside the screen and shows all its text.
  const things = document.querySelectorAll(
    'a, button, label, .chip, .button, input:not(.chip-input), textarea, h1, h2, p, li, legend, '
    + 'dt, dd, th, td, .total, bdi');
  for (const el of things) {
    if (!shown(el) || scrolls(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.left < -1 || box.right > width + 1) {
      const span = `${Math.round(box.left)}..${Math.round(box.right)}`;
      problems.push(`${describe(el)} sticks out of the screen (${span})`);
    }
    if (el.matches('.chip, .button, button, .total') && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${describe(el)} cuts its text (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  return problems;
}
"""


def load_example(name: str) -> dict[str, Any]:
    """A complete game record from tests/browser/data."""
    return json.loads((DATA / f"{name}.json").read_text())


def engine_totals(record: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Per-seat and (partnership) team totals of a record, replayed by the rules engine."""
    result = replay(record_from_json(record).game)
    assert result.finished
    return tuple(result.totals), (tuple(result.team_totals) if result.team_totals else None)


def check_layout(page: Page, where: str) -> None:
    """No sideways scrolling, nothing overlapping, nothing cut off, at the phone's width."""
    problems = page.evaluate(LAYOUT_JS)
    assert not problems, f"{where} ({page.url}): " + "; ".join(problems)


def chip_label(page: Page, name: str, value: str) -> Locator:
    """The tap target of a radio button or checkbox: its label (around it or `for` it), shown
    as a person shows it: a count row's higher numbers wait behind their "6–13" chip at tap
    width, which is tapped first (a tap a person makes too)."""
    field = page.locator(f'input[name="{name}"][value="{value}"]')
    identifier = field.first.get_attribute("id") if field.count() else None
    if identifier and page.locator(f'label[for="{identifier}"]').count():
        return page.locator(f'label[for="{identifier}"]')
    label = page.locator(f'label:has(> input[name="{name}"][value="{value}"])')
    more = page.locator(f"#r-{name} .chip.more")
    label.first.wait_for(state="attached")
    if not label.first.is_visible() and more.count() and more.is_visible():
        more.click()
    return label


def settle(page: Page) -> None:
    """Wait for htmx: no request in flight, no swap settling (new content is not live yet)."""
    page.wait_for_function(
        "() => document.readyState === 'complete' && !document.querySelector("
        "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def tap_contract(page: Page, game: str, contract: str) -> None:
    """On the game page: the contract's button; its form takes the next step's place."""
    page.goto(game)
    settle(page)
    page.locator(f"#play a.contract[href*='contract={contract}']").click()
    settle(page)
    expect(page.locator("#deal-form")).to_be_visible()


class Player:
    """Taps through the app as a player at the table would; checks each page it reaches."""

    def __init__(self, page: Page, *, javascript: bool, shots: Path | None, prefix: str) -> None:
        self.page = page
        self.javascript = javascript
        self.shots = shots
        self.prefix = prefix
        self.pages_checked = 0
        self.shot_names: set[str] = set()

    # --- general -------------------------------------------------------------------------

    def settle(self) -> None:
        """Wait until htmx has no request in flight and has wired up what it swapped in."""
        if self.javascript:
            settle(self.page)

    def check(self, where: str) -> None:
        self.settle()
        check_layout(self.page, where)
        self.pages_checked += 1

    def shot(
        self,
        name: str,
        *,
        full_page: bool = True,
        element: str | None = None,
        max_height: int = 1400,
    ) -> None:
        """Save a screenshot once per name (the first time that screen is seen).

        With `element`, only that part of the page, at most `max_height` pixels of it.
        """
        if self.shots is None or name in self.shot_names:
            return
        self.shot_names.add(name)
        path = str(self.shots / f"{self.prefix}-{name}.png")
        if element is None:
            self.page.screenshot(path=path, full_page=full_page)
            return
        box = self.page.evaluate(
            """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
               return {x: r.left + scrollX, y: r.top + scrollY, width: r.width,
                       height: r.height}; }""",
            element,
        )
        box["height"] = min(box["height"], max_height)
        self.page.screenshot(path=path, full_page=True, clip=box)

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()

    def press(self, target: Any) -> None:
        """Tap a form's button (a selector or a locator): with htmx, until its swap settles;
        without JavaScript, until the page it posts to has loaded (the page being left must
        not be read as the answer)."""
        button = self.page.locator(target).first if isinstance(target, str) else target
        if self.javascript:
            button.click()
            self.settle()
        else:
            with self.page.expect_navigation():
                button.click()

    def chip(self, name: str, value: str):  # type: ignore[no-untyped-def]
        """The tap target of a radio button or checkbox: its label (around it or `for` it)."""
        field = self.page.locator(f'input[name="{name}"][value="{value}"]')
        return field, chip_label(self.page, name, value)

    def tap_choice(self, name: str, value: str) -> None:
        """Tap the chip of a radio button by its name and value; it must then be checked."""
        field, label = self.chip(name, value)
        label.click()
        expect(field).to_be_checked()

    # --- a game ----------------------------------------------------------------------------

    def start_game(self, record: dict[str, Any]) -> None:
        """From the home page: new game, its setup, then who is first."""
        page = self.page
        page.goto("/")
        self.check("home")
        self.tap("a.button.primary[href$='/new']")
        page.wait_for_url(re.compile(r"/new$"))
        self.check("new game")
        self.shot("new-game")
        self.tap_choice("game", record["game"])
        self.tap_choice("mode", record["mode"])
        for seat, name in enumerate(record["players"]):
            page.fill(f'input[name="player_{seat}"]', name)
        rules = record.get("house_rules", {})
        if rules.get("doubled_self_take"):
            self.tap_choice("doubled_self_take", rules["doubled_self_take"])
        if "doubling" in rules and not rules["doubling"]:
            page.uncheck('input[name="doubling"]')
        for choice in ("doubled_queen_of_diamonds", "complex_tricks", "winners"):
            if rules.get(choice):
                self.tap_choice(choice, rules[choice])
        self.check("new game, filled in")
        self.tap("form button[type=submit].primary")
        page.wait_for_url(GAME_PAGE)
        self.check("who is first")
        self.shot("choose-first")
        self.tap(f'.seat-buttons button[value="{record["first"]}"]')
        page.wait_for_url(GAME_PAGE)
        expect(page.locator(".next .contracts")).to_be_visible()

    def play(self, record: dict[str, Any]) -> None:
        """Enter every deal of the record by taps, checking the pages on the way."""
        for number, raw in enumerate(record["deals"], start=1):
            self.check(f"game page before deal {number}")
            self.shot("game-start")
            if number == len(record["deals"]) // 2 + 2:
                self.shot("choose-contract")  # mid-game: some contracts are closed by now
            self.choose(raw["contract"])
            self.check(f"deal {number} form ({raw['contract']})")
            self.enter(raw)
            self.check(f"deal {number} filled in ({raw['contract']})")
            self.shot(f"deal-{raw['contract']}")
            self.save(number)

    def choose(self, contract: str) -> None:
        self.tap(f'.next a.contract[href*="contract={contract}"]')
        self.page.wait_for_url(re.compile(r"/deal\?"))
        expect(self.page.locator("#deal-form")).to_be_visible()

    def enter(self, raw: dict[str, Any]) -> None:
        """Tap the chip of every value the deal records."""
        taps = list(chip_taps(raw))
        for name, value in taps:
            self.chip(name, value)[1].click()
            self.settle()
        for name, value in taps:
            expect(self.chip(name, value)[0]).to_be_checked()

    def save(self, number: int) -> None:
        page = self.page
        save = page.locator("#deal-form button.save")
        expect(save).to_be_enabled()
        save.click()
        page.wait_for_url(GAME_PAGE)
        flash = page.locator(".flash-success")
        expect(flash).to_be_visible()
        expect(flash).to_contain_text(str(number))
        if self.javascript:  # saved in place: focus went to the next step, in sight
            expect(page.locator("#play h2")).to_be_focused()
            self.settle()
            hidden = page.evaluate(
                "() => document.querySelector('.scoreboard').getBoundingClientRect().bottom"
                " - document.querySelector('#play h2').getBoundingClientRect().top"
            )
            assert hidden <= 1, f"deal {number}: the next step is {hidden} px under the totals"

    def finished_standings(self) -> dict[str, str]:
        """Name → total as the finished page shows them."""
        page = self.page
        expect(page.locator(".standings")).to_be_visible()
        shown = {}
        for item in page.locator(".standings li").all():
            shown[item.locator("bdi").inner_text()] = item.locator("strong").inner_text()
        return shown


def chip_taps(raw: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(chip field name, value) for each value of a raw deal, as the form names its chips."""
    for key, value in raw.items():
        if key == "contract" or value is None:
            continue
        if isinstance(value, dict):
            for card, seat in value.items():
                yield f"{key}-{card}", str(seat)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield f"{key}-{index}", str(item)
        else:
            yield key, str(value)


def expected_standings(record: dict[str, Any]) -> dict[str, str]:
    totals, _ = engine_totals(record)
    return {name: signed(total) for name, total in zip(record["players"], totals, strict=True)}


SIGN_JS = """
(selector) => {
  const wrong = [];
  for (const el of document.querySelectorAll(selector)) {
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE || !/^[+−-]\\d/.test(text.data)) continue;
    const range = document.createRange();
    range.setStart(text, 0); range.setEnd(text, 1);
    const sign = range.getBoundingClientRect();
    range.setStart(text, 1); range.setEnd(text, text.data.length);
    const digits = range.getBoundingClientRect();
    if (sign.left >= digits.left) wrong.push(`${text.data} shows its sign after the digits`);
  }
  return wrong;
}
"""


def check_signs_lead(page: Page, selector: str) -> None:
    """Signed scores show their sign before the digits, "−150", also in right-to-left pages."""
    wrong = page.evaluate(SIGN_JS, selector)
    assert not wrong, "; ".join(wrong)
