"""The server's gateway (`scorekeeper.serving.gateway`): an RSGI request becomes the WSGI environ a
WSGI server would give, its body is read before a thread runs the app, and a body that does not
arrive in time is answered 408 by the app, in the reader's language, and the connection closed.

Driven in-process with stand-ins for granian's scope and protocol objects (the real server is
in tests/reliability/test_slow_clients.py)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from typing import Any, TypeVar

import pytest
from flask import Flask

from scorekeeper.serving import gateway
from scorekeeper.serving.gateway import (
    BODY_BUSY,
    BODY_TIMED_OUT,
    BUSY_RETRY_AFTER_S,
    MAX_BODY,
    BodyFirst,
    environ_of,
)

StartResponse = Callable[..., Any]
T = TypeVar("T")


class Headers:
    """The part of granian's RSGIHeaders the gateway uses."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def items(self) -> list[tuple[str, str]]:
        return list(self.pairs)

    def get(self, key: str, default: Any = None) -> Any:
        return next((value for name, value in self.pairs if name == key), default)

    def __contains__(self, key: str) -> bool:
        return any(name == key for name, _ in self.pairs)


class Scope:
    """An RSGI HTTP scope, as granian fills it (the path percent-decoded)."""

    proto = "http"
    http_version = "1.1"
    scheme = "http"

    def __init__(
        self,
        method: str = "GET",
        path: str = "/",
        query: str = "",
        headers: list[tuple[str, str]] | None = None,
        client: str = "192.0.2.7:50123",
        server: str = "127.0.0.1:8000",
    ) -> None:
        self.method = method
        self.path = path
        self.query_string = query
        self.headers = Headers([("host", "scores.example"), *(headers or [])])
        self.client = client
        self.server = server


class Protocol:
    """An RSGI HTTP protocol: a body in chunks (None: a chunk that never comes), the answer."""

    def __init__(self, chunks: Iterable[bytes | None] = ()) -> None:
        self.chunks = list(chunks)
        self.read: list[bytes] = []
        self.answer: tuple[int, list[tuple[str, str]], bytes] | None = None

    async def _iterate(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            if chunk is None:
                await asyncio.Event().wait()  # the client sends nothing more
            else:
                self.read.append(chunk)
                yield chunk

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self._iterate()

    def response_bytes(self, status: int, headers: list[tuple[str, str]], body: bytes) -> None:
        self.answer = (status, headers, body)


def recording_app(seen: list[dict[str, Any]]) -> Callable[..., Iterable[bytes]]:
    """A WSGI app that keeps each environ with its body read, and answers 200 "ok"."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        seen.append({**environ, "body": environ["wsgi.input"].read()})
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"o", b"k"]

    return app


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on an event loop of its own, in a thread of its own (the browser tests'
    Playwright keeps a loop running in the main thread)."""
    outcome: dict[str, Any] = {}

    def main() -> None:
        try:
            outcome["result"] = asyncio.run(coroutine)
        except BaseException as error:
            outcome["error"] = error

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]  # type: ignore[no-any-return]


def serve(app: Any, scope: Scope, protocol: Protocol, **options: Any) -> None:
    """One request through the gateway, on an event loop of its own."""
    front = BodyFirst(app, 2, **options)
    try:
        run_alone(front.__rsgi__(scope, protocol))
    finally:
        front.threads.stop()


