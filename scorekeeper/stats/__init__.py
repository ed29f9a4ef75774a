"""Statistics across a table's games: pure Python over the rules engine (standard library and
:mod:`scorekeeper.rules` only), so `scorekeeper stats` loads no web stack.

Nothing is stored: :func:`compute` replays each game record through the engine and counts.
"""

from .compute import compute
from .identity import player_key
from .model import (
    ContractStats,
    Item,
    Partnership,
    PlayerStats,
    RunningLine,
    RunningWins,
    TableStats,
)
from .output import player_json, to_json
from .records import RecordsRefused, load_records
from .takes import can_double

__all__ = [
    "ContractStats",
    "Item",
    "Partnership",
    "PlayerStats",
    "RecordsRefused",
    "RunningLine",
    "RunningWins",
    "TableStats",
    "can_double",
    "compute",
    "load_records",
    "player_json",
    "player_key",
    "to_json",
]
