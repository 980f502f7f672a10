"""Faults said plainly: when the database cannot take a write (read-only, or locked by another process past the
wait), the player is told privately that nothing was recorded, the game is unchanged, and the same press works
once the fault clears, without a restart."""

from __future__ import annotations

import sqlite3

import pytest

from bot.ui.errors import STORE_FAULT
from tests.cogs.game_table import Table, verbs
from tests.cogs.harness import Harness
from tests.discord_model import FakeUser


async def on_the_bots_connection(harness: Harness, sql: str) -> None:
    """Run a pragma on the bot's one SQLite connection (its pool holds exactly one), outside any transaction."""
    async with harness.bot.db_engine.connect() as conn:
        raw = await conn.get_raw_connection()
        await raw.driver_connection.execute(sql)


@pytest.mark.parametrize("fault", ["read-only", "locked"])
async def test_a_write_the_database_refuses_is_said_plainly_and_recovers(table: Table, harness: Harness,
                                                                          database_url: str, fault: str) -> None:
    await table.start()
    state = await table.state()
    winner = table.user(state.sides_rolloff.winner)
    version = await table.version()
    board = await table.board()  # read before the fault: the player presses what is on the screen
    attacker = verbs(board)["attacker"]
    holder = None
    if fault == "read-only":
        await on_the_bots_connection(harness, "PRAGMA query_only = ON")  # as a read-only file answers writes
    else:
        await on_the_bots_connection(harness, "PRAGMA busy_timeout = 100")  # the wait, shortened for the test
        holder = sqlite3.connect(database_url.split("///", 1)[1])  # another process holds the write lock
        holder.execute("BEGIN EXCLUSIVE")
    reply = await harness.press(attacker, user=winner, message_id=int(board["id"]), strict=False)
    said = [s.content for s in reply if s.message is not None and s.ephemeral]
    assert said == [STORE_FAULT] and not reply.errors  # plainly, and not logged as a crash
    assert "went wrong" not in "".join(said)
    if holder is not None:
        holder.rollback()
        holder.close()
    else:
        await on_the_bots_connection(harness, "PRAGMA query_only = OFF")
    assert await table.version() == version  # nothing was recorded
    await table.press("attacker", winner)  # the fault cleared: the same press works
    assert (await table.state()).attacker == str(winner.id)


async def test_a_command_the_database_refuses_is_said_plainly(table: Table, harness: Harness) -> None:
    await table.start()
    await on_the_bots_connection(harness, "PRAGMA query_only = ON")
    reply = await harness.slash("settings timezone", user=table.first, zone="Europe/Paris", strict=False)
    assert reply.ephemeral and reply.content == STORE_FAULT
    await on_the_bots_connection(harness, "PRAGMA query_only = OFF")
    await harness.slash("settings timezone", user=table.first, zone="Europe/Paris")
    assert await harness.bot.service.community.time_zone(str(table.first.id)) == "Europe/Paris"


async def test_a_secret_selection_the_database_refuses_is_said_plainly(harness: Harness, alice: FakeUser,
                                                                       bob: FakeUser) -> None:
    reply = await harness.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, mission="crossfire",
                                size="incursion")
    [select] = (await harness.press(reply.custom_ids[0], user=alice)).custom_ids
    chosen = ["linebreaker", "assassinate", "psychic-ritual"]
    await on_the_bots_connection(harness, "PRAGMA query_only = ON")
    refused = await harness.select(select, chosen, user=alice, strict=False)
    assert [s.content for s in refused if s.ephemeral] == [STORE_FAULT] and not refused.errors
    await on_the_bots_connection(harness, "PRAGMA query_only = OFF")
    assert not await harness.bot.picks.has_picked(int(reply.main.message["id"]), str(alice.id))
    assert "Hidden until" in (await harness.select(select, chosen, user=alice)).content
