"""Rivals, partners and who takes what: per player, the ones they finish ahead of most often
and the ones they finish behind most often (the ones to beat), their best partner; per
contract, who takes its cards or tricks most (the K♥, King's trump tricks) and who places best
in Trix.

Ties are said, never broken in silence: a level finish (equal totals) counts neither way; a
player is someone's "ahead of" only when finished ahead of them more often than behind, and
"behind" only when the other way round (so never both, and someone met as often ahead as
behind is neither); everyone who shares the most is named.

Solo and partnership games are counted apart (:data:`MODES`): in a partnership game a player's
rivals are the two opponents, compared by the teams' totals, and the partner is no rival.
Only finished games count for rivals and partners; every deal counts for the contracts.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import Final

from ..rules.cards import TEAMS
from ..rules.contracts import CONTRACTS
from ..rules.games import PARTNERSHIP, SOLO
from .evening_model import ContractLeader, ModeRivals, Partner, PlayerRivals, Rival
from .figures import LAYOUTS, GameFigures
from .model import ContractStats, add_contract_stats

MODES: Final = (SOLO, PARTNERSHIP)
TOGETHER_AT_LEAST: Final = 3
"""Finished games two players must share before one is named the other's rival or partner."""
DEALS_AT_LEAST: Final = 2
"""Deals of a contract a player must have played to lead it (a Turkish King game plays each
negative contract twice)."""


def _share(ahead: int, together: int) -> tuple[float, int]:
    return (ahead / together, ahead)


def _most(rivals: list[Rival], ahead: bool) -> tuple[Rival, ...]:
    """The rivals finished ahead of (or behind, not `ahead`) most often, by share of games
    together, then count, then fewer the other way; among those met more often so than the
    other way only. Everyone who shares the most, by key (equal figures, all of them)."""

    def rank(rival: Rival) -> tuple[float, int, int]:
        mine, theirs = (rival.ahead, rival.behind) if ahead else (rival.behind, rival.ahead)
        return (*_share(mine, rival.together), -theirs)

    candidates = [
        rival
        for rival in rivals
        if (rival.ahead > rival.behind if ahead else rival.behind > rival.ahead)
    ]
    if not candidates:
        return ()
    best = max(rank(rival) for rival in candidates)
    return tuple(rival for rival in candidates if rank(rival) == best)


def _rivals(
    key: str, met: dict[str, list[int]], names: dict[str, str]
) -> tuple[tuple[Rival, ...], tuple[Rival, ...]]:
    candidates = [
        Rival(other, names[other], *figures)
        for other, figures in sorted(met.items())
        if figures[0] >= TOGETHER_AT_LEAST
    ]
    return _most(candidates, ahead=True), _most(candidates, ahead=False)


def _partner(partners: dict[str, list[int]], names: dict[str, str]) -> tuple[Partner, ...]:
    """The partners won with most often (by share, then count): all who share the most."""
    candidates = [
        Partner(other, names[other], *figures)
        for other, figures in sorted(partners.items())
        if figures[0] >= TOGETHER_AT_LEAST and figures[1]
    ]
    if not candidates:
        return ()
    best = max(_share(partner.wins, partner.together) for partner in candidates)
    return tuple(p for p in candidates if _share(p.wins, p.together) == best)


def _compared(played: GameFigures) -> list[int]:
    """What each seat finished with for rivalry: its total, or its team's (partnership)."""
    if played.team_totals is None:
        return list(played.totals)
    team_totals = played.team_totals
    return [team_totals[0] if seat in TEAMS[0] else team_totals[1] for seat in range(4)]


def _leaders(
    tallies: dict[tuple[str, str], list[int]], names: dict[str, str]
) -> tuple[ContractLeader, ...]:
    """Per contract and item, the player who takes it most per deal (Trix: places best)."""
    per_player: dict[str, dict[str, ContractStats]] = {}
    for (game, key), tally in tallies.items():
        contracts = per_player.setdefault(key, {})
        for stats in LAYOUTS[game].contract_stats(tally):
            contracts[stats.contract] = add_contract_stats(contracts.get(stats.contract), stats)
    leaders = []
    for contract in CONTRACTS:
        played = [
            (key, contracts[contract])
            for key, contracts in sorted(per_player.items())
            if contract in contracts and contracts[contract].deals >= DEALS_AT_LEAST
        ]
        if not played:
            continue
        definition = CONTRACTS[contract]
        for item, _ in definition.items:
            key, stats = max(
                played, key=lambda pair: (pair[1].taken[item] / pair[1].deals, pair[1].deals)
            )
            if stats.taken[item]:
                leaders.append(
                    ContractLeader(contract, item, key, names[key], stats.deals, stats.taken[item])
                )
        if definition.place_field is not None:
            key, stats = min(
                played, key=lambda pair: (pair[1].places / pair[1].deals, -pair[1].deals)
            )
            leaders.append(
                ContractLeader(contract, None, key, names[key], stats.deals, stats.places)
            )
    return tuple(leaders)


def _mode(mode: str, games: Sequence[GameFigures], names: dict[str, str]) -> ModeRivals:
    met: dict[str, dict[str, list[int]]] = {}  # key → other → [together, ahead, behind]
    partners: dict[str, dict[str, list[int]]] = {}  # key → partner → [together, wins]
    tallies: dict[tuple[str, str], list[int]] = {}  # (game kind, key) → summed tally
    for played in games:
        keys = played.keys
        for seat, key in enumerate(keys):
            kept = tallies.get((played.game, key))
            tally = played.tally(seat)
            tallies[played.game, key] = list(tally) if kept is None else list(map(add, kept, tally))
        if not played.finished or len(set(keys)) < len(keys):
            continue
        values = _compared(played)
        for seat, key in enumerate(keys):
            mine = met.setdefault(key, {})
            partner_seat = (seat + 2) % 4 if played.partnership else None
            for other_seat, other in enumerate(keys):
                if other_seat in (seat, partner_seat):
                    continue
                figures = mine.setdefault(other, [0, 0, 0])
                figures[0] += 1
                figures[1] += values[seat] > values[other_seat]
                figures[2] += values[seat] < values[other_seat]
            if partner_seat is not None:
                figures = partners.setdefault(key, {}).setdefault(keys[partner_seat], [0, 0])
                figures[0] += 1
                figures[1] += played.won(seat)
    players = []
    for key in sorted(met):
        beats, beaten_by = _rivals(key, met[key], names)
        partner = _partner(partners.get(key, {}), names)
        players.append(PlayerRivals(key, names[key], beats, beaten_by, partner))
    return ModeRivals(mode, len(games), tuple(players), _leaders(tallies, names))


def rivals(games: Sequence[GameFigures], names: dict[str, str]) -> tuple[ModeRivals, ...]:
    """Per mode that was played (solo first), rivals, partners and contract leaders; `names`:
    each key's spelling (the first met)."""
    found = []
    for mode in MODES:
        kept = [played for played in games if played.partnership == (mode == PARTNERSHIP)]
        if kept:
            found.append(_mode(mode, kept, names))
    return tuple(found)
