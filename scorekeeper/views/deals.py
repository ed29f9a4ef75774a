"""Deals: the form for one contract, its live preview, saving, and editing a past deal."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..forms import DealForm, make_deal_form
from ..models import GameRow
from ..rules import Deal, Evaluation, Problem, dump_deal, evaluate, parse_deal, with_deal
from ..rules.autofill import autofill
from ..store import StaleStateError, save_deals
from .common import GameView, game_or_404, game_view, is_htmx, is_number
from .presenters import contract_name, problem_group, problem_text

bp = Blueprint("deals", __name__)


def _contract_arg(view: GameView, value: str | None) -> str:
    if value not in view.game.definition.contracts:
        abort(400)
    assert value is not None
    return value


def _editing(view: GameView, value: str | None) -> int | None:
    """The 1-based number of the deal being edited, or None for a new deal."""
    if value in (None, ""):
        return None
    assert value is not None
    if not is_number(value) or not 1 <= int(value) <= len(view.game.deals):
        abort(400)
    return int(value)


def _judge(view: GameView, form: DealForm, editing: int | None,
           show_missing: bool) -> tuple[dict[str, Any], Evaluation | None, dict[str, list[str]]]:
    """Fill in what the entry determines, ask the engine, and sort its problems by field."""
    raw = autofill(form.raw())
    form.fill(raw)
    errors: dict[str, list[str]] = {}
    for name, field_errors in form.errors.items():
        if name in ("contract", "number", "version", "csrf_token"):
            continue
        errors.setdefault(name.split("-")[0], []).extend(str(e) for e in field_errors)
    if errors:
        return raw, None, errors
    if form.unset() and not show_missing:
        return raw, None, {}
    index = None if editing is None else editing - 1
    evaluation = evaluate(view.game, raw, index)
    for problem in evaluation.problems:
        errors.setdefault(problem_group(problem), []).append(
            problem_text(problem, form.contract_id, view.players))
    if evaluation.later is not None:
        later = evaluation.later
        reason = problem_text(later.problems[0], later.contract or "", view.players)
        errors.setdefault("contract", []).append(gettext(
            "This change would make deal %(number)d illegal: %(reason)s",
            number=later.deal_number or 0, reason=reason))
    return raw, evaluation, errors


def _render_form(view: GameView, form: DealForm, *, contract: str, editing: int | None,
                 evaluation: Evaluation | None, errors: dict[str, list[str]], status: int = 200,
                 fragment: bool = False, preview_on_load: bool = False) -> tuple[str, int]:
    number = editing if editing is not None else len(view.game.deals) + 1
    if editing is None:
        assert view.result.next is not None
        chooser, kingdom = view.result.next.chooser, view.result.next.kingdom
    else:
        past = view.result.deals[editing - 1]
        chooser, kingdom = past.chooser, past.kingdom
    args = view.template_args(
        form=form, contract=contract, editing=editing, number=number, chooser=chooser,
        kingdom=kingdom, evaluation=evaluation, errors=errors, groups=form.groups(),
        unset=form.unset(), preview_on_load=preview_on_load,
        doubling=view.game.house_rules.doubling,
    )
    template = "_deal_form.html" if fragment else "deal.html"
    return render_template(template, **args), status


def _new_form(view: GameView, contract: str, editing: int | None) -> DealForm:
    form = make_deal_form(contract, formdata=None)
    form.contract.data = contract
    form.number.data = str(editing if editing is not None else len(view.game.deals) + 1)
    form.version.data = str(view.row.version)
    return form


@bp.get("/g/<token>/deal")
def new_deal(token: str) -> Any:
    """The form for the next deal, for the contract the chooser picked."""
    row = game_or_404(token)
    if row.first is None:
        return redirect(url_for("games.game_page", token=token), 303)
    view = game_view(row)
    if view.result.next is None:
        return redirect(url_for("games.game_page", token=token), 303)
    contract = _contract_arg(view, request.args.get("contract"))
    if not view.result.next.is_open(contract):
        flash(gettext("%(contract)s cannot be chosen now.",
                      contract=contract_name(contract)), "warning")
        return redirect(url_for("games.game_page", token=token), 303)
    return _render_form(view, _new_form(view, contract, None), contract=contract, editing=None,
                        evaluation=None, errors={}, preview_on_load=True)


@bp.get("/g/<token>/deal/<number>/edit")  # not <int:>: its int() of 5000 digits raises
def edit_deal(token: str, number: str) -> Any:
    """The form for a past deal, filled in with what was entered (contract may be changed)."""
    row = game_or_404(token)
    if row.first is None or not is_number(number) or not 1 <= int(number) <= row.deal_count:
        abort(404)
    editing = int(number)
    view = game_view(row)
    past = view.result.deals[editing - 1]
    contract = request.args.get("contract") or past.contract
    contract = _contract_arg(view, contract)
    form = _new_form(view, contract, editing)
    if contract == past.contract:
        form.fill(row.deals[editing - 1])
    return _render_form(view, form, contract=contract, editing=editing, evaluation=None,
                        errors={}, preview_on_load=True)


def _bound_form(row: GameRow) -> tuple[GameView, DealForm, str, int | None]:
    if row.first is None:
        abort(400)
    view = game_view(row)
    contract = _contract_arg(view, request.form.get("contract"))
    editing = _editing(view, request.form.get("editing"))
    form = make_deal_form(contract)
    return view, form, contract, editing


@bp.post("/g/<token>/deal/preview")
def preview(token: str) -> Any:
    """As the player taps: the filled-in form, the deal's scores and any problems (htmx)."""
    row = game_or_404(token)
    view, form, contract, editing = _bound_form(row)
    form.validate()
    if form.errors.get("csrf_token"):
        abort(400)
    if editing is None and view.result.next is None:
        return _finished(view)
    # a value no chip offers (seat 7, count "abc") comes from a tampered form, not from taps
    status = 422 if form.errors else 200
    _, evaluation, errors = _judge(view, form, editing, show_missing=False)
    return _render_form(view, form, contract=contract, editing=editing, evaluation=evaluation,
                        errors=errors, status=status, fragment=is_htmx())


