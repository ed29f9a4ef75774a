"""A partnership team is named in the reader's words ("Rami & Omar", "رامي و عمر") with each
player's name isolated, on the scoreboard and in the final standings alike."""

from __future__ import annotations

from tests.conftest import Table


def test_the_scoreboard_names_teams_in_the_readers_words(table: Table) -> None:
    table.new_game("trix", "partnership", players=("Rami", "Lina", "عمر", "Dana"), first=0)
    arabic = table.client.get(f"{table.url}", headers={"Accept-Language": "ar"})
    html = arabic.get_data(as_text=True)
    assert "<bdi>Rami</bdi> و <bdi>عمر</bdi>" in html
    assert "<bdi>Rami</bdi> &amp; <bdi>عمر</bdi>" not in html
    english = table.client.get(f"{table.url}", headers={"Accept-Language": "en"})
    assert "<bdi>Rami</bdi> &amp; <bdi>عمر</bdi>" in english.get_data(as_text=True)
