"""The organiser's desk (bot/web/desk.py): who is signed in to it, and what was done from it. A session's secret lives
only in its user's cookie: the table keeps its hash, so a copy of the database signs nobody in. Stored, so a desk
survives a restart and any process sharing the database answers it. Created by migration 0013."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, String
from sqlmodel import Field, SQLModel

from bot.store.models import UtcDateTime


class DeskSession(SQLModel, table=True):
    """A user signed in with Discord: who they are, as Discord said at sign-in. What they may do is asked of
    Discord again at every action (their roles change)."""

    __tablename__ = "desk_session"

    token_hash: str = Field(primary_key=True, sa_type=String(64), description="SHA-256 of the cookie's secret, in hex")
    user_id: str = Field(sa_type=String(32))
    name: str = Field(sa_type=String(100))
    csrf: str = Field(sa_type=String(64), description="What the desk's page sends back with each action")
    created_at: datetime = Field(sa_type=UtcDateTime)
    expires_at: datetime = Field(sa_type=UtcDateTime)


class DeskEntry(SQLModel, table=True):
    """One action taken at an event's desk, with who took it."""

    __tablename__ = "desk_log"
    __table_args__ = (Index("ix_desk_log_tournament", "tournament_id", "id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int
    at: datetime = Field(sa_type=UtcDateTime)
    user_id: str = Field(sa_type=String(32))
    user_name: str = Field(sa_type=String(100))
    action: str = Field(sa_type=String(40))
    detail: str = Field(sa_type=String(500), description="What it changed, in words")
