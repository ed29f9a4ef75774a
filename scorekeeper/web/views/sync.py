"""Sync: the deals a phone saved with no network, sent in order when it has one (JSON).

`POST /g/<token>/sync` with `{"entries": [...]}` (`web.sync_input`), its CSRF token in the
`X-CSRFToken` header as every htmx request sends it. Each entry is judged and stored as a
form's save is, with its key (`store.sync`); the answer says, per entry and in the reader's
language, what became of it, and carries the game as stored (its record), so the phone can
put its own copy right whatever happened. Refusals of the request itself are JSON too.
"""

from __future__ import annotations

from typing import Any, assert_never

from flask import Blueprint, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from ...rules import Replay
from ...rules.record import dump_record
from ...store import deals
from ...store.games import record_of
from ...store.sync import Conflict, Sent, TooLate, Waiting, send_pending
from ...words.deal_words import STORED_FIRST, UNDONE, deal_messages, finished_text
from ..caches import keep_replay
from ..json_answers import json_error
from ..languages import gettext, plural_form
from ..present import http_message
from ..sync_input import NotPending, read_pending
from .common import GameView, game_or_404, game_view, kept_said

bp = Blueprint("sync", __name__)

SYNC_MAX_BYTES = 64 * 1024
"""A sync's body: 40 entries of the longest deal (Complex, ~260 bytes) fit eight times over."""


@bp.post("/g/<token:token>/sync")
def send(token: str) -> Response:
    """Store a phone's pending deals in order; say what became of each."""
    row = game_or_404(token)
    if request.mimetype != "application/json":
        return json_error(415, gettext("Send JSON (application/json)."))
    # (the CSRF check has opened the body's stream already, under the app's larger limit)
    if (request.content_length or 0) > SYNC_MAX_BYTES:
        return json_error(413, http_message(413))
    try:
        body = request.get_data(cache=False)
    except RequestEntityTooLarge:
        return json_error(413, http_message(413))
    if len(body) > SYNC_MAX_BYTES:
        return json_error(413, http_message(413))
    if row.first_chooser is None:
        return json_error(409, gettext("The game has not started yet."))
    try:
        pending = read_pending(body)
    except NotPending as refused:
        return json_error(400, refused.message)
    view = game_view(row)
    sent = send_pending(row, view.result, pending)
    for each in reversed(sent):
        match each.outcome:
            case deals.Saved(result=Replay() as result) if each.version == row.version:
                keep_replay(row, result)  # the game page that follows shows it: not replayed
    return jsonify(
        version=row.version,
        deals=row.deal_count,
        finished=row.finished,
        results=[_result(each, view) for each in sent],
        record=dump_record(record_of(row)),
    )


def _result(sent: Sent, view: GameView) -> dict[str, Any]:
    """One entry's answer: its outcome, in a word and in a sentence, and what goes with it."""
    entry, outcome = sent.pending, sent.outcome
    answer: dict[str, Any] = {"key": entry.key, "number": entry.number}
    match outcome:
        case deals.Saved():
            said = "Deal %(number)d changed." if entry.correction else "Deal %(number)d saved."
            answer |= {
                "outcome": "stored",
                "version": sent.version,
                "message": gettext(said, number=entry.number),
            }
        case deals.Kept():
            answer |= {
                "outcome": "kept",
                "number": outcome.number,
                "editing": outcome.correction,
                "version": outcome.version,
                "stands": outcome.stands,
                "message": kept_said(outcome)[0],
            }
        case Conflict():
            answer |= {
                "outcome": "conflict",
                "stored": outcome.stored,
                "yours": entry.raw,
                "same": outcome.same,
                "message": gettext(
                    "Another phone saved deal %(number)d first; yours was not saved.",
                    number=entry.number,
                ),
            }
        case deals.Stale():
            answer |= {
                "outcome": "stale",
                "message": gettext("The game changed on another phone; this deal was not saved."),
            }
        case deals.Refused(evaluation=evaluation):
            contract = str(entry.raw.get("contract", ""))
            problems = [
                {"field": field, "message": message}
                for field, messages in deal_messages(
                    (),
                    evaluation,
                    contract,
                    view.players,
                    view.game.house_rules,
                    gettext,
                    plural_form,
                ).items()
                for message in messages
            ]
            answer |= {
                "outcome": "refused",
                "problems": problems,
                "message": " ".join(problem["message"] for problem in problems),
            }
        case deals.Finished():
            message = finished_text(view.players, gettext, plural_form)
            answer |= {
                "outcome": "refused",
                "problems": [{"field": "contract", "message": message}],
                "message": message,
            }
        case deals.Withdrawn():
            answer |= {
                "outcome": "withdrawn",
                "message": gettext(UNDONE, number=entry.number),
            }
        case TooLate(kept=kept):
            answer |= {
                "outcome": "too-late",
                "number": kept.number,
                "version": kept.version,
                "stands": kept.stands,
                "message": gettext(STORED_FIRST, number=kept.number),
            }
        case Waiting():
            answer |= {
                "outcome": "waiting",
                "message": gettext("Waiting for the deal before it."),
            }
        case _:
            assert_never(outcome)
    return answer
