"""Statistics across a table's games: pure Python over the rules engine (standard library and
:mod:`scorekeeper.rules` only), so `scorekeeper stats` loads no web stack.

Nothing is stored: :func:`compute` replays each game record through the engine and counts. It is
:func:`combine` over each record's :func:`game_figures` (the replay, the costly step), so a
caller may keep each game's figures and replay only the games that changed.
"""

from ..rules.contracts import Item
from .compute import combine, compute
from .figures import GameFigures, game_figures
from .identity import player_key
from .model import (
    ContractStats,
    Partnership,
    PlayerStats,
    RunningLine,
    RunningWins,
    TableStats,
)
from .output import player_json, to_json
from .records import RecordsRefused, load_records

__all__ = [
    "ContractStats",
    "GameFigures",
    "Item",
    "Partnership",
    "PlayerStats",
    "RecordsRefused",
    "RunningLine",
    "RunningWins",
    "TableStats",
    "combine",
    "compute",
    "game_figures",
    "load_records",
    "player_json",
    "player_key",
    "to_json",
]
