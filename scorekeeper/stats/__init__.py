"""Statistics across a table's games: pure Python over the rules engine (standard library and
:mod:`scorekeeper.rules` only), so `scorekeeper stats` loads no web stack.

:func:`compute` replays each game record through the engine and counts. It is :func:`combine`
over each record's :func:`game_figures` (the replay, the costly step), so a caller may keep each
game's figures and replay only the games that changed; :func:`figures_head` and
:func:`stored_figures` let it keep them in a database (the web keeps them there by game and
version, a cache made again from the record when missing).
"""

from ..rules.contracts import Item
from ..rules.text import player_key
from .compute import combine, compute
from .figures import GameFigures, figures_head, game_figures, stored_figures, stored_form
from .model import (
    ContractStats,
    Partnership,
    PlayerStats,
    RunningLine,
    RunningWins,
    TableStats,
)
from .output import player_json, to_json

__all__ = [
    "ContractStats",
    "GameFigures",
    "Item",
    "Partnership",
    "PlayerStats",
    "RunningLine",
    "RunningWins",
    "TableStats",
    "combine",
    "compute",
    "figures_head",
    "game_figures",
    "player_json",
    "player_key",
    "stored_figures",
    "stored_form",
    "to_json",
]
