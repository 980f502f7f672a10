"""Tables. They are created only by the Alembic migrations in migrations/versions, never by create_all."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, CheckConstraint, DateTime, Index, String, Text, text
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel


class GameStatus(StrEnum):
    ACTIVE = "active"
    ENDED = "ended"
    ABANDONED = "abandoned"


class UtcDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes on every backend (SQLite itself keeps no time zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


ACTIVE_WHERE = text("status = 'active'")


def one_active_per(table: str, column: str, statuses: tuple[str, ...]) -> tuple[Any, ...]:
    """The table arguments of a versioned record of which one at most is active per `column` (a channel's game, a
    server's event), enforced by the database itself, with its statuses checked. Ids are never reused, on SQLite
    either: a button carrying an old id must not reach a new record."""
    return (
        CheckConstraint(f"status IN ({', '.join(repr(str(s)) for s in statuses)})", name=f"ck_{table}_status"),
        Index(f"uq_{table}_active_{column.removesuffix('_id')}", column, unique=True,
              sqlite_where=ACTIVE_WHERE, postgresql_where=ACTIVE_WHERE),
        {"sqlite_autoincrement": True},
    )


class VersionedRow(SQLModel):
    """The columns every versioned record has (a game, a tournament) besides its own: bot/store/versioned.py saves
    them."""

    id: int | None = Field(default=None, primary_key=True)
    version: int = Field(default=0, description="Bumped by every saved change")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)


class Game(VersionedRow, table=True):
    """A game: its setup, its snapshot and status; its version goes up with every action and undo."""

    __tablename__ = "game"
    __table_args__ = one_active_per("game", "channel_id", tuple(GameStatus))  # a channel or thread

    guild_id: int | None = Field(default=None, sa_type=BigInteger)
    channel_id: int = Field(sa_type=BigInteger)
    status: str = Field(default=GameStatus.ACTIVE, sa_type=String(16))
    pack: str = Field(default="ca-2025-26", sa_type=String(32), sa_column_kwargs={"server_default": "ca-2025-26"},
                      description="The mission pack whose rules play the game (bot/engine/packs.py)")
    pack_schema: int = Field(default=1, sa_column_kwargs={"server_default": "1"},
                             description="The schema version of the stored snapshot, of the pack's state model")
    setup_json: str = Field(sa_type=Text)
    state_json: str = Field(sa_type=Text, description="Snapshot: a cache of replaying the actions")
    seed_hash: str = Field(sa_type=String(64))


class GameAction(SQLModel, table=True):
    """The action log: replaying it from the setup gives the snapshot."""

    __tablename__ = "game_action"

    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", primary_key=True)
    seq: int = Field(primary_key=True, description="The game version this action produced; a gap marks an undo")
    actor: str = Field(sa_type=String(32))
    action_json: str = Field(sa_type=Text)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UtcDateTime)


class BoardMessage(SQLModel, table=True):
    """A Discord message showing a game's board, so it can be edited or retired later."""

    __tablename__ = "board_message"

    message_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", index=True)
    channel_id: int = Field(sa_type=BigInteger)


class QuietPlayer(SQLModel, table=True):
    """A player who turned off the bot's pings for one game (`/game pings off`); no row: pings on."""

    __tablename__ = "quiet_player"

    game_id: int = Field(foreign_key="game.id", ondelete="CASCADE", primary_key=True)
    player_id: str = Field(sa_type=String(32), primary_key=True)


class SecretPick(SQLModel, table=True):
    """A player's secret selection on a posted mission (the message), hidden until both have made theirs."""

    __tablename__ = "secret_pick"

    message_id: int = Field(sa_type=BigInteger, primary_key=True, sa_column_kwargs={"autoincrement": False})
    player_id: str = Field(sa_type=String(32), primary_key=True)
    picks: str = Field(sa_type=Text, description="JSON list of the ids picked")
    revealed: bool = Field(default=False, description="Set once, by the save that completed the pair")