@bp.post("/g/<token>/deal")
def save_deal(token: str) -> Any:
    """Save the next deal (or an edit of a past one) if the engine accepts it."""
    row = game_or_404(token)
    if _from_before_an_undo(row):
        flash(gettext("The game changed on another phone. Check the current state and enter "
                      "the deal again if it is still missing."), "warning")
        return redirect(url_for("games.game_page", token=token), 303)
    view, form, contract, editing = _bound_form(row)
    form.validate()
    if form.errors.get("csrf_token"):
        abort(400)
    number, version = request.form.get("number", ""), request.form.get("version", "")
    if not is_number(number) or not is_number(version):
        abort(400)
    # no form this game ever rendered carries a later deal number or a future version
    if not 1 <= int(number) <= len(view.game.deals) + 1 or not 1 <= int(version) <= row.version:
        abort(400)
    raw, evaluation, errors = _judge(view, form, editing, show_missing=True)
    if editing is None and int(number) != len(view.game.deals) + 1:
        return _already_saved(view, raw, int(number))
    if editing is None and view.result.next is None:
        return _finished(view)
    if editing is not None and int(version) != row.version and _already_changed(view, raw,
                                                                                  editing):
        return redirect(url_for("games.game_page", token=token), 303)  # "Save changes" twice
    if int(version) != row.version:
        flash(gettext("The game changed on another phone. Check the current state and enter "
                      "the deal again if it is still missing."), "warning")
        return redirect(url_for("games.game_page", token=token), 303)
    if evaluation is None or not evaluation.ok:
        return _render_form(view, form, contract=contract, editing=editing,
                            evaluation=evaluation, errors=errors, status=422)
    assert evaluation.deal is not None
    index = None if editing is None else editing - 1
    try:
        save_deals(row, with_deal(view.game, evaluation.deal, index), row.version)
    except StaleStateError:  # unless the write that won was this very entry (a double tap)
        if not _holds(row, int(number) - 1 if index is None else index, evaluation.deal):
            flash(gettext("The game changed on another phone; this deal was not saved."),
                  "warning")
            return redirect(url_for("games.game_page", token=token), 303)
    if editing is None:
        flash(gettext("Deal %(number)d saved.", number=int(number)), "success")
    else:
        flash(gettext("Deal %(number)d changed.", number=editing), "success")
    return redirect(url_for("games.game_page", token=token), 303)


def _holds(row: GameRow, index: int, deal: Deal) -> bool:
    """Whether the stored game (read again) has exactly `deal` at `index`."""
    return 0 <= index < len(row.deals) and row.deals[index] == dump_deal(deal)


def _from_before_an_undo(row: GameRow) -> bool:
    """A form made before another phone undid deals: it names a deal the game no longer has,
    and an older version (a current version with such a number is a tampered form: 400)."""
    number, editing = request.form.get("number", ""), request.form.get("editing", "")
    version = request.form.get("version", "")
    if not is_number(version) or not 1 <= int(version) < row.version:
        return False
    return ((is_number(number) and int(number) > row.deal_count + 1)
            or (is_number(editing) and int(editing) > row.deal_count))


def _finished(view: GameView) -> tuple[str, int]:
    """A new deal sent to a finished game (a form left open on another phone): save nothing."""
    message = problem_text(Problem("contract", "game_finished"), "", view.players)
    return render_template("error.html", code=409, message=message), 409


def _already_changed(view: GameView, raw: dict[str, Any], number: int) -> bool:
    """Whether past deal `number` already holds exactly this entry (an edit sent twice)."""
    deal, _ = parse_deal(view.game.definition, raw)
    return deal is not None and dump_deal(deal) == view.row.deals[number - 1]


def _already_saved(view: GameView, raw: dict[str, Any], number: int) -> Response:
    """A resubmitted or double-tapped save: show the saved state, save nothing twice."""
    saved = view.row.deals[number - 1] if 1 <= number <= len(view.row.deals) else None
    deal, _ = parse_deal(view.game.definition, raw)
    if saved is None or deal is None or dump_deal(deal) != saved:
        flash(gettext("Deal %(number)d was already entered on another phone; yours was not "
                      "saved. Check the history.", number=number), "warning")
    return redirect(url_for("games.game_page", token=view.row.token), 303)
