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


async def test_summaries_and_ladders_stored_before_doubles_read_as_singles(empty_database_url):
    """Migration 0014: a game summary saved by 0013 loads with no partners, a singles game in its players' history;
    the server's ladder keeps its table and rates no doubles. Back to 0013, a doubles ladder goes and the rest
    stays."""
    from datetime import UTC, datetime

    from sqlalchemy import bindparam, text

    from bot.store.community_models import Ladder
    from bot.store.db import make_sessionmaker
    from bot.store.history import HistoryRepository
    from bot.store.ladders import LadderRepository
    from bot.store.models import UtcDateTime

    alice, bob, guild = "111111111111111111", "222222222222222222", 77
    at = bindparam("at", datetime(2026, 12, 1, tzinfo=UTC), type_=UtcDateTime())
    await upgrade_database(empty_database_url, "0013")
    engine = make_engine(empty_database_url)
    try:
        async with engine.begin() as conn:
            for sql in (
                "INSERT INTO game (id, version, guild_id, channel_id, status, pack, pack_schema, setup_json, "
                "state_json, seed_hash, created_at, updated_at) VALUES (1, 9, 77, 5, 'ended', 'ca-2025-26', 2, '{}', "
                "'{}', 'hash', :at, :at)",
                "INSERT INTO game_summary (game_id, guild_id, channel_id, pack, mission, player_a, player_b, name_a, "
                f"name_b, vp_a, vp_b, winner, reason, ended_at) VALUES (1, 77, 5, 'ca-2025-26', 'Take and Hold', "
                f"'{alice}', '{bob}', 'Alice', 'Bob', 70, 50, '{alice}', 'battle', :at)",
                "INSERT INTO ladder (guild_id, name, packs, include_tournaments, season, started_by, started_at) "
                f"VALUES (77, 'Winter League', '', TRUE, 1, '{alice}', :at)",
                "INSERT INTO ladder_rating (ladder_id, player_id, name, mu, sigma, rating, games, wins, losses, "
                f"draws, recent) SELECT id, '{alice}', 'Alice', 27.0, 8.0, 3.0, 1, 1, 0, 0, '[[1, 3.0]]' FROM ladder",
            ):
                await conn.execute(text(sql).bindparams(at) if ":at" in sql else text(sql))
        await upgrade_database(empty_database_url)
        sessionmaker = make_sessionmaker(engine)
        history, ladders = HistoryRepository(sessionmaker), LadderRepository(sessionmaker)
        summary = await history.summary(1)
        assert (summary.partner_a, summary.partner_b, summary.partner_name_a, summary.doubles) == (
            None, None, None, False)
        assert summary.side(bob) == (False, bob, "Bob", None, "Alice")
        assert [r.game_id for r in (await history.history(guild, bob)).rows] == [1]
        ladder = await ladders.open_ladder(guild)
        assert not ladder.doubles and await ladders.open_ladder(guild, doubles=True) is None
        assert [s.player for s in (await ladders.page(ladder.id, 0, 10))[0]] == [alice]  # its table kept
        await ladders.start([Ladder(guild_id=guild, name="Winter League (doubles)", doubles=True, started_by=alice,
                                    started_at=datetime(2026, 12, 2, tzinfo=UTC))])
        await downgrade_database(empty_database_url, "0013")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT name FROM ladder"))).scalars().all() == ["Winter League"]
            assert (await conn.execute(text("SELECT count(*) FROM ladder_rating"))).scalar() == 1
            assert (await conn.execute(text("SELECT count(*) FROM game_summary"))).scalar() == 1
    finally:
        await engine.dispose()


async def test_open_challenges_stored_before_doubles_stay_challenges_for_one(empty_database_url):
    """Migration 0015: an open challenge saved by 0014 loads with no seats (a challenge for one opponent), and its
    seat is still taken once; back to 0014, the column goes and the row stays."""
    from datetime import timedelta

    from sqlalchemy import text

    from bot.store.community import CommunityRepository
    from bot.store.db import make_sessionmaker
    from bot.store.models import utcnow

    await upgrade_database(empty_database_url, "0014")
    engine = make_engine(empty_database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO open_challenge (channel_id, author_id, author_name, options_json, status, expires_at, "
                "created_at) VALUES (5, '1', 'Alice', '{}', 'open', :expires, :now)"),
                {"expires": utcnow() + timedelta(hours=1), "now": utcnow()})
        await upgrade_database(empty_database_url)
        repo = CommunityRepository(make_sessionmaker(engine))
        [row] = await repo.open_challenges()
        assert row.seats_json is None and row.author_name == "Alice"
        assert await repo.take_seat(row.id, "2", utcnow()) and not await repo.take_seat(row.id, "3", utcnow())
        await downgrade_database(empty_database_url, "0014")
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM open_challenge"))).scalar() == 1
    finally:
        await engine.dispose()
