"""Scorekeeper: keep score at a real card table (Trix, Trix Complex, Turkish King).

The rules engine lives in :mod:`scorekeeper.rules` and imports nothing from the web stack; the
Flask app is built by :func:`create_app`, which imports Flask only when called, so the
`scorekeeper check` command stays fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask

__version__ = "0.1.0"


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the web app (see :func:`scorekeeper.app.create_app`)."""
    from .app import create_app as factory

    return factory(config)
