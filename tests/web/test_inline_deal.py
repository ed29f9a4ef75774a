"""The deal form inside the game page (htmx): a contract tapped on the game page brings the form
in place of the next step, and saving sends back only what the deal changed, out of band.

Without JavaScript (and for edits) the form is a page of its own and saving redirects; those
paths are covered by test_full_games.py and test_fragments.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import load_record, replay
from tests.conftest import Page, Phone, form_fields, page, signed, snapshot, totals_shown

DATA = Path(__file__).resolve().parent.parent / "data"
CHOOSE = {"HX-Request": "true", "HX-Target": "play"}
DIAMONDS = {"contract": "diamonds", "counts": [5, 4, 3, 1]}


def choose(phone: Phone, contract: str) -> Page:
    """Tap a contract on the game page: htmx asks for the form alone."""
    href = page(phone.game_page()).link_with(contract=contract)
    response = phone.client.get(href, headers=CHOOSE)
    assert response.status_code == 200, response.status_code
    return page(response)


def save_inline(phone: Phone, form: Page, deal: dict[str, Any]) -> Any:
    """Tap Save on the form inside the game page (htmx sends the CSRF token of <body>)."""
    data = {**form.checked("/deal"), **form_fields(deal)}
    return phone.client.post(
        f"{phone.url}/deal",
        data=data,
        headers={"HX-Request": "true", "HX-Target": "deal-form", "X-CSRFToken": phone.csrf()},
    )


def oob(html: str, element_id: str) -> str:
    """The out-of-band element with this id (its opening tag up to the next one's)."""
    match = re.search(rf'<(\w+)[^>]*id="{element_id}"[^>]*hx-swap-oob="[^"]+"[^>]*>', html)
    assert match, f"no out-of-band #{element_id}"
    return html[match.start() :]


@pytest.fixture
def started(phone: Phone) -> Phone:
    phone.new_game("trix", "solo", first=0)
    return phone


def test_a_tapped_contract_brings_the_form_alone(started: Phone) -> None:
    response = started.client.get(
        page(started.game_page()).link_with(contract="diamonds"), headers=CHOOSE
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.lstrip().startswith('<form id="deal-form"')
    assert "<html" not in html and 'class="scoreboard"' not in html
    assert 'name="csrf_token"' not in html  # htmx sends the page's token in a header
    # saved by htmx in place; focus moves to the form's heading (the tapped link is gone)
    assert f'hx-post="{started.url}/deal" hx-target="this" hx-swap="outerHTML"' in html
    assert '<h1 tabindex="-1" autofocus>Diamonds</h1>' in html
    # no load-time preview needed: the form already says what is left to tap
    assert 'hx-trigger="change"' in html and "4 values left to tap." in Page(html).text
    assert "HX-Request" in response.headers["Vary"]


def test_the_game_page_links_open_the_form_in_place(started: Phone) -> None:
    html = started.game_page().get_data(as_text=True)
    link = re.search(r'<a class="button contract" href="([^"]+contract=diamonds)"([^>]*)>', html)
    assert link, "no Diamonds button"
    assert f'hx-get="{link.group(1)}"' in link.group(2)
    buttons = html.split('<div class="contracts"', 1)[1].split(">", 1)[0]  # inherited
    assert 'hx-target="#play"' in buttons and 'hx-push-url="true"' in buttons
    assert '<section class="next" id="play"' in html


def test_saving_in_place_sends_only_what_changed(started: Phone) -> None:
    response = save_inline(started, choose(started, "diamonds"), DIAMONDS)
    html = response.get_data(as_text=True)
    assert response.status_code == 200, html
    assert response.headers["HX-Replace-Url"] == started.url
    assert started.record().game.deals[0].values["counts"] == (5, 4, 3, 1)
    # the next step replaces the form; focus goes to its heading
    assert html.lstrip().startswith('<section class="next" id="play"')
    assert "Deal 2 of 20" in Page(html).text
    assert 'id="next-title" tabindex="-1" autofocus' in html
    assert "contract=diamonds" not in html.split('id="flash"')[0]  # Diamonds is played now
    # out of band: the flash, the totals, the kingdoms, the chart (later), the first history
    assert "Deal 1 saved." in oob(html, "flash").split("</div>")[0]
    board = oob(html, "scoreboard").split("</section>")[0]
    assert re.findall(r'<span class="total">([^<]*)</span>', board) == ["−50", "−40", "−30", "−10"]
    assert '<span class="played">#1</span>' in oob(html, "grid").split("</section>")[0]
    assert f'hx-get="{started.url}/chart" hx-trigger="revealed"' in oob(html, "chart")
    assert '<tbody id="history-rows">' in oob(html, "history")
    version = str(started.row().version)
    assert f'value="{version}" id="notes-version" hx-swap-oob="true"' in html
    assert "<html" not in html and "game-admin" not in html and "qr-code" not in html


def test_later_saves_append_one_history_row(started: Phone) -> None:
    save_inline(started, choose(started, "diamonds"), DIAMONDS)
    response = save_inline(
        started,
        choose(started, "king-of-hearts"),
        {"contract": "king-of-hearts", "taker": 2, "doubled_by": None},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    appended = html.split('<template><tbody hx-swap-oob="beforeend:#history-rows">', 1)[1]
    appended = appended.split("</tbody></template>", 1)[0]
    assert appended.count("<tr>") == 1 and '<th scope="row" rowspan="2">2</th>' in appended
    assert appended.count('<tr class="deal-details">') == 1
    assert 'id="history"' not in html  # the table is not sent again
    undo = oob(html, "undo").split("</form>")[0]
    assert 'name="number" value="2"' in undo
    assert f'name="version" value="{started.row().version}"' in undo
    # the page as a reload shows it: same totals as the fragment
    board = oob(html, "scoreboard").split("</section>")[0]
    assert re.findall(r'<span class="total">([^<]*)</span>', board) == totals_shown(
        started.game_page()
    )


def test_the_answer_does_not_grow_with_the_game(phone: Phone) -> None:
    record = json.loads((DATA / "trix-partnership-complete.json").read_text())
    phone.load({**record, "deals": record["deals"][:1]})
    early = save_inline(
        phone, choose(phone, record["deals"][1]["contract"]), record["deals"][1]
    ).get_data(as_text=True)
    phone.load({**record, "deals": record["deals"][:18]})
    late = save_inline(
        phone, choose(phone, record["deals"][18]["contract"]), record["deals"][18]
    ).get_data(as_text=True)
    assert phone.record().game.deals[-1].contract == record["deals"][18]["contract"]
    assert abs(len(late) - len(early)) < 400, (len(early), len(late))


def test_a_refused_save_shows_the_form_again_in_place(started: Phone, app: Any) -> None:
    before = snapshot(app)
    response = save_inline(
        started, choose(started, "diamonds"), {"contract": "diamonds", "counts": [5, 4, 3, 3]}
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert html.lstrip().startswith('<form id="deal-form"') and "hx-post=" in html
    assert "13" in html.split('id="e-counts"')[1].split("</div>")[0]
    assert snapshot(app) == before


@pytest.mark.parametrize("first", ["another phone", "another phone alike", "this form"])
def test_when_another_save_got_there_first_the_page_reloads(
    started: Phone, app: Any, first: str
) -> None:
    form = choose(started, "diamonds")
    other_form = form if first == "this form" else choose(started, "diamonds")  # its own key
    other = (
        {"contract": "diamonds", "counts": [1, 3, 4, 5]} if first == "another phone" else DIAMONDS
    )
    assert save_inline(started, other_form, other).status_code == 200
    before = snapshot(app)
    response = save_inline(started, form, DIAMONDS)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == started.url
    assert response.get_data(as_text=True) == ""
    assert snapshot(app) == before
    text = page(started.game_page()).text
    if first == "another phone":
        assert "Deal 1 was already entered on another phone" in text
    else:  # the deal as this form entered it is in the game
        assert "Deal 1 is in the game." in text and "another phone" not in text


def test_the_last_deal_shows_the_final_standings(phone: Phone) -> None:
    record = json.loads((DATA / "turkish-king-complete.json").read_text())
    phone.load({**record, "deals": record["deals"][:-1]})
    last = record["deals"][-1]
    html = save_inline(phone, choose(phone, last["contract"]), last).get_data(as_text=True)
    assert html.lstrip().startswith('<section class="finished" id="play">')
    game = load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game
    totals = replay(game).totals
    assert all(f"<strong>{signed(total)}</strong>" in html for total in totals)
    assert 'id="quotas" aria-labelledby="quota-title" hx-swap-oob="true"' in html


def test_a_whole_game_in_place_agrees_with_the_game_page(phone: Phone) -> None:
    record = json.loads((DATA / "trix-complex-partnership-complete.json").read_text())
    phone.new_game(record["game"], record["mode"], tuple(record["players"]), first=record["first"])
    for number, deal in enumerate(record["deals"], start=1):
        response = save_inline(phone, choose(phone, deal["contract"]), deal)
        assert response.status_code == 200, (number, response.get_data(as_text=True)[:300])
        html = response.get_data(as_text=True)
        board = oob(html, "scoreboard").split("</section>")[0]
        players = board.split('class="totals"', 1)[1].split("</ol>", 1)[0]
        shown = re.findall(r'<span class="total">([^<]*)</span>', players)
        assert shown == totals_shown(phone.game_page()), number
        assert f"Deal {number} saved." in html
    assert (
        phone.record().game.deals
        == load_record(json.dumps({"format": "scorekeeper-game/1", **record})).game.deals
    )


def test_the_chart_comes_alone_to_htmx_and_redirects_others(started: Phone) -> None:
    save_inline(started, choose(started, "diamonds"), DIAMONDS)
    response = started.client.get(f"{started.url}/chart", headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="chart-section" id="chart"')
    assert "<svg" in html and "hx-get" not in html
    plain = started.client.get(f"{started.url}/chart")
    assert plain.status_code == 303 and plain.headers["Location"].endswith(started.url)


def test_complex_shows_its_doubles_open_as_trix_does(phone: Phone) -> None:
    """Issue 44 item 2: Complex's doubles sat in a closed "Doubled before play" (fetched when
    opened) while Trix shows them open: now both show them open, first, with their hint."""
    for game, contract in (("trix-complex", "complex"), ("trix", "queens")):
        phone.new_game(game, "solo", first=0)
        form = choose(phone, contract)
        html = phone.client.get(f"{phone.url}/deal?contract={contract}", headers=CHOOSE)
        text = html.get_data(as_text=True)
        assert "<details" not in text.split('id="deal-form"')[1].split("</form>")[0], game
        assert '<fieldset class="group group-optional_card_seats before-play">' in text, game
        assert text.index('name="doubled_by-S"') < text.index(
            'name="' + ("tricks-0" if game == "trix-complex" else "takers-S") + '"'
        ), game
    assert (
        phone.client.get(f"{phone.url}/deal/chips?contract=complex&group=doubled_by").status_code
        == 404
    )
    deal = {
        "contract": "queens",
        "takers": {"S": 0, "H": 1, "D": 2, "C": 3},
        "doubled_by": {"S": 2},
    }
    assert save_inline(phone, form, deal).status_code == 200
    assert phone.record().game.deals[0].values["doubled_by"] == {"S": 2}


def test_a_contract_taken_meanwhile_reloads_the_page_instead_of_nesting_it(started: Phone) -> None:
    """The game page offered Diamonds, then another phone saved a Diamonds deal: the tap's
    answer reloads the game page (with the reason), never a page inside the page."""
    href = page(started.game_page()).link_with(contract="diamonds")
    save_inline(started, choose(started, "diamonds"), DIAMONDS)
    response = started.client.get(href, headers=CHOOSE)
    assert response.status_code == 200 and response.get_data(as_text=True) == ""
    assert response.headers["HX-Redirect"] == started.url
    assert "Diamonds cannot be chosen now." in page(started.game_page()).text


def test_a_preview_after_the_game_ended_says_so_in_place(phone: Phone) -> None:
    record = json.loads((DATA / "turkish-king-complete.json").read_text())
    phone.load({**record, "deals": record["deals"][:-1]})
    form = choose(phone, record["deals"][-1]["contract"])
    phone.load(record)  # a finished game, as when another phone entered the last hand
    data = {**form.checked("/deal"), **form_fields(record["deals"][-1])}
    response = phone.client.post(
        f"{phone.url}/deal/preview",
        data=data,
        headers={"HX-Request": "true", "HX-Target": "deal-preview", "X-CSRFToken": phone.csrf()},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert html.startswith('<p class="error" role="alert">') and "<html" not in html
