"""Army lists as players gave them, beside the games and event entries that use them. Created by migration 0009."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Index, String, Text
from sqlmodel import Field, SQLModel

from bot.store.models import UtcDateTime, utcnow


class ArmyList(SQLModel, table=True):
    """One list: the text as given (a file is kept as its parsed units), and the list checked against the army
    data (bot/armies/check.py, CheckedList as JSON). A game's Army and an event entry name it by id."""

    __tablename__ = "army_list"
    __table_args__ = (
        Index("ix_army_list_tournament", "tournament_id", "owner_id"),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int | None = Field(default=None, sa_type=BigInteger)
    owner_id: str = Field(sa_type=String(32))
    tournament_id: int | None = Field(default=None, description="The event the list was submitted to")
    text: str = Field(sa_type=Text, description="The list as pasted, or as read from the attached file")
    checked_json: str = Field(sa_type=Text, description="bot.armies.check.CheckedList")
    faction: str = Field(sa_type=String(64))
    detachment: str | None = Field(default=None, sa_type=String(64))
    points: int
    flags: int = Field(default=0, description="How many flags the check raised")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
