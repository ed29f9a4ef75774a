"""The statistics as JSON: exactly what `scorekeeper stats` prints (and a little more)."""

from __future__ import annotations

from typing import Any

from ..rules.contracts import CONTRACTS
from .evening_output import night_json, ratings_json, rivals_json
from .model import ContractStats, Partnership, PlayerStats, TableStats


def _details_json(stats: ContractStats) -> dict[str, Any]:
    """What else the player's deals of a contract say: items taken, places, doubles."""
    out: dict[str, Any] = {}
    if stats.taken:
        out["taken"] = {str(item): count for item, count in stats.taken.items()}
    if stats.places:
        out["places"] = stats.places
    if CONTRACTS[stats.contract].doubles:
        out["doubles"] = stats.doubles
        out["doubles_gain"] = stats.doubles_gain
    return out


def player_json(player: PlayerStats) -> dict[str, Any]:
    """One player as the command prints it: the issue's keys (each contract exactly its deals and
    points), then extra keys: key, win_rate, the streaks, and per contract the details (items
    taken in all, the sum of Trix places, doubles and what they gained)."""
    return {
        "name": player.name,
        "games": player.games,
        "finished": player.finished,
        "wins": player.wins,
        "points": player.points,
        "contracts": {
            contract: {"deals": stats.deals, "points": stats.points}
            for contract, stats in player.contracts.items()
        },
        "key": player.key,
        "win_rate": player.win_rate,
        "longest_streak": player.longest_streak,
        "current_streak": player.current_streak,
        "details": {contract: _details_json(stats) for contract, stats in player.contracts.items()},
    }


def _partnership_json(pair: Partnership) -> dict[str, Any]:
    return {
        "names": list(pair.names),
        "games": pair.games,
        "finished": pair.finished,
        "wins": pair.wins,
        "points": pair.points,
    }


def to_json(stats: TableStats) -> dict[str, Any]:
    """{"players": [...]} sorted by wins, points (descending), then name; extra keys at the top:
    the game and finished counts, standings per game kind, partnerships, nights, rivals (per
    mode) and, when they were asked for, ratings (no key otherwise: not a null to explain)."""
    data = {
        "players": [player_json(player) for player in stats.players],
        "games": stats.games,
        "finished": stats.finished,
        "standings": {
            game: [player_json(player) for player in players]
            for game, players in stats.standings.items()
        },
        "partnerships": [_partnership_json(pair) for pair in stats.partnerships],
        "nights": [night_json(night) for night in stats.nights],
        "rivals": rivals_json(stats.rivals),
    }
    if stats.ratings is not None:
        data["ratings"] = ratings_json(stats.ratings)
    return data
