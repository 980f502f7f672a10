"""`/mission roll`: a mission from an older pack's tables (4th edition Standard Missions, Grand Tournament 2020),
rolled or agreed."""

from __future__ import annotations

import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.decks import fourth_edition, grand_tournament
from bot.engine.errors import InvalidValue
from bot.engine.fourth_edition.generator import roll_mission
from bot.engine.gt2020.missions import roll_gt_mission
from bot.engine.rng import new_seed
from bot.ui.table.fourth_edition import RecentIds, mission_embed, mission_view
from bot.ui.table.gt2020 import gt_mission_embed, selection_view

SEED = re.compile(r"[A-Za-z0-9_-]{1,32}")
DEPLOYED_KEPT = 4096
PACKS = {"4th-edition": "4th edition Standard Missions", "gt-2020": "Grand Tournament 2020"}


class MissionCog(commands.GroupCog, name="mission", description="Missions from the older packs' tables"):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot
        self.deployed = RecentIds(DEPLOYED_KEPT)  # missions whose first turn was rolled (Armies deployed)
        super().__init__()

    @app_commands.command(name="roll", description="Roll a mission (or agree parts of it) with every roll it needs")
    @app_commands.describe(pack="The mission pack", opponent="Who you play against",
                           mission="Agree on a mission instead of rolling for it",
                           size="Grand Tournament 2020: the battle size (default Strike Force)",
                           level="4th edition: agree on a level instead of rolling the D3",
                           my_strategy="4th edition: your army's Strategy Rating (1-3), for a Strategy Roll",
                           their_strategy="4th edition: your opponent's Strategy Rating (1-3)",
                           seed="Replay a roll: the seed gives every result (letters, digits, - and _)")
    @app_commands.rename(my_strategy="my-strategy", their_strategy="their-strategy")
    @app_commands.choices(
        pack=[app_commands.Choice(name=name, value=value) for value, name in PACKS.items()],
        level=[app_commands.Choice(name=x.name, value=x.id) for x in fourth_edition().levels])
    async def roll(self, interaction: discord.Interaction, pack: str, opponent: discord.Member,
                   mission: str | None = None, size: Literal["incursion", "strike-force"] | None = None,
                   level: str | None = None, my_strategy: app_commands.Range[int, 1, 3] | None = None,
                   their_strategy: app_commands.Range[int, 1, 3] | None = None, seed: str | None = None) -> None:
        if opponent.bot or opponent.id == interaction.user.id:
            raise InvalidValue("A mission is rolled for you and your opponent: pick the player you face.")
        if seed is not None and not SEED.fullmatch(seed):
            raise InvalidValue("A seed is 1 to 32 letters, digits, - or _.")
        seed = seed or new_seed()
        mentions = discord.AllowedMentions(users=[interaction.user, opponent])
        content = f"{interaction.user.mention} vs {opponent.mention}: a {PACKS[pack]} mission."
        if pack == "gt-2020":
            if level or my_strategy or their_strategy:
                raise InvalidValue("Levels and Strategy Ratings belong to the 4th edition missions.")
            pack_data = grand_tournament()
            rolled = roll_gt_mission(pack_data, seed, size or "strike-force", mission)
            players = (str(interaction.user.id), str(opponent.id))
            await interaction.response.send_message(
                content, embed=gt_mission_embed(pack_data, rolled),
                view=selection_view(pack_data.mission(rolled.mission), players), allowed_mentions=mentions)
            return
        if size is not None:
            raise InvalidValue("Battle sizes belong to the Grand Tournament 2020 missions.")
        generator = fourth_edition()
        players = (str(interaction.user.id), str(opponent.id))
        rolled = roll_mission(generator, seed, players, mission=mission, level=level,
                              strategy_ratings=(my_strategy or 1, their_strategy or 1))
        await interaction.response.send_message(
            content, embed=mission_embed(generator, rolled), view=mission_view(generator, rolled, level),
            allowed_mentions=mentions)

    @roll.autocomplete("mission")
    async def missions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The chosen pack's missions (and battle size's, for the Grand Tournament)."""
        typed = current.casefold()
        if interaction.namespace.pack == "gt-2020":
            size = interaction.namespace.size or "strike-force"
            found = [(m.name, m.id) for m in grand_tournament().missions if m.size == size]
        else:
            found = [(m.name, m.id) for m in fourth_edition().missions]
        return [app_commands.Choice(name=name, value=value) for name, value in found if typed in name.casefold()][:25]


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(MissionCog(bot))
