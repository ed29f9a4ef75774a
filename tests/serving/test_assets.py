"""Static files for a browser that takes gzip alone are compressed by zopfli (smaller than
gzip's best level); a browser taking brotli or zstd gets those (Flask-Compress), and every
answer decompresses to the file as served."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli
from flask import Flask

from tests.conftest import _dispose, make_app


def _script_url(app: Flask) -> str:
    html = app.test_client().get("/").get_data(as_text=True)
    found = re.search(r'src="(/static/js/htmx[^"]+)"', html)
    assert found, "no htmx on the home page"
    return found.group(1)


def test_gzip_only_gets_zopfli_smaller_than_gzip_best(app: Flask) -> None:
    url = _script_url(app)
    plain = app.test_client().get(url, headers={"Accept-Encoding": "identity"})
    assert plain.headers.get("Content-Encoding") is None
    source = plain.get_data()
    zipped = app.test_client().get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    body = zipped.get_data()
    assert gzip.decompress(body) == source
    assert len(body) < len(gzip.compress(source, 9))
    assert int(zipped.headers["Content-Length"]) == len(body)


def test_a_browser_taking_brotli_gets_brotli(app: Flask) -> None:
    url = _script_url(app)
    source = app.test_client().get(url, headers={"Accept-Encoding": "identity"}).get_data()
    answer = app.test_client().get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert answer.headers["Content-Encoding"] == "br"
    assert brotli.decompress(answer.get_data()) == source


def test_behind_a_compressing_proxy_nothing_is_compressed(
    tmp_path: Path, database_uri: str
) -> None:
    app = make_app(tmp_path, database_uri, COMPRESS_REGISTER=False)
    try:
        answer = app.test_client().get(_script_url(app), headers={"Accept-Encoding": "gzip"})
        assert answer.headers.get("Content-Encoding") is None
    finally:
        _dispose(app)
