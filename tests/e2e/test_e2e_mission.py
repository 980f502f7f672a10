"""4th edition and Grand Tournament 2020 missions rolled over the network: the real bot, started by its entry point, against the fake Discord."""

from __future__ import annotations

import logging

from bot.client import MissionBot
from bot.engine.catalog import Catalog
from bot.settings import Settings
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_e2e_game import running


async def test_a_4th_edition_mission_is_rolled_over_the_fake_discord(
    fake_discord: FakeDiscord, catalog: Catalog, bot_settings: Settings, bots: list[MissionBot],
    logged_errors: list[logging.LogRecord],
) -> None:
    model = fake_discord.model
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        assert "mission" in set(model.command_names())
        reply = await gateway.slash("mission roll", user=alice, pack="4th-edition", opponent=bob, seed="e2e",
                                    level="gamma")
        embed = reply.embed
        assert embed["title"].startswith("4th edition: ") and embed["title"].endswith(" · Gamma")
        assert "Seed e2e" in embed["footer"]["text"]
        deployed = await gateway.press(reply.custom_ids[0], user=bob, message_id=int(reply.main.message["id"]))
        assert any("Dusk & Dawn: D6 =" in (s.content or "") for s in deployed)
        grand = await gateway.slash("mission roll", user=alice, pack="gt-2020", opponent=bob, size="strike-force")
        assert grand.embed["title"].startswith("Grand Tournament 2020: ") and "D33: " in grand.embed["description"]
    assert [r.getMessage() for r in logged_errors] == []
    assert fake_discord.unhandled == []
