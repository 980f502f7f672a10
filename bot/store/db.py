"""The database engine and sessions, from one DATABASE_URL.

SQLite (the default) runs in WAL mode through aiosqlite with ONE pooled connection. That connection is
the single writer: a session holds it from its first statement to its commit, so transactions in this
process never interleave and never race for SQLite's write lock (a deferred transaction that reads and
then writes could otherwise fail at once with SQLITE_BUSY, whatever the busy timeout). StaticPool would
not do: it hands the same connection to concurrent sessions, whose statements would then share one
transaction. Reads queue behind the connection too; they are short. The one rule that follows: never
open a second session while holding one, or the second waits for the first (pool_timeout).

PostgreSQL (asyncpg) gets an ordinary pool; there the version column in the game table guards
concurrent writers (see repository.save_if_version).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

ALEMBIC_INI = Path(__file__).with_name("alembic.ini")
MIGRATION_LOCK = 0x4D444543  # any fixed key ("MDEC"): the advisory lock that serialises migrations
SQLITE_BUSY_TIMEOUT_MS = 5000
SQLITE_PRAGMAS = (
    # First: switching to WAL below takes a lock that another connection opening at once may hold.
    f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}",  # other processes, e.g. a backup or the alembic CLI
    "PRAGMA journal_mode=WAL",
    # Durable across a crash of the process; a power cut may lose the last commits, never corrupt.
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
)


def async_url(url: str | URL) -> URL:
    """Accept the usual spellings (sqlite:///, postgres://, postgresql://) and pick the async driver."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        return parsed.set(drivername="sqlite+aiosqlite")
    if parsed.drivername in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg"):
        return parsed.set(drivername="postgresql+asyncpg")
    if parsed.drivername in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        return parsed
    raise ValueError(f"Unsupported DATABASE_URL driver {parsed.drivername!r}: use sqlite:/// or postgresql://")


def make_engine(url: str | URL) -> AsyncEngine:
    parsed = async_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_async_engine(parsed, pool_size=1, max_overflow=0, pool_timeout=30)
        _configure_sqlite(engine)
        return engine
    return create_async_engine(parsed, pool_pre_ping=True)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # Rows handed out stay readable after commit (no lazy reload on a closed session).
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)


def alembic_config() -> Config:
    return Config(str(ALEMBIC_INI))


async def upgrade_database(url: str | URL, revision: str = "head") -> None:
    """Bring the schema up to date (`alembic upgrade head`), in one transaction. Run at start-up."""
    await _migrate(url, command.upgrade, revision)


async def downgrade_database(url: str | URL, revision: str) -> None:
    await _migrate(url, command.downgrade, revision)


async def _migrate(url: str | URL, step: Any, revision: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Several bot processes start at once over one database: one migrates, the others wait for
                # it here and then find the schema up to date. (SQLite's BEGIN IMMEDIATE does the same.)
                await connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            await connection.run_sync(_run_alembic, step, revision)
    finally:
        await engine.dispose()


def _run_alembic(connection: Any, step: Any, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection  # env.py migrates on this connection
    step(config, revision)


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transactions out of the sqlite3 module's hands (it would BEGIN lazily, after the
        # first read) and set the pragmas outside any transaction, as journal_mode requires.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            _execute_when_unlocked(cursor, pragma)
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def on_begin(connection: Any) -> None:
        # IMMEDIATE: take the write lock up front, so a transaction that reads and then writes
        # waits for another process's writer (busy_timeout) instead of failing half-way.
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _execute_when_unlocked(cursor: Any, sql: str) -> None:
    """Run `sql`, trying again while another connection holds the lock: switching a new file to WAL can
    answer "database is locked" at once, without waiting for busy_timeout, when connections open together."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute(sql)
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def is_postgres(database_url: str) -> bool:
    """Whether several processes may share the database (and its change notifications, bot/plumbing/change_relay.py)."""
    return make_url(database_url).get_backend_name() == "postgresql"
