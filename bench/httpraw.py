"""A tiny HTTP/1.1 client that keeps the bytes as they came over the wire (still compressed)."""

from __future__ import annotations

import gzip
import http.client
import re
import zlib
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

GZIP = {"Accept-Encoding": "gzip"}


@dataclass
class Reply:
    """A response as received: status, headers, and the body before decoding."""

    status: int
    headers: http.client.HTTPMessage
    raw: bytes

    @property
    def header_bytes(self) -> int:
        """Approximate size of the status line and headers on the wire."""
        return (
            len("HTTP/1.1 200 OK\r\n")
            + sum(len(f"{k}: {v}\r\n") for k, v in self.headers.items())
            + 2
        )

    @property
    def body(self) -> bytes:
        """The decoded body."""
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            return gzip.decompress(self.raw)
        if encoding == "deflate":
            return zlib.decompress(self.raw)
        return self.raw

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Client:
    """One keep-alive connection to the app, carrying its session cookie like a browser."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port or 80, timeout=30
        )
        self.cookies: dict[str, str] = {}

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        form: dict[str, str] | None = None,
    ) -> Reply:
        """Send one request; remember cookies the app sets."""
        sent = dict(GZIP)
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        self.connection.request(method, path, body=body, headers=sent)
        response = self.connection.getresponse()
        raw = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return Reply(response.status, response.headers, raw)

    def close(self) -> None:
        self.connection.close()


ASSET_RE = re.compile(r'<(?:link|script|img)\b[^>]*?(?:href|src)="(/[^"]+)"')


def assets_of(html: str) -> list[str]:
    """Same-origin stylesheet, script, icon and image URLs a page makes the browser fetch."""
    return sorted({url.replace("&amp;", "&") for url in ASSET_RE.findall(html)})
