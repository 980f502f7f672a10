"""The tournament table. Created only by the Alembic migration 0002, never by create_all."""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy import BigInteger, String, Text
from sqlmodel import Field

from bot.store.models import VersionedRow, one_active_per


class TournamentStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"


class TournamentRow(VersionedRow, table=True):
    __tablename__ = "tournament"
    __table_args__ = one_active_per("tournament", "guild_id", tuple(TournamentStatus))  # one event per server

    guild_id: int = Field(sa_type=BigInteger)
    name: str = Field(sa_type=String(100))
    status: str = Field(default=TournamentStatus.ACTIVE, sa_type=String(16))
    rounds_planned: int
    announce_channel_id: int | None = Field(default=None, sa_type=BigInteger)
    organiser_role_id: int | None = Field(default=None, sa_type=BigInteger)
    seed: str = Field(sa_type=String(64), description="Secret: every round's pairing rng derives from it")
    state_json: str = Field(sa_type=Text, description="The event, player names and reports awaiting confirmation")
