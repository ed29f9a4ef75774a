"""What the store's tests share: the app's context around a test that calls the store directly."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper.store.db import db


@pytest.fixture
def ctx(app: Flask) -> Iterator[None]:
    """The app's context (the store's functions use its session), the session removed after."""
    with app.app_context():
        yield
        db.session.remove()
