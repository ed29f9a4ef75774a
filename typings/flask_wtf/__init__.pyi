from typing import Any

from wtforms import Form

from .csrf import CSRFProtect as CSRFProtect

class FlaskForm(Form):
    def __init__(self, formdata: Any = ..., **kwargs: Any) -> None: ...
    def validate_on_submit(self, extra_validators: Any = ...) -> bool: ...
    def is_submitted(self) -> bool: ...
