"""Answers for the endpoint a script calls rather than a page (the sync of pending deals): its
refusals are JSON too, `{"error": "…"}` in the reader's language, never an HTML page."""

from __future__ import annotations

from flask import Response, jsonify, request

JSON_ENDPOINTS = frozenset({"sync.send"})


def wants_json() -> bool:
    """Whether this request is answered in JSON, errors included."""
    return request.endpoint in JSON_ENDPOINTS


def json_error(status: int, message: str, **extra: object) -> Response:
    """A refusal in JSON: what went wrong, in a sentence."""
    response = jsonify(error=message, **extra)
    response.status_code = status
    return response
