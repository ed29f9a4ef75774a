"""Scorekeeper: keep score at a real card table (Trix, Trix Complex, Turkish King).

The package's rooms, each depending only on those below it:

- ``serving``: how the app meets the network — the server, the body-first gateway, the live
  poll's shortcut, compressed and cache-busted static files;
- ``web``: Flask — languages, forms, views, caches;
- ``store`` (SQLAlchemy: games and their deals) and ``words`` (what the table reads, no Flask);
- ``rules``: the pure engine, standard library only.

:func:`create_app` wires them together. It imports Flask only when called, so the
``scorekeeper check`` command loads the engine alone and starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__version__ = "0.1.0"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app; `config` overrides (tests pass a database URL and such)."""
    from flask import Flask

    from . import settings, store, web
    from .serving import wrap

    instance_path = (config or {}).get("INSTANCE_PATH") or settings.default_instance_path()
    settings.prepare_instance(instance_path)
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=settings.resource_dir("templates"),
        static_folder=settings.resource_dir("static"),
    )
    app.config.from_mapping(settings.base_config(instance_path))
    app.config.from_pyfile("config.py", silent=True)
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = settings.load_secret_key(instance_path)
    if not (app.config.get("TESTING") or app.debug) and settings.weak_secret_key(
        app.config.get("SECRET_KEY")
    ):
        raise settings.SetupError(settings.WEAK_KEY_MESSAGE)
    settings.prepare_sqlite(app.config["SQLALCHEMY_DATABASE_URI"])
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = settings.engine_options(app.config)
    store.init_app(app)
    wrap.init_app(app)  # first: its hooks run first (a late body) and last (compression)
    web.init_app(app, wrap.PUBLIC_ENDPOINTS)
    wrap.front(app)  # last: the live poll's shortcut wraps the whole app
    code = app.config.get("ACCESS_CODE")
    if (
        code
        and not (app.config.get("TESTING") or app.debug or settings.weak_code_allowed(app.config))
        and store.limits.code_guesses(code) < store.limits.STRONG_CODE_GUESSES
    ):
        raise settings.SetupError(settings.weak_code_message(store.limits.new_code()))
    return app
