"""The store: one row per game, holding the game record (the engine derives everything else)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..rules.text import GAME_NAME_LENGTH
from .db import Base


def utcnow() -> datetime:
    """Timezone-aware now, for created/updated stamps."""
    return datetime.now(UTC)


class GameRow(Base):
    """A game: setup, entered deals (as record JSON) and a version for optimistic locking.

    `deal_count` and `finished` are caches of what the engine derives, kept for listing games
    without replaying them; they are rewritten on every save.
    """

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_updated_at", "updated_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(43), unique=True)
    view_token: Mapped[str] = mapped_column(String(43), unique=True)
    game: Mapped[str] = mapped_column(String(20))
    mode: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[str]] = mapped_column(JSON)
    first: Mapped[int | None] = mapped_column(Integer, nullable=True)
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    deals: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    deal_count: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    name: Mapped[str | None] = mapped_column(String(GAME_NAME_LENGTH), nullable=True)
    notes: Mapped[str | None] = mapped_column(Text, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
