"""A table's statistics (computed from its games through the engine, never stored), its
exports (the statistics as CSV, the games as JSON records) and importing records into it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    redirect,
    render_template,
    stream_with_context,
    url_for,
)

from ...stats import TableStats, stored_form
from ...store import tables as store
from ...store.models import TableRow
from ...store.nights import night_starts_by_game
from ...store.records import records_text
from ...words.evening_export import RATINGS_FILE
from ...words.stats_export import (
    ITEM_AVERAGES,
    STANDINGS_FILE,
    TABLES,
    WIN_RATE,
    stats_csv,
    stats_csv_filename,
    stats_unicode_filename,
)
from ..caches import statistics_content, table_statistics
from ..extensions import csrf
from ..languages import gettext
from ..nights import evening_args
from .common import attachment, remember_table, table_or_404, viewed_table_or_404
from .imports import receive_upload

bp = Blueprint("table_stats", __name__)


def _stats_page(table: TableRow, viewing: bool) -> str:
    def content(stats: TableStats) -> str:
        return render_template(
            "pages/table_stats.html",
            content_only=True,
            table=table,
            stats=stats,
            viewing=viewing,
            item_labels=ITEM_AVERAGES,
            win_rate_label=gettext(WIN_RATE),
            **evening_args(table, stats),
        )

    # the content kept per the games' versions, the table's evening and the language; the page
    # around it is the reader's (its token, and the ratings switch's form token)
    kept = statistics_content(table, viewing, content)
    return render_template(
        "pages/table_stats.html", table=table, kept_content=kept, viewing=viewing
    )


@bp.get("/t/<token:token>/stats")
def stats(token: str) -> str:
    """Standings, contracts, partnerships, streaks and wins over time."""
    return _stats_page(table_or_404(token), viewing=False)


@bp.get("/v/t/<token:view_token>/stats")
def view_stats(view_token: str) -> str:
    """The statistics from the table's view link."""
    return _stats_page(viewed_table_or_404(view_token), viewing=True)


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _games_json(table: TableRow) -> Response:
    night_starts = night_starts_by_game(table)
    return attachment(
        # a record at a time, each with the night the table started after it (if any)
        stream_with_context(records_text(store.each_table_game(table), None, night_starts)),
        "application/json",
        f"scorekeeper-table-{_today()}.json",
    )


def _stats_csv(table: TableRow, part: str) -> Response:
    if part not in TABLES:
        abort(404)
    today = datetime.now(UTC).date()
    stats = table_statistics(table)
    if part == RATINGS_FILE and stats.ratings is None:
        abort(404)  # the table's players are not rated
    return attachment(
        stats_csv(stats, gettext, part),
        "text/csv",
        stats_csv_filename(table.name, today, part, gettext),
        stats_unicode_filename(table.name, today, part, gettext),
    )


@bp.get("/t/<token:token>/stats.csv")
def table_stats_csv(token: str) -> Response:
    """The table's standings for a spreadsheet (the first of its statistics' files)."""
    return _stats_csv(table_or_404(token), STANDINGS_FILE)


@bp.get("/t/<token:token>/stats/<part>.csv")
def table_stats_part(token: str, part: str) -> Response:
    """One table of the table's statistics (standings, contracts, partnerships) for a
    spreadsheet: each its own file, one table each."""
    return _stats_csv(table_or_404(token), part)


@bp.get("/v/t/<token:view_token>/stats.csv")
def view_stats_csv(view_token: str) -> Response:
    """The standings CSV, from the table's view link."""
    return _stats_csv(viewed_table_or_404(view_token), STANDINGS_FILE)


@bp.get("/v/t/<token:view_token>/stats/<part>.csv")
def view_stats_part(view_token: str, part: str) -> Response:
    """A statistics CSV, from the table's view link."""
    return _stats_csv(viewed_table_or_404(view_token), part)


@bp.get("/t/<token:token>/games.json")
def games_json(token: str) -> Response:
    """All the table's games as a JSON array of records."""
    return _games_json(table_or_404(token))


@bp.get("/v/t/<token:view_token>/games.json")
def view_games_json(view_token: str) -> Response:
    """The table's games, from its view link."""
    return _games_json(viewed_table_or_404(view_token))


@bp.route("/t/<token:token>/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own token, after the larger upload limit is set
def import_page(token: str) -> Any:
    """Upload game records: they become games of this table, their players join its roster."""
    # the upload (and its form's token) is judged before the table is looked up, as for
    # every other form; its records are kept only once the table is found
    upload = receive_upload(
        lambda records: store.store_table_records(table_or_404(token), records, stored_form)
    )
    table = table_or_404(token)
    if upload.rows is None:
        return render_template(
            "pages/table_import.html", table=table, form=upload.form, error=upload.error
        ), upload.status
    remember_table(table.token)
    return redirect(url_for("tables.table_page", token=table.token), 303)
