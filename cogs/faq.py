"""`/faq query:` finds the FAQ rulings of the pack that answer a question."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.engine.faq_search import search_faq
from bot.ui.card_embeds import faq_embed
from bot.ui.errors import send_error

RESULTS = 3


class Faq(commands.Cog):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot

    @app_commands.command(name="faq", description="Search the Mission Deck FAQ rulings.")
    @app_commands.describe(query="A card name or a few words, e.g. 'Sabotage deployment zone'")
    async def faq(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 200]) -> None:
        matches = search_faq(self.bot.catalog, query, limit=RESULTS)
        if not matches:
            shown = discord.utils.escape_markdown(query.strip()[:80])
            await send_error(
                interaction,
                f"No FAQ ruling matches '{shown}'. Try a card name or a few key words, "
                "e.g. `/faq query: Sabotage deployment zone`.",
            )
            return
        await interaction.response.send_message(embed=faq_embed(query, matches, self.bot.catalog))


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(Faq(bot))