def test_the_environ_is_what_a_wsgi_server_gives() -> None:
    environ = environ_of(
        Scope(
            "GET",
            "/g/caf\u00e9 x/",
            "v=3-ar&x=%20",
            [
                ("accept-language", "ar"),
                ("x-many", "1"),
                ("x-many", "2"),
                ("cookie", "a=1"),
                ("cookie", "b=2"),
                ("content-type", "text/plain"),
            ],
        ),
        b"",
        multiprocess=True,
    )
    assert environ["REQUEST_METHOD"] == "GET"
    assert environ["SCRIPT_NAME"] == ""
    # the path's UTF-8 bytes, as latin-1 text (PEP 3333), as granian's WSGI gives them
    assert environ["PATH_INFO"] == "/g/caf\u00c3\u00a9 x/"
    assert environ["QUERY_STRING"] == "v=3-ar&x=%20"
    assert environ["HTTP_HOST"] == "scores.example"
    assert environ["HTTP_ACCEPT_LANGUAGE"] == "ar"
    assert environ["HTTP_X_MANY"] == "1,2"
    assert environ["HTTP_COOKIE"] == "a=1; b=2"
    assert environ["CONTENT_TYPE"] == "text/plain"
    assert "HTTP_CONTENT_TYPE" not in environ
    assert (environ["REMOTE_ADDR"], environ["SERVER_NAME"], environ["SERVER_PORT"]) == (
        "192.0.2.7",
        "127.0.0.1",
        "8000",
    )
    assert environ["wsgi.url_scheme"] == "http"
    assert environ["SERVER_PROTOCOL"] == "HTTP/1.1"
    assert environ["wsgi.input"].read() == b""


def test_an_ipv6_client_is_its_address_without_brackets() -> None:
    environ = environ_of(
        Scope(client="[2001:db8::1]:50123", server="[::1]:8000"), b"", multiprocess=False
    )
    assert (environ["REMOTE_ADDR"], environ["SERVER_NAME"]) == ("2001:db8::1", "::1")


def test_the_body_is_read_whole_before_the_app_runs() -> None:
    seen: list[dict[str, Any]] = []
    protocol = Protocol([b"name=", b"Lina", b"&seat=1"])
    serve(
        recording_app(seen),
        Scope(
            "POST",
            "/new",
            headers=[
                ("content-type", "application/x-www-form-urlencoded"),
                ("content-length", "16"),
            ],
        ),
        protocol,
    )
    assert seen[0]["body"] == b"name=Lina&seat=1"
    assert seen[0]["CONTENT_LENGTH"] == "16"
    assert BODY_TIMED_OUT not in seen[0]
    assert protocol.answer == (200, [("Content-Type", "text/plain")], b"ok")


def test_a_chunked_body_is_given_with_its_length() -> None:
    seen: list[dict[str, Any]] = []
    serve(
        recording_app(seen),
        Scope("POST", "/import", headers=[("transfer-encoding", "chunked")]),
        Protocol([b"abc", b"de"]),
    )
    assert seen[0]["body"] == b"abcde"
    assert seen[0]["CONTENT_LENGTH"] == "5"
    assert "HTTP_TRANSFER_ENCODING" not in seen[0]


def test_a_body_longer_than_any_route_takes_is_not_read() -> None:
    seen: list[dict[str, Any]] = []
    protocol = Protocol([b"x" * 1024])
    serve(
        recording_app(seen),
        Scope("POST", "/import", headers=[("content-length", str(MAX_BODY + 1))]),
        protocol,
    )
    assert protocol.read == []  # the app refuses it from its Content-Length (413)
    assert seen[0]["CONTENT_LENGTH"] == str(MAX_BODY + 1)
    assert seen[0]["body"] == b""


def test_a_body_that_does_not_arrive_in_time_is_handed_over_empty_and_marked() -> None:
    seen: list[dict[str, Any]] = []
    protocol = Protocol([b"name=", None])
    serve(
        recording_app(seen),
        Scope("POST", "/new", headers=[("content-length", "100000")]),
        protocol,
        body_timeout=0.05,
    )
    assert seen[0][BODY_TIMED_OUT] is True
    assert (seen[0]["body"], seen[0]["CONTENT_LENGTH"]) == (b"", "0")
    assert protocol.answer is not None
    assert ("Connection", "close") in protocol.answer[1]  # the rest is never read


