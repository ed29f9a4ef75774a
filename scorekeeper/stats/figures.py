"""One game record's share of a table's statistics: everything the table's figures need from it,
replayed through the engine once.

:func:`game_figures` is the costly step (the engine's replay, and each deal's takes and
doubles); :func:`scorekeeper.stats.combine` only adds figures up, so a caller that keeps each
game's figures (by the game's identity and version) pays for a changed game only.

A seat's deals of every contract are one flat row of ints, a *tally*, laid out per game kind
(:data:`LAYOUTS`), added element by element when combined; a game keeps its four tallies packed
as 32-bit ints (about 600 bytes a game), so a process can keep thousands.

:func:`figures_head` and :func:`stored_figures` turn figures into what a database keeps (a short
JSON text beside the packed tallies) and back, without the record or a replay.
"""

from __future__ import annotations

import json
import sys
import zlib
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Final

from ..rules.cards import SEATS
from ..rules.contracts import CONTRACTS, Item
from ..rules.games import GAMES, PARTNERSHIP
from ..rules.record import Record
from ..rules.replay import Replay, replay
from ..rules.text import player_key
from .model import ContractStats
from .takes import seat_takes

OLDEST = datetime.min.replace(tzinfo=UTC)
"""When an untimed record counts as played: before every timed one."""

_DEALS, _POINTS, _PLACES, _DOUBLES, _DOUBLES_GAIN = range(5)
_ITEMS_START = 5
"""A contract's slots in a tally: deals, points, places, doubles, doubles_gain, then one count
per item the contract counts (in the order of its `items`)."""
_PACKED: Final = "i"
"""How a game's tallies are packed: the platform's C int (32 bits; a game's sums are far
smaller)."""


@dataclass(frozen=True)
class Slot:
    """Where one contract's figures start in a tally, and the items it counts."""

    contract: str
    start: int
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Layout:
    """A game kind's tally: each of its contracts' slots, in the engine's order of contracts."""

    slots: Mapping[str, Slot]
    """Per contract id of the game kind."""
    size: int

    def empty(self) -> list[int]:
        """A tally of no deals, to add to."""
        return [0] * self.size

    def contract_stats(self, tally: Sequence[int]) -> tuple[ContractStats, ...]:
        """The tally as one ContractStats per contract with deals (none for the others)."""
        return tuple(
            ContractStats(
                slot.contract,
                tally[slot.start + _DEALS],
                tally[slot.start + _POINTS],
                {
                    item: tally[slot.start + _ITEMS_START + index]
                    for index, item in enumerate(slot.items)
                },
                tally[slot.start + _PLACES],
                tally[slot.start + _DOUBLES],
                tally[slot.start + _DOUBLES_GAIN],
            )
            for slot in self.slots.values()
            if tally[slot.start + _DEALS]
        )


def _layout(contracts: tuple[str, ...]) -> Layout:
    slots, start = {}, 0
    for contract in CONTRACTS:
        if contract in contracts:
            items = tuple(item for item, _ in CONTRACTS[contract].items)
            slots[contract] = Slot(contract, start, items)
            start += _ITEMS_START + len(items)
    return Layout(slots, start)


LAYOUTS: Mapping[str, Layout] = {
    game: _layout(definition.contracts) for game, definition in GAMES.items()
}
"""Per game id, the layout of its seats' tallies."""


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One game's figures: who sat where, when it was played, how it ended, and per seat its
    deals of each contract. Plain frozen values, nothing shared with the record or the replay
    (so a process may keep many of them)."""

    game: str
    """The game id (trix, trix-complex, turkish-king): its :data:`LAYOUTS` entry lays out the
    tallies."""
    partnership: bool
    names: tuple[str, ...]
    """The four names as the record writes them, surrounding spaces stripped."""
    keys: tuple[str, ...]
    """:func:`scorekeeper.rules.text.player_key` of each seat's name."""
    time: str | None
    """When the game was played, as the record says it (created_at, else updated_at)."""
    when: datetime | None
    """The same moment, timezone-aware (a naive stamp is UTC)."""
    finished: bool
    totals: tuple[int, ...]
    """The engine's final totals per seat."""
    team_totals: tuple[int, int] | None
    """Partnership: the two teams' totals."""
    winners: tuple[int, ...]
    """The winning seats of a finished game (empty while it is not)."""
    tallies: bytes
    """The four seats' tallies one after the other, packed (read them with :meth:`tally`)."""

    @property
    def time_order(self) -> tuple[bool, datetime]:
        """Where the game goes in time: untimed games first (the caller keeps them in the order
        given), then by moment."""
        return (self.when is not None, self.when or OLDEST)

    def won(self, seat: int) -> bool:
        """Whether `seat` is among the winners (never before the game is finished)."""
        return seat in self.winners

    def tally(self, seat: int) -> Sequence[int]:
        """The seat's deals of each contract of the game kind: how many, their scores, places,
        doubles and what was taken (laid out by :data:`LAYOUTS`)."""
        size = LAYOUTS[self.game].size
        return memoryview(self.tallies).cast(_PACKED)[seat * size : (seat + 1) * size]


