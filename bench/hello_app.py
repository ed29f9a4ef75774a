"""A bare Flask "hello" app under exactly the settings `scorekeeper serve` uses (the baseline).

Run as `python bench/hello_app.py PORT WORKERS`: it calls :func:`scorekeeper.serving.server.run`
with this module's app as the target, so workers, threads and timeouts are the production ones.
"""

from __future__ import annotations

import sys
from pathlib import Path

from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.serving import server

hello = Flask(__name__)


@hello.get("/")
def index() -> str:
    """The smallest useful response."""
    return "hello"


if __name__ == "__main__":
    # each worker imports this file as `hello_app` from its folder
    server.run(
        "127.0.0.1",
        int(sys.argv[1]),
        int(sys.argv[2]),
        target="hello_app:hello",
        factory=False,
        working_dir=Path(__file__).resolve().parent,
    )
