"""Deals: the form for one contract, its live preview, saving, and correcting a past deal.

A form shown inside the game page (an htmx request) gets fragments back: the preview, or after
a save only what the deal changed. Without JavaScript the same URLs answer whole pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, assert_never

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
from werkzeug.wrappers import Response

from ...rules import Evaluation, Option, Replay, edit_options, evaluate
from ...rules.autofill import Sum
from ...rules.messages import N_
from ...store import deals
from ...store.deals import Entry
from ...words.deal_form import Chips
from ...words.deal_words import NOT_THROUGH, WITHDRAWN, deal_messages, finished_text
from ..caches import keep_replay
from ..forms import DealForm, blank_deal_form, make_deal_form
from ..languages import gettext, plural_form
from ..present import contract_name
from .common import GameView, game_or_404, game_view, is_htmx, kept_said, moved_on

bp = Blueprint("deals", __name__)


STALE = N_(
    "The game changed on another phone. Check the current state and "
    "enter the deal again if it is still missing."
)
"""What a save from a form older than the game's last change is told, on the game page."""


def _contract(view: GameView, value: str | None) -> str:
    """A contract of this game, from the request; anything else is a 400."""
    if value not in view.game.definition.contracts:
        abort(400)
    assert value is not None
    return value


def _started(token: str) -> GameView:
    """The game behind the link, which must have started (its first chooser known)."""
    row = game_or_404(token)
    if row.first_chooser is None:
        abort(400)
    return game_view(row)


def _bound_form(view: GameView) -> DealForm:
    """The form sent (:func:`_valid_form`, :func:`_still_held`); one the game moved on under
    goes to the game page when its own entry is in it (a save leaves that to the store)."""
    form = _valid_form(view)
    if form.version.data != view.row.version:
        _own_save_is_in(view, form)
    _still_held(view, form)
    return form


def _valid_form(view: GameView) -> DealForm:
    """The deal form the request sent, validated; a 400 for a tampered or expired one."""
    form = make_deal_form(_contract(view, request.form.get("contract")))
    form.validate()
    if form.errors.get("csrf_token") or any(
        form.errors.get(name) for name in ("number", "version", "corrects", "entry_key")
    ):
        abort(400)
    return form


def _still_held(view: GameView, form: DealForm, saving: bool = False) -> None:
    """A correction of a deal the game no longer holds (undone on another phone) is not
    judged: the game page when `saving` from a form older than the undo, else a 409."""
    corrects = form.corrects.data
    if corrects is not None and not 1 <= corrects <= len(view.game.deals):
        if saving and form.version.data != view.row.version:
            # older than the undo: the game page says what changed, as for any stale save
            flash(gettext(STALE), "warning")
            abort(_to_game(view.row.token, inline=False))
        message = gettext(
            "This game has no deal %(number)d (it may have been undone on "
            "another phone); nothing was saved.",
            number=corrects,
        )
        template = "fragments/message.html" if is_htmx() else "pages/error.html"
        abort(make_response(render_template(template, code=409, message=message), 409))


def _own_save_is_in(view: GameView, form: DealForm) -> None:
    """A form the game moved on under whose own entry the game stored (by its key: a save
    whose answer was lost, then a tap, a check or a carry): the game page says so."""
    found = deals.kept(view.row, form.entry_key.data or "")
    if found is not None:
        flash(*kept_said(found))
        abort(_to_game(view.row.token, inline=is_htmx()))