def test_the_app_answers_a_late_body_408_in_the_readers_language(app: Flask) -> None:
    protocol = Protocol([b"csrf_token=x", None])
    serve(
        app,
        Scope(
            "POST",
            "/new",
            headers=[
                ("content-type", "application/x-www-form-urlencoded"),
                ("content-length", "5000"),
                ("accept-language", "ar"),
            ],
        ),
        protocol,
        body_timeout=0.05,
    )
    assert protocol.answer is not None
    status, _, body = protocol.answer
    assert status == 408
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        from flask_babel import gettext

        sentence = gettext("That took too long to arrive, so nothing was saved. Try again.")
    assert sentence != "That took too long to arrive, so nothing was saved. Try again."
    assert sentence.encode() in body


def test_a_quick_answer_is_given_without_a_thread() -> None:
    seen: list[dict[str, Any]] = []
    asked: list[str] = []

    def quick(environ: dict[str, Any]) -> gateway.Answer | None:
        asked.append(environ["PATH_INFO"])
        return (204, [("ETag", 'W/"2-en"')], b"") if environ["PATH_INFO"] == "/poll" else None

    polled, other = Protocol(), Protocol()
    serve(recording_app(seen), Scope(path="/poll"), polled, quick=quick)
    serve(recording_app(seen), Scope(path="/page"), other, quick=quick)
    assert polled.answer == (204, [("ETag", 'W/"2-en"')], b"")
    assert other.answer is not None and other.answer[0] == 200
    assert asked == ["/poll", "/page"]
    assert [environ["PATH_INFO"] for environ in seen] == ["/page"]


