"""A partnership team is named in the reader's words ("Rami & Omar", "رامي وعمر"): on the
score cards, and in the standings with each player's name isolated."""

from __future__ import annotations

from tests.conftest import Phone


def test_the_scoreboard_names_teams_in_the_readers_words(phone: Phone) -> None:
    phone.new_game("trix", "partnership", players=("Rami", "Lina", "عمر", "Dana"), first=0)
    arabic = phone.client.get(f"{phone.url}", headers={"Accept-Language": "ar"})
    html = arabic.get_data(as_text=True)
    assert '<span class="name"><bdi>Rami وعمر</bdi></span>' in html
    assert "Rami &amp; عمر" not in html
    english = phone.client.get(f"{phone.url}", headers={"Accept-Language": "en"})
    assert '<span class="name"><bdi>Rami &amp; عمر</bdi></span>' in english.get_data(as_text=True)
