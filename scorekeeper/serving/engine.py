"""The engine in the phone: the files a game page's Web Worker fetches once the page is idle,
each at an address that names its content, so a phone keeps them until they change.

- The runtime: Pyodide (CPython for WebAssembly), vendored in ``static/pyodide/`` by
  ``scripts/vendor_pyodide.py`` (``VENDORED.json``: its version, licences and each file's
  sha256), served at ``/engine/runtime/<digest>/<file>``; the digest covers every file, and
  each is sent as the vendoring script compressed it (brotli, or gzip over plain HTTP).
- The bundle: this installed package's engine, made at run time from its own files (never a
  copy kept in the repository): the modules the worker's entry
  (:mod:`scorekeeper.phone.worker`) imports, followed through the package, and one language's
  compiled catalogue, the one Flask-Babel reads; a zip at ``/engine/bundle/<lang>-<digest>.zip``,
  its files stored uncompressed and the whole compressed on the wire (a quarter smaller).
- The config: ``/engine/<lang>.json?v=<digest>``, which the page's script reads (its address
  is on every game page): the worker's script, the runtime's and the bundle's addresses, the
  scripts of offline play and the service worker's address, and every file the service
  worker keeps (``files``).
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import importlib.util
import io
import json
import threading
import zipfile
from collections.abc import Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import brotli
import jinja2
from flask import Blueprint, Flask, Response, abort, current_app, request, url_for
from werkzeug.datastructures import Accept
from werkzeug.http import parse_accept_header

from ..settings import resource_dir
from ..words.catalogue import DOMAIN
from ..words.page import COMPILED, TEMPLATE_OPTIONS
from .assets import STATIC_MAX_AGE, static_url
from .offline import sync_url

PACKAGE = Path(__file__).resolve().parent.parent
"""The installed package the bundle is made from."""
ENTRY = "scorekeeper.phone.worker"
"""The module the worker imports; the bundle holds it and what it imports of the package."""
ENTRIES = (ENTRY, "scorekeeper.phone.bytecode")
"""What the worker imports: the engine, and before it what compiles the bundle in the phone."""
PACKAGES = ("jinja2", "markupsafe")
"""What the phone imports beyond this package and the standard library (pure Python: Jinja
renders the templates, MarkupSafe escapes for it), bundled whole as installed."""
TEMPLATES_OF = "scorekeeper.phone.render"
"""The module whose ``TEMPLATES`` tuple names the templates the phone renders (bundled under
``scorekeeper/templates/``, where a wheel keeps them)."""
RUNTIME_FOLDER = "pyodide"
"""The runtime's folder under ``static/``."""
VENDORED = "VENDORED.json"
PAGE_SCRIPT = "js/engine.js"
WORKER_SCRIPT = "js/engine-worker.js"
OFFLINE_SCRIPT = "js/offline.js"
"""The page's side of playing on offline (the sync it shares with the service worker:
:func:`scorekeeper.serving.offline.sync_url`)."""
TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
}
"""The runtime's files by kind."""
SUFFIXES = {"br": ".br", "gzip": ".gz"}
"""The runtime's compressed copies beside each file (``scripts/vendor_pyodide.py`` writes them
at the best of each encoding: brotli 11 takes 30 s for the WebAssembly file, so never here), by
the Content-Encoding they are sent with."""
BUNDLE_QUALITY = 9
"""Brotli's quality for the bundle, once a process and language (20 ms; 11 takes 0.4 s for
8 % less)."""

bp = Blueprint("engine", __name__)
ENDPOINTS = frozenset({"engine.config", "engine.runtime", "engine.bundle_file"})
"""Answers that are the same for everyone (cached publicly, open without the access code)."""


def module_path(name: str) -> Path | None:
    """The file of one of the package's modules (None for anything else)."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _runs_later(node: ast.AST) -> bool:
    """Code a module does not run when it is imported: a function's body, a block for the
    type checker alone."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return True
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _import_nodes(tree: ast.AST, *, at_import: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of a module: all of them, or (`at_import`) those it runs when it
    is imported."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif not (at_import and _runs_later(node)):
            yield from _import_nodes(node, at_import=at_import)


def imported_modules(name: str, *, at_import: bool = False) -> Iterator[str]:
    """The package's modules that module `name` imports, at any depth of its code (or only
    those it imports when it is imported)."""
    path = module_path(name)
    assert path is not None, name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _import_nodes(tree, at_import=at_import):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if module_path(alias.name))
            continue
        origin = node.module or ""
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            origin = ".".join(base + ([node.module] if node.module else []))
        if module_path(origin):
            yield origin
        yield from (
            f"{origin}.{alias.name}"
            for alias in node.names
            if module_path(f"{origin}.{alias.name}")
        )


