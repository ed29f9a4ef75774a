"""Flask extensions, created unbound so models and views can import them without cycles."""

from __future__ import annotations

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase

from .i18n import CachedDomain


class Base(DeclarativeBase):
    """Declarative base for the typed models."""


# a committed row keeps its loaded values: a save writes with one guarded UPDATE and sets what it
# wrote on the row itself (store._write), so nothing is read back after the commit
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
babel.domain_instance = CachedDomain()  # Flask-Babel's default domain ("messages"), cached
