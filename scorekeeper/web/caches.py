"""What a process keeps between requests: each value a pure function of its key, so a process
may keep it as long as it likes and never serves another's stale state.

- a game's replay, by (token, version): every write bumps the version;
- a game's history table, by (game, version, language, link kind): the same for every phone.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from threading import Lock
from typing import Any, Generic, TypeVar

from flask import get_template_attribute, request
from markupsafe import Markup

from ..rules import Replay, replay
from ..store.games import game_of
from ..store.models import GameRow

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded map, least recently used first out, safe across threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


_replays: Kept[tuple[str, int], Replay] = Kept(512)
_histories: Kept[tuple[Any, ...], Markup] = Kept(1024)


def replay_of(row: GameRow) -> Replay:
    """The engine's replay of a stored game (whose first chooser is known)."""
    key = (row.token, row.version)
    found = _replays.get(key)
    if found is None:
        found = replay(game_of(row))
        _replays.put(key, found)
    return found


def keep_replay(row: GameRow, result: Replay) -> None:
    """Keep a replay made elsewhere (a save's) for the row's current version."""
    _replays.put((row.token, row.version), result)


def history_rows(row: GameRow, result: Replay, partnership: bool, editable: bool,
                 language: str) -> Markup:
    """The history table's rows (the `history_rows` macro of partials/macros.html)."""
    key = (row.token, row.version, language, editable, request.script_root)
    found = _histories.get(key)
    if found is None:
        found = Markup(get_template_attribute("partials/macros.html", "history_rows")(
            result, result.game.players, partnership, row, editable))
        _histories.put(key, found)
    return found


def clear() -> None:
    """Forget everything kept (tests)."""
    _replays.clear()
    _histories.clear()


__all__ = ["Kept", "clear", "history_rows", "keep_replay", "replay_of"]
