"""Deals: the form for one contract, its live preview, saving, and editing a past deal."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext
from werkzeug.wrappers import Response

from ..forms import DealForm, make_deal_form
from ..models import GameRow
from ..rules import (
    Deal,
    Evaluation,
    Problem,
    dump_deal,
    evaluate,
    parse_deal,
    with_deal,
)
from ..rules.autofill import autofill
from ..store import StaleStateError, save_deals
from .common import (
    GameView,
    game_or_404,
    game_view,
    is_htmx,
    is_number,
    remember_replay,
)
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
    """Fill in what the entry determines, ask the engine, and sort its problems by field.

    The chip fields the app filled in are left in `form.filled`."""
    empty = set(form.unset())
    raw = autofill(form.raw())
    form.fill(raw)
    form.filled = sorted(empty - set(form.unset()))
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
    evaluation = evaluate(view.game, raw, index, history=view.result)
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
                 template: str = "deal.html", preview_on_load: bool = False,
                 inline: bool = False) -> tuple[str, int]:
    """The deal form: a whole page, the form alone (`_deal_form.html`, shown inside the game
    page when `inline`), or what a tap changes (`_deal_preview.html`)."""
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
        unset=form.unset(), preview_on_load=preview_on_load, inline=inline,
        doubling=view.game.house_rules.doubling, filled=form.filled,
        folded=[group.spec.name for group in form.groups() if inline and group.folded
                and all(form[name].data is None for name in group.names)
                and not errors.get(group.spec.name)],
    )
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
    inline = is_htmx()  # a contract tapped on the game page: the form takes the next step's place
    if row.first is None:
        return _to_game(token, inline)
    view = game_view(row)
    if view.result.next is None:
        return _to_game(token, inline)
    contract = _contract_arg(view, request.args.get("contract"))
    if not view.result.next.is_open(contract):  # another phone got there first
        flash(gettext("%(contract)s cannot be chosen now.",
                      contract=contract_name(contract)), "warning")
        return _to_game(token, inline)
    if inline:
        return _render_form(view, _new_form(view, contract, None), contract=contract,
                            editing=None, evaluation=None, errors={},
                            template="_deal_form.html", inline=True)
    return _render_form(view, _new_form(view, contract, None), contract=contract, editing=None,
                        evaluation=None, errors={}, preview_on_load=True)


@bp.get("/g/<token>/deal/chips")
def folded_chips(token: str) -> Any:
    """The chips of a folded group (Complex's doubles), fetched when the player opens it."""
    row = game_or_404(token)
    if row.first is None or not is_htmx():
        return redirect(url_for("games.game_page", token=token), 303)
    view = game_view(row)
    contract = _contract_arg(view, request.args.get("contract"))
    form = make_deal_form(contract, formdata=None)
    groups = [g for g in form.groups() if g.folded and g.spec.name == request.args.get("group")]
    if not groups:
        abort(400)
    return render_template("_folded_chips.html", form=form, group=groups[0],
                           players=view.players, contract=contract)


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
        if is_htmx():  # a form left open on another phone: say so where the scores would be
            return render_template("_message.html", message=_finished_text(view)), 409
        return _finished(view)
    # a value no chip offers (seat 7, count "abc") comes from a tampered form, not from taps
    status = 422 if form.errors else 200
    _, evaluation, errors = _judge(view, form, editing, show_missing=False)
    return _render_form(view, form, contract=contract, editing=editing, evaluation=evaluation,
                        errors=errors, status=status,
                        template="_deal_preview.html" if is_htmx() else "deal.html")


@bp.post("/g/<token>/deal")
def save_deal(token: str) -> Any:
    """Save the next deal (or an edit of a past one) if the engine accepts it.

    A form shown inside the game page (htmx, `inline`) gets back only what the deal changed;
    otherwise the answer is a redirect to the game page. Whatever else happens (another phone
    got there first, a double tap), an inline form's page is reloaded to show the game as it is.
    """
    row = game_or_404(token)
    inline = is_htmx() and request.headers.get("HX-Target") == "deal-form"
    if _from_before_an_undo(row):
        flash(gettext("The game changed on another phone. Check the current state and enter "
                      "the deal again if it is still missing."), "warning")
        return _to_game(token, inline)
    view, form, contract, editing = _bound_form(row)
    inline = inline and editing is None
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
        return _already_saved(view, raw, int(number), inline)
    if editing is None and view.result.next is None:
        if inline:
            flash(_finished_text(view), "warning")
            return _to_game(token, inline)
        return _finished(view)
    if editing is not None and int(version) != row.version and _already_changed(view, raw,
                                                                                  editing):
        return redirect(url_for("games.game_page", token=token), 303)  # "Save changes" twice
    if int(version) != row.version:
        flash(gettext("The game changed on another phone. Check the current state and enter "
                      "the deal again if it is still missing."), "warning")
        return _to_game(token, inline)
    if evaluation is None or not evaluation.ok:
        return _render_form(view, form, contract=contract, editing=editing,
                            evaluation=evaluation, errors=errors, status=422, inline=inline,
                            template="_deal_form.html" if inline else "deal.html")
    assert evaluation.deal is not None
    index = None if editing is None else editing - 1
    saved = with_deal(view.game, evaluation.deal, index)
    result = None
    try:
        result = save_deals(row, saved, row.version)
    except StaleStateError:  # unless the write that won was this very entry (a double tap)
        if not _holds(row, int(number) - 1 if index is None else index, evaluation.deal):
            flash(gettext("The game changed on another phone; this deal was not saved."),
                  "warning")
            return _to_game(token, inline)
    if editing is not None:
        flash(gettext("Deal %(number)d changed.", number=editing), "success")
    elif not inline or result is None:  # (None: the twin's answer updated the page)
        flash(gettext("Deal %(number)d saved.", number=int(number)), "success")
    else:
        remember_replay(row, saved, result)
        after = GameView(row, saved, result)
        html = render_template("_saved.html", **after.template_args(
            message=gettext("Deal %(number)d saved.",
                                                   number=int(number))))
        return make_response(html, {"HX-Replace-Url": url_for("games.game_page", token=token)})
    return _to_game(token, inline)


def _to_game(token: str, inline: bool) -> Response:
    """Back to the game page: a redirect, or for a form inside the game page a reload of it."""
    url = url_for("games.game_page", token=token)
    if inline:
        return make_response("", {"HX-Redirect": url})
    return redirect(url, 303)


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


def _finished_text(view: GameView) -> str:
    return problem_text(Problem("contract", "game_finished"), "", view.players)


def _finished(view: GameView) -> tuple[str, int]:
    """A new deal sent to a finished game (a form left open on another phone): save nothing."""
    return render_template("error.html", code=409, message=_finished_text(view)), 409


def _already_changed(view: GameView, raw: dict[str, Any], number: int) -> bool:
    """Whether past deal `number` already holds exactly this entry (an edit sent twice)."""
    deal, _ = parse_deal(view.game.definition, raw)
    return deal is not None and dump_deal(deal) == view.row.deals[number - 1]


def _already_saved(view: GameView, raw: dict[str, Any], number: int, inline: bool) -> Response:
    """A resubmitted or double-tapped save: show the saved state, save nothing twice."""
    saved = view.row.deals[number - 1] if 1 <= number <= len(view.row.deals) else None
    deal, _ = parse_deal(view.game.definition, raw)
    if saved is None or deal is None or dump_deal(deal) != saved:
        flash(gettext("Deal %(number)d was already entered on another phone; yours was not "
                      "saved. Check the history.", number=number), "warning")
    return _to_game(view.row.token, inline)
