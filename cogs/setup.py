"""/setup check: which permissions the bot lacks in this channel, and what each one's absence breaks."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import GameError
from bot.ui.permissions import check_text
from cogs.base import BotCog


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SetupCog(BotCog, name="setup", description="Check the bot's set-up on this server"):
    @app_commands.command(name="check", description="Which permissions the bot lacks in this channel (Manage Server)")
    async def check(self, interaction: discord.Interaction) -> None:
        # default_permissions only sets who sees the command at first: a server can open it to anyone.
        if not interaction.permissions.manage_guild:
            raise GameError("Only someone with Manage Server can check the bot's set-up.")
        # app_permissions: the bot's permissions in this very channel, as Discord sends them with the interaction.
        text = check_text(interaction.app_permissions, f"<#{interaction.channel_id}>")
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SetupCog(bot))