def test_an_answer_the_app_times_is_held_on_the_loop_with_the_thread_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A wrong access code's answer waits for its turn (ANSWER_AT) on the event loop: the
    thread that made it answers the next request meanwhile."""
    seen: list[dict[str, Any]] = []
    later = time.time() + 3600.0  # beyond what the gateway holds: it holds its most

    def timed(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        environ[gateway.ANSWER_AT] = later
        start_response("422 Unprocessable Entity", [("Content-Type", "text/plain")])
        return [b"wrong"]

    front = BodyFirst(timed, 1)
    waits: list[float] = []
    asleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        # the only thread is free: another request is answered while this one is held
        other = environ_of(Scope(path="/page"), b"", multiprocess=False)
        front.threads.app = recording_app(seen)
        assert (await front.threads.answer(other))[0] == 200
        await asleep(0)

    monkeypatch.setattr(gateway.asyncio, "sleep", sleep)
    held = Protocol()
    try:
        run_alone(front.__rsgi__(Scope("POST", "/access"), held))
    finally:
        front.threads.stop()
    assert held.answer is not None and held.answer[0] == 422
    assert waits == [gateway.HELD_AT_MOST_S]
    assert [environ["PATH_INFO"] for environ in seen] == ["/page"]


def test_the_apps_error_reaches_the_request_and_the_threads_go_on() -> None:
    calls: list[str] = []

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        calls.append(environ["PATH_INFO"])
        if environ["PATH_INFO"] == "/boom":
            raise RuntimeError("boom")
        start_response("200 OK", [])
        return [b"fine"]

    front = BodyFirst(app, 1)

    async def both() -> Protocol:
        with pytest.raises(RuntimeError, match="boom"):
            await front.__rsgi__(Scope(path="/boom"), Protocol())
        after = Protocol()
        await front.__rsgi__(Scope(path="/after"), after)
        return after

    try:
        after = run_alone(both())
    finally:
        front.threads.stop()
    assert after.answer == (200, [], b"fine")
    assert calls == ["/boom", "/after"]


def test_a_body_longer_than_its_route_takes_is_not_read() -> None:
    seen: list[dict[str, Any]] = []
    asked: list[str] = []

    def limit(environ: dict[str, Any]) -> int:
        asked.append(environ["PATH_INFO"])
        assert environ["wsgi.input"].read() == b""  # judged from the head alone
        return 100

    protocol = Protocol([b"x" * 101])
    serve(
        recording_app(seen),
        Scope("POST", "/new", headers=[("content-length", "101")]),
        protocol,
        body_limit=limit,
    )
    assert asked == ["/new"]
    assert protocol.read == []  # the app refuses it from its Content-Length (413)
    assert (seen[0]["CONTENT_LENGTH"], seen[0]["body"]) == ("101", b"")
    assert protocol.answer is not None
    assert ("Connection", "close") in protocol.answer[1]  # the body is never read


def test_a_chunked_body_longer_than_its_route_takes_is_cut_short() -> None:
    seen: list[dict[str, Any]] = []
    protocol = Protocol([b"x" * 60, b"y" * 60, b"z" * 60])
    serve(
        recording_app(seen),
        Scope("POST", "/new", headers=[("transfer-encoding", "chunked")]),
        protocol,
        body_limit=lambda environ: 100,
    )
    assert len(protocol.read) == 2  # read past the limit, not to the end
    assert int(seen[0]["CONTENT_LENGTH"]) > 100  # so the app refuses it (413)


def test_no_body_is_read_for_a_request_answered_without_one() -> None:
    """No such route, or a browser without the access code: the app answers from the head."""
    seen: list[dict[str, Any]] = []
    protocol = Protocol([b"name=Lina"])
    serve(
        recording_app(seen),
        Scope("POST", "/nowhere", headers=[("content-length", "9")]),
        protocol,
        body_limit=lambda environ: 0,
    )
    assert protocol.read == []
    assert (seen[0]["CONTENT_LENGTH"], seen[0]["body"]) == ("0", b"")
    assert protocol.answer is not None
    assert ("Connection", "close") in protocol.answer[1]


def test_the_bodies_a_worker_holds_at_once_are_bounded() -> None:
    """Past the bound a request is handed over unread and marked (the app answers 503); once a
    held body is done with, its bytes count no more."""
    seen: list[dict[str, Any]] = []
    front = BodyFirst(recording_app(seen), 2, body_timeout=0.5, buffered_at_most=100)
    stalled, refused, later = Protocol([b"a" * 10, None]), Protocol([b"b" * 40]), Protocol()

    async def three() -> None:
        first = asyncio.ensure_future(
            front.__rsgi__(Scope("POST", "/one", headers=[("content-length", "80")]), stalled)
        )
        await asyncio.sleep(0.05)  # the first holds 80 of 100 bytes while its body trickles
        assert front.buffered == 80
        await front.__rsgi__(Scope("POST", "/two", headers=[("content-length", "40")]), refused)
        await first  # its body timed out: answered, its bytes let go
        assert front.buffered == 0
        later.chunks = [b"c" * 40]
        await front.__rsgi__(Scope("POST", "/three", headers=[("content-length", "40")]), later)

    try:
        run_alone(three())
    finally:
        front.threads.stop()
    by_path = {environ["PATH_INFO"]: environ for environ in seen}
    assert refused.read == [] and by_path["/two"][BODY_BUSY] is True
    assert (by_path["/two"]["CONTENT_LENGTH"], by_path["/two"]["body"]) == ("0", b"")
    assert refused.answer is not None and ("Connection", "close") in refused.answer[1]
    assert by_path["/one"][BODY_TIMED_OUT] is True
    assert by_path["/three"]["body"] == b"c" * 40 and BODY_BUSY not in by_path["/three"]


def test_the_app_answers_a_busy_worker_503_with_retry_after(app: Flask) -> None:
    protocol = Protocol([b"csrf_token=x"])
    serve(
        app,
        Scope(
            "POST",
            "/new",
            headers=[
                ("content-type", "application/x-www-form-urlencoded"),
                ("content-length", "12"),
                ("accept-language", "ar"),
            ],
        ),
        protocol,
        buffered_at_most=10,
    )
    assert protocol.answer is not None
    status, headers, body = protocol.answer
    assert status == 503
    assert ("Retry-After", str(BUSY_RETRY_AFTER_S)) in headers
    assert ("Connection", "close") in headers
    assert protocol.read == []
    with app.test_request_context(headers={"Accept-Language": "ar"}):
        from flask_babel import gettext

        sentence = gettext("The server is busy. Nothing was saved. Try again in a few seconds.")
    assert sentence.encode() in body