@dataclass(frozen=True)
class DealFormShown:
    """What a deal form shows (the names its templates read): whose deal it is, the chips and
    how they are laid out, and what the engine made of the taps so far."""

    form: DealForm
    contract: str
    number: int
    corrects: int | None
    """The past deal the form corrects (None: the next deal)."""
    chooser: int
    kingdom: int | None
    groups: tuple[Chips, ...]
    unset: list[str]
    """Required chip fields still untapped."""
    filled: Sequence[str]
    """Chip fields the app filled in just now (the preview sends their rows again)."""
    sums: Mapping[str, Sum]
    outdated: bool
    """The game moved on under this form (another phone saved its deal): Save is off."""
    evaluation: Evaluation | None
    errors: dict[str, list[str]]
    """Beside each field (by its spec name, the form's own under "contract")."""
    doubling: bool
    inline: bool = False
    """Inside the game page (else a page of its own)."""
    preview_on_load: bool = False
    choices: tuple[Option, ...] = ()
    """A past deal's: the contracts it may be changed to, or why not (the engine's)."""
    carried: bool = False
    """Taps carried over from a form the game moved on under: not saved yet, which it says."""
    values: Mapping[str, Any] = field(default_factory=dict)
    """Each chip field's value (None while untapped): what the chips show checked."""
    filled_now: frozenset[str] = frozenset()
    """The chip fields the app filled in (their rows mark the chip)."""
    autofilled: str = ""
    """The form's mark of what the app filled in, sent back with the next tap."""
    sent: frozenset[str] = frozenset()
    """The field names the browser sent (a tap's preview: the doubles' note once they are)."""

    @classmethod
    def of(
        cls,
        view: GameView,
        form: DealForm,
        evaluation: Evaluation | None = None,
        *,
        inline: bool = False,
        preview_on_load: bool = False,
        choosing: bool = True,
    ) -> DealFormShown:
        """A filled-in form as `view`'s game shows it (`choosing`: with a past deal's contracts
        to change to; a tap's preview does not show them)."""
        groups, unset, filled = form.groups(), form.unset(), form.filled_entry
        assert filled is not None  # every deal form is filled in before it is shown
        # WTForms' refusals (a value no chip offers) and an out-of-date form, else the engine's
        errors = form.chip_errors()
        corrects = form.corrects.data
        step = view.result.next if corrects is None else view.result.deals[corrects - 1]
        assert step is not None
        outdated = corrects is None and form.version.data != view.row.version
        if outdated:
            errors.setdefault("contract", []).append(moved_on(view.row, form.number.data or 0))
        rules = view.game.house_rules
        contract = form.contract.data or ""
        if not errors:
            errors = deal_messages(
                filled.problems, evaluation, contract, view.players, rules, gettext, plural_form
            )
        return cls(
            form,
            contract,
            form.number.data or 0,
            corrects,
            step.chooser,
            step.kingdom,
            groups,
            unset,
            form.filled,
            filled.sums,
            outdated,
            evaluation,
            errors,
            rules.doubling,
            inline,
            preview_on_load,
            edit_options(view.game, corrects - 1) if corrects and choosing else (),
            values=form.values(),
            filled_now=form.filled_now,
            autofilled=form.autofilled.data or "",
            sent=frozenset(request.form),
        )


def _render_form(
    view: GameView, shown: DealFormShown, template: str = "pages/deal.html", status: int = 200
) -> tuple[str, int]:
    """A deal form: a whole page (`pages/deal.html`), the form alone (inside the game page:
    `fragments/deal_form.html`), or what a tap changes (`fragments/deal_preview.html`)."""
    args = {each.name: getattr(shown, each.name) for each in fields(shown)}
    return render_template(template, **view.game_args(**args)), status


def _to_game(token: str, inline: bool) -> Response:
    """Back to the game page: a redirect, or for a form inside the game page a reload of it."""
    url = url_for("games.game_page", token=token)
    if inline:
        return make_response("", {"HX-Redirect": url})
    return redirect(url, 303)


def _doubles(form: DealForm) -> dict[str, Any]:
    """The doubles noted in a form, as query arguments (chip field name → seat)."""
    return {
        name: str(form[name].data)
        for group in form.groups()
        if group.doubles
        for name in group.names
        if form[name].data is not None
    }


def _note_doubles(form: DealForm, args: Any) -> None:
    """Pre-fill the doubles noted before play (from the form's URL); anything else is a 400."""
    for group in form.groups():
        if group.doubles:
            for name in group.names:
                if args.get(name):
                    try:
                        form[name].process_formdata([args[name]])
                    except ValueError:
                        abort(400)


@bp.get("/g/<token:token>/deal")
def new_deal(token: str) -> Any:
    """The form for the next deal, for the contract the chooser picked."""
    row = game_or_404(token)
    inline = is_htmx()  # a contract tapped on the game page: the form takes the next step's place
    if row.first_chooser is None:
        return _to_game(token, inline)
    view = game_view(row)
    if view.result.next is None:
        return _to_game(token, inline)
    contract = _contract(view, request.args.get("contract"))
    if not view.result.next.is_open(contract):  # another phone got there first
        flash(
            gettext("%(contract)s cannot be chosen now.", contract=contract_name(contract)),
            "warning",
        )
        return _to_game(token, inline)
    form = blank_deal_form(contract, len(view.game.deals) + 1, row.version)
    if view.game.house_rules.doubling:
        _note_doubles(form, request.args)
    form.fill_in(view.game.house_rules)  # nothing to fill yet: the running sums
    if inline:
        shown = DealFormShown.of(view, form, inline=True)
        return _render_form(view, shown, "fragments/deal_form.html")
    return _render_form(view, DealFormShown.of(view, form, preview_on_load=True))