def bundle_modules(*entries: str) -> list[str]:
    """Every module of the package the entries (by default the worker's) need, sorted: what
    they import, followed to any depth of their code, and the packages they sit in (a package
    imported only because a module sits in it brings what it imports when it is imported:
    ``scorekeeper`` itself brings no Flask, which only its ``create_app`` imports). Each file
    is read once."""
    used: set[str] = set()
    parents: set[str] = set()
    opened: set[str] = set()  # the packages whose imports at import time are waiting
    waiting = list(entries or (ENTRY,))
    while waiting:
        name = waiting.pop()
        if name in used:
            continue
        used.add(name)
        parts = name.split(".")
        parents.update(".".join(parts[:end]) for end in range(1, len(parts)))
        waiting += imported_modules(name)
        for parent in parents - used - opened:
            opened.add(parent)
            waiting += imported_modules(parent, at_import=True)
    return sorted(used | parents)


def _entry(name: str) -> zipfile.ZipInfo:
    """A file of the bundle, stamped alike whenever and wherever it is made (one digest for
    every process of every server of a release)."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    info.external_attr = 0o644 << 16
    return info


_PARSING = threading.Lock()
"""Held while the package's modules are parsed: the server's threads may ask for the bundle at
once, and CPython 3.11's parser is not safe under threads ("AST constructor recursion depth
mismatch", a 500 on the first game pages after a start)."""


@cache
def _modules(entries: tuple[str, ...]) -> list[str]:
    return bundle_modules(*entries)


def phone_templates() -> tuple[str, ...]:
    """The templates the phone renders, as its module names them."""
    path = module_path(TEMPLATES_OF)
    assert path is not None
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["TEMPLATES"]:
            names = ast.literal_eval(node.value)
            assert isinstance(names, tuple) and all(isinstance(n, str) for n in names)
            return names
    raise AssertionError(f"{TEMPLATES_OF} names no TEMPLATES")


def phone_templates_files(names: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """The templates the phone renders, by their place in the bundle: each as written, and
    compiled by Jinja with the options both sides read them with, for its ``ModuleLoader``
    (the same bytes in every process: Jinja's code generation is deterministic)."""
    folder = Path(resource_dir("templates"))
    env = jinja2.Environment(**TEMPLATE_OPTIONS)
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]  # (as both sides)
    found: list[tuple[str, bytes]] = []
    for name in names:
        source = (folder / name).read_text(encoding="utf-8")
        place = f"scorekeeper/templates/{name}"
        code = env.compile(source, name, place, raw=True, defer_init=True)
        found.append((place, source.encode("utf-8")))
        module = jinja2.ModuleLoader.get_module_filename(name)
        found.append((f"scorekeeper/templates/{COMPILED}/{module}", code.encode("utf-8")))
    return found


