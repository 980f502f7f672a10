"""Alembic environment.

The bot passes its own connection in `config.attributes["connection"]` (bot.store.db.upgrade_database);
the alembic CLI gets an async engine built from DATABASE_URL with the same settings as the bot's.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from bot.store import metadata
from bot.store.db import async_url, make_engine

target_metadata = metadata()


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


async def run_with_new_engine(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(run_migrations)
    finally:
        await engine.dispose()


def database_url() -> str:
    url = os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("Set DATABASE_URL to the database to migrate, e.g. sqlite:///bot.db")
    return url


if context.is_offline_mode():
    context.configure(url=async_url(database_url()), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif (shared := context.config.attributes.get("connection")) is not None:
    run_migrations(shared)
else:
    asyncio.run(run_with_new_engine(database_url()))
