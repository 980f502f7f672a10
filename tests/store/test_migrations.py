from __future__ import annotations

import asyncio
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from bot.store import metadata
from bot.store.db import alembic_config, downgrade_database, make_engine, upgrade_database


async def inspect_database(url: str) -> tuple[set[str], list[Any], str | None]:
    """Tables, differences from the models, and the stamped revision."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            def look(sync_conn):
                context = MigrationContext.configure(sync_conn)
                return (set(inspect(sync_conn).get_table_names()),
                        compare_metadata(context, metadata()), context.get_current_revision())
            return await conn.run_sync(look)
    finally:
        await engine.dispose()


def test_one_linear_history():
    # A later migration (tournaments) must build on the last one, not fork the history.
    assert len(ScriptDirectory.from_config(alembic_config()).get_heads()) == 1


async def test_upgrade_builds_exactly_the_model_tables(empty_database_url):
    await upgrade_database(empty_database_url)
    tables, diff, revision = await inspect_database(empty_database_url)
    assert tables == set(metadata().tables) | {"alembic_version"}
    assert diff == []  # columns, types, indexes and keys as the models declare them
    assert revision == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_upgrade_again_is_harmless_and_downgrade_empties(empty_database_url):
    await upgrade_database(empty_database_url)
    await upgrade_database(empty_database_url)  # every start-up runs it
    await downgrade_database(empty_database_url, "base")
    tables, _, revision = await inspect_database(empty_database_url)
    assert (tables, revision) == ({"alembic_version"}, None)
    await upgrade_database(empty_database_url)
    tables, diff, _ = await inspect_database(empty_database_url)
    assert tables == set(metadata().tables) | {"alembic_version"} and diff == []


async def test_processes_starting_together_migrate_once(empty_database_url):
    # Several bot processes over one database each upgrade it at start-up, at the same moment.
    # Without a lock around the migration, PostgreSQL deadlocks here (or one fails on a duplicate table).
    await asyncio.wait_for(asyncio.gather(*(upgrade_database(empty_database_url) for _ in range(3))), 60)
    tables, diff, revision = await inspect_database(empty_database_url)
    assert tables == set(metadata().tables) | {"alembic_version"} and diff == []
    assert revision == ScriptDirectory.from_config(alembic_config()).get_current_head()


async def test_judge_settings_stored_before_the_reraise_setting_keep_the_default(empty_database_url):
    """Migration 0012: an event's judge settings saved by 0011 load with the re-raise minutes unset (5)."""
    from sqlalchemy import text

    from bot.services.judges import DEFAULT_RERAISE_MINUTES, JudgeService
    from bot.store.db import make_sessionmaker

    await upgrade_database(empty_database_url, "0011")
    engine = make_engine(empty_database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("INSERT INTO judge_settings (tournament_id, channel_id, role_id) "
                                    "VALUES (7, 111, 222)"))
        await upgrade_database(empty_database_url)
        service = JudgeService(make_sessionmaker(engine))
        settings = await service.settings(7)
        assert (settings.channel_id, settings.role_id, settings.reraise_minutes) == (111, 222, None)
        assert await service.reraise_minutes(7) == DEFAULT_RERAISE_MINUTES
    finally:
        await engine.dispose()
