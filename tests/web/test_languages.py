"""Every page is in the language its request asks for, whatever came before it.

Pages keep things per process (replays, histories, the chart); these tests switch the language
from one request to the next, in one process and across threads (a server runs several per
worker), and check that every page is in the language its request asked for.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from babel import support
from flask import Flask, render_template_string

from scorekeeper.rules import load_record, replay
from scorekeeper.words import chart
from scorekeeper.words.chart import running_totals_svg
from tests.conftest import Phone

DATA = Path(__file__).parent / "data"
TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
LANGUAGES = ("ar", "en", "tr", "ru", "hi")
# Messages of the pages checked below; those a page shows must be in the request's language.
PROBES = (
    "Running totals",
    "Rules of this game",
    "History",
    "Edit",
    "Kingdoms",
    "Declarations",
    "Import",
    "New game",
    "Delete game",
    "Name and notes",
    "Share",
    "Totals",
    "Cancel",
    "No Hearts",
    "Save deal",
)


def catalogue(lang: str) -> support.Translations:
    return support.Translations.load(str(TRANSLATIONS), [lang])


CATALOGUES = {lang: catalogue(lang) for lang in LANGUAGES}


def words(lang: str, message: str) -> str:
    return str(CATALOGUES[lang].ugettext(message))


def record(name: str, deals: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text())
    data["deals"] = data["deals"][:deals]
    data.pop("format", None)
    return data


@pytest.fixture
def games(phone: Phone) -> dict[str, str]:
    """A Trix partnership game with deals and a Turkish King game, stored; their tokens."""
    phone.load(record("trix-partnership-complete", 9))
    trix = phone.token
    phone.load(record("turkish-king-complete", 7))
    return {"trix": trix, "turkish-king": phone.token}


def pages(games: dict[str, str]) -> list[str]:
    return [
        f"/g/{games['trix']}",
        f"/g/{games['turkish-king']}",
        f"/g/{games['turkish-king']}/deal?contract=no-hearts",
        "/",
    ]


def assert_speaks(html: str, lang: str, url: str) -> None:
    """The page is in `lang`: its html element, and every probe message it shows."""
    assert f'<html lang="{lang}"' in html, (url, lang, html[:200])
    shown = 0
    for message in PROBES:
        mine = words(lang, message)
        others = {words(other, message) for other in LANGUAGES if other != lang} - {mine}
        if mine in html:
            shown += 1
        for other in others:
            assert f">{other}<" not in html, (url, lang, message, other)
    assert shown >= 2, (url, lang)


def fetch(client: Any, url: str, lang: str) -> str:
    client.set_cookie("lang", lang)
    response = client.get(url)
    assert response.status_code == 200, (url, lang, response.status_code)
    return str(response.get_data(as_text=True))


def test_switching_language_from_request_to_request(app: Flask, games: dict[str, str]) -> None:
    client = app.test_client()
    first: dict[tuple[str, str], str] = {}
    order = [*LANGUAGES, "tr", "ar", "hi", "en", "ar", "ru", "ar", "en", "tr", "hi", "tr", "ru"]
    for lang in order:
        for url in pages(games):
            html = fetch(client, url, lang)
            assert_speaks(html, lang, url)
            # (a fresh CSRF token, and a fresh entry key in a deal form, every time)
            again = re.sub(
                r'(csrf_token" type="hidden" value="|"X-CSRFToken": "'
                r'|entry_key" type="hidden" value=")[^"]+',
                "",
                html,
            )
            # the same page in the same language is the same page, whatever came between
            assert first.setdefault((url, lang), again) == again, (url, lang)
    for url in pages(games):
        assert len({first[url, lang] for lang in LANGUAGES}) == len(LANGUAGES)


def test_the_browsers_language_too(app: Flask, games: dict[str, str]) -> None:
    client = app.test_client()
    for lang in ("tr", "ar", "ru", "en", "hi", "ar", "tr"):
        response = client.get(f"/g/{games['trix']}", headers={"Accept-Language": lang})
        assert_speaks(response.get_data(as_text=True), lang, "accept-language")


def test_threads_never_share_a_language(app: Flask, games: dict[str, str]) -> None:
    """Two and more threads, each with its own reader, requests interleaved."""
    urls = pages(games)
    barrier = threading.Barrier(len(LANGUAGES))

    def reader(lang: str) -> int:
        client = app.test_client()
        barrier.wait()
        done = 0
        for url in itertools.islice(itertools.cycle(urls), 24):
            assert_speaks(fetch(client, url, lang), lang, url)
            done += 1
        return done

    with ThreadPoolExecutor(max_workers=len(LANGUAGES)) as pool:
        assert sum(pool.map(reader, LANGUAGES)) == 24 * len(LANGUAGES)


def test_a_thread_switching_languages_among_others(app: Flask, games: dict[str, str]) -> None:
    urls = pages(games)

    def reader(offset: int) -> None:
        client = app.test_client()
        for index in range(18):
            lang = LANGUAGES[(index + offset) % len(LANGUAGES)]
            url = urls[index % len(urls)]
            assert_speaks(fetch(client, url, lang), lang, url)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(reader, range(4)))


# --- templates translate as Jinja's newstyle gettext --------------------------------------


def test_templates_translate_as_jinjas_newstyle_gettext(app: Flask) -> None:
    source = (
        "{{ _('Kingdom %(k)d', k=2) }}|{{ _('History') }}|{{ gettext('Edit') }}|"
        "{{ ngettext('%(num)d value left to tap.', '%(num)d values left to tap.', n) }}|"
        "{{ _('%(name)s declares', name=who) }}"
    )
    for lang in LANGUAGES:
        with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
            html = render_template_string(source, n=3, who="<b>&</b>")
            catalog = CATALOGUES[lang]
            assert html.split("|") == [
                catalog.ugettext("Kingdom %(k)d") % {"k": 2},
                catalog.ugettext("History"),
                catalog.ugettext("Edit"),
                catalog.ungettext("%(num)d value left to tap.", "%(num)d values left to tap.", 3)
                % {"num": 3},
                catalog.ugettext("%(name)s declares") % {"name": "&lt;b&gt;&amp;&lt;/b&gt;"},
            ]


def test_chart_cache_follows_language_and_direction(app: Flask) -> None:
    game = load_record(
        json.dumps({"format": "scorekeeper-game/1", **record("trix-partnership-complete", 9)})
    ).game
    result = replay(game)
    charts = set()
    for lang in (*LANGUAGES, *LANGUAGES):
        catalog = CATALOGUES[lang]
        for rtl in (False, True):
            svg = running_totals_svg(result, game.players, catalog.ugettext, rtl=rtl)
            assert f">{catalog.ugettext('Running totals')}</title>" in svg
            chart._svg.cache_clear()
            assert running_totals_svg(result, game.players, catalog.ugettext, rtl=rtl) == svg
            charts.add(svg)
    assert len(charts) == 2 * len(LANGUAGES)


def test_a_link_with_lang_opens_in_that_language_and_keeps_it(app: Flask) -> None:
    # /rules/turkish-king?lang=ru from a message or a bookmark: Russian, and Russian after it
    client = app.test_client()
    response = client.get("/rules/turkish-king?lang=ru", headers={"Accept-Language": "en"})
    html = response.get_data(as_text=True)
    assert '<html lang="ru"' in html
    assert "lang=ru" in response.headers["Set-Cookie"]
    assert '<html lang="ru"' in client.get("/", headers={"Accept-Language": "en"}).get_data(
        as_text=True
    )
    # a link wins over the cookie, and is kept in its place
    assert '<html lang="ar"' in client.get("/?lang=ar").get_data(as_text=True)
    assert '<html lang="ar"' in client.get("/rules/trix").get_data(as_text=True)
    # the switch in the header does not carry the link's language along
    html = client.get("/rules/trix?lang=hi").get_data(as_text=True)
    assert "lang%3Dhi" not in html and "lang=hi&amp;" not in html
    switch = client.get("/lang/tr?next=/rules/trix", follow_redirects=True)
    assert '<html lang="tr"' in switch.get_data(as_text=True)
    # an unknown language is ignored: the one chosen stays
    response = client.get("/rules/trix?lang=xx")
    assert '<html lang="tr"' in response.get_data(as_text=True)
    assert "Set-Cookie" not in response.headers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_deal_number_on_every_page(app: Flask, phone: Phone, lang: str) -> None:
    # 11 deals played: the list says "11 of 20 played", the game "Deal 12 of 20" (not two
    # different "Deal" numbers for one moment of the game)
    phone.load(record("trix-partnership-complete", 11))
    phone.client.set_cookie("lang", lang)
    game = phone.client.get(phone.url).get_data(as_text=True)  # and remembered on this phone
    home = phone.client.get("/").get_data(as_text=True)
    played = words(lang, "%(done)d of %(total)d played") % {"done": 11, "total": 20}
    coming = words(lang, "Deal %(n)d of %(total)d") % {"n": 12, "total": 20}
    assert played in home and coming not in home
    assert coming in game
    assert words(lang, "Deal %(n)d of %(total)d") % {"n": 11, "total": 20} not in home


def test_turkish_king_pages_say_hand_in_arabic(app: Flask, phone: Phone) -> None:
    # The glossary chose يد for Turkish King's hand; its pages say it everywhere (a Trix page
    # keeps جولة); English says "Deal" in both
    phone.load(record("turkish-king-complete", 7))
    turkish = phone.url
    phone.load(record("trix-partnership-complete", 3))
    trix = phone.url
    phone.client.set_cookie("lang", "ar")
    for url in (turkish, f"{turkish}/rules", "/rules/turkish-king", f"{turkish}/history"):
        response = phone.client.get(url)
        if response.status_code == 404:
            continue
        html = response.get_data(as_text=True)
        assert "جول" not in html, url
    game = phone.client.get(turkish).get_data(as_text=True)
    assert "اليد 8 من 20" in game
    assert "الجولة 4 من 20" in phone.client.get(trix).get_data(as_text=True)
    phone.client.set_cookie("lang", "en")
    assert "Deal 8 of 20" in phone.client.get(turkish).get_data(as_text=True)
    assert "Deal 4 of 20" in phone.client.get(trix).get_data(as_text=True)


def test_russian_rules_page_names_contracts_as_seed_003(client: Any) -> None:
    html = client.get("/rules/turkish-king?lang=ru").get_data(as_text=True)
    for name in ("Без червей", "Без взяток", "Не брать червей"):
        assert name in html
    english = client.get("/rules/turkish-king?lang=en").get_data(as_text=True)
    assert "in the rule texts" not in english


def test_turkish_king_help_says_the_trump_exception_with_follow_suit(client: Any) -> None:
    html = client.get("/rules/turkish-king?lang=en").get_data(as_text=True)
    follow = html.index("Follow suit if you can.")
    assert html.index("in a trump hand you must trump if you can") > follow
    assert "otherwise play any card" in html[follow : html.index("</li>", follow)]
    assert "2♦" not in html and "often" not in html.lower()
    assert "the app asks for that player" in html