def _moment(record: Record) -> tuple[str | None, datetime | None]:
    """When the game was played: created_at (a table plays one game after another, and an edit
    or a rename long after must not move it), else updated_at."""
    text = record.created_at or record.updated_at
    return text, _when(text)


def _when(text: str | None) -> datetime | None:
    """The record's time stamp, timezone-aware (a naive stamp is UTC)."""
    if text is None:
        return None
    moment = datetime.fromisoformat(text)  # the loader checked it parses
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _tallies(result: Replay) -> bytes:
    """Per seat, per contract: the game's deals of it, what they scored and what was taken."""
    rules = result.game.house_rules
    layout = LAYOUTS[result.game.kind]
    seats = [layout.empty() for _ in SEATS]
    for deal in result.deals:
        slot = layout.slots[deal.contract]
        start = slot.start
        for seat, take in enumerate(seat_takes(deal.deal, rules, deal.scores)):
            tally = seats[seat]
            tally[start + _DEALS] += 1
            tally[start + _POINTS] += deal.scores[seat]
            tally[start + _PLACES] += take.place
            tally[start + _DOUBLES] += take.doubles
            tally[start + _DOUBLES_GAIN] += take.doubles_gain
            for index, item in enumerate(slot.items):
                tally[start + _ITEMS_START + index] += take.taken[item]
    return array(_PACKED, [count for tally in seats for count in tally]).tobytes()


def game_figures(record: Record) -> GameFigures:
    """The record's figures: replayed once through the engine, every deal's takes counted."""
    game = record.game
    time, when = _moment(record)
    result = replay(game)
    return GameFigures(
        game=sys.intern(game.kind),
        partnership=game.mode == PARTNERSHIP,
        # interned: a process keeping thousands of games holds each name once
        names=tuple(sys.intern(name.strip()) for name in game.players),
        keys=tuple(sys.intern(player_key(name)) for name in game.players),
        time=time,
        when=when,
        finished=result.finished,
        totals=result.totals,
        team_totals=result.team_totals,
        winners=result.winners or (),
        tallies=_tallies(result),
    )


def stored_form(record: Record) -> tuple[str, bytes]:
    """What a database keeps of the record's figures: their :func:`figures_head` and packed
    tallies (an import stores them with its games)."""
    figures = game_figures(record)
    return figures_head(figures), figures.tallies


def layout_fingerprint(layouts: Mapping[str, Layout]) -> str:
    """A short text naming the tallies' layout: each game's contracts and their items, in order
    (a contract added, removed, reordered or given other items changes it)."""
    shape = [
        [game, [[slot.contract, list(slot.items)] for slot in layout.slots.values()]]
        for game, layout in sorted(layouts.items())
    ]
    return f"{zlib.crc32(json.dumps(shape).encode()):08x}"


FIGURES_FORMAT: Final = f"3.{layout_fingerprint(LAYOUTS)}"
"""The layout of :func:`figures_head` and of the packed tallies (its version and the layouts'
fingerprint); figures stored in another are made again from the record. (3: no names in the
head, so a rename leaves stored figures as they are.)"""


def figures_head(figures: GameFigures) -> str:
    """Everything of the figures but the tallies and the names, as compact JSON text (a
    database keeps it beside :attr:`GameFigures.tallies`; the names are the game's, joined
    when read, so renaming a player changes no stored figures)."""
    return json.dumps(
        [
            FIGURES_FORMAT,
            figures.game,
            figures.partnership,
            figures.time,
            figures.finished,
            figures.totals,
            figures.team_totals,
            figures.winners,
        ],
        ensure_ascii=False,
        separators=(",", ":"),
    )


@lru_cache(maxsize=4096)
def _key(name: str) -> str:
    """A name's :func:`player_key`, interned: a table's thousands of stored games name a few
    people, so each is worked out once."""
    return sys.intern(player_key(name))


def stored_figures(head: str, tallies: bytes, players: Sequence[str]) -> GameFigures | None:
    """The figures :func:`figures_head` and the tallies describe, of a game whose seats are
    `players` now (the record's names); None when they were written in another format or do
    not fit together (then the caller makes them from the record)."""
    try:
        values = json.loads(head)
        (form, game, partnership, time, finished, totals, team_totals, winners) = values
        if (
            form != FIGURES_FORMAT
            or len(players) != len(SEATS)
            or len(tallies) != (len(SEATS) * LAYOUTS[game].size * array(_PACKED).itemsize)
        ):
            return None
        return GameFigures(
            game=sys.intern(game),
            partnership=bool(partnership),
            names=tuple(sys.intern(name.strip()) for name in players),
            keys=tuple(_key(name) for name in players),
            time=time,
            when=_when(time),
            finished=bool(finished),
            totals=tuple(totals),
            team_totals=None if team_totals is None else (team_totals[0], team_totals[1]),
            winners=tuple(winners),
            tallies=bytes(tallies),
        )
    except (ValueError, TypeError, KeyError, IndexError):
        return None
