"""Where one request's time goes, in-process (no server, no network): for finding what to cut.

Builds a throw-away instance like the other benchmarks, then calls the app's WSGI entry with
what a phone sends, for one of:

- `page`: GET /g/<token> of a Trix game 10 deals in;
- `preview`: the Diamonds form's preview after three counts (as throughput.py sends it);
- `save`: the in-page form's save of a Turkish King game's first deal (a new game each call),
  with the fresh entry key every form carries (its key is written beside the game, in the same
  transaction);
- `hello`: a bare Flask "hello" (bench/hello_app.py), the baseline.

Prints milliseconds per request (best of 5 batches), then with `--profile` the cProfile listing
of one batch by cumulative time (`LINES=150` in the environment for more than 40 lines).

    python bench/profile_request.py page|preview|save|hello [--calls 300] [--profile]
    python bench/profile_request.py --smoke   # each kind, 2 calls: the code runs
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import SECRET, form_fields, game_plan, init_db, make_games, temp_instance


def caller(
    app: Any, method: str, path: str, headers: dict[str, str], body: str | None = None
) -> Callable[[], int]:
    """A function making one request through the app's WSGI entry; returns the body length."""
    from werkzeug.test import EnvironBuilder

    def call() -> int:
        environ = EnvironBuilder(path=path, method=method, headers=headers, data=body).get_environ()
        statuses: list[str] = []
        body_bytes = b"".join(app(environ, lambda status, *_: statuses.append(status)))
        assert statuses[0][0] in "23", (statuses, body_bytes[:300])
        return len(body_bytes)

    return call


KINDS = ("page", "preview", "save", "hello")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="?", choices=KINDS)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--smoke", action="store_true", help="each kind, 2 calls, profiled: the code runs"
    )
    options = parser.parse_args()
    if options.smoke:
        for what in KINDS:
            measure(what, 2, 1, profile=True)
    elif options.what is None:
        parser.error(f"say which request: {', '.join(KINDS)}")
    else:
        measure(options.what, options.calls, 5, profile=options.profile)


def measure(what: str, calls: int, batches: int, *, profile: bool) -> None:
    """Print the best of `batches` batches of `calls` requests of kind `what` (and profile one
    more batch)."""
    with temp_instance() as instance:
        os.environ.update(SCOREKEEPER_INSTANCE=instance, SECRET_KEY=SECRET)
        init_db(instance)
        if what == "hello":
            from hello_app import hello as app

            def next_call() -> Callable[[], int]:
                return caller(app, "GET", "/", {"Accept-Encoding": "gzip"})
        else:
            page_token = make_games(instance, 1, "trix", deals=10)[0][0]
            preview_token = make_games(instance, 1, "trix")[0][0]
            saves = iter(
                [
                    t
                    for t, _ in make_games(
                        instance,
                        calls * 7 if what.startswith("save") else 0,
                        "turkish-king",
                    )
                ]
            )
            from scorekeeper import create_app

            app = create_app({"INSTANCE_PATH": instance})
            client = app.test_client()
            html = client.get(f"/g/{page_token}").get_data(as_text=True)
            match = re.search(r'"X-CSRFToken": "([^"]+)"', html)
            assert match, "no CSRF token in the page's hx-headers"
            cookie = client.get_cookie("session")
            assert cookie is not None
            plain = {"Accept-Encoding": "gzip", "Cookie": f"session={cookie.value}"}
            htmx = plain | {
                "HX-Request": "true",
                "X-CSRFToken": match.group(1),
                "Content-Type": "application/x-www-form-urlencoded",
            }
            preview = urlencode(
                {
                    "contract": "diamonds",
                    "number": "1",
                    "version": "2",
                    "entry_key": str(uuid.uuid4()),
                    "counts-0": "5",
                    "counts-1": "4",
                    "counts-2": "3",
                }
            )
            save = urlencode(
                {"number": "1", "version": "2", **form_fields(game_plan("turkish-king")[0])}
            )

            def next_call() -> Callable[[], int]:
                if what == "page":
                    return caller(app, "GET", f"/g/{page_token}", plain)
                if what == "preview":
                    return caller(
                        app,
                        "POST",
                        f"/g/{preview_token}/deal/preview",
                        htmx | {"HX-Target": "deal-preview"},
                        preview,
                    )
                body = save + "&" + urlencode({"entry_key": str(uuid.uuid4())})  # (its own)
                return caller(
                    app, "POST", f"/g/{next(saves)}/deal", htmx | {"HX-Target": "deal-form"}, body
                )

        next_call()()  # compile templates, fill caches
        best = float("inf")
        for _ in range(batches):
            batch = [next_call() for _ in range(calls)]
            started = time.perf_counter()
            for call in batch:
                call()
            best = min(best, (time.perf_counter() - started) / calls)
        print(f"{what}: {best * 1000:.3f} ms a request (best of {batches} batches of {calls})")
        if profile:
            batch = [next_call() for _ in range(calls)]
            profiler = cProfile.Profile()
            profiler.enable()
            for call in batch:
                call()
            profiler.disable()
            lines = int(os.environ.get("LINES", "40"))
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(lines)


if __name__ == "__main__":
    main()
