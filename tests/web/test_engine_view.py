"""The engine in the phone paints the game as the server paints it: the parts of the game page a
save changes (the next step and its contracts, or the final standings; the totals; can still
win?; the kingdoms; the declarations; the history; undo), rendered by the worker
(scorekeeper.phone.worker's "view", run here in CPython) from the same macros, are the very
HTML of the server's game page, in every language, for every game of the parity cases
(scorekeeper.phone.cases: each game and mode, house rules, games in progress and a finished
one).

With deals kept on the phone, its parts are those of the server's page once the server has
them, but for the history's marks (the deals the server has not seen, no Edit) and undo (the
phone's own button for the last of them).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.phone import cases
from scorekeeper.phone.worker import Engine
from scorekeeper.rules import dump_deal, dump_record
from scorekeeper.rules.record import Record
from tests.conftest import Phone

PART = re.compile(r'<(section|div) [^>]*\bid="([a-z-]+)"[^>]*hx-swap-oob="true"')
NIGHT = re.compile(r'\n  <div id="night".*?</noscript></div>', re.S)


def parts(html: str) -> dict[str, str]:
    """The out-of-band parts of a fragment by id, each as the page shows it (without the mark)."""
    found: dict[str, str] = {}
    starts = [(m.start(), m.group(1), m.group(2)) for m in PART.finditer(html)]
    for index, (start, tag, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(html)
        text = html[start:end].rstrip()
        assert text.endswith(f"</{tag}>"), (name, text[-80:])
        found[name] = text.replace(' hx-swap-oob="true"', "", 1)
    return found


def _page(phone: Phone, language: str) -> tuple[str, dict[str, Any]]:
    """The server's game page of the phone's game, and its record answer, in `language`."""
    headers = {"Accept-Language": language}
    page = phone.client.get(f"/g/{phone.token}", headers=headers).get_data(as_text=True)
    answer = phone.client.get(f"/g/{phone.token}/deal/record", headers=headers).get_json()
    return page, answer


def _engine(phone: Phone, language: str) -> tuple[Engine, str, str]:
    """The phone's engine holding the game as the server has it, the server's page, its token."""
    page, answer = _page(phone, language)
    engine = Engine(language)
    engine.hold(phone.token, answer["record"], answer["version"], answer["page"])
    return engine, page, _csrf(page)


def _csrf(page: str) -> str:
    """The CSRF token of a page's forms (the phone's worker is given the page's)."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("language", ["en", "ar", "tr", "ru", "hi"])
def test_the_phone_paints_the_game_the_server_paints(phone: Phone, language: str) -> None:
    compared = 0
    for name, held in cases.games().items():
        record = dump_record(Record(held))
        phone.load({k: v for k, v in record.items() if k != "format"})
        engine, page, csrf = _engine(phone, language)
        if held.deals:  # (a finished game's page loads its night: the phone's waits for the server)
            page = NIGHT.sub("", page)
        said = engine.view(phone.token, [], csrf)
        shown = parts(said["html"])
        expected = {"play", "scoreboard", "outlook", "history", "undo", "kept"}
        assert expected <= shown.keys(), name  # (the panel hidden, as on the page)
        for part, html in shown.items():
            assert html in page, (name, language, part, html)
            compared += 1
    assert compared >= 50


@pytest.mark.parametrize("language", ["en", "ar", "ru"])
def test_with_deals_kept_the_phone_paints_what_the_server_will(phone: Phone, language: str) -> None:
    for name in ("trix-started", "turkish-started", "trix-finished"):
        held = cases.games()[name]
        record: dict[str, Any] = {
            k: v for k, v in dump_record(Record(held)).items() if k != "format"
        }
        kept = 2
        phone.load({**record, "deals": record["deals"][:-kept]})
        engine = _engine(phone, language)[0]
        before = phone.token
        phone.load(record)  # the server, once it has them (another game: its own token)
        page = NIGHT.sub("", _page(phone, language)[0])
        pending = [dump_deal(deal) for deal in held.deals[-kept:]]
        said = engine.view(before, pending, _csrf(page))
        assert (said["stored"], said["deals"], said["refused"]) == (
            len(held.deals) - kept,
            len(held.deals),
            None,
        )
        shown = {k: v.replace(before, phone.token) for k, v in parts(said["html"]).items()}
        for part in ("play", "scoreboard", "outlook", "grid", "quotas"):
            if part in shown:
                assert shown[part] in page, (name, part)
        rows = shown["history"].count('<th scope="row"')
        assert rows == len(held.deals) == page.count('<th scope="row" rowspan="2">')
        assert shown["history"].count('class="edit"') == len(held.deals) - kept
        assert 'data-kept="undo"' in shown["undo"]
        assert "kept" in shown  # how many wait, in the page's words
