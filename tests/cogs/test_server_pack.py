"""A server's default pack: an admin chooses the pack /game new plays when none is named; `pack:` still chooses
another for one game; everyone else may look but not change it."""

from __future__ import annotations

import discord

from bot.engine.chapter_approved.state import GameState
from bot.engine.table.state import TableState
from tests.cogs.game_table import Table
from tests.cogs.harness import Harness
from tests.discord_model import MEMBER_PERMISSIONS

MANAGE_SERVER = MEMBER_PERMISSIONS | discord.Permissions(manage_guild=True).value


async def test_an_admin_sets_the_pack_new_games_play_and_pack_still_overrides(harness: Harness, alice, bob) -> None:
    admin = harness.user("admin", permissions=MANAGE_SERVER)
    reply = await harness.slash("settings pack", user=alice)
    assert reply.ephemeral and "**Chapter Approved 2025-26**" in reply.content  # until an admin changes it
    reply = await harness.slash("settings pack", user=alice, pack="gt-2020")
    assert reply.ephemeral and "Manage Server" in reply.content
    assert await harness.bot.service.community.default_pack(harness.model.guild_id) == "ca-2025-26"  # nothing changed
    reply = await harness.slash("settings pack", user=admin, pack="grand tornament")
    assert reply.ephemeral and "is not a pack of this bot" in reply.content
    reply = await harness.slash("settings pack", user=admin, pack="Grand Tournament 2020")
    assert reply.ephemeral and "now plays **Grand Tournament 2020 Mission Pack**" in reply.content
    assert "**Grand Tournament 2020 Mission Pack**" in (await harness.slash("settings pack", user=alice)).content

    table = Table(harness, alice, bob)
    await table.challenge_only(size="incursion", seed="default-pack")
    assert isinstance(await table.state(), TableState)  # no pack: named: the server's
    other = harness.channel("other")
    table = Table(harness, alice, bob, channel=other)
    await table.challenge_only(size="incursion", seed="named-pack", pack="ca-2025-26")
    assert isinstance(await table.state(), GameState)  # pack: named: that one

