"""Guessing the access code from rotating addresses: how many guesses a minute get checked,
and how long an honest user with the right code waits meanwhile.

    python bench/guesses.py                      # 20 s against this checkout, 64 addresses
    python bench/guesses.py --seconds 10 --checkout ../main   # the same against another one
    python bench/guesses.py --addresses 0        # a new address for every guess
    python bench/guesses.py --smoke              # 2 s: the code runs

Starts `scorekeeper serve` on 127.0.0.1 with an access code, then a few threads guess wrong codes
as fast as the server answers, each guess from the next of 64 source addresses in turn
(127.x.y.z: all of 127/8 is loopback on Linux; the app counts the connection's address, it
trusts no X-Forwarded-For) with its own session: the code page for a CSRF token, then the
guess. A guess answered 422 ("not the code") was checked; 429 was refused unchecked. Meanwhile
an honest user, each time from an address of its own, gives the right code once a second: how
long the code page and the code took, and whether it got in on the first try. The figures:
checked guesses a minute (the server's pace for an attacker with that many addresses: each is
held to its own limit, and all wrong answers wait in one queue), the honest user's first tries,
and the attacker's expected time to find a code `scorekeeper serve` accepts at that pace.
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

from scorekeeper.store import limits

CODE = "7301 4482 9921 0573"
HONEST_EVERY_S = 1.0
ADDRESSES = 64
"""Source addresses the guesses rotate through (0: a new one for every guess)."""
PER_MINUTE_AT_MOST = 100
"""The target: checked guesses a minute, all addresses together."""
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def _guess(port: int, source: str, number: int, code: str | None = None) -> int:
    """One guess from `source` (wrong, unless `code` is given): the code page, then the post;
    the post's status."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0)
    )
    try:
        connection.request("GET", "/access")
        page = connection.getresponse()
        body = page.read().decode()
        cookie = (page.getheader("Set-Cookie") or "").split(";", 1)[0]
        found = TOKEN.search(body)
        if found is None:
            return page.status
        form = urlencode(
            {"csrf_token": found.group(1), "code": code or f"guess {number}", "next": ""}
        )
        connection.request(
            "POST",
            "/access",
            body=form,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
        )
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def measure(
    base: str, seconds: float, threads: int, rotating: int = ADDRESSES
) -> tuple[Counter[int], list[float], float, list[tuple[int, float]]]:
    """Guess for `seconds` from `threads` threads, through `rotating` addresses in turn (0: a
    new one each time): the statuses seen, when each checked guess was answered (seconds from
    the start), the time taken, and the honest user's tries (status, seconds)."""
    port = urlsplit(base).port or 80
    numbers_used = itertools.cycle(range(rotating)) if rotating else itertools.count()
    addresses = (f"127.{n // 62500 % 250 + 1}.{n // 250 % 250}.{n % 250 + 1}" for n in numbers_used)
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

    honest: list[tuple[int, float]] = []

    def host() -> None:
        number = 0
        while time.monotonic() < deadline - HONEST_EVERY_S:
            time.sleep(HONEST_EVERY_S)
            number += 1
            began = time.monotonic()
            try:
                status = _guess(port, f"127.255.{number // 250}.{number % 250 + 1}", 0, CODE)
            except OSError:
                status = 0
            honest.append((status, time.monotonic() - began))

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    pool.append(threading.Thread(target=host))
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    return statuses, checked, time.monotonic() - started, honest


def run(
    quick: bool = False,
    *,
    seconds: float | None = None,
    threads: int = 4,
    checkout: Path | None = None,
    rotating: int = ADDRESSES,
) -> Results:
    """The figure: checked guesses a minute from rotating addresses."""
    results = Results()
    duration = seconds if seconds is not None else (10.0 if quick else 20.0)
    os.environ["SCOREKEEPER_ACCESS_CODE"] = CODE
    saved_root = common.ROOT
    if checkout is not None:
        common.ROOT = checkout.resolve()
    try:
        with temp_instance() as instance, server(instance, workers=2) as base:
            log(
                f"guessing for {duration:.0f} s from {rotating or 'new'} rotating addresses "
                f"({threads} threads)"
            )
            statuses, checked, elapsed, honest = measure(base, duration, threads, rotating)
    finally:
        common.ROOT = saved_root
        del os.environ["SCOREKEEPER_ACCESS_CODE"]
    attempts = sum(statuses.values())
    per_minute = len(checked) / elapsed * 60
    where = f"{rotating} addresses in turn" if rotating else "each from its own address"
    results.add(
        f"guesses checked a minute, {rotating or 'new'} rotating addresses",
        f"{per_minute:.0f}",
        f"≤ {PER_MINUTE_AT_MOST}",
        per_minute <= PER_MINUTE_AT_MOST,
        f"{len(checked)} of {attempts} guesses checked in {elapsed:.1f} s, {where}; "
        f"answers {dict(sorted(statuses.items()))}; load {os.getloadavg()[0]:.1f}",
    )
    first_try = [took for status, took in honest if status == 303]
    slowest = max((took for _, took in honest), default=float("nan"))
    results.add(
        "honest user, right code, first try, while they guess",
        f"{len(first_try)}/{len(honest)} in, slowest {slowest:.2f} s",
        "all, < 1 s",
        bool(honest) and len(first_try) == len(honest) and slowest < 1.0,
        f"each from a new address, the code page and the code; statuses "
        f"{sorted({status for status, _ in honest})}",
    )
    rate = max(len(checked) / elapsed, 1e-9)
    years = limits.years_to_guess(limits.STRONG_CODE_GUESSES) * limits.GUESSES_A_SECOND / rate
    results.add(
        "attacker's expected time, weakest code serve accepts, at this pace",
        f"{years:,.0f} years",
        "> 15 years",
        years > 15,
        f"half of {limits.STRONG_CODE_GUESSES:.0e} guesses (zxcvbn's estimate) at "
        f"{rate:.0f} a second; a code from --new-access-code takes 10^14 or more",
    )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument(
        "--addresses", type=int, default=ADDRESSES, help="rotated through (0: a new one each time)"
    )
    parser.add_argument("--smoke", action="store_true", help="2 s, 2 threads: the code runs")
    parser.add_argument(
        "--checkout",
        type=Path,
        default=None,
        help="serve another checkout of the app (a before figure)",
    )
    args = parser.parse_args()
    from run import print_table

    if args.smoke:
        args.seconds, args.threads = 2.0, 2
    print_table(
        run(
            seconds=args.seconds,
            threads=args.threads,
            checkout=args.checkout,
            rotating=args.addresses,
        ),
        "guesses",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
