"""The game texts' own words on the pages (issue 30): where a text is written in the page's
language, its names for the contracts appear on the rules page and on the contract choice word
for word, beside the players' everyday names; the game is Turkish King in every language; the
cards on every deal form are named in the page's language.

The expected names are copied here from the texts (the seeds, kept beside the project: 003
Russian, 004 Hindi, 000-002 Arabic; GLOSSARY.md cites file and line), so the suite never reads
them.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import CONTRACTS, GAMES
from tests.conftest import Phone, page
from tests.translations.test_seed_words import A_WORD_ON_A_CARD

RUSSIAN_003 = {
    "trump": "козырный контракт",
    "no-king": "Без короля",
    "no-queens": "Без королев",
    "no-boys": "No Boys",
    "no-hearts": "Без червей",
    "no-last-two": "Без последних двух",
    "no-tricks": "Без взяток",
}
"""Seed 003, lines 7, 15, 17, 19, 21, 25, 27 (its name for No Boys is English)."""
HINDI_004 = {
    "trump": "ट्रम्प अनुबंध",
    "no-king": "नो किंग",
    "no-queens": "कोई क्वींस नहीं",
    "no-boys": "नो बॉयज़",
    "no-hearts": "कोई दिल नहीं",
    "no-last-two": "नो लास्ट टू",
    "no-tricks": "कोई ट्रिक नहीं",
}
"""Seed 004, lines 7, 15, 17, 19, 21, 25, 27."""
ARABIC_001_ALIASES = {"king-of-hearts": "لطّش", "diamonds": "ديمن"}
"""Seed 001's own names where they are not seeds 000/002's (lines 15 and 19): «لطّش» there is
the K♥ contract, not the tricks contract «لطوش»."""
ARABIC_001_CARD = ("king-of-hearts", "شايب الكبّة")
"""Seed 001's name for the K♥ card (line 17), on the contract that takes it."""
ANOTHER_TEXT = "في نصّ آخر للقواعد: «{name}»"
"""How an Arabic page marks another text's name (the rules page did; the choice did not)."""
ARABIC_000_002 = {
    "king-of-hearts": "شيخ الكبة",
    "queens": "بنات",
    "diamonds": "ديناري",
    "ltoosh": "لطوش",
    "trix": "تركس",
    "complex": "كمبلكس",
}
"""Seed 000 lines 8-13, seed 002 lines 3 and 15: the app's own Arabic names."""
LATIN_CARD = re.compile(r"(?<![A-Za-z])[AKQJ]\s?[♠♥♦♣]")
NOT_THE_PAGES_CARD = {"ru": LATIN_CARD, "ar": LATIN_CARD, "hi": A_WORD_ON_A_CARD}
"""A card label the page's language does not use: a Latin letter in Russian and Arabic; in Hindi
a word («बेगम ♠»), where seed 004 writes the cards as letters (004:5, issue 44 item 9)."""


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _rows(html: str) -> list[str]:
    """The rules page's table of contracts: each row's text, in the game's order."""
    table = html.split('<table class="rules-table">', 1)[1].split("</table>", 1)[0]
    return [_text(row) for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)[1:]]


def _buttons(html: str) -> dict[str, str]:
    """The contract choice on a game page: contract id → its button's text."""
    return {
        contract: _text(inner)
        for contract, inner in re.findall(
            r'<a class="button contract" href="[^"]*contract=([a-z-]+)"[^>]*>(.*?)</a>',
            html,
            re.DOTALL,
        )
    }


def _game(app, client: FlaskClient, game: str, language: str) -> Phone:  # type: ignore[no-untyped-def]
    client.set_cookie("lang", language)
    phone = Phone(app, client)
    phone.new_game(game, first=0)
    return phone


@pytest.mark.parametrize(("language", "names"), [("ru", RUSSIAN_003), ("hi", HINDI_004)])
def test_the_rules_page_quotes_each_contract_as_its_text_names_it(
    client: FlaskClient, language: str, names: dict[str, str]
) -> None:
    client.set_cookie("lang", language)
    rows = _rows(client.get("/rules/turkish-king").get_data(as_text=True))
    assert len(rows) == len(GAMES["turkish-king"].contracts)
    for contract, row in zip(GAMES["turkish-king"].contracts, rows, strict=True):
        assert names[contract] in row, (contract, row)
        others = [name for other, name in names.items() if other != contract]
        assert not [name for name in others if f"«{name}»" in row], (contract, row)


@pytest.mark.parametrize(("language", "names"), [("ru", RUSSIAN_003), ("hi", HINDI_004)])
def test_the_contract_choice_shows_the_texts_names(
    app,
    client: FlaskClient,
    language: str,
    names: dict[str, str],  # type: ignore[no-untyped-def]
) -> None:
    buttons = _buttons(_game(app, client, "turkish-king", language).game_page().get_data(True))
    assert set(buttons) == set(GAMES["turkish-king"].contracts)
    for contract, name in names.items():
        assert name in buttons[contract], (contract, buttons[contract])