def blank_form(view: GameView, contract: str) -> str:
    """A new deal form for `contract` as the game page shows it, every group open: what the
    phone fills in and shows when it enters a deal with no network (the offline kit)."""
    form = blank_deal_form(contract, len(view.game.deals) + 1, view.row.version)
    form.fill_in(view.game.house_rules)
    shown = DealFormShown.of(view, form, inline=True)
    return _render_form(view, shown, "fragments/deal_form.html")[0]


@bp.get("/g/<token:token>/deal/<number:number>/edit")
def edit_deal(token: str, number: int) -> Any:
    """The form for a past deal, filled in with what was entered (contract may be changed)."""
    row = game_or_404(token)
    if row.first_chooser is None or not 1 <= number <= row.deal_count:
        abort(404)
    view = game_view(row)
    past = view.result.deals[number - 1]
    contract = _contract(view, request.args.get("contract") or past.contract)
    form = blank_deal_form(contract, number, row.version, corrects=number)
    if contract == past.contract:
        form.fill(row.deals[number - 1])
    form.fill_in(view.game.house_rules)  # a whole deal: nothing to fill, the sums
    return _render_form(view, DealFormShown.of(view, form, preview_on_load=True))


@bp.post("/g/<token:token>/deal/preview")
def preview(token: str) -> Any:
    """As the player taps: the filled-in form, the deal's scores and any problems (htmx)."""
    view = _started(token)
    form = _bound_form(view)
    corrects = form.corrects.data
    if corrects is None and view.result.next is None:
        message = finished_text(view.players, gettext, plural_form)
        if is_htmx():  # a form left open on another phone: say so where the scores would be
            return render_template("fragments/message.html", message=message), 409
        return render_template("pages/error.html", code=409, message=message), 409
    raw = form.fill_in(view.game.house_rules)
    evaluation = None
    if not form.chip_errors() and not form.unset():
        # a preview writes nothing: a new deal is judged without replaying the game with it
        evaluation = evaluate(
            view.result, raw, None if corrects is None else corrects - 1, replay_after=False
        )
    # a value no chip offers (seat 7, count "abc") comes from a tampered form, not from taps
    html, status = _render_form(
        view,
        DealFormShown.of(view, form, evaluation, choosing=not is_htmx()),
        "fragments/deal_preview.html" if is_htmx() else "pages/deal.html",
        status=422 if form.chip_errors() else 200,
    )
    response = make_response(html, status)
    if (
        corrects is None
        and is_htmx()
        and view.game.house_rules.doubling
        and any(group.doubles for group in form.groups())
    ):
        # the doubles noted before play stay in the address: a reload keeps them
        response.headers["HX-Replace-Url"] = url_for(
            "deals.new_deal", token=token, contract=form.contract.data, **_doubles(form)
        )
    return response


def _said(outcome: deals.Outcome, entry: Entry, players: tuple[str, ...]) -> tuple[str, str]:
    """What the game page says after a save (its words and their kind), for every outcome
    that goes back there."""
    number = entry.number
    match outcome:
        case deals.Kept():  # this very entry, stored before (by its key)
            return kept_said(outcome)
        case deals.AlreadySaved(same=True):
            # another phone entered it exactly so first (this entry's own save is Kept)
            return gettext("Deal %(number)d is in the game.", number=number), "success"
        case deals.Saved():
            if entry.correction:
                return gettext("Deal %(number)d changed.", number=number), "success"
            return gettext("Deal %(number)d saved.", number=number), "success"
        case deals.AlreadySaved():
            return gettext(
                "Deal %(number)d was already entered on another phone; yours "
                "was not saved. Check the history.",
                number=number,
            ), "warning"
        case deals.Stale(raced=True):
            return gettext("The game changed on another phone; this deal was not saved."), "warning"
        case deals.Stale():
            return gettext(STALE), "warning"
        case deals.Withdrawn():  # a late copy of a save this phone's person undid
            return gettext(WITHDRAWN, number=number), "warning"
        case deals.Finished():
            return finished_text(players, gettext, plural_form), "warning"
        case deals.Refused() | deals.Impossible():
            raise ValueError("a refused save is answered where it was sent")
        case _:
            assert_never(outcome)


