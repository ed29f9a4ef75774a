"""The app behind granian's RSGI interface: a request's body is read before a thread is held.

granian's WSGI interface hands a request to a Python thread as soon as its head has arrived, and
the thread then waits for the body: a few clients trickling the bodies of POST requests held
every thread of every worker, and nothing else was answered (`bench/slow_bodies.py`). Here each
worker's event loop reads the body first, asynchronously and within BODY_TIMEOUT_S, and only a
complete request is given to one of the worker's few threads, which runs the WSGI app (Flask,
with the live poll's shortcut in front of it) exactly as a WSGI server would.

A body that has not arrived in time is not given to the app as it is: the app is asked with an
empty body and the environ key BODY_TIMED_OUT set, so it answers 408 in the reader's language
(`scorekeeper.web` aborts such a request first), and the connection is closed.

A body is judged by its request's head before a byte of it is read: the app says how much its
route takes (BODY_LIMIT: nothing for a route it does not have or a browser without the access
code, a small form for most routes, a file for the import pages); a body declared longer is not
read (the app refuses it from its Content-Length, 413). The bodies one worker holds at once are
bounded (BUFFERED_AT_MOST): past it, a request is answered 503 with Retry-After (BODY_BUSY)
without reading its body. Whenever a body is left unread, the connection is closed after the
answer.
"""

from __future__ import annotations

import asyncio
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterable
from io import BytesIO
from typing import Any

BODY_TIMEOUT_S = 20.0
"""A request's whole body within this many seconds of its head (a 2 MB import needs 0.8 Mbit/s;
a deal's form is a few hundred bytes)."""
MAX_BODY = 4 * 1024 * 1024
"""Bytes read ahead at most, whatever the app says it takes (an app offering no BODY_LIMIT:
more than any route accepts; each refuses what it does not take with 413, from Content-Length,
before reading)."""
BUFFERED_AT_MOST = 16 * 1024 * 1024
"""Bytes of request bodies one worker holds at once, counted as declared (a chunked body: as
much as its route takes) from before it is read until its answer is sent: eight imports."""
BUSY_RETRY_AFTER_S = 5
"""Retry-After of a request refused because the worker holds as many bodies as it may."""
BODY_TIMED_OUT = "scorekeeper.body_timed_out"
"""Environ key of a request whose body did not arrive in time (also named in scorekeeper.web)."""
BODY_BUSY = "scorekeeper.body_busy"
"""Environ key of a request whose body was not read because the worker holds as many bodies as
it may: the app answers 503 with Retry-After (scorekeeper.serving.wrap)."""
ANSWER_AT = "scorekeeper.answer_at"
"""Environ key the app may set (also named in scorekeeper.web.access): the moment (time.time())
before which its answer is not sent; the loop waits, no thread is held (a wrong access code's
answer, in its turn of the queue every worker shares)."""
HELD_AT_MOST_S = 30.0
"""The longest an answer is held for ANSWER_AT, whatever the app asks."""
BODY_LIMIT = "scorekeeper.body_limit"
"""What a WSGI app may offer (as `app.extensions[BODY_LIMIT]`): the most bytes of body it takes
for a request, judged from its head alone (the environ before the body is read); 0 when it
answers without reading any (no such route, a browser without the access code)."""

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Answer = tuple[int, list[tuple[str, str]], bytes]
BodyLimit = Callable[[dict[str, Any]], int]
QuickAnswer = Callable[[dict[str, Any]], "Answer | None"]
"""What a WSGI app may offer (as `app.extensions[QUICK_ANSWER]`): the answer to a request that
costs less than handing it to a thread (the polls of an unchanged game whose version this process
keeps), given on the event loop, from memory alone: nothing that can wait (a database's lock, a
slow server) may run there, it would stall every connection of the worker; None for every other
request."""
QUICK_ANSWER = "scorekeeper.quick_answer"

