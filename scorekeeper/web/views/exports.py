"""Exports: one game as a JSON record or a CSV (from either link), and this browser's backup."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

from flask import Blueprint, Response, abort, stream_with_context

from ...store.games import games_for_tokens, record_of
from ...store.models import GameRow
from ...store.records import records_text
from ...words.exports import (
    csv_filename,
    csv_text,
    export_json,
    json_filename,
    unicode_filename,
)
from ..languages import gettext
from .common import attachment, game_or_404, remembered, viewed_or_404

bp = Blueprint("exports", __name__)


def _started_on(row: GameRow) -> datetime:
    return row.created_at or datetime.now(UTC)


def _json(row: GameRow) -> Response:
    if row.first_chooser is None:
        abort(404)
    record = record_of(row)
    day = _started_on(row).date()
    return attachment(
        export_json(record) + "\n",
        "application/json",
        json_filename(record, day, gettext),
        unicode_filename(record, day, ".json", gettext),
    )


def _csv(row: GameRow) -> Response:
    if row.first_chooser is None:
        abort(404)
    record = record_of(row)
    day = _started_on(row).date()
    return attachment(
        csv_text(record, gettext),
        "text/csv",
        csv_filename(record, day, gettext),
        unicode_filename(record, day, ".csv", gettext),
    )


@bp.get("/g/<token:token>/export.json")
def export_game_json(token: str) -> Response:
    """The game record with the engine's scores, as a JSON download."""
    return _json(game_or_404(token))


@bp.get("/g/<token:token>/export.csv")
def export_game_csv(token: str) -> Response:
    """One row per deal and a totals row, for a spreadsheet."""
    return _csv(game_or_404(token))


@bp.get("/v/<token:view_token>/export.json")
def view_export_json(view_token: str) -> Response:
    """The JSON export, from the view link."""
    return _json(viewed_or_404(view_token))


@bp.get("/v/<token:view_token>/export.csv")
def view_export_csv(view_token: str) -> Response:
    """The CSV export, from the view link."""
    return _csv(viewed_or_404(view_token))


def _remembered_games(tokens: list[str]) -> Iterator[GameRow]:
    """The games behind these links, read as the answer is sent (after the view returned)."""
    yield from games_for_tokens(tokens)


@bp.get("/backup.json")
def backup() -> Response:
    """Every game this browser can see, as one JSON array of records (sent a record at a
    time)."""
    return attachment(
        stream_with_context(records_text(_remembered_games(remembered()))),
        "application/json",
        f"scorekeeper-backup-{datetime.now(UTC).date().isoformat()}.json",
    )
