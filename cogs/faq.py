"""`/faq query:` finds the FAQ rulings of the pack that answer a question.

Only Chapter Approved's documents hold FAQ rulings; for another pack (`pack:`, or the channel's game's) the answer
says so and points to `/card`, which shows that pack's own texts."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import MissionBot
from bot.decks import DEFAULT_PACK
from bot.engine.chapter_approved.faq_search import search_faq
from bot.engine.packs import ChapterApprovedRules
from bot.ui.chapter_approved.cards import faq_embed
from bot.ui.errors import send_error
from cogs.cards import PackOption

RESULTS = 3


class Faq(commands.Cog):
    def __init__(self, bot: MissionBot) -> None:
        self.bot = bot
        self.pack_option = PackOption(bot)

    @app_commands.command(name="faq", description="Search the Mission Deck FAQ rulings.")
    @app_commands.describe(query="A card name or a few words, e.g. 'Sabotage deployment zone'",
                           pack="The mission pack (default: this channel's game's, else Chapter Approved)")
    async def faq(self, interaction: discord.Interaction, query: app_commands.Range[str, 1, 200],
                  pack: str | None = None) -> None:
        chosen = await self.pack_option.chosen(interaction, pack)
        rules = self.bot.service.packs.rules(chosen)
        if not isinstance(rules, ChapterApprovedRules):  # the rule documents give FAQ rulings for these only
            title, default = self.pack_option.titles[chosen], self.pack_option.titles[DEFAULT_PACK]
            await send_error(
                interaction,
                f"The {title} has no FAQ rulings in its documents. Its own texts are all on its cards: "
                f"`/card` with `pack:` {title}. For the {default} rulings, use `/faq` with `pack:` {default}.",
            )
            return
        matches = search_faq(rules.catalog, query, limit=RESULTS)
        if not matches:
            shown = discord.utils.escape_markdown(query.strip()[:80])
            await send_error(
                interaction,
                f"No FAQ ruling matches '{shown}'. Try a card name or a few key words, "
                "e.g. `/faq query: Sabotage deployment zone`.",
            )
            return
        await interaction.response.send_message(embed=faq_embed(query, matches, rules.catalog))

    @faq.autocomplete("pack")
    async def faq_pack(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return self.pack_option.choices(current)


async def setup(bot: MissionBot) -> None:
    await bot.add_cog(Faq(bot))
