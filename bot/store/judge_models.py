"""Judges at an event: each call from a table (raised, raised again, claimed, resolved with its ruling, the minutes
it gave the table), the judges on duty, and where the event's calls are posted. Created by migration 0011.

A call belongs to an event's table in one round (`tournament_id`, `round_number`, `table_number`); at most one call
per table is open (not resolved) at a time, which the database itself enforces."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Index, String, Text, text
from sqlmodel import Field, SQLModel

from bot.store.models import UtcDateTime

OPEN_CALL = text("resolved_at IS NULL")


class JudgeCall(SQLModel, table=True):
    __tablename__ = "judge_call"
    __table_args__ = (
        Index("uq_judge_call_open_table", "tournament_id", "round_number", "table_number", unique=True,
              sqlite_where=OPEN_CALL, postgresql_where=OPEN_CALL),
        Index("ix_judge_call_tournament", "tournament_id", "raised_at"),
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(description="The event whose table called")
    guild_id: int = Field(sa_type=BigInteger)
    round_number: int
    table_number: int
    game_id: int | None = Field(default=None, description="The table's game, when it has one")
    thread_id: int = Field(sa_type=BigInteger, description="The table's thread (or channel)")
    players: str = Field(sa_type=String(200), description="The table's players' ids, space-separated")
    caller: str = Field(sa_type=String(32))
    note: str | None = Field(default=None, sa_type=String(200), description="The caller's note, for the judges")
    raised_at: datetime = Field(sa_type=UtcDateTime)
    reraised_at: datetime | None = Field(default=None, sa_type=UtcDateTime,
                                         description="When nobody had claimed it in time and it was raised again")
    channel_id: int | None = Field(default=None, sa_type=BigInteger, description="Where the call's message is")
    message_id: int | None = Field(default=None, sa_type=BigInteger)
    claimed_by: str | None = Field(default=None, sa_type=String(32))
    claimed_name: str | None = Field(default=None, sa_type=String(100))
    claimed_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    resolved_by: str | None = Field(default=None, sa_type=String(32))
    resolved_name: str | None = Field(default=None, sa_type=String(100))
    resolved_at: datetime | None = Field(default=None, sa_type=UtcDateTime)
    ruling: str | None = Field(default=None, sa_type=Text, description="The judge's ruling, kept with the event")
    extra_minutes: int = Field(default=0, description="Minutes an organiser gave the table from this call")

    @property
    def player_ids(self) -> tuple[str, ...]:
        return tuple(self.players.split())


class JudgeDuty(SQLModel, table=True):
    """A judge on duty at an event (no row: off duty)."""

    __tablename__ = "judge_duty"

    tournament_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    judge_id: str = Field(sa_type=String(32), primary_key=True)
    name: str = Field(sa_type=String(100), description="Their name as the venue screen shows it")
    since: datetime = Field(sa_type=UtcDateTime)


class JudgeSettings(SQLModel, table=True):
    """What an organiser set for an event's judges, and the one message listing its calls."""

    __tablename__ = "judge_settings"

    tournament_id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    channel_id: int | None = Field(default=None, sa_type=BigInteger,
                                   description="The judges' channel (None: the event's announcement channel)")
    role_id: int | None = Field(default=None, sa_type=BigInteger, description="Members with it judge too")
    board_channel_id: int | None = Field(default=None, sa_type=BigInteger)
    board_message_id: int | None = Field(default=None, sa_type=BigInteger,
                                         description="The calls message, edited in place")
    reraise_minutes: int | None = Field(default=None, description="A call nobody claims is raised again after "
                                                                  "these minutes (None: the default, 5); migration 0012")


class TableTime(SQLModel, table=True):
    """Minutes an organiser gave a table from the desk, without a judge call (migration 0013)."""

    __tablename__ = "table_time"
    __table_args__ = (Index("ix_table_time_tournament", "tournament_id"), {"sqlite_autoincrement": True})

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int
    round_number: int
    table_number: int
    minutes: int
    given_by: str = Field(sa_type=String(32))
    given_at: datetime = Field(sa_type=UtcDateTime)
