"""The database handle and migrations, created unbound so models and queries import them freely."""

from __future__ import annotations

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for the typed models."""


# a committed row keeps its loaded values: a save writes with one guarded UPDATE and sets what it
# wrote on the row itself (games.write), so nothing is read back after the commit
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