def package_files(name: str) -> list[tuple[str, Path]]:
    """An installed package's Python files, by their place in a zip."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.submodule_search_locations, name
    folder = Path(next(iter(spec.submodule_search_locations)))
    return [(f"{name}/{path.name}", path) for path in sorted(folder.glob("*.py"))]


@cache
def bundle(language: str, entries: tuple[str, ...] = ENTRIES) -> tuple[bytes, str]:
    """The bundle for `language` (the entries' modules as installed, the packages and the
    templates the phone needs, and the language's catalogue) and its digest; made once a
    process."""
    with _PARSING:
        modules = _modules(entries)
        templates = phone_templates()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in modules:
            path = module_path(name)
            assert path is not None
            archive.writestr(_entry(path.relative_to(PACKAGE.parent).as_posix()), path.read_bytes())
        for package in PACKAGES:
            for place, path in package_files(package):
                archive.writestr(_entry(place), path.read_bytes())
        for place, data in phone_templates_files(templates):
            archive.writestr(_entry(place), data)
        catalogue = PACKAGE / "translations" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if catalogue.is_file():
            archive.writestr(
                _entry(catalogue.relative_to(PACKAGE.parent).as_posix()), catalogue.read_bytes()
            )
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:12]


@cache
def vendored(static_folder: str) -> dict[str, Any]:
    """The runtime's record (``VENDORED.json``) and the digest of its files as they are."""
    folder = Path(static_folder) / RUNTIME_FOLDER
    record: dict[str, Any] = json.loads((folder / VENDORED).read_bytes())
    digest = hashlib.sha256()
    for name in sorted(record["files"]):
        digest.update(name.encode() + b"\0" + (folder / name).read_bytes())
    return {**record, "digest": digest.hexdigest()[:12], "folder": str(folder)}


def _runtime() -> dict[str, Any]:
    return vendored(current_app.static_folder or "")


@cache
def _encoded(folder: str, name: str, encoding: str) -> bytes:
    """A runtime file as sent: its copy compressed with `encoding` ("" for none)."""
    return (Path(folder) / (name + SUFFIXES.get(encoding, ""))).read_bytes()


@cache
def _bundle_encoded(language: str, encoding: str) -> bytes:
    """The bundle as sent: compressed with `encoding` ("" for none), once a process."""
    data, _ = bundle(language)
    if encoding == "br":
        return bytes(brotli.compress(data, quality=BUNDLE_QUALITY))
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


def _encoding(offered: Any) -> str:
    """The encoding to send among those `offered` (brotli first) that the browser takes; ""
    for none, or when a proxy in front compresses (``COMPRESS_REGISTER`` off)."""
    if not current_app.config.get("COMPRESS_REGISTER", True):
        return ""
    accepted = parse_accept_header(request.headers.get("Accept-Encoding"), Accept)
    return next((kind for kind in SUFFIXES if kind in offered and accepted.quality(kind)), "")


def _sent(data: bytes, mimetype: str, encoding: str) -> Response:
    response = Response(data, mimetype=mimetype)
    if encoding:
        response.headers["Content-Encoding"] = encoding  # Flask-Compress leaves it alone
    response.vary.add("Accept-Encoding")
    return _immutable(response)


def _immutable(response: Response) -> Response:
    response.cache_control.max_age = STATIC_MAX_AGE
    response.cache_control.public = True
    response.cache_control.immutable = True
    return response


@bp.get("/engine/runtime/<digest>/<name>")
def runtime(digest: str, name: str) -> Response:
    """A file of the runtime (Pyodide), compressed as the browser takes it."""
    record = _runtime()
    if digest != record["digest"] or name not in record["files"]:
        abort(404)
    encoding = _encoding(record["files"][name].get("encoded", ()))
    data = _encoded(record["folder"], name, encoding)
    return _sent(data, TYPES[Path(name).suffix], encoding)


@bp.get("/engine/bundle/<language>-<digest>.zip")
def bundle_file(language: str, digest: str) -> Response:
    """The engine's bundle for one language."""
    if language not in _languages():
        abort(404)
    _, current = bundle(language)
    if digest != current:
        abort(404)
    encoding = _encoding(SUFFIXES)
    return _sent(_bundle_encoded(language, encoding), "application/zip", encoding)


@cache
def _languages() -> frozenset[str]:
    return frozenset(
        path.parent.parent.name
        for path in (PACKAGE / "translations").glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
    )


def _config(language: str) -> tuple[bytes, str]:
    """What the page's script needs to start the worker, as JSON, and its digest."""
    return _config_for(current_app.static_folder or "", request.script_root, language)


@lru_cache(maxsize=64)
def _config_for(static_folder: str, script_root: str, language: str) -> tuple[bytes, str]:
    # a game page links it: made once per app root and language
    record = vendored(static_folder)
    runtime_url = url_for("engine.runtime", digest=record["digest"], name="x")[:-1]
    _, digest = bundle(language)
    config = {
        "language": language,
        "pyodide": record["version"],
        "script": static_url(PAGE_SCRIPT),
        "worker": static_url(WORKER_SCRIPT),
        "offline": static_url(OFFLINE_SCRIPT),
        "sync": sync_url(),
        "service_worker": url_for("offline.service_worker"),
        "runtime": runtime_url,
        "stdlib": runtime_url + record["stdlib"],
        "lock": runtime_url + record["lock"],
        "bundle": url_for("engine.bundle_file", language=language, digest=digest),
    }
    files = [
        config["script"],
        config["worker"],
        config["offline"],
        config["sync"],
        config["bundle"],
        *(runtime_url + name for name in record["files"]),
    ]
    body = json.dumps({**config, "files": files}, indent=1).encode()
    return body, hashlib.sha256(body).hexdigest()[:10]


@bp.get("/engine/<language>.json")
def config(language: str) -> Response:
    """The engine's addresses for a page in `language` (see :func:`engine_config_url`)."""
    if language not in _languages():
        abort(404)
    body, _ = _config(language)
    response = Response(body, mimetype="application/json")
    return _immutable(response) if request.args.get("v") else response


def engine_config_url(language: str) -> str:
    """The config's address for a page in `language`, versioned by its content."""
    _, version = _config(language)
    return url_for("engine.config", language=language, v=version)


def init_app(app: Flask) -> None:
    """The engine's routes, and `engine_config_url` for the templates."""
    app.register_blueprint(bp)
    app.jinja_env.globals["engine_config_url"] = engine_config_url
