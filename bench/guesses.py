"""Guessing the access code from rotating addresses: how many guesses per second get checked.

    python bench/guesses.py                      # 20 s against this checkout
    python bench/guesses.py --seconds 10 --checkout ../main   # the same against another one

Starts `scorekeeper serve` on 127.0.0.1 with an access code, then a few threads guess wrong codes
as fast as the server answers, each guess from a new source address (127.x.y.z: all of 127/8 is
loopback on Linux) with its own session: the code page for a CSRF token, then the guess. A
guess answered 422 ("not the code") was checked; 429 was refused unchecked. The figure is
checked guesses per second over the run; the limits allow about 100 in the first five minutes
and one every 2 s after that, whatever the addresses, workers or hosts.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common
from common import Results, log, server, temp_instance

CODE = "the right code, never guessed"
BURST = 100  # the window's allowance for everyone (store.limits.WRONG_CODES.everyone)
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def _guess(port: int, source: str, number: int) -> int:
    """One wrong guess from `source`: the code page, then the post; the post's status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                            source_address=(source, 0))
    try:
        connection.request("GET", "/access")
        page = connection.getresponse()
        body = page.read().decode()
        cookie = (page.getheader("Set-Cookie") or "").split(";", 1)[0]
        found = TOKEN.search(body)
        if found is None:
            return page.status
        form = urlencode({"csrf_token": found.group(1), "code": f"guess {number}", "next": ""})
        connection.request("POST", "/access", body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def measure(base: str, seconds: float, threads: int) -> tuple[Counter[int], list[float], float]:
    """Guess for `seconds` from `threads` threads: the statuses seen, when each checked guess
    was answered (seconds from the start) and the time taken."""
    port = urlsplit(base).port or 80
    addresses = (f"127.{n // 62500 % 250 + 1}.{n // 250 % 250}.{n % 250 + 1}"
                 for n in itertools.count())
    numbers = itertools.count()
    lock = threading.Lock()
    statuses: Counter[int] = Counter()
    checked: list[float] = []
    started = time.monotonic()
    deadline = started + seconds

    def worker() -> None:
        while time.monotonic() < deadline:
            with lock:
                source, number = next(addresses), next(numbers)
            try:
                status = _guess(port, source, number)
            except OSError:
                status = 0
            with lock:
                statuses[status] += 1
                if status == 422:
                    checked.append(time.monotonic() - started)

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return statuses, checked, time.monotonic() - started


def run(quick: bool = False, *, seconds: float | None = None, threads: int = 4,
        checkout: Path | None = None) -> Results:
    """The figure: checked guesses per second from rotating addresses."""
    results = Results()
    duration = seconds if seconds is not None else (10.0 if quick else 20.0)
    os.environ["SCOREKEEPER_ACCESS_CODE"] = CODE
    saved_root = common.ROOT
    if checkout is not None:
        common.ROOT = checkout.resolve()
    try:
        with temp_instance() as instance, server(instance, workers=2) as base:
            log(f"guessing for {duration:.0f} s from rotating addresses ({threads} threads)")
            statuses, checked, elapsed = measure(base, duration, threads)
    finally:
        common.ROOT = saved_root
        del os.environ["SCOREKEEPER_ACCESS_CODE"]
    attempts = sum(statuses.values())
    results.add("guesses checked per second, rotating addresses", f"{len(checked) / elapsed:.1f}",
                "–", None,
                f"{len(checked)} of {attempts} guesses checked in {elapsed:.1f} s, each from its "
                f"own address; answers {dict(sorted(statuses.items()))}")
    if len(checked) > BURST:  # once the window's allowance is spent: the slots' pace
        after = checked[BURST - 1]
        rate = (len(checked) - BURST) / (elapsed - after) if elapsed > after else 0.0
        results.add("checked per second once 100 are spent", f"{rate:.2f}", "≤ 0.5",
                    rate <= 0.5 + 0.1,
                    f"the first {BURST} checked within {after:.1f} s; "
                    f"{len(checked) - BURST} more in the {elapsed - after:.1f} s after")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--checkout", type=Path, default=None,
                        help="serve another checkout of the app (a before figure)")
    args = parser.parse_args()
    from run import print_table

    print_table(run(seconds=args.seconds, threads=args.threads, checkout=args.checkout),
                "guesses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
