"""Run the app under gunicorn (a production WSGI server) from Python, with no config file."""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication


class _Server(BaseApplication):
    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        from .. import create_app

        return create_app()


def run(host: str, port: int, workers: int) -> None:
    """Serve until interrupted: `workers` processes, each with a few threads."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    _Server({
        "bind": bind,
        "workers": max(1, workers),
        "threads": 2,
        "worker_class": "gthread",
        "timeout": 30,
        "graceful_timeout": 10,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "limit_request_line": 8190,
    }).run()