def test_arabic_pages_give_seed_001s_names_as_aliases_of_their_contracts(
    app,
    client: FlaskClient,  # type: ignore[no-untyped-def]
) -> None:
    client.set_cookie("lang", "ar")
    for game in ("trix", "trix-complex"):
        rows = _rows(client.get(f"/rules/{game}").get_data(as_text=True))
        for contract, row in zip(GAMES[game].contracts, rows, strict=True):
            assert ARABIC_000_002[contract] in row, (contract, row)
    trix = _rows(client.get("/rules/trix").get_data(as_text=True))
    rows = dict(zip(GAMES["trix"].contracts, trix, strict=True))
    for contract, alias in ARABIC_001_ALIASES.items():
        assert f"«{alias}»" in rows[contract], (contract, rows[contract])
        assert [other for other, row in rows.items() if alias in row] == [contract]
    page_text = _text(client.get("/rules/trix").get_data(as_text=True))
    # the one that could be taken for another says which it is not
    assert "«لطّش»" in page_text and "ليست لطوش" in page_text
    buttons = _buttons(_game(app, client, "trix", "ar").game_page().get_data(as_text=True))
    assert "لطّش" in buttons["king-of-hearts"] and "لطّش" not in buttons["ltoosh"]
    assert "ديمن" in buttons["diamonds"]


def test_the_arabic_contract_choice_marks_seed_001s_names_as_the_rules_page_does(
    app,
    client: FlaskClient,  # type: ignore[no-untyped-def]
) -> None:
    """«لطّش» stood bare under the K♥ button, beside «لطوش» (issue 44, item 8)."""
    client.set_cookie("lang", "ar")
    rules = _text(client.get("/rules/trix").get_data(as_text=True))
    buttons = _buttons(_game(app, client, "trix", "ar").game_page().get_data(as_text=True))
    for contract, alias in ARABIC_001_ALIASES.items():
        marked = ANOTHER_TEXT.format(name=alias)
        assert marked in rules, contract
        assert marked in buttons[contract], (contract, buttons[contract])


def test_seed_001s_name_for_the_k_heart_card_is_where_its_table_looks(
    app,
    client: FlaskClient,  # type: ignore[no-untyped-def]
) -> None:
    """«شايب الكبّة» (001:17) was on no page though the docs listed it (issue 44, item 8): it
    stands, quoted exactly and marked as another text's, on the rules page's row and on the
    button of the contract that takes the K♥, and on no other."""
    contract, card = ARABIC_001_CARD
    client.set_cookie("lang", "ar")
    trix = _rows(client.get("/rules/trix").get_data(as_text=True))
    rows = dict(zip(GAMES["trix"].contracts, trix, strict=True))
    assert f"«{card}»" in rows[contract], rows[contract]
    assert [other for other, row in rows.items() if card in row] == [contract]
    buttons = _buttons(_game(app, client, "trix", "ar").game_page().get_data(as_text=True))
    assert f"«{card}»" in buttons[contract], buttons[contract]
    assert [other for other, text in buttons.items() if card in text] == [contract]


@pytest.mark.parametrize(
    ("language", "name", "not_a_name"),
    [
        ("ru", "Turkish King", re.compile(r"[Кк]инг")),
        ("hi", "टर्किश किंग", re.compile(r"(?<!टर्किश )(?<!नो )किंग")),
        ("ar", "الكينغ التركي", None),
        ("en", "Turkish King", None),
    ],
)
def test_the_game_is_turkish_king_and_no_other_game_is_named(
    app,
    client: FlaskClient,
    language: str,
    name: str,
    not_a_name: re.Pattern[str] | None,  # type: ignore[no-untyped-def]
) -> None:
    # «Кинг» is another game in Russian (Russian King); Hindi's texts say «टर्किश किंग»
    phone = _game(app, client, "turkish-king", language)
    pages = {
        "/new": client.get("/new").get_data(as_text=True),
        "/rules/turkish-king": client.get("/rules/turkish-king").get_data(as_text=True),
        "/rules/trix": client.get("/rules/trix").get_data(as_text=True),
        "game": phone.game_page().get_data(as_text=True),
        "deal": client.get(f"{phone.url}/deal?contract=no-king").get_data(as_text=True),
    }
    assert name in _text(pages["/rules/turkish-king"])
    for where, html in pages.items():
        if not_a_name is not None:
            assert not not_a_name.findall(_text(html)), where
        assert "सात-आठ" not in html, where  # not Sevens' name (a different game)


def _doubles_noted(contract: str) -> dict[str, str]:
    from scorekeeper.web.forms import chip_groups

    return {name: "1" for group in chip_groups(contract) if group.doubles for name in group.names}


@pytest.mark.parametrize("language", sorted(NOT_THE_PAGES_CARD))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_card_on_every_deal_form_is_in_the_pages_language(
    app,
    client: FlaskClient,
    game: str,
    language: str,  # type: ignore[no-untyped-def]
) -> None:
    foreign = NOT_THE_PAGES_CARD[language]
    phone = _game(app, client, game, language)
    for contract in GAMES[game].contracts:
        # every double noted, so each card's name shows in its chips and in the note
        response = client.get(
            f"{phone.url}/deal", query_string={"contract": contract, **_doubles_noted(contract)}
        )
        assert response.status_code == 200, contract
        text = _text(response.get_data(as_text=True))
        assert not foreign.findall(text), (contract, foreign.findall(text), text)
        if language == "hi" and CONTRACTS[contract].doubles:
            assert LATIN_CARD.search(text), (contract, text)  # the seed's letters: Q♠, K♥
    assert page(phone.game_page()).text