_NOT_HTTP_HEADERS = {"content-type": "CONTENT_TYPE", "content-length": "CONTENT_LENGTH"}


def _host_port(address: str) -> tuple[str, str]:
    """("127.0.0.1", "8000") from "127.0.0.1:8000"; an IPv6 host without its brackets."""
    host, _, port = address.rpartition(":")
    return host.strip("[]"), port


def environ_of(scope: Any, body: bytes, *, multiprocess: bool) -> dict[str, Any]:
    """The WSGI environ (PEP 3333) of an RSGI request whose body has been read (or is not
    read: b"")."""
    server_name, server_port = _host_port(scope.server)
    remote_addr, remote_port = _host_port(scope.client)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.method,
        "SCRIPT_NAME": "",
        # RSGI gives the path percent-decoded as text; WSGI wants its bytes as latin-1
        "PATH_INFO": scope.path.encode("utf-8", "surrogateescape").decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": server_name,
        "SERVER_PORT": server_port,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": remote_addr,
        "REMOTE_PORT": remote_port,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.scheme,
        "wsgi.input": BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": multiprocess,
        "wsgi.run_once": False,
    }
    for name, value in scope.headers.items():
        key = _NOT_HTTP_HEADERS.get(name) or "HTTP_" + name.upper().replace("-", "_")
        if key in environ:  # a repeated header: one value, comma-separated (a cookie: "; ")
            environ[key] += ("; " if key == "HTTP_COOKIE" else ",") + value
        else:
            environ[key] = value
    environ.pop("HTTP_TRANSFER_ENCODING", None)
    return with_body(environ, body)


def with_body(environ: dict[str, Any], body: bytes) -> dict[str, Any]:
    """The environ with its body, now read whole (a chunked one given its length)."""
    environ["wsgi.input"] = BytesIO(body)
    if "CONTENT_LENGTH" not in environ and body:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ


