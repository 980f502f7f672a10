"""`/mission roll`: a mission from a pack's generator (the 4th edition Standard Missions), rolled or chosen."""

from __future__ import annotations

import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.decks import fourth_edition
from bot.engine.errors import InvalidValue
from bot.engine.fourth_edition.generator import roll_mission
from bot.engine.rng import new_seed
from bot.ui.fourth_edition import RecentIds, mission_embed, mission_view

SEED = re.compile(r"[A-Za-z0-9_-]{1,32}")
DEPLOYED_KEPT = 4096


class MissionCog(commands.GroupCog, name="mission", description="Missions from the older packs' generators"):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot
        self.deployed = RecentIds(DEPLOYED_KEPT)  # missions whose first turn was rolled (Armies deployed)
        super().__init__()

    @app_commands.command(name="roll", description="Roll a mission (or choose parts of it) with every roll it needs")
    @app_commands.describe(pack="The mission generator", opponent="Who you play against",
                           mission="Agree on a mission instead of rolling the D6",
                           level="Agree on a level instead of rolling the D3",
                           my_strategy="Your army's Strategy Rating (1-3), for a Strategy Roll",
                           their_strategy="Your opponent's Strategy Rating (1-3)",
                           seed="Replay a roll: the seed gives every result (letters, digits, - and _)")
    @app_commands.rename(my_strategy="my-strategy", their_strategy="their-strategy")
    @app_commands.choices(
        mission=[app_commands.Choice(name=m.name, value=m.id) for m in fourth_edition().missions],
        level=[app_commands.Choice(name=x.name, value=x.id) for x in fourth_edition().levels])
    async def roll(self, interaction: discord.Interaction, pack: Literal["4th-edition"], opponent: discord.Member,
                   mission: str | None = None, level: str | None = None,
                   my_strategy: app_commands.Range[int, 1, 3] = 1, their_strategy: app_commands.Range[int, 1, 3] = 1,
                   seed: str | None = None) -> None:
        if opponent.bot or opponent.id == interaction.user.id:
            raise InvalidValue("A mission is rolled for you and your opponent: pick the player you face.")
        if seed is not None and not SEED.fullmatch(seed):
            raise InvalidValue("A seed is 1 to 32 letters, digits, - or _.")
        generator = fourth_edition()
        players = (str(interaction.user.id), str(opponent.id))
        rolled = roll_mission(generator, seed or new_seed(), players, mission=mission, level=level,
                              strategy_ratings=(my_strategy, their_strategy))
        await interaction.response.send_message(
            f"{interaction.user.mention} vs {opponent.mention}: a {pack} mission.",
            embed=mission_embed(generator, rolled), view=mission_view(generator, rolled, level),
            allowed_mentions=discord.AllowedMentions(users=[interaction.user, opponent]))


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(MissionCog(bot))
