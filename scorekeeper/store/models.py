"""The store: one row per game, holding the game record (the engine derives everything else);
the entries stored into it, each once by its key; tables (groups that play together), their
rosters of players, and which player sat in which seat."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from ..rules.text import GAME_NAME_LENGTH, PLAYER_NAME_LENGTH
from .db import Base


def utcnow() -> datetime:
    """Timezone-aware now, for created/updated stamps."""
    return datetime.now(UTC)


class GameRow(Base):
    """A game: setup, entered deals (as record JSON) and a version for optimistic locking.

    `deal_count`, `finished` and `card` are caches of what the engine derives, kept for listing
    games without replaying them; they are rewritten on every save.
    """

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_updated_at", "updated_at"),
        Index("ix_games_table_id", "table_id", "created_at"),
        # a table's games not begun yet (few), found without reading its thousands of others
        Index("ix_games_table_first", "table_id", "first"),
        Index("uq_games_continues_id", "continues_id", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(43), unique=True)
    view_token: Mapped[str] = mapped_column(String(43), unique=True)
    game: Mapped[str] = mapped_column(String(20))
    mode: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[str]] = mapped_column(JSON)
    first_chooser: Mapped[int | None] = mapped_column("first", Integer, nullable=True)
    """The seat that chooses the first contract (the record's `first`); None until the table
    has picked it, which starts the game."""
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    deals: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    deal_count: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    card: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """What the game's card on its table's page shows (`games.card_values`: the engine's totals,
    the teams' totals, the winning seats); None for a game not begun, or stored before cards
    were kept (the first page showing it makes it)."""
    name: Mapped[str | None] = mapped_column(String(GAME_NAME_LENGTH), nullable=True)
    notes: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("tables.id", ondelete="SET NULL"), nullable=True
    )
    """The table (group of players) the game belongs to, if any."""
    utc_offset: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Minutes east of UTC where the game was played (the phone that began it, or an imported
    record's `created_at`): its times are shown there. None where unknown: the server's zone."""
    continues_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The game this one continues (a rematch: same players, game and rules), if any; unique,
    so a finished game is continued once however many taps ask at once."""


ENTRY_KEY_LENGTH = 36
"""An entry key's length: a UUID (version 4) as text, as `crypto.randomUUID()` writes it."""


class EntryRow(Base):
    """One entry stored into a game (a new deal, a correction), by the key its form was made
    with: unique within the game, so an entry is stored at most once however often it is sent.

    Written in the transaction of the game's version-guarded UPDATE (`games.write`): the deal's
    number, the game's version right after the write (what "the entry after this one" is based
    on) and the deal as stored (whether it still stands in the game: `deals.kept`)."""

    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "key", name="uq_entries_game_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(ENTRY_KEY_LENGTH))
    kind: Mapped[str] = mapped_column(String(10))
    """`deals.EntryKind`: "deal" (a new deal) or "edit" (a correction)."""
    number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)
    deal: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FiguresRow(Base):
    """A game's share of its table's statistics (`scorekeeper.stats.GameFigures`) as of one
    version of the game: a cache, made again from the game's record when missing, stale (an
    older version) or written in another format; shared by every worker and host."""

    __tablename__ = "game_figures"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer)
    """The game's version the figures were made from."""
    head: Mapped[str] = mapped_column(Text)
    """`stats.figures_head`: everything but the tallies and the names (the game's, joined when
    read: a rename changes no figures), as JSON text."""
    tallies: Mapped[bytes] = mapped_column(LargeBinary)
    """The seats' tallies, packed (`GameFigures.tallies`)."""


class TableRow(Base):
    """A group that plays together: its links (scorekeeper and view, like a game's) and a name.

    `version` guards writes to the table itself and to its roster (a rename, a merge)."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(43), unique=True)
    view_token: Mapped[str] = mapped_column(String(43), unique=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH))
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ratings: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Whether the table's statistics rate its players (opt-in: off until a phone says)."""


PLAYER_KEY_LENGTH = 4 * PLAYER_NAME_LENGTH
"""Room for a name's comparison key (casefolding may lengthen it: "ß" → "ss")."""


class PlayerRow(Base):
    """One person on a table's roster: the name shown, and the key that says two names are one
    person (NFC, surrounding spaces stripped, casefolded), unique within the table."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("table_id", "key", name="uq_players_table_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_LENGTH))
    key: Mapped[str] = mapped_column(String(PLAYER_KEY_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SeatRow(Base):
    """Who sat in a seat of a table's game: the game's record keeps the name, this the person."""

    __tablename__ = "seats"
    __table_args__ = (
        Index("ix_seats_player_id", "player_id"),
        # one person sits once in a game, however a merge and a new game race
        Index("uq_seats_game_player", "game_id", "player_id", unique=True),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))


class NightStartRow(Base):
    """A night started on purpose at a table: its next game begins a new night, however soon
    after the last. One per table and latest game (`after_game_id`): two phones that start the
    night at once start it once."""

    __tablename__ = "night_starts"
    __table_args__ = (
        UniqueConstraint("table_id", "after_game_id", name="uq_night_starts_table_after"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    after_game_id: Mapped[int] = mapped_column(Integer)
    """The table's latest game when the night was started (no foreign key: a deleted game
    leaves the moment where it was)."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