def call_wsgi(app: WSGIApp, environ: dict[str, Any]) -> Answer:
    """Run the WSGI app on one request (in a worker thread): status, headers and whole body."""
    started: list[Any] = []

    def start_response(
        status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        if exc_info is not None and started:
            raise exc_info[1].with_traceback(exc_info[2])
        started[:] = [status, headers]
        return chunks.append

    chunks: list[bytes] = []
    result = app(environ, start_response)
    try:
        for chunk in result:
            if chunk:
                chunks.append(chunk)
    finally:
        close = getattr(result, "close", None)
        if close is not None:
            close()
    status, headers = started
    return int(status[:3]), list(headers), b"".join(chunks)


def _settle(
    future: asyncio.Future[Answer], answer: Answer | None, error: BaseException | None
) -> None:
    """On the event loop: hand a thread's answer (or its error) to the waiting request."""
    if future.cancelled():
        return
    if error is None and answer is not None:
        future.set_result(answer)
    else:
        future.set_exception(error or RuntimeError("no answer"))


class Threads:
    """A worker's threads that run the WSGI app, fed through one queue.

    Lighter than asyncio's run_in_executor (no concurrent.futures.Future to wrap): a request is
    one queue item, and its answer one call_soon_threadsafe back onto the loop."""

    def __init__(self, app: WSGIApp, count: int) -> None:
        self.app = app
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.count = max(1, count)
        for number in range(self.count):
            threading.Thread(
                target=self._serve, name=f"scorekeeper-{number + 1}", daemon=True
            ).start()

    def _serve(self) -> None:
        while (item := self.queue.get()) is not None:
            loop, future, environ = item
            try:
                answer = call_wsgi(self.app, environ)
            except BaseException as error:  # the request's, not the thread's: it goes on
                loop.call_soon_threadsafe(_settle, future, None, error)
            else:
                loop.call_soon_threadsafe(_settle, future, answer, None)

    def answer(self, environ: dict[str, Any]) -> asyncio.Future[Answer]:
        """The app's answer to `environ`, from the first free thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Answer] = loop.create_future()
        self.queue.put((loop, future, environ))
        return future

    def stop(self) -> None:
        """Let each thread finish its request and end."""
        for _ in range(self.count):
            self.queue.put(None)


class BodyFirst:
    """RSGI app: judge a request's body from its head, read it on the event loop within
    BODY_TIMEOUT_S, then run the WSGI app in one of `threads` threads (or give its quick answer
    on the loop)."""

    def __init__(
        self,
        app: WSGIApp,
        threads: int,
        *,
        multiprocess: bool = True,
        body_timeout: float = BODY_TIMEOUT_S,
        quick: QuickAnswer | None = None,
        body_limit: BodyLimit | None = None,
        buffered_at_most: int = BUFFERED_AT_MOST,
    ) -> None:
        self.app = app
        self.threads = Threads(app, threads)
        self.multiprocess = multiprocess
        self.body_timeout = body_timeout
        self.quick = quick
        self.body_limit = body_limit
        self.buffered_at_most = buffered_at_most
        self.buffered = 0
        """Bytes of the bodies held now (only the event loop's thread counts them)."""

    async def __rsgi__(self, scope: Any, protocol: Any) -> None:
        if scope.proto != "http":  # websockets are off; nothing else is spoken
            return
        headers = scope.headers
        has_body = headers.get("content-length") not in (None, "0") or (
            "transfer-encoding" in headers
        )
        environ = environ_of(scope, b"", multiprocess=self.multiprocess)
        unread, held = False, 0
        try:
            if has_body:
                unread, held = self._judge(environ)
            if held:
                self.buffered += held
                try:
                    body = await asyncio.wait_for(self._body(protocol, held), self.body_timeout)
                except TimeoutError:
                    unread = environ[BODY_TIMED_OUT] = True
                    environ["CONTENT_LENGTH"] = "0"
                except Exception:  # the client went away (or sent a broken body): nobody to answer
                    return
                else:
                    with_body(environ, body)
            answer = None
            if self.quick is not None and not has_body:
                answer = self.quick(environ)
            if answer is None:
                answer = await self.threads.answer(environ)
            answer_at = environ.get(ANSWER_AT)
            if answer_at is not None:
                await asyncio.sleep(min(float(answer_at) - time.time(), HELD_AT_MOST_S))
        finally:
            self.buffered -= held
        status, response_headers, content = answer
        if unread:  # the rest of the body will not be read: end the connection
            response_headers.append(("Connection", "close"))
        protocol.response_bytes(status, response_headers, content)

    def _judge(self, environ: dict[str, Any]) -> tuple[bool, int]:
        """From the head alone: whether the body is left unread, and how many bytes to hold
        for reading it (0: none)."""
        length = str(environ.get("CONTENT_LENGTH") or "")
        declared = int(length) if length.isdigit() else None
        limit = MAX_BODY if self.body_limit is None else min(MAX_BODY, self.body_limit(environ))
        if limit <= 0:  # the app answers without it (no such route, no access code)
            environ["CONTENT_LENGTH"] = "0"
            return True, 0
        if declared is not None and declared > limit:
            return True, 0  # the app refuses it from its Content-Length (413)
        held = declared if declared is not None else limit + 1
        if self.buffered + held > self.buffered_at_most:
            environ[BODY_BUSY] = True
            environ["CONTENT_LENGTH"] = "0"
            return True, 0
        return False, held

    @staticmethod
    async def _body(protocol: Any, most: int) -> bytes:
        """The body, read whole (at most `most` bytes and the chunk beyond: the app refuses
        more, 413)."""
        parts: list[bytes] = []
        size = 0
        async for chunk in protocol:
            parts.append(chunk)
            size += len(chunk)
            if size >= most:
                break
        return b"".join(parts)

    def __rsgi_del__(self, loop: Any) -> None:
        self.threads.stop()
