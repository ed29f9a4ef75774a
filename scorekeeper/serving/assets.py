"""Few bytes on a phone's connection: compressed responses and cache-busted static files.

- Responses are compressed by Flask-Compress (zstd, brotli or gzip, whichever the browser
  takes). Behind a reverse proxy that compresses, set ``COMPRESS_REGISTER = False``.
- Static files are linked as ``static_url("css/app.css")`` → ``/static/css/app.css?v=<hash>``:
  the hash of the file's content, computed once per process, so a browser may keep them for a
  year (``immutable``) and still gets a changed file on the next release.
- The web app manifest (the name a phone gives the app on its home screen) is
  ``static/manifest.webmanifest`` with its name and description in the page's language, served
  the same way: ``/manifest/<language>.webmanifest?v=<hash>``.
- The stylesheet and our script are served minified by rcssmin and rjsmin (the vendored htmx
  comes minified already). A browser that takes gzip but neither zstd nor brotli gets static
  files compressed once per process by zopfli (gzip's format, 3 % smaller than its best level).
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
from functools import cache, lru_cache

import flask_babel
import rcssmin
import rjsmin
from flask import Flask, Response, abort, current_app, request, url_for
from flask_compress import Compress
from werkzeug.datastructures import Accept
from werkzeug.http import parse_accept_header
from zopfli.gzip import compress as zopfli_gzip

from ..web.languages import LANGUAGES
from ..words.labels import APP_DESCRIPTION, APP_FULL_NAME, APP_NAME

compress = Compress()

STATIC_MAX_AGE = 60 * 60 * 24 * 365
PUBLIC_ENDPOINTS = frozenset({"static", "manifest"})
"""Answers that are the same for everyone and cached publicly: no cookie, no Vary on language."""


@cache
def _content_hash(folder: str, filename: str) -> str | None:
    """The first 10 hex digits of a static file's SHA-256, or None if it is not there."""
    try:
        with open(os.path.join(folder, filename), "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()[:10]
    except OSError:
        return None


def static_url(filename: str) -> str:
    """The URL of a static file with its content hash as the version."""
    return _static_url(current_app.static_folder or "", request.script_root, filename)


@lru_cache(maxsize=64)
def _static_url(folder: str, script_root: str, filename: str) -> str:
    # a page links six files; their URLs only change with the app's root (and the files)
    version = _content_hash(folder, filename)
    if version is None:
        return url_for("static", filename=filename)
    return url_for("static", filename=filename, v=version)


def _vary_on_boost(response: Response) -> Response:
    """Pages leave out their head for htmx's boosted navigations (base.html): say so to caches."""
    if response.mimetype == "text/html":
        response.vary.add("HX-Boosted")
    return response


def _static_for_compression(response: Response) -> Response:
    """Static files: versioned ones are immutable, and all are compressed like pages.

    Flask sends files as streams, which Flask-Compress would only stream-compress without
    gzip; reading the (small) file into the response lets every encoding apply.
    """
    if request.endpoint != "static":
        return response
    if request.args.get("v"):
        response.cache_control.max_age = STATIC_MAX_AGE
        response.cache_control.public = True
        response.cache_control.immutable = True
    if response.status_code == 200 and response.direct_passthrough:
        response.direct_passthrough = False
        data = response.get_data()
        if response.mimetype == "text/css":
            data = minified_css(data)
        elif response.mimetype in ("text/javascript", "application/javascript") and not (
            request.path.endswith(".min.js")
        ):
            data = minified_js(data)
        if _gzip_only() and response.mimetype in _ZOPFLI_TYPES:
            data = _zopfli(data)
            response.headers["Content-Encoding"] = "gzip"  # Flask-Compress leaves it alone
        response.set_data(data)
    return response


_ZOPFLI_TYPES = frozenset(
    {"text/css", "text/javascript", "application/javascript", "image/svg+xml"}
)


def _gzip_only() -> bool:
    """Whether the browser takes gzip but neither zstd nor brotli (which Flask-Compress
    prefers), while the app compresses at all."""
    if not current_app.config.get("COMPRESS_REGISTER", True):
        return False
    accepted = parse_accept_header(request.headers.get("Accept-Encoding"), Accept)
    return (
        accepted.quality("gzip") > 0 and not accepted.quality("br") and not accepted.quality("zstd")
    )


@lru_cache(maxsize=16)
def _zopfli(data: bytes) -> bytes:
    """A static file gzip-compressed by zopfli (one iteration: 60 ms for htmx, once)."""
    return bytes(zopfli_gzip(data, numiterations=1))


@lru_cache(maxsize=16)
def minified_css(source: bytes) -> bytes:
    """The stylesheet without comments and spare whitespace (rcssmin)."""
    return rcssmin.cssmin(source)


@lru_cache(maxsize=16)
def minified_js(source: bytes) -> bytes:
    """Our script without comments and spare whitespace (rjsmin): its explanations are for
    readers of the source, not for every phone."""
    return rjsmin.jsmin(source)


@lru_cache(maxsize=16)
def _manifest(folder: str, script_root: str, language: str) -> tuple[bytes, str]:
    """The manifest in `language` (icons linked with their content hash), and its own hash."""
    with open(os.path.join(folder, "manifest.webmanifest"), "rb") as handle:
        manifest = json.loads(handle.read())
    with flask_babel.force_locale(language):
        manifest.update(
            name=flask_babel.gettext(APP_FULL_NAME),
            short_name=flask_babel.gettext(APP_NAME),
            lang=language,
            description=flask_babel.gettext(APP_DESCRIPTION),
        )
    manifest["dir"] = "auto"
    for icon in manifest["icons"]:
        icon["src"] = _static_url(folder, script_root, icon["src"])
    body = json.dumps(manifest, ensure_ascii=False, indent=1).encode()
    return body, hashlib.sha256(body).hexdigest()[:10]


def manifest_url(language: str) -> str:
    """The manifest's URL in `language`, with its content hash as the version."""
    _, version = _manifest(current_app.static_folder or "", request.script_root, language)
    return url_for("manifest", language=language, v=version)


def manifest(language: str) -> Response:
    """The web app manifest in `language` (a phone names the app on its home screen with it)."""
    if language not in LANGUAGES:
        abort(404)
    body, _ = _manifest(current_app.static_folder or "", request.script_root, language)
    response = Response(body, mimetype="application/manifest+json")
    if request.args.get("v"):
        response.cache_control.max_age = STATIC_MAX_AGE
        response.cache_control.public = True
        response.cache_control.immutable = True
    return response


def init_app(app: Flask) -> None:
    """Compression and the `static_url` template global (call before other after_request hooks,
    so compression runs last)."""
    app.config.setdefault("COMPRESS_MIN_SIZE", 300)
    # gzip's best: a deal form is 14 kB of markup, 1.5 kB compressed; level 9 takes 1.5 % more
    # off it than the default 6, for a few microseconds more (browsers taking brotli or zstd
    # keep their own levels)
    app.config.setdefault("COMPRESS_LEVEL", 9)
    compress.init_app(app)
    app.after_request(_static_for_compression)  # runs before Flask-Compress's hook
    app.after_request(_vary_on_boost)
    app.jinja_env.globals.update(static_url=static_url, manifest_url=manifest_url)
    app.add_url_rule("/manifest/<language>.webmanifest", "manifest", manifest)
    mimetypes.add_type("application/manifest+json", ".webmanifest")
