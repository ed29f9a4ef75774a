"""Where the app keeps its things and how it is configured: the instance folder, the database
URL, the session key (written whole, private), SQLite's files (private) and pragmas, and the
one-sentence errors when the instance folder cannot be written. No Flask views, no requests."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url

PACKAGE_DIR = Path(__file__).resolve().parent
TRANSLATIONS_DIR = PACKAGE_DIR / "translations"
MIGRATIONS_DIR = PACKAGE_DIR / "store" / "migrations"

# Keys copied from tutorials and templates: a server using one has sessions anybody can forge.
KNOWN_DEFAULT_KEYS = frozenset(
    {
        "dev",
        "development",
        "changeme",
        "change-me",
        "change_me",
        "changethis",
        "secret",
        "secret-key",
        "secret_key",
        "secretkey",
        "default",
        "test",
        "testing",
        "password",
        "flask",
        "scorekeeper",
        "your-secret-key",
        "your_secret_key",
        "your-secret-key-here",
        "super-secret-key",
        "supersecretkey",
        "please-change-me",
        "change-this-secret-key",
    }
)
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
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


class SetupError(RuntimeError):
    """The app cannot start as configured; the message is one sentence for the operator."""


PRIVATE_FILE = 0o600  # the session key and the database hold every capability token


READ_ONLY_ERRORS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
"""A folder this user may not write (read-only file system, no write permission)."""
FULL_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""A disk (or the user's quota, or the file size the process may write) that is full."""


def what_to_do(errno_number: int | None, reason: str) -> str:
    """What the operator is told to do about a folder it cannot write, as the cause says: a
    read-only folder is never told to free space, nor a full disk to change permissions."""
    if errno_number in READ_ONLY_ERRORS:
        return (
            f"it is read-only for this user ({reason}). Make it writable by this user, or set "
            "SCOREKEEPER_INSTANCE to a folder this user can write."
        )
    if errno_number in FULL_ERRORS:
        return (
            f"the disk is full ({reason}). Free some space, or set SCOREKEEPER_INSTANCE to a "
            "folder on another disk."
        )
    return (
        f"{reason}. Make it writable by this user and, if the disk is full, free some space, "
        "or set SCOREKEEPER_INSTANCE to another folder."
    )


def _cannot_write(folder: Path | str, error: OSError) -> SetupError:
    return SetupError(
        f"Cannot write to the instance folder {folder}: "
        + what_to_do(error.errno, str(error.strerror or error))
    )


def prepare_instance(instance_path: str) -> None:
    """Create the instance folder (private to this user) if it is missing."""
    try:
        os.makedirs(instance_path, mode=0o700, exist_ok=True)
    except OSError as error:
        raise _cannot_write(instance_path, error) from error


def _read_key(path: Path) -> str:
    try:
        key = path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError:
        key = ""
    except OSError as error:
        raise SetupError(
            f"Cannot read the session key {path}: {error.strerror or error}."
        ) from error
    # a crash can also leave the file's length with zeros in it
    if len(key) < MIN_SECRET_KEY_LENGTH or any(ord(char) < 32 or ord(char) == 127 for char in key):
        raise SetupError(
            f"The session key file {path} is empty or damaged (a disk that filled up while it "
            "was written leaves it so). Delete it to have a new key generated (browsers then "
            "forget their remembered games and access), or set SECRET_KEY."
        )
    return key


def _sync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _write_new_key(path: Path) -> str:
    """Generate a key into `path`, whole or not at all: written to a private temporary file,
    flushed to disk, then linked into place (a worker that loses the race reads the winner's)."""
    key = secrets.token_hex(32)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key-")  # mode 0600
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(key)
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)  # fails if the key exists: never replaces one in use
        except FileExistsError:
            return _read_key(path)
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
            os.replace(temporary, path)  # a filesystem without hard links: a plain rename
        _sync_folder(path.parent)  # the new name survives a power cut too
        return key
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def load_secret_key(instance_path: str) -> str:
    """$SECRET_KEY, else a key generated once into the instance folder (never in the repo)."""
    configured = os.environ.get("SECRET_KEY")
    if configured:
        return configured
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return _read_key(path)
    try:
        return _write_new_key(path)
    except OSError as error:
        raise _cannot_write(instance_path, error) from error


def sqlite_files(url: str) -> list[Path]:
    """The database file of a SQLite URL (in-memory: none), and its WAL and shared memory."""
    parsed = make_url(url)
    if (
        not parsed.drivername.startswith("sqlite")
        or parsed.database in (None, "", ":memory:")
        or parsed.database.startswith("file:")
    ):
        return []
    main = Path(parsed.database)
    return [main, main.with_name(main.name + "-wal"), main.with_name(main.name + "-shm")]


