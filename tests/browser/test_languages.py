"""Turkish King by taps at 390 × 844 in Russian and in Hindi, the languages the game reached us
in: players with long Cyrillic and Devanagari names, the pages checked for layout all the way,
the final standings the engine's."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from .driver import Player, expected_standings, load_example

pytestmark = pytest.mark.browser

CASES = {
    "ru": (
        ("Александра Константинопольская", "Вячеслав", "Екатерина Дмитриевна", "Жора"),
        "Turkish King",  # seed 003's name: «Кинг» is Russian King, another game
        "Не брать короля червей",
        "Итоги партии",
    ),
    "hi": (
        ("राजेश्वरी कुमारी श्रीवास्तव", "अमिताभ", "सुब्रह्मण्यम", "दीपा"),
        "टर्किश किंग",  # seed 004's name
        "पान का बादशाह नहीं",
        "अंतिम नतीजा",
    ),
}


def has_font_for(language: str) -> bool:
    """Whether fontconfig has a font for the language (else Chromium draws empty boxes)."""
    fc_list = shutil.which("fc-list")
    return bool(
        fc_list
        and subprocess.run(
            [fc_list, f":lang={language}"], capture_output=True, text=True, check=False
        ).stdout.strip()
    )


@pytest.mark.parametrize("locale", sorted(CASES))
def test_turkish_king_by_taps(new_context, screenshots, locale: str) -> None:  # type: ignore[no-untyped-def]
    assert has_font_for(locale), f"no {locale} font: `apt-get install fonts-lohit-deva`"
    players, game_name, no_king, final = CASES[locale]
    record = {**load_example("turkish-king-complete"), "players": list(players)}
    page = new_context(locale=locale).new_page()
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator(f".languages a[lang={locale}]")).to_have_attribute("aria-current", "true")
    player = Player(page, javascript=True, shots=screenshots, prefix=f"{locale}-king")
    player.start_game(record)
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.locator("h1.game-title")).to_have_text(game_name)
    expect(page.locator(".next .contracts")).to_contain_text(no_king)
    player.play(record)
    player.check(f"{locale}: finished game")
    player.shot("finished", full_page=False)
    expect(page.locator(".finished h2")).to_have_text(final)
    assert player.finished_standings() == expected_standings(record)
    for seat, name in enumerate(players):  # each card: the name whole where it fits, else
        # its first name or its start cut with "…" (never cut at its start, never respelt)
        shown = page.locator(".scoreboard .totals .name").nth(seat).inner_text().strip()
        head, cut, tail = shown.partition("…")
        assert (
            shown == name
            or name.startswith(shown + " ")
            or (cut and name.startswith(head) and name.endswith(tail.strip()))
        ), (shown, name)
    page.click(".rules-link a")
    player.check(f"{locale}: rules of this game")
    player.shot("rules")
