"""The tournament table. Created only by the Alembic migration 0002, never by create_all."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, CheckConstraint, Index, String, Text
from sqlmodel import Field, SQLModel

from bot.store.models import ACTIVE_WHERE, UtcDateTime, utcnow


class TournamentStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class TournamentRow(SQLModel, table=True):
    __tablename__ = "tournament"
    __table_args__ = (
        CheckConstraint("status IN ('active', 'finished')", name="ck_tournament_status"),
        # One event running per server, enforced by the database itself.
        Index(
            "uq_tournament_active_guild", "guild_id", unique=True,
            sqlite_where=ACTIVE_WHERE, postgresql_where=ACTIVE_WHERE,
        ),
        # Ids are never reused: a confirm button carrying an old tournament id must not reach a new one.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=BigInteger)
    name: str = Field(sa_type=String(100))
    status: str = Field(default=TournamentStatus.ACTIVE, sa_type=String(16))
    version: int = Field(default=0, description="Bumped by every saved change")
    rounds_planned: int
    announce_channel_id: int | None = Field(default=None, sa_type=BigInteger)
    organiser_role_id: int | None = Field(default=None, sa_type=BigInteger)
    seed: str = Field(sa_type=String(64), description="Secret: every round's pairing rng derives from it")
    state_json: str = Field(sa_type=Text, description="The event, player names and reports awaiting confirmation")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
