"""The web's Flask extensions, created unbound so forms and views can import them freely."""

from __future__ import annotations

from flask_babel import Babel
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
babel = Babel()
