"""Import: game records (one, or a backup of several) stored as new games, all or nothing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...rules import CONTRACTS, NotARecordError
from ...store import limits
from ...store.records import ImportCaps, ImportLimited, ImportRefused, import_from
from ..extensions import csrf
from ..forms import ImportForm
from ..languages import gettext, ngettext, plural_form
from ..present import contract_name, field_label
from .common import remember

bp = Blueprint("imports", __name__)

IMPORT_MAX_RECORDS = 500
"""Games in one import from the web (a phone's backup holds at most 60)."""
IMPORT_MAX_DEALS = IMPORT_MAX_RECORDS * 20
"""Deals in one import from the web: 500 complete games of 20 deals."""
IMPORT_MAX_BYTES = 2 * 1024 * 1024
"""The file's size: 500 complete games, exported, fit with room to spare."""
_FORM_SLACK = 16 * 1024  # the multipart framing and the form's token around the file
CAPS = ImportCaps(records=IMPORT_MAX_RECORDS, deals=IMPORT_MAX_DEALS)


def limited_text(limited: ImportLimited) -> str:
    """Why an import was refused for its size or for how much was imported lately."""
    if limited.what == "records":
        reason = ngettext("The file holds %(num)d game; one import takes at most %(maximum)d.",
                          "The file holds %(num)d games; one import takes at most %(maximum)d.",
                          limited.count, maximum=limited.maximum)
    elif limited.what == "deals":
        reason = ngettext("The file holds %(num)d deal; one import takes at most %(maximum)d.",
                          "The file holds %(num)d deals; one import takes at most %(maximum)d.",
                          limited.count, maximum=limited.maximum)
    elif limited.what == "bytes":
        reason = gettext("The file is larger than %(megabytes)d MB, more than one import takes.",
                         megabytes=limited.maximum // (1024 * 1024))
    elif limited.what == "requests":
        reason = gettext("This network has imported too often in the last hour. Try again "
                         "later, or ask the host to import the file.")
    else:
        reason = ngettext("With this file, this network would import more than %(num)d game "
                          "within an hour. Try again later, or ask the host to import the file.",
                          "With this file, this network would import more than %(num)d games "
                          "within an hour. Try again later, or ask the host to import the file.",
                          limited.maximum)
    return gettext("Nothing was imported. %(reason)s", reason=reason)


def record_field_label(path: str) -> str | None:
    """A top-level field of a record named as the forms name it (None: its key says it)."""
    labels = {"players[0]": gettext("1st player"), "players[1]": gettext("2nd player"),
              "players[2]": gettext("3rd player"), "players[3]": gettext("4th player"),
              "name": gettext("Name"), "notes": gettext("Notes")}
    return labels.get(path)


def refusal_text(refused: ImportRefused) -> str:
    """Why an import was refused, in the reader's language: which record, which deal, which rule."""
    error = refused.error
    if isinstance(error, NotARecordError):
        reason = gettext("this is not a Scorekeeper game record (%(detail)s)", detail=str(error))
    else:
        problem = error.problems[0]
        if error.deal_number is None:
            reason = problem.render(gettext, translate_plural=plural_form,
                                    field_label=record_field_label(problem.field))
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
            where = (gettext("deal %(number)d (%(contract)s)", number=error.deal_number,
                             contract=name) if name
                     else gettext("deal %(number)d", number=error.deal_number))
            reason = f"{where}: {text}"
    if refused.record is not None:
        reason = gettext("record %(number)d of %(count)d", number=refused.record,
                         count=refused.count) + ", " + reason
    return gettext("Nothing was imported. %(reason)s", reason=reason[:1].upper() + reason[1:])


@bp.route("/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own token, after the larger upload limit below is set
def import_page() -> Any:
    """Upload a game record, or a backup holding several, and store them as new games."""
    too_large = ImportLimited("bytes", request.content_length or 0, IMPORT_MAX_BYTES)
    if request.method == "POST":
        if (request.content_length or 0) > IMPORT_MAX_BYTES + _FORM_SLACK:  # not even read
            return render_template("pages/import.html", form=ImportForm(formdata=None),
                                   error=limited_text(too_large)), 413
        request.max_content_length = IMPORT_MAX_BYTES + _FORM_SLACK
    form = ImportForm()
    error, status = None, 422
    if form.validate_on_submit():
        data = form.file.data.read(IMPORT_MAX_BYTES + 1)
        try:
            if len(data) > IMPORT_MAX_BYTES:
                raise too_large
            rows = import_from(limits.address_key(request.remote_addr), data, CAPS)
        except ImportLimited as limited:
            error = limited_text(limited)
            status = 429 if limited.what in ("requests", "games") else 413
        except ImportRefused as refused:
            error = refusal_text(refused)
        else:
            for row in reversed(rows):
                remember(row.token)
            flash(ngettext("%(num)d game imported.", "%(num)d games imported.", len(rows))
                  if len(rows) != 1 else gettext("The game was imported."), "success")
            if len(rows) == 1:
                return redirect(url_for("games.game_page", token=rows[0].token), 303)
            return redirect(url_for("games.home"), 303)
    elif request.method == "POST" and form.errors.get("csrf_token"):
        abort(400)
    return render_template("pages/import.html", form=form, error=error), (
        status if request.method == "POST" else 200)
