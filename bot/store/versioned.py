"""How games and events are stored alike: a row (VersionedRow, bot/store/models.py) holding a JSON snapshot and a
version that every saved change bumps, through one version-checked UPDATE. A writer names the version it computed from; when someone else saved
first (another press, another process), the UPDATE matches no row and nothing is written (StaleVersion)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy import Table, bindparam, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, async_sessionmaker
from sqlalchemy.sql import Update
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.models import utcnow


class StaleVersion(Exception):
    """The record changed since it was read: nothing was written."""


class Versioned(Protocol):
    """A record as the repositories hand it out (GameRecord, TournamentRecord)."""

    id: int
    version: int
    updated_at: datetime


R = TypeVar("R", bound=Versioned)
T = TypeVar("T")
Row = TypeVar("Row", bound=SQLModel)


def bump_statement(table: Table, *columns: str) -> Update:
    """The version-checked UPDATE of `table`, setting `columns` too: built once, so SQLAlchemy compiles it once.
    Its parameters are the columns' names prefixed with new_ (a column's own name is SQLAlchemy's)."""
    return (update(table)
            .where(table.c.id == bindparam("record_id"), table.c.version == bindparam("from_version"))
            .values(version=bindparam("to_version"), updated_at=bindparam("at"),
                    **{column: bindparam(f"new_{column}") for column in columns}))


def bumped(record: R, **changes: Any) -> R:
    """The record as it is once saved: the next version, now."""
    return replace(record, version=record.version + 1, updated_at=utcnow(), **changes)  # type: ignore[type-var]


async def save_bump(conn: AsyncConnection, statement: Update, record: Versioned, saved: Versioned,
                    what: str, **values: Any) -> None:
    """Run `statement` from `record` to `saved` with the new `values`; StaleVersion when another write came first."""
    result = await conn.execute(statement, {
        "record_id": record.id, "from_version": record.version, "to_version": saved.version, "at": saved.updated_at,
        **{f"new_{column}": value for column, value in values.items()},
    })
    if result.rowcount != 1:
        raise StaleVersion(f"{what} {record.id} is no longer at version {record.version}")


async def insert_unique(sessionmaker: async_sessionmaker[AsyncSession], row: Row, taken: Exception) -> Row:
    """Insert a new record's row; `taken` when a unique index refuses it (one active game per channel, one
    running event per server), and nothing is written."""
    try:
        async with sessionmaker() as session, session.begin():
            session.add(row)
    except IntegrityError:
        raise taken from None
    return row


def found(record: T | None, missing: Exception) -> T:
    """The record a lookup found, or `missing` raised (NoGame, NoTournament: a message for the player)."""
    if record is None:
        raise missing
    return record