def _form_again(
    view: GameView, form: DealForm, evaluation: Evaluation | None, inline: bool
) -> tuple[str, int]:
    """A refused save: the form again, with why beside the fields."""
    template = "fragments/deal_form.html" if inline else "pages/deal.html"
    shown = DealFormShown.of(view, form, evaluation, inline=inline)
    return _render_form(view, shown, template, status=422)


@bp.post("/g/<token:token>/deal")
def save_deal(token: str) -> Any:
    """Save the next deal (or a correction of a past one) if the engine accepts it."""
    view = _started(token)
    form = _valid_form(view)  # (an entry the game holds by its key: enter_deal answers Kept)
    _still_held(view, form, saving=True)
    inline = is_htmx() and form.corrects.data is None  # the form inside the game page
    form.fill_in(view.game.house_rules)
    if form.chip_errors():  # a value no chip offers: refused before anything is judged
        return _form_again(view, form, None, inline)
    entry = form.entry()
    outcome = deals.enter_deal(view.row, view.result, entry)
    match outcome:  # refused: answered where it was sent
        case deals.Refused(evaluation=evaluation):
            return _form_again(view, form, evaluation, inline)
        case deals.Impossible():
            abort(400)
    message, kind = _said(outcome, entry, view.players)
    match outcome:
        case deals.Saved(result=Replay() as result):
            keep_replay(view.row, result)  # the page that follows shows it: not replayed
            if inline:  # the next step, the scoreboard and the history, in one answer
                html = render_template(
                    "fragments/saved.html",
                    **GameView(view.row, result).template_args(message=message),
                )
                return make_response(
                    html, {"HX-Replace-Url": url_for("games.game_page", token=token)}
                )
        case deals.Finished() if not inline:
            return render_template("pages/error.html", code=409, message=message), 409
    flash(message, kind)
    return _to_game(token, inline)


@bp.post("/g/<token:token>/deal/check")
def check_deal(token: str) -> Any:
    """After a save went wrong (no answer, a 5xx): what became of it, asked by the form's key
    before anything is said (htmx). Stored, or another phone's deal in its place, or the game
    changed: the game page, which says so; else "Not saved" above Save, with why (a save sent
    again is never stored twice)."""
    view = _started(token)
    form = _bound_form(view)  # (a form whose own save is in the game goes to the game page)
    form.fill_in(view.game.house_rules)
    entry = form.entry()
    outcome = deals.check_entry(view.row, view.result, entry)
    if outcome is None:
        reason = gettext(NOT_THROUGH.get(request.form.get("why", ""), NOT_THROUGH["stale"]))
        return render_template(
            "fragments/not_saved.html",
            message=gettext("Not saved. %(reason)s Try again.", reason=reason),
        )
    flash(*_said(outcome, entry, view.players))
    return make_response("", {"HX-Redirect": url_for("games.game_page", token=token)})


@bp.post("/g/<token:token>/deal/carry")
def as_next_deal(token: str) -> Any:
    """A deal form the game moved on under (another phone saved that deal): its taps, one tap
    away from being the next deal's, judged again there (its chooser, its rules)."""
    view = _started(token)
    form = _bound_form(view)
    inline = is_htmx()
    contract = form.contract.data or ""
    following = view.result.next
    if form.corrects.data is not None or following is None or not following.is_open(contract):
        flash(
            finished_text(view.players, gettext, plural_form)
            if following is None
            else gettext("%(contract)s cannot be chosen now.", contract=contract_name(contract)),
            "warning",
        )
        return _to_game(token, inline)
    next_form = blank_deal_form(contract, len(view.game.deals) + 1, view.row.version)
    next_form.fill(form.raw())  # every chip as this phone showed it counts as tapped
    raw = next_form.fill_in(view.game.house_rules)
    evaluation = None
    if not next_form.chip_errors() and not next_form.unset():
        evaluation = evaluate(view.result, raw, replay_after=False)  # nothing is written
    template = "fragments/deal_form.html" if inline else "pages/deal.html"
    shown = replace(DealFormShown.of(view, next_form, evaluation, inline=inline), carried=True)
    html, status = _render_form(view, shown, template)
    response = make_response(html, status)
    if inline:
        response.headers["HX-Replace-Url"] = url_for(
            "deals.new_deal", token=token, contract=contract
        )
    return response
