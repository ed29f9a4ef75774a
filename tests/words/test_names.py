"""The forms of the players' names for places that may be too narrow for them
(scorekeeper.words.names: name_forms, short_names, all_name_forms): the whole name where it
fits, else a form no other of the four could be read as, never a changed spelling."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.words.names import (
    NAME_WIDTHS,
    SHORT_NAME_WIDTH,
    all_name_forms,
    name_forms,
    short_names,
    text_width,
)

TABLES = [
    ("Rami", "Lina", "Omar", "Dana"),
    ("Abdullah Saleh", "Abdullah Salem", "Maria", "Marianne"),
    ("Muhammed Ali Karakaya", "Ayşe Nur", "Lina", "Omar"),
    ("Ali Demir", "Ali Kaya", "Rami", "Omar"),
    ("عبد الرحمن الحسيني", "عبد الرحيم", "İbrahim", "ليلى"),
    ("Abdurrahmanoğlu", "Ali", "Ali Can Yılmaz", "Ali Can Kaya"),
    ("Alexandra Smith", "Alexandra Smyth", "Muhammed Ali Karakaya", "Omar"),
    ("Константинопольская", "Преображенский", "Александра Петрова", "Мария"),
    (
        "Muhammed Ali Karakaya Abdurrahmanoğlu Xy",
        "عبد الرحمن بن محمد الحسيني القرشي الهاشم",
        "Александра Константинопольская-Петровна",
        "राजेश्वरी कुमारी श्रीवास्तव शर्मा वर्मा",
    ),
    ("राजेश्वरी कुमारी श्रीवास्तव", "राजेश्वरी कुमारी शर्मा", "Çağla Öztürk", "Çağla Özdemir"),
]


def could_be(form: str, name: str) -> bool:
    """Whether a reader could take `form` for `name`: the name itself or its first word(s),
    or a start and an end of it with "…" for what is left out."""
    form, name = form.casefold(), name.casefold()
    if "…" not in form:
        return name == form or name.startswith(form + " ")
    head, _, tail = form.partition("…")
    tail = tail.lstrip(" ") if name[: len(name) - len(tail.lstrip(" "))].endswith(" ") else tail
    return len(name) >= len(head) + len(tail) and name.startswith(head) and name.endswith(tail)


@pytest.mark.parametrize("players", TABLES)
@pytest.mark.parametrize("room", NAME_WIDTHS)
def test_each_form_names_its_player_only(players: tuple[str, ...], room: float) -> None:
    forms = name_forms(players, room)
    for seat, form in enumerate(forms):
        assert could_be(form, players[seat]), (form, players[seat])
        if form == players[seat]:
            continue  # the whole name: "Ali" beside "Ali Can K…" is Ali
        for other in set(range(4)) - {seat}:
            assert not could_be(form, players[other]), (form, players[other])


@pytest.mark.parametrize("players", TABLES)
def test_a_form_keeps_the_spelling(players: tuple[str, ...]) -> None:
    """Every letter and space shown is the name's own, in its order; a cut never ends on a
    space or splits a letter from its vowel sign or virama."""
    for forms, name in zip(all_name_forms(players), players, strict=True):
        for form in forms:
            head, cut, tail = form.partition("…")
            assert name.startswith(head) and name.endswith(tail.lstrip(" "))
            if cut:
                assert head and not head[-1].isspace() and head[-1] != "\u094d"
                assert tail.lstrip(" ")[:1].isalnum() or not tail


def test_the_whole_name_where_it_fits() -> None:
    assert short_names(("Rami", "Lina", "Omar", "Dana")) == ("Rami", "Lina", "Omar", "Dana")
    players = ("İbrahim", "Lina", "Omar", "Dana")
    assert name_forms(players, 10) == players
    # whole first, then narrower: the page shows the first that fits
    forms = all_name_forms(("Abdullah Saleh", "Abdullah Salem", "Maria", "Marianne"))
    assert forms[0][0] == "Abdullah Saleh" and forms[3][0] == "Marianne"
    assert forms[2] == ("Maria",) * 4  # one form at every width (the widths line up)
    for seat_forms in forms:
        widths = [text_width(form) for form in seat_forms]
        assert widths == sorted(widths, reverse=True)


def test_the_issues_table() -> None:
    """Two score cards read "Abdullah …", chips "Maria" beside "Maria…" (issue 24, item 1)."""
    short = short_names(("Abdullah Saleh", "Abdullah Salem", "Maria", "Marianne"))
    assert short[2] == "Maria" and not short[3].startswith("Maria…")
    assert short[0] != short[1] and all(text_width(form) <= SHORT_NAME_WIDTH for form in short)


def test_the_first_name_and_the_last_word_before_a_cut_inside_the_name() -> None:
    """«عبدالله الراشدي ا…» beside «عبدالله الراشد ال…»: two cuts one letter apart; the
    first name and the family name tell them apart at a glance (issue 32, item 3)."""
    players = ("عمر", "عبدالله الراشدي العتيبي", "سامي", "عبدالله الراشد العنزي")
    assert name_forms(players, 14)[1::2] == ("عبدالله… العتيبي", "عبدالله… العنزي")
    players = ("Ali Can Yılmaz", "Ali Can Kaya", "Rami", "Omar")
    assert name_forms(players, 12)[0] == "Ali… Yılmaz"  # not "Ali Can Yıl…"
    assert name_forms(players, 10)[1] == "Ali… Kaya"  # not "Ali Can K…"


def test_a_space_is_never_dropped() -> None:
    """عبد الرحمن stays two words (it was cut to "عبدالرح…")."""
    for forms in all_name_forms(("عبد الرحمن الحسيني", "عبد الرحيم", "سامي", "ليلى")):
        for form in forms:
            assert "عبدال" not in form


@pytest.mark.parametrize(
    "players",
    [tuple(p) for p in itertools.permutations(("Ali", "Ali Can", "Ali Can Kaya", "Alican"))],
)
def test_prefixes_of_one_another(players: tuple[str, ...]) -> None:
    for room in NAME_WIDTHS:
        forms = name_forms(players, room)
        for seat, form in enumerate(forms):
            assert (
                form == players[seat] or [could_be(form, name) for name in players].count(True) == 1
            ), (form, players)
