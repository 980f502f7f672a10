"""/settings: what a player sets once for every server, such as the time zone their typed times are read in."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.store.models import utcnow
from bot.times import DEFAULT_ZONE, zone, zone_names

MAX_CHOICES = 25  # Discord's limit for autocomplete


class SettingsCog(commands.GroupCog, name="settings", description="Your own settings, for every server"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="timezone", description="Your time zone, for the times you type (e.g. when: on "
                                                       "/game new)")
    @app_commands.describe(zone_name="An IANA time zone such as Europe/Berlin or America/New_York (leave empty "
                                     "to see yours)")
    @app_commands.rename(zone_name="zone")
    async def timezone(self, interaction: discord.Interaction, zone_name: str | None = None) -> None:
        community = self.bot.service.community
        me = str(interaction.user.id)
        if zone_name is None:
            current = await community.time_zone(me)
            text = (f"Your time zone is **{current}**." if current else
                    f"You have not set a time zone, so times you type are read in {DEFAULT_ZONE}. Set yours with "
                    "`/settings timezone zone:Europe/Berlin`.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        found = zone(zone_name)  # refuses an unknown name, changing nothing
        await community.set_time_zone(me, found.key)
        local = utcnow().astimezone(found).strftime("%H:%M")
        await interaction.response.send_message(
            f"Time zone set to **{found.key}** (it is {local} there now). Times you type, such as "
            "`/game new when:tonight 20:00`, are read in it; everyone sees them in their own time.", ephemeral=True)

    @timezone.autocomplete("zone_name")
    async def zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().casefold().replace(" ", "_")
        found = [name for name in zone_names() if typed in name.casefold()]
        found.sort(key=lambda name: (not name.casefold().startswith(typed), "/" not in name, name))
        return [app_commands.Choice(name=name, value=name) for name in found[:MAX_CHOICES]]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
