"""A complete game of every game × mode, played through the HTTP forms only.

Each game is started on the new-game form, the first seat is chosen, and every deal is entered
by following the contract button on the game page, tapping values (some left for the app to fill
in), previewing as htmx does, and saving. On the way: a refused entry, a deal entered wrongly and
undone, a deal entered wrongly and later edited, and an edit refused because it would break a
later deal. The totals shown at the end must be what `scorekeeper check` prints for the record.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from typing import Any

import pytest

from scorekeeper.rules import dumps_record, evaluate, load_record, replay
from scorekeeper.rules.record import Record
from tests.conftest import (
    Page,
    Phone,
    form_fields,
    page,
    signed,
    snapshot,
    team_totals_shown,
    totals_shown,
)
from tests.web.scripts import SCRIPTS, Script, blanks_for, rotated

WRONG_THEN_EDITED = 1  # deal index entered rotated, corrected by an edit later
UNDONE = 4  # deal index first entered rotated, undone, then entered right
EDITED_AFTER = 6  # the edit happens once this many deals are in


def run_check(record: Record) -> dict[str, Any]:
    """What `scorekeeper check -` prints for the record (the installed command if on PATH)."""
    script = shutil.which(
        "scorekeeper",
        path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]),
    )
    command = [script] if script else [sys.executable, "-m", "scorekeeper.cli"]
    done = subprocess.run(
        [*command, "check", "-"],
        input=dumps_record(record).encode(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return dict(json.loads(done.stdout))


def short_by_one(deal: dict[str, Any]) -> dict[str, str] | None:
    """Taps for the deal with one count lowered by one (all four tapped); None if no counts."""
    for key in ("diamonds", "counts", "tricks"):
        if key in deal:
            taps = form_fields(deal)
            seat = next(i for i, value in enumerate(deal[key]) if value > 0)
            taps[f"{key}-{seat}"] = str(deal[key][seat] - 1)
            return taps
    return None


def refused_index(deals: list[dict[str, Any]]) -> int:
    """Which deal to first enter wrongly: the first diamonds (or complex) deal from the 3rd on,
    else the first with counts."""
    later = list(enumerate(deals))[2:]
    for index, deal in later:
        if deal["contract"] in ("diamonds", "complex"):
            return index
    return next(index for index, deal in later if short_by_one(deal) is not None)


def refuse_short_entry(phone: Phone, deal: dict[str, Any]) -> None:
    """A count short by one: the preview and the save both refuse it, and nothing is saved."""
    taps = short_by_one(deal)
    assert taps is not None
    form = phone.open_deal(deal["contract"])
    before = snapshot(phone.app)
    preview = phone.preview(form, taps)
    assert preview.status_code == 200
    assert "add up to 12" in page(preview).text
    assert 'class="button primary save" disabled' in preview.get_data(as_text=True)
    response = phone.save(form, taps)
    assert response.status_code == 422
    text = page(response).text
    if deal["contract"] in ("diamonds", "complex"):
        assert "Diamonds add up to 12; there are 13 diamonds." in text
    else:
        assert "add up to" in text
    assert snapshot(phone.app) == before


def later_breaking_edit(script: Script) -> tuple[int, dict[str, Any]]:
    """An edit of deal 1 that is legal on its own but makes a later deal illegal."""
    deals = script.deals
    if script.record["game"] == "turkish-king":
        # a third no-boys: deal 1 becomes no-boys, the second later no-boys breaks
        return 1, next(d for d in deals if d["contract"] == "no-boys")
    first_kingdom = deals[: len(deals) // 4]
    return 1, next(d for d in first_kingdom[1:] if d["contract"] != deals[0]["contract"])


def refuse_breaking_edit(phone: Phone, script: Script) -> None:
    number, deal = later_breaking_edit(script)
    form = phone.open_edit(number, deal["contract"])
    before = snapshot(phone.app)
    response = phone.save(form, form_fields(deal))
    assert response.status_code == 422
    later = evaluate(replay(phone.record().game), deal, number - 1).later
    assert later is not None and later.deal_number is not None
    assert later.deal_number > number
    text = page(response).text
    assert f"This change would make deal {later.deal_number} illegal" in text
    assert snapshot(phone.app) == before


def history_rows(html: str) -> list[tuple[list[str], list[str]]]:
    """Per row of the history table: the scores and the running totals shown."""
    table = html.split('id="history-title"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody", 1)[1].split(">", 1)[1]
    return [
        (
            re.findall(r'<span class="score">([^<]*)</span>', row),
            re.findall(r'<span class="running">([^<]*)</span>', row),
        )
        for row in body.split("</tr>")
        if "<td" in row and "deal-details" not in row
    ]


def assert_next_step_shown(text: str, record: dict[str, Any], done: int, total: int) -> None:
    """Where the game is and who chooses, as docs/rules.md says: the king rotates each kingdom,
    the Turkish King declarer every hand."""
    players = record["players"]
    assert f"Deal {done + 1} of {total}" in text
    if record["game"] == "turkish-king":
        assert f"{players[(record['first'] + done) % 4]} declares" in text
    else:
        kingdom = done // (total // 4)
        assert f"Kingdom {kingdom + 1} of 4" in text
        assert f"{players[(record['first'] + kingdom) % 4]} is king and chooses" in text


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.id for s in SCRIPTS])
def test_complete_game(phone: Phone, script: Script) -> None:
    record = script.record
    rules = {
        "doubling": True,
        "doubled_self_take": "net",
        "swap_diamonds_ltoosh": False,
        **record.get("house_rules", {}),
    }
    phone.new_game(
        record["game"],
        record["mode"],
        tuple(record["players"]),
        name=script.id,
        first=record["first"],
        **rules,
    )
    deals = script.deals
    refused = refused_index(deals)
    for index, deal in enumerate(deals):
        if index == refused:
            refuse_short_entry(phone, deal)
        if index == UNDONE:
            phone.enter(rotated(deal))
            assert phone.row().deal_count == index + 1
            shown = phone.undo()
            assert f"Deal {index + 1} was removed." in page(shown).text
            assert phone.row().deal_count == index
        entered = rotated(deal) if index == WRONG_THEN_EDITED else deal
        shown = phone.enter(entered, blank=blanks_for(entered, index))
        assert f"Deal {index + 1} saved." in page(shown).text
        if index + 1 < len(deals):
            assert_next_step_shown(page(shown).text, record, index + 1, len(deals))
        if index + 1 == EDITED_AFTER:
            refuse_breaking_edit(phone, script)
            shown = phone.edit(WRONG_THEN_EDITED + 1, deals[WRONG_THEN_EDITED])
            assert f"Deal {WRONG_THEN_EDITED + 1} changed." in page(shown).text

    # the stored record is the script, and the page shows what `scorekeeper check` prints
    stored = phone.record()
    assert stored.game.deals == load_record(json.dumps(record)).game.deals
    checked = run_check(stored)
    assert checked["finished"] is True
    final = phone.game_page()
    assert totals_shown(final) == [signed(total) for total in checked["totals"]]
    text = page(final).text
    assert "Final standings" in text
    # the badge on each winning player in solo, on each winning team in partnership
    badges = len(checked["winners"]) // (2 if record["mode"] == "partnership" else 1)
    assert text.count("Winner") == badges
    if record["mode"] == "partnership":
        assert team_totals_shown(final) == [signed(t) for t in checked["team_totals"]]
        assert "Team A" in text and "Team B" in text
    else:
        assert checked["team_totals"] is None
    # the history: one row per deal, each deal's scores as check prints them, and the last
    # row's running totals are the final totals (the teams' first in partnership)
    rows = history_rows(final.get_data(as_text=True))
    assert len(rows) == len(deals)
    teams = 2 if checked["team_totals"] is not None else 0
    for (scores, _), entry in zip(rows, checked["deals"], strict=True):
        assert scores[teams:] == [signed(score) for score in entry["scores"]]
    expected_running = [signed(total) for total in checked["totals"]]
    if checked["team_totals"] is not None:
        expected_running = [signed(total) for total in checked["team_totals"]] + expected_running
    assert rows[-1][1] == expected_running
    assert phone.row().finished is True
    # no more contracts to choose, and the home page lists the game as finished
    assert "contract=" not in final.get_data(as_text=True)
    home = page(phone.client.get("/")).text
    assert "Finished" in home and script.id in home


@pytest.mark.parametrize(
    "name", ["trix-partnership-complete", "trix-complex-solo-complete", "turkish-king-complete"]
)
def test_examples_match_their_check_files(name: str) -> None:
    """The scripts' expected output: the examples' own .check.json files."""
    from tests.web.scripts import DATA

    record = load_record((DATA / f"{name}.json").read_bytes())
    expected = json.loads((DATA / f"{name}.check.json").read_text(encoding="utf-8"))
    assert run_check(record) == expected


def test_deal_form_shows_what_the_next_step_is(phone: Phone) -> None:
    """The deal form names the deal, its kingdom and its king (Page parses it)."""
    phone.new_game("trix", "solo", first=2)
    form: Page = phone.open_deal("diamonds")
    assert "Kingdom 1 · Deal 1" in form.text
    assert "King: Omar" in form.text
