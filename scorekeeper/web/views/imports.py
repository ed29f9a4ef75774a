"""Import: game records (one, or a backup of several) stored as new games, all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...rules import CONTRACTS, GAMES, NotARecordError, Record
from ...rules.record import RecordsRefused
from ...stats import stored_form
from ...store import limits
from ...store.models import GameRow
from ...store.records import (
    ImportCaps,
    ImportLimited,
    import_from,
    store_records,
)
from ...words.labels import SEAT_LABELS
from ..extensions import csrf
from ..forms import ImportForm
from ..languages import gettext, ngettext, plural_form
from ..present import contract_name, field_label
from .common import remember

bp = Blueprint("imports", __name__)

IMPORT_MAX_RECORDS = 500
"""Games in one import from the web (a phone's backup holds at most 60)."""
IMPORT_MAX_DEALS = IMPORT_MAX_RECORDS * max(game.deals_total for game in GAMES.values())
"""Deals in one import from the web: 500 complete games of the longest game (20 deals)."""
IMPORT_MAX_BYTES = 2 * 1024 * 1024
"""The file's size: 500 complete games, exported, fit with room to spare."""
_FORM_SLACK = 16 * 1024  # the multipart framing and the form's token around the file
UPLOAD_BODY = IMPORT_MAX_BYTES + _FORM_SLACK
"""The most body a page that takes a file reads (every other route: MAX_CONTENT_LENGTH)."""
TAKES_FILES = frozenset({"imports.import_page", "table_stats.import_page"})
"""The endpoints that take a file, and so a body up to UPLOAD_BODY."""
CAPS = ImportCaps(records=IMPORT_MAX_RECORDS, deals=IMPORT_MAX_DEALS)


def limited_text(limited: ImportLimited) -> str:
    """Why an import was refused for its size or for how much was imported lately."""
    if limited.what == "records":
        reason = ngettext(
            "The file holds %(num)d game; one import takes at most %(maximum)d.",
            "The file holds %(num)d games; one import takes at most %(maximum)d.",
            limited.count,
            maximum=limited.maximum,
        )
    elif limited.what == "deals":
        reason = ngettext(
            "The file holds %(num)d deal; one import takes at most %(maximum)d.",
            "The file holds %(num)d deals; one import takes at most %(maximum)d.",
            limited.count,
            maximum=limited.maximum,
        )
    elif limited.what == "bytes":
        reason = gettext(
            "The file is larger than %(megabytes)d MB, more than one import takes.",
            megabytes=limited.maximum // (1024 * 1024),
        )
    elif limited.what == "requests":
        reason = gettext(
            "This network has imported too often in the last hour. Try again "
            "later, or ask the host to import the file."
        )
    else:
        reason = ngettext(
            "With this file, this network would import more than %(num)d game "
            "within an hour. Try again later, or ask the host to import the file.",
            "With this file, this network would import more than %(num)d games "
            "within an hour. Try again later, or ask the host to import the file.",
            limited.maximum,
        )
    return gettext("Nothing was imported. %(reason)s", reason=reason)


def record_field_label(path: str) -> str | None:
    """A top-level field of a record named as the forms name it (None: its key says it)."""
    labels = {
        **{f"players[{seat}]": gettext(label) for seat, label in enumerate(SEAT_LABELS)},
        "name": gettext("Name"),
        "notes": gettext("Notes"),
        "players": gettext("Players, in order of play"),
        "game": gettext("Game"),
    }
    return labels.get(path)


def refusal_text(refused: RecordsRefused) -> str:
    """Why an import was refused, in the reader's language: which record, which deal, which rule."""
    error = refused.error
    if isinstance(error, NotARecordError):
        # the parser's own words (str(error)) are English and technical: `scorekeeper check`
        # prints them for whoever needs them
        reason = gettext("this is not a Scorekeeper game record")
    else:
        problem = error.problems[0]
        if error.deal_number is None:
            reason = problem.render(
                gettext, translate_plural=plural_form, field_label=record_field_label(problem.field)
            )
        else:
            contract = error.contract or ""
            label = None
            if refused.players is not None:
                try:
                    label = field_label(contract, problem.field, refused.players)
                except (IndexError, ValueError):
                    label = None
            text = problem.render(gettext, field_label=label, translate_plural=plural_form)
            name = contract_name(contract) if contract in CONTRACTS else contract
            where = (
                gettext("deal %(number)d (%(contract)s)", number=error.deal_number, contract=name)
                if name
                else gettext("deal %(number)d", number=error.deal_number)
            )
            reason = f"{where}: {text}"
    if refused.record is not None:
        reason = (
            gettext("record %(number)d of %(count)d", number=refused.record, count=refused.count)
            + ", "
            + reason
        )
    return gettext("Nothing was imported. %(reason)s", reason=reason[:1].upper() + reason[1:])


@dataclass
class Upload:
    """What an import page's request brought: the form, the stored games or why none were."""

    form: ImportForm
    rows: list[GameRow] | None = None
    error: str | None = None
    status: int = 200


def _store_with_figures(records: list[Record]) -> list[GameRow]:
    return store_records(records, stored_form)


def receive_upload(
    store: Callable[[list[Record]], list[GameRow]] = _store_with_figures,
) -> Upload:
    """An import page's request: on POST the file, read within the caps and counted against
    the address's hourly allowance, its records checked and kept by `store` (as new games
    with their statistics figures)."""
    too_large = ImportLimited("bytes", request.content_length or 0, IMPORT_MAX_BYTES)
    if request.method == "POST":
        if (request.content_length or 0) > UPLOAD_BODY:  # not even read
            return Upload(ImportForm(formdata=None), error=limited_text(too_large), status=413)
        request.max_content_length = UPLOAD_BODY
    form = ImportForm()
    if not form.validate_on_submit():
        if request.method == "POST" and form.errors.get("csrf_token"):
            abort(400)
        return Upload(form, status=422 if request.method == "POST" else 200)
    data = form.file.data.read(IMPORT_MAX_BYTES + 1)
    try:
        if len(data) > IMPORT_MAX_BYTES:
            raise too_large
        rows = import_from(limits.address_key(request.remote_addr), data, CAPS, store)
    except ImportLimited as limited:
        return Upload(
            form,
            error=limited_text(limited),
            status=429 if limited.what in ("requests", "games") else 413,
        )
    except RecordsRefused as refused:
        return Upload(form, error=refusal_text(refused), status=422)
    flash(
        ngettext("%(num)d game imported.", "%(num)d games imported.", len(rows))
        if len(rows) != 1
        else gettext("The game was imported."),
        "success",
    )
    return Upload(form, rows=rows)


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own token, after the larger upload limit below is set
def import_page() -> Any:
    """Upload a game record, or a backup holding several, and store them as new games."""
    upload = receive_upload()
    if upload.rows is None:
        return render_template(
            "pages/import.html", form=upload.form, error=upload.error
        ), upload.status
    for row in reversed(upload.rows):
        remember(row.token)
    if len(upload.rows) == 1:
        return redirect(url_for("games.game_page", token=upload.rows[0].token), 303)
    return redirect(url_for("games.home"), 303)
