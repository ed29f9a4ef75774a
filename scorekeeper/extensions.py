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


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
babel.domain_instance = CachedDomain()  # Flask-Babel's default domain ("messages"), cached
