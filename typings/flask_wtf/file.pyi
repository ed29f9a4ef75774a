from typing import Any

from wtforms import FileField as _FileField
from wtforms.validators import DataRequired

class FileField(_FileField):
    data: Any

class FileRequired(DataRequired):
    def __init__(self, message: str | None = ...) -> None: ...
