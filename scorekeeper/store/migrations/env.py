"""Alembic's environment for Flask-Migrate: the app's engine and the models' metadata."""

from __future__ import annotations

import logging
from logging.config import fileConfig
from typing import Any

from alembic import context
from flask import current_app
from sqlalchemy import MetaData
from sqlalchemy.engine import Engine

config = context.config
# the logging of alembic.ini (each migration said as it runs), unless the caller says itself
# what was done (store.db.upgrade_quietly)
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name)
logger = logging.getLogger("alembic.env")


def get_engine() -> Engine:
    """The app's database engine (Flask-SQLAlchemy's)."""
    engine: Engine = current_app.extensions["migrate"].db.engine
    return engine


def get_metadata() -> MetaData:
    """The tables of the app's models."""
    metadata: MetaData = current_app.extensions["migrate"].db.metadata
    return metadata


config.set_main_option(
    "sqlalchemy.url", get_engine().url.render_as_string(hide_password=False).replace("%", "%%")
)


def run_migrations_offline() -> None:
    """Write the migrations as SQL (no database connection needed)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=get_metadata(),
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations against the app's database."""

    def process_revision_directives(context: Any, revision: Any, directives: Any) -> None:
        # no empty migration when autogenerate finds no schema change
        if getattr(config.cmd_opts, "autogenerate", False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info("No changes in schema detected.")

    conf_args = current_app.extensions["migrate"].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives
    with get_engine().connect() as connection:
        context.configure(connection=connection, target_metadata=get_metadata(), **conf_args)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
