"""Links to a game's or an event's live pages (bot/web): who shared what, and whether it still works. Only a hash
of each link's secret is kept, so a copy of the database opens no page. Created by migration 0010."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, Index, String
from sqlmodel import Field, SQLModel

from bot.store.models import UtcDateTime, utcnow


class ShareKind(StrEnum):
    GAME = "game"
    EVENT = "event"


class ShareLink(SQLModel, table=True):
    __tablename__ = "share_link"
    __table_args__ = (
        Index("ix_share_link_target", "kind", "target_id"),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_type=String(64), unique=True, description="SHA-256 of the link's secret, in hex")
    kind: str = Field(sa_type=String(8))
    target_id: int = Field(description="The game's or the tournament's id")
    guild_id: int | None = Field(default=None, sa_type=BigInteger)
    created_by: str = Field(sa_type=String(32))
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    revoked_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
