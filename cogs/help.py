"""/help: what the bot does and every command, privately; and a short welcome when the bot joins a server."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.help import help_message
from bot.ui.help_text import WELCOME

_log = logging.getLogger(__name__)


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot does and how to use every command (only you see it)")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(**help_message(self.bot), ephemeral=True)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """One welcome in the server's system channel, only where the server lets the bot post there."""
        channel = guild.system_channel
        if channel is None or not channel.permissions_for(guild.me).send_messages:
            return
        try:
            await channel.send(WELCOME, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:  # the cached permissions can be a step behind the server's: a welcome is optional
            _log.warning("Could not post the welcome in server %s", guild.id, exc_info=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