def prepare_sqlite(url: str) -> None:
    """Create the SQLite database file private to this user (SQLite gives its WAL and shared
    memory files the database file's mode), and make an existing one private too."""
    files = sqlite_files(url)
    if not files:
        return
    try:
        with contextlib.suppress(FileExistsError):
            os.close(os.open(files[0], os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
        for path in files:
            with contextlib.suppress(FileNotFoundError, PermissionError):  # another's: leave it
                if path.stat().st_mode & 0o077:
                    os.chmod(path, PRIVATE_FILE)
    except OSError as error:
        raise _cannot_write(files[0].parent, error) from error


def weak_secret_key(key: str | bytes | None) -> bool:
    """Whether a session key is a known default or too short to be secret."""
    text = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key or "")
    return text.strip().lower() in KNOWN_DEFAULT_KEYS or len(text) < MIN_SECRET_KEY_LENGTH


WEAK_KEY_MESSAGE = (
    "Refusing to start: SECRET_KEY is a known default or shorter than "
    f"{MIN_SECRET_KEY_LENGTH} characters, so anyone could forge sessions. Unset "
    "SECRET_KEY to have one generated into the instance folder, or set a long random "
    "one (python -c 'import secrets; print(secrets.token_hex(32))')."
)


WEAK_CODE_VARIABLE = "SCOREKEEPER_WEAK_ACCESS_CODE"


def weak_code_allowed(config: Any) -> bool:
    """Whether the operator insists on a weak access code (`scorekeeper serve
    --weak-access-code`, SCOREKEEPER_WEAK_ACCESS_CODE=1, or WEAK_ACCESS_CODE = True)."""
    return bool(config.get("WEAK_ACCESS_CODE")) or os.environ.get(WEAK_CODE_VARIABLE) == "1"


def weak_code_message(suggestion: str) -> str:
    """Why the server refuses to start with a guessable access code, and what to do."""
    return (
        "Refusing to start: the access code is too easy to guess (a few thousand addresses "
        "trying it could find it). Use a strong one such as "
        f"SCOREKEEPER_ACCESS_CODE='{suggestion}' (or start with --new-access-code for a "
        "new one), or keep yours with --weak-access-code."
    )


PROXIES_VARIABLE = "SCOREKEEPER_PROXIES"


def proxies_in_front() -> int:
    """How many reverse proxies stand in front of the app (SCOREKEEPER_PROXIES, default 0):
    the client's address and scheme are read from the headers they add (X-Forwarded-For,
    X-Forwarded-Proto), trusting that many of them, and no more."""
    text = os.environ.get(PROXIES_VARIABLE, "").strip()
    if text and not text.isdigit():
        raise SetupError(
            f"{PROXIES_VARIABLE} must be how many proxies stand in front of the app (1 behind "
            f"Caddy alone), not {text!r}."
        )
    return int(text or 0)


def base_config(instance_path: str) -> dict[str, Any]:
    """The app's settings before instance/config.py and the caller's overrides."""
    https = os.environ.get("SCOREKEEPER_HTTPS", "") == "1"
    return {
        "SQLALCHEMY_DATABASE_URI": database_url(instance_path),
        "SQLALCHEMY_ENGINE_OPTIONS": {},  # (pool_pre_ping: engine_options, once it is known)
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": https,
        "SCOREKEEPER_HTTPS": https,  # also: Strict-Transport-Security on every answer
        # behind a reverse proxy (Caddy, a load balancer): whose X-Forwarded-For and -Proto to
        # trust, so the limits count each phone's address and links say https://
        "PROXIES": proxies_in_front(),
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
        # each process keeps polled games' versions and hears PostgreSQL's word of every change
        # (store.versions); off for a connection pooler that cannot hold a LISTEN (PgBouncer in
        # transaction mode): SCOREKEEPER_LISTEN=0 or LISTEN_FOR_CHANGES = False
        "LISTEN_FOR_CHANGES": os.environ.get("SCOREKEEPER_LISTEN", "") != "0",
    }


def engine_options(config: Any) -> dict[str, Any]:
    """The engine's options for the configured database: a connection to a server may have died
    while idle in the pool, so it is tried first (pool_pre_ping); a SQLite file's cannot, and
    the try was one statement more on every request and every poll's read."""
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault(
        "pool_pre_ping", not str(config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite")
    )
    return options


SQLITE_BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite write waits for the one writer's lock before it fails."""


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """SQLite: write-ahead log and a busy timeout, so concurrent workers don't lose saves."""
    module = type(dbapi_connection).__module__
    if module.startswith("sqlite3"):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # a saved deal survives a power cut too
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
