"""Where the app keeps its things and how it is configured: the instance folder, the database
URL, the session key's policy and SQLite's pragmas. No Flask views, no requests."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

PACKAGE_DIR = Path(__file__).resolve().parent
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
MIGRATIONS_DIR = PACKAGE_DIR / "store" / "migrations"

# Keys copied from tutorials and templates: a server using one has sessions anybody can forge.
KNOWN_DEFAULT_KEYS = frozenset({
    "dev", "development", "changeme", "change-me", "change_me", "changethis", "secret",
    "secret-key", "secret_key", "secretkey", "default", "test", "testing", "password", "flask",
    "scorekeeper", "your-secret-key", "your_secret_key", "your-secret-key-here",
    "super-secret-key", "supersecretkey", "please-change-me", "change-this-secret-key",
})
MIN_SECRET_KEY_LENGTH = 16
ONE_YEAR = 60 * 60 * 24 * 365


def resource_dir(name: str) -> str:
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


def weak_secret_key(key: str | bytes | None) -> bool:
    """Whether a session key is a known default or too short to be secret."""
    text = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key or "")
    return text.strip().lower() in KNOWN_DEFAULT_KEYS or len(text) < MIN_SECRET_KEY_LENGTH


WEAK_KEY_MESSAGE = (
    "Refusing to start: SECRET_KEY is a known default or shorter than "
    f"{MIN_SECRET_KEY_LENGTH} characters, so anyone could forge sessions. Unset "
    "SECRET_KEY to have one generated into the instance folder, or set a long random "
    "one (python -c 'import secrets; print(secrets.token_hex(32))').")


def base_config(instance_path: str) -> dict[str, Any]:
    """The app's settings before instance/config.py and the caller's overrides."""
    return {
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": os.environ.get("SCOREKEEPER_HTTPS", "") == "1",
        "PERMANENT_SESSION_LIFETIME": ONE_YEAR,
        # the cookie (up to 60 remembered games) is sent when it changes, not with every answer
        "SESSION_REFRESH_EACH_REQUEST": False,
        "WTF_CSRF_TIME_LIMIT": None,
        # Referrer-Policy: no-referrer means browsers send no Referer, which Flask-WTF's HTTPS
        # check would refuse on every POST; the token and SameSite=Lax cookies do the guarding.
        "WTF_CSRF_SSL_STRICT": False,
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_TRANSLATION_DIRECTORIES": str(TRANSLATIONS_DIR),
        "SEND_FILE_MAX_AGE_DEFAULT": ONE_YEAR,
    }


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
