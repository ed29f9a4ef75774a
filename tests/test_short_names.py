"""Short forms of the players' names for rows of chips (scorekeeper.words.names.short_names):
derived in one place, unique among the four, cut at their end, never their start."""

from __future__ import annotations

import pytest

from scorekeeper.words.names import short_names


@pytest.mark.parametrize(("players", "expected"), [
    (("Rami", "Lina", "Omar", "Dana"), ("Rami", "Lina", "Omar", "Dana")),
    (("Muhammed Ali Karakaya", "Ayşe Nur", "Lina", "Omar"), ("Muham…", "Ayşe", "Lina", "Omar")),
    (("Ali Demir", "Ali Kaya", "Rami", "Omar"), ("Ali D.", "Ali K.", "Rami", "Omar")),
    (("عبد الرحمن الحسيني", "سامي", "ليلى", "عمر"), ("عبدالرح…", "سامي", "ليلى", "عمر")),
    (("Abdurrahmanoğlu", "Ali", "Ali Can Yılmaz", "Ali Can Kaya"),
     ("Abdur…", "Ali", "Ali Y.", "Ali K.")),
    # first names too long to keep beside an initial: cut shorter, so the initial shows
    (("Muhammed Ali", "Muhammed Emin", "Rami", "Omar"), ("Mu… A.", "Mu… E.", "Rami", "Omar")),
    # عبد الرحيم is one first name; الشامي's initial is ش, not the article's ا
    (("عبد الرحمن الشامي", "عبد الرحيم", "Rami", "Omar"), ("عبد… ش.", "عبدالرح…", "Rami", "Omar")),
])
def test_short_names(players: tuple[str, ...], expected: tuple[str, ...]) -> None:
    assert short_names(players) == expected


def test_only_the_names_still_alike_stay_whole() -> None:
    players = ("Alexandra Smith", "Alexandra Smyth", "Muhammed Ali Karakaya", "Omar")
    assert short_names(players) == ("Alexandra Smith", "Alexandra Smyth", "Muham…", "Omar")


def test_a_short_name_is_the_start_of_the_name() -> None:
    players = ("Muhammed Ali Karakaya Abdurrahmanoğlu Xy", "Александра Константинопольская",
               "राजेश्वरी कुमारी श्रीवास्तव", "عبد الرحمن بن محمد الحسيني القرشي الهاشم")
    for short, name in zip(short_names(players), players, strict=True):
        assert name.replace(" ", "").startswith(short.rstrip("…").replace(" ", ""))
        assert not short.rstrip("…")[-1:].isspace()


def test_names_alike_to_the_end_stay_whole() -> None:
    players = ("Alexandra Smith", "Alexandra Smyth", "Rami", "Omar")
    assert short_names(players) == players
