"""Strict JSON as game records are read: no NaN or Infinity, and duplicate keys remembered (a
record that says a thing twice is refused, not silently half-read)."""

from __future__ import annotations

import json
from typing import Any

from .errors import NotARecordError


class _Object(dict[str, Any]):
    """A JSON object that remembers the keys it saw twice."""

    duplicates: list[str]


def _object_hook(pairs: list[tuple[str, Any]]) -> _Object:
    result = _Object()
    result.duplicates = []
    for key, value in pairs:
        if key in result:
            result.duplicates.append(key)
        result[key] = value
    return result


def _refuse_constant(name: str) -> None:
    raise NotARecordError(f"not JSON: {name} is not a JSON value")


def parse_json(text: str | bytes) -> Any:
    """Parse strict JSON (no NaN/Infinity), remembering duplicate keys; NotARecordError if not."""
    try:
        return json.loads(text, object_pairs_hook=_object_hook, parse_constant=_refuse_constant)
    except NotARecordError:
        raise
    except (ValueError, RecursionError) as error:
        raise NotARecordError(f"not JSON: {error}") from None
