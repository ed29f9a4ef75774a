# The part of zxcvbn (it ships no types) that scorekeeper.store.limits uses.
from typing import Any

def zxcvbn(password: str, user_inputs: list[str] | None = ...,
           max_length: int = ...) -> dict[str, Any]: ...
