"""Nights, rivals and ratings as JSON: the keys `scorekeeper stats` and a table's statistics
export add beside the standings."""

from __future__ import annotations

from typing import Any

from .evening_model import ContractLeader, ModeRivals, Night, Partner, Rating, Rival


def night_json(night: Night) -> dict[str, Any]:
    """One night: when, how many games of which kinds, and its standings (night points: one
    for each player finished ahead of in a finished game, a half for each tie)."""
    return {
        "number": night.number,
        "first": night.first,
        "last": night.last,
        "games": night.games,
        "finished": night.finished,
        "kinds": list(night.kinds),
        "standings": [
            {
                "name": player.name,
                "key": player.key,
                "games": player.games,
                "finished": player.finished,
                "wins": player.wins,
                "points": player.points,
            }
            for player in night.standings
        ],
    }


def _rivals_json(rivals: tuple[Rival, ...]) -> list[dict[str, Any]]:
    return [
        {
            "name": rival.name,
            "key": rival.key,
            "together": rival.together,
            "ahead": rival.ahead,
            "behind": rival.behind,
            "level": rival.level,
        }
        for rival in rivals
    ]


def _partner_json(partners: tuple[Partner, ...]) -> list[dict[str, Any]]:
    return [
        {
            "name": partner.name,
            "key": partner.key,
            "together": partner.together,
            "wins": partner.wins,
        }
        for partner in partners
    ]


def _leader_json(leader: ContractLeader) -> dict[str, Any]:
    return {
        "contract": leader.contract,
        "item": str(leader.item) if leader.item is not None else "place",
        "name": leader.name,
        "key": leader.key,
        "deals": leader.deals,
        "amount": leader.amount,
        "average": round(leader.average, 4),
    }


def rivals_json(modes: tuple[ModeRivals, ...]) -> dict[str, Any]:
    """Per mode played ("solo", "partnership"): rivals and partners per player (lists: everyone
    tied for the most, empty for nobody), and who leads each contract."""
    return {
        mode.mode: {
            "games": mode.games,
            "players": [
                {
                    "name": player.name,
                    "key": player.key,
                    "beats": _rivals_json(player.beats),
                    "beaten_by": _rivals_json(player.beaten_by),
                    "partner": _partner_json(player.partner),
                }
                for player in mode.players
            ],
            "contracts": [_leader_json(leader) for leader in mode.leaders],
        }
        for mode in modes
    }


def ratings_json(ratings: tuple[Rating, ...]) -> list[dict[str, Any]]:
    """Everyone's rating (null, with mu and sigma, until the player has enough rated games)."""
    return [
        {
            "name": rating.name,
            "key": rating.key,
            "games": rating.games,
            "rating": rating.value,
            "mu": round(rating.mu, 4) if rating.shown else None,
            "sigma": round(rating.sigma, 4) if rating.shown else None,
        }
        for rating in ratings
    ]
