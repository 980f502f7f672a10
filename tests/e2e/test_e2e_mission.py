"""The older packs over the network: 4th edition and Grand Tournament 2020 missions rolled, and a Grand Tournament
2020 game played, by the real bot started by its entry point, against the fake Discord."""

from __future__ import annotations

import logging

from bot.client import MissionBot
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.table.state import Step
from bot.plumbing.settings import Settings
from tests.cogs.game_table import Table, public_text
from tests.cogs.test_table_game import GT_PICKS, play_out, select_secondaries, state_of, to_battle
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


async def test_a_grand_tournament_game_is_played_over_the_fake_discord(
    fake_discord: FakeDiscord, catalog: Catalog, bot_settings: Settings, bots: list[MissionBot],
    logged_errors: list[logging.LogRecord],
) -> None:
    model = fake_discord.model
    alice, bob = model.add_user("alice"), model.add_user("bob")
    async with running(fake_discord, bot_settings, catalog, bots) as gateway:
        table = Table(gateway, alice, bob)  # type: ignore[arg-type]
        await table.start(pack="gt-2020", size="incursion", seed=None)
        assert "Grand Tournament 2020" in table.challenge.content
        await select_secondaries(table, alice, GT_PICKS)
        assert "Assassinate" not in public_text(await table.board())
        await select_secondaries(table, bob, ["engage-on-all-fronts", "grind-them-down", "teleport-homer"])
        await to_battle(table)
        scorer = table.user((await state_of(table)).active)
        await table.slash("score objective", scorer, objective="engage-on-all-fronts", vp=3)
        await play_out(table)
        await table.slash("score objective", bob, objective="primary:0", vp=3)  # refused: progressive only
        await table.press("done", alice)
        await table.press("done", bob)
        state = await state_of(table)
        other = table.other(scorer)
        assert state.status == Step.ENDED and state.result.vp == {str(scorer.id): 3, str(other.id): 0}
        card = next(m for m in gateway.messages() if any("Result" in (e.get("title") or "") for e in m["embeds"]))
        assert card["attachments"] and state.setup.seed in public_text(card)
    assert [r.getMessage() for r in logged_errors] == []
    assert fake_discord.unhandled == []
