"""The commands on the database (`init-db`, `export`, `import`, and `serve` before it runs): the
database opened, created or migrated first, and one line that says which database it is and
whether it was just created, so that a command run in the wrong folder is noticed rather than
quietly starting a new, empty `instance/` there."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask


def count(number: int, noun: str) -> str:
    """'1 game', '2 games', '0 games': an English count (the command line is in English)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def shown(url: str) -> str:
    """The database as the operator would name it: a SQLite file's path (from the working folder
    when it is inside it, as `instance/scorekeeper.sqlite`), or the URL of another database
    without its password."""
    from sqlalchemy.engine import make_url

    from ..settings import sqlite_files

    files = sqlite_files(url)
    if files:
        here = Path.cwd()
        if here != Path(here.anchor) and files[0].is_relative_to(here):
            return str(files[0].relative_to(here))
        return str(files[0])
    parsed = make_url(url)
    return parsed.set(drivername=parsed.get_backend_name()).render_as_string(hide_password=True)


def news(state: str, url: str, *, current: str = "Using the database {}") -> str:
    """One line on what opening the database did: created it, migrated it, or (`current`, with
    the database's name for {}) found it at the newest schema."""
    from ..settings import sqlite_files
    from ..store.db import EMPTY, NEWEST

    where = shown(url)
    if state == EMPTY:
        if sqlite_files(url):
            return f"Created the database in {where}"
        return f"Created the tables in the database {where}"
    if state == NEWEST:
        return current.format(where)
    return f"Migrated the database {where} to the newest schema"


def open_database(*, writes: bool = False) -> tuple[Flask, str]:
    """The app on the configured database, created or migrated to the newest schema (a
    database already there is only read), and where it stands: EMPTY (just created), BEHIND
    (just migrated) or NEWEST; with `writes`, one that takes writes (else the database's
    OperationalError)."""
    from .. import create_app
    from ..store.db import NEWEST, schema_state, try_a_write, upgrade_quietly

    app = create_app()
    with app.app_context():
        state = schema_state()
        if state != NEWEST:
            upgrade_quietly()
        if writes:
            try_a_write()
    return app, state


def opened(*, writes: bool = False) -> Flask:
    """open_database(), said on standard error in one line (standard output stays the
    command's own: an export's JSON, the server's addresses)."""
    app, state = open_database(writes=writes)
    print(news(state, app.config["SQLALCHEMY_DATABASE_URI"]), file=sys.stderr)
    return app


def init_db() -> int:
    """Create or migrate the database and say which it did, or that it is up to date."""
    app, state = open_database()
    print(
        news(state, app.config["SQLALCHEMY_DATABASE_URI"], current="The database {} is up to date")
    )
    return 0


def export_games(path: str) -> int:
    """Write every game in the database as a JSON array of records (`-`: standard output), a
    record at a time (its memory does not grow with the number of games)."""
    from ..store.games import each_game
    from ..store.nights import night_starts_by_game
    from ..store.records import EXPORT_BATCH, Exported, records_text

    app = opened()
    exported = Exported()
    with app.app_context():
        # each table's nights started on purpose, on the games they followed (a few a table)
        text = records_text(each_game(EXPORT_BATCH), exported, night_starts_by_game())
        if path == "-":
            for part in text:
                sys.stdout.write(part)
            sys.stdout.flush()
        else:
            # the whole file, or none: written beside it, then put in its place (a device or a
            # pipe named instead of a file is written straight)
            part = f"{path}.part" if not os.path.exists(path) or os.path.isfile(path) else path
            try:
                with open(part, "w", encoding="utf-8") as handle:
                    handle.writelines(text)
                if part != path:
                    os.replace(part, path)
            except OSError as error:
                if part != path:
                    with contextlib.suppress(OSError):
                        os.unlink(part)
                print(f"cannot write {path}: {error.strerror}", file=sys.stderr)
                return 2
    notes = [f"{exported.not_started} not started yet"] if exported.not_started else []
    if exported.damaged:
        notes.append(f"{exported.damaged} damaged (their deals no longer replay)")
    note = f" ({', '.join(notes)}, left out)" if notes else ""
    print(f"exported {count(exported.games, 'game')}{note}", file=sys.stderr)
    return 0


def import_games(data: bytes, table: str | None = None) -> int:
    """Load a record or an array of records, all or nothing; exit 1 (rule) or 2 (not records).
    With `table` (a table's scorekeeper link or its token), as games of that table."""
    from ..rules.errors import NotARecordError
    from ..rules.record import RecordsRefused
    from ..stats import stored_form
    from ..store.records import import_records
    from ..store.tables import find_table, import_into_table
    from .lines import one_line

    app = opened()
    with app.app_context():
        target = None
        if table is not None:
            target = find_table(table.rstrip("/").rsplit("/", 1)[-1])
            if target is None:
                print(one_line(f"no table has the link {table}"), file=sys.stderr)
                return 2
        try:
            # each game's statistics figures stored with it: its table's first reader
            # replays none of them
            rows = (
                import_records(data, stored_form)
                if target is None
                else import_into_table(target, data, stored_form)
            )
        except RecordsRefused as refused:
            print(f"nothing imported: {refused.headline()}", file=sys.stderr)
            return 2 if isinstance(refused.error, NotARecordError) else 1
        print(f"imported {count(len(rows), 'game')}", file=sys.stderr)
    return 0
