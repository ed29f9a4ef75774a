"""The deal form helps correct mistakes (issue 15, item 6): a running sum per count field, the
value the app filled in marked and recomputed while it is the only one left, and a player
placed twice in a finishing order named at once."""

from __future__ import annotations

import re

from tests.conftest import Page, Phone


def _started(phone: Phone) -> Page:
    phone.new_game("trix", "solo", first=0)
    return phone.open_deal("diamonds")


def _checked(html: str, name: str) -> tuple[str, bool] | None:
    """The checked value of a chip row in an answer, and whether the app filled it."""
    row = re.search(rf'<fieldset class="chip-row[^"]*" id="r-{name}".*?</fieldset>', html, re.S)
    if row is None:
        return None
    chip = re.search(r'value="(\d*)" checked( data-filled)?', row.group(0))
    assert chip is not None
    return chip.group(1), bool(chip.group(2))


def _sum(html: str, name: str) -> str:
    found = re.search(
        rf'<div class="errors" id="e-{name}"[^>]*>'
        rf'<p class="sum( over)?" dir="ltr">([^<]*)</p>',
        html,
    )
    assert found is not None, html
    return found.group(2) + (" over" if found.group(1) else "")


def _marks(html: str) -> str:
    found = re.search(r'name="autofilled" id="deal-filled" value="([^"]*)"', html)
    assert found is not None
    return found.group(1)


def test_the_running_sum_follows_the_first_tap(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    href = Page(phone.game_page().get_data(as_text=True)).link_with(contract="diamonds")
    assert 'class="sum' not in phone.client.get(href).get_data(as_text=True)
    form = phone.open_deal("diamonds")
    html = phone.preview(form, {"counts-0": "5"}).get_data(as_text=True)
    assert _sum(html, "counts") == "5 / 13"


def test_a_filled_count_is_marked_and_recomputed(phone: Phone) -> None:
    form = _started(phone)
    first = phone.preview(form, {"counts-0": "5", "counts-1": "4", "counts-2": "3"})
    html = first.get_data(as_text=True)
    assert _checked(html, "counts-3") == ("1", True)  # filled, and drawn as the app's
    assert _marks(html) == "counts-3:1"
    assert _sum(html, "counts") == "13 / 13"
    # 5 → 6: the app's 1 becomes 0, no "add up to 14"
    second = phone.preview(
        form,
        {
            "counts-0": "6",
            "counts-1": "4",
            "counts-2": "3",
            "counts-3": "1",
            "autofilled": "counts-3:1",
        },
    )
    html = second.get_data(as_text=True)
    assert _checked(html, "counts-3") == ("0", True)
    assert _marks(html) == "counts-3:0"
    assert _sum(html, "counts") == "13 / 13"
    assert "add up to" not in html
    assert 'id="deal-save" class="button primary save" hx-swap-oob' in html  # enabled
    assert "disabled hx-swap-oob" not in html.split('id="deal-save"', 1)[1][:80]


def test_a_tapped_count_is_never_recomputed(phone: Phone) -> None:
    form = _started(phone)
    # the player tapped 2 over the app's 1: the mark no longer holds, the tap stands
    response = phone.preview(
        form,
        {
            "counts-0": "6",
            "counts-1": "4",
            "counts-2": "3",
            "counts-3": "2",
            "autofilled": "counts-3:1",
        },
    )
    html = response.get_data(as_text=True)
    assert _checked(html, "counts-3") is None  # not sent again: as tapped
    assert _marks(html) == ""
    assert _sum(html, "counts") == "15 / 13 over"
    assert "add up to 15" in html


def test_a_player_placed_twice_is_named_at_once(phone: Phone) -> None:
    phone.new_game("trix", "solo", first=0)
    form = phone.open_deal("trix")
    response = phone.preview(form, {"order-0": "2", "order-1": "2"})
    html = response.get_data(as_text=True)
    errors = re.search(r'<div class="errors" id="e-order"[^>]*>(.*?)</div>', html, re.S)
    assert errors is not None
    assert "Omar is placed twice" in errors.group(1)
    assert "2nd" in errors.group(1)
    # once fixed, the message goes
    fixed = phone.preview(form, {"order-0": "2", "order-1": "1"}).get_data(as_text=True)
    assert "placed twice" not in fixed
