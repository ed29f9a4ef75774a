"""The application factory: configuration, extensions, blueprints and CLI — wiring only."""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, request, session
from flask.sessions import SecureCookieSessionInterface, SessionMixin
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from . import access, assets, fastpaths, fasturls, i18n
from .extensions import babel, csrf, db, migrate

PACKAGE_DIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "ar", "tr")
RTL_LANGUAGES = ("ar",)
# Keys copied from tutorials and templates: a server using one has sessions anybody can forge.
KNOWN_DEFAULT_KEYS = frozenset({
    "dev", "development", "changeme", "change-me", "change_me", "changethis", "secret",
    "secret-key", "secret_key", "secretkey", "default", "test", "testing", "password", "flask",
    "scorekeeper", "your-secret-key", "your_secret_key", "your-secret-key-here",
    "super-secret-key", "supersecretkey", "please-change-me", "change-this-secret-key",
})
MIN_SECRET_KEY_LENGTH = 16


def _resource_dir(name: str) -> str:
    """templates/ and static/ sit at the top of a checkout, or inside the package in a wheel."""
    inside = PACKAGE_DIR / name
    return str(inside if inside.is_dir() else PACKAGE_DIR.parent / name)


def default_instance_path() -> str:
    """The instance folder: $SCOREKEEPER_INSTANCE, else ./instance of the working directory."""
    return os.path.abspath(os.environ.get("SCOREKEEPER_INSTANCE", "instance"))


def database_url(instance_path: str) -> str:
    """$DATABASE_URL (PostgreSQL by psycopg 3), else SQLite in the instance folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return "sqlite:///" + os.path.join(instance_path, "scorekeeper.sqlite")
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def load_secret_key(instance_path: str) -> str:
    """$SECRET_KEY, else a key generated once into the instance folder (never in the repo)."""
    configured = os.environ.get("SECRET_KEY")
    if configured:
        return configured
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    try:
        with open(path, "x") as handle:  # "x": another worker may have won the race
            handle.write(key)
        os.chmod(path, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    return key


def refuse_weak_secret_key(app: Flask) -> None:
    """Stop a production app whose session key is a known default or too short to be secret."""
    if app.config.get("TESTING") or app.debug:
        return
    key = app.config.get("SECRET_KEY") or ""
    text = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)
    if text.strip().lower() in KNOWN_DEFAULT_KEYS or len(text) < MIN_SECRET_KEY_LENGTH:
        raise RuntimeError(
            "Refusing to start: SECRET_KEY is a known default or shorter than "
            f"{MIN_SECRET_KEY_LENGTH} characters, so anyone could forge sessions. Unset "
            "SECRET_KEY to have one generated into the instance folder, or set a long random "
            "one (python -c 'import secrets; print(secrets.token_hex(32))').")


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """SQLite: write-ahead log and a busy timeout, so concurrent workers don't lose saves."""
    module = type(dbapi_connection).__module__
    if module.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a saved deal survives a power cut too
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def select_locale() -> str:
    """The language the reader chose (cookie), else the browser's best match, else English."""
    return choose_language(request.cookies.get("lang"), request.headers.get("Accept-Language"))


@lru_cache(maxsize=256)
def choose_language(chosen: str | None, accept_language: str | None) -> str:
    """`select_locale` from the raw values (also the live poll's shortcut, before Flask)."""
    if chosen in LANGUAGES:
        assert chosen is not None
        return chosen
    accepted = parse_accept_header(accept_language, LanguageAccept)
    return accepted.best_match(LANGUAGES) or "en"


class _SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, never sent with a static file (those are cached publicly)."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        return request.endpoint != "static" and super().should_set_cookie(app, session)


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the Flask app; `config` overrides (tests pass a database URL and such)."""
    instance_path = (config or {}).get("INSTANCE_PATH") or default_instance_path()
    os.makedirs(instance_path, exist_ok=True)
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=_resource_dir("templates"),
        static_folder=_resource_dir("static"),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(instance_path),
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
        MAX_CONTENT_LENGTH=256 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=os.environ.get("SCOREKEEPER_HTTPS", "") == "1",
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        # the cookie (up to 60 remembered games) is sent when it changes, not with every answer
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,
        # Referrer-Policy: no-referrer means browsers send no Referer, which Flask-WTF's HTTPS
        # check would refuse on every POST; the token and SameSite=Lax cookies do the guarding.
        WTF_CSRF_SSL_STRICT=False,
        BABEL_DEFAULT_LOCALE="en",
        BABEL_TRANSLATION_DIRECTORIES=str(PACKAGE_DIR / "translations"),
        SEND_FILE_MAX_AGE_DEFAULT=60 * 60 * 24 * 365,
    )
    app.config.from_pyfile("config.py", silent=True)
    if config:
        app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_secret_key(instance_path)
    refuse_weak_secret_key(app)

    assets.init_app(app)  # first: its compression hook must run after every other one
    app.session_interface = _SessionInterface()
    db.init_app(app)
    migrate.init_app(app, db, directory=str(PACKAGE_DIR / "migrations"))
    csrf.init_app(app)
    access.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    i18n.init_app(app)  # after Babel: templates translate through the request's cached catalogue

    from .views import register

    register(app)
    fasturls.init_app(app)  # templates' links from per-route patterns (same URLs)
    fastpaths.init_app(app)

    @app.before_request
    def _keep_session() -> None:
        if not session.permanent:  # setting it at all would mark the session changed
            session.permanent = True

    @app.before_request
    def _unknown_link() -> None:
        """A link token no game could have is a 404 before any query (PostgreSQL refuses NULs)."""
        from .store import is_token

        for name in ("token", "view_token"):
            value = (request.view_args or {}).get(name)
            if isinstance(value, str) and not is_token(value):
                abort(404)

    @app.after_request
    def _security_headers(response: Response) -> Response:
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        )
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.vary.add("HX-Request")
        return response

    return app
