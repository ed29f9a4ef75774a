"""Import: game records (one, or a backup of several) stored as new games, all or nothing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ...rules import CONTRACTS, NotARecordError
from ...store.records import ImportRefused, import_records
from ..extensions import csrf
from ..forms import ImportForm
from ..languages import gettext, ngettext, plural_form
from ..present import contract_name, field_label
from .common import remember

bp = Blueprint("imports", __name__)

IMPORT_MAX_BYTES = 2 * 1024 * 1024  # a backup of every remembered game fits with room to spare


def refusal_text(refused: ImportRefused) -> str:
    """Why an import was refused, in the reader's language: which record, which deal, which rule."""
    error = refused.error
    if isinstance(error, NotARecordError):
        reason = gettext("this is not a Scorekeeper game record (%(detail)s)", detail=str(error))
    else:
        problem = error.problems[0]
        if error.deal_number is None:
            reason = problem.render(gettext, translate_plural=plural_form)
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
    if request.method == "POST":
        request.max_content_length = IMPORT_MAX_BYTES
    form = ImportForm()
    error = None
    if form.validate_on_submit():
        data = form.file.data.read(IMPORT_MAX_BYTES + 1)
        try:
            rows = import_records(data)
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
    status = 422 if request.method == "POST" else 200
    return render_template("pages/import.html", form=form, error=error), status
