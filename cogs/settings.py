"""/settings: what a player sets once for every server, such as the time zone their typed times are read in, and
what a server's admins set for it, such as the pack /game new plays when none is named."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import GameError
from bot.engine.names import resolve
from bot.store.models import utcnow
from bot.plumbing.times import DEFAULT_ZONE, zone, zone_names
from bot.services.game_options import pack_choices
from bot.ui.game_options import packs_typed
from bot.ui.limits import AUTOCOMPLETE_CHOICES
from cogs.base import BotCog



class SettingsCog(BotCog, name="settings", description="Your settings, and your server's"):
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

    @app_commands.command(name="pack", description="The pack /game new plays on this server when none is named "
                                                   "(Manage Server)")
    @app_commands.describe(pack="A mission pack (leave empty to see this server's)")
    @app_commands.autocomplete(pack=packs_typed)
    async def pack(self, interaction: discord.Interaction, pack: str | None = None) -> None:
        if interaction.guild_id is None:
            raise GameError("A default pack belongs to a server: in a private chat, name `pack:` on /game new.")
        packs = self.bot.service.packs
        titles = dict(pack_choices(packs))
        community = self.bot.service.community
        if pack is None:
            current = await community.default_pack(interaction.guild_id)
            await interaction.response.send_message(
                f"`/game new` plays **{titles.get(current, current)}** on this server when no `pack:` is named.",
                ephemeral=True)
            return
        if not interaction.permissions.manage_guild:
            raise GameError("Only someone with Manage Server can choose this server's default pack.")
        chosen = resolve(pack, pack_choices(packs), "a pack of this bot")  # refuses an unknown pack, changing nothing
        await community.set_default_pack(interaction.guild_id, chosen)
        await interaction.response.send_message(
            f"`/game new` now plays **{titles[chosen]}** on this server when no `pack:` is named; `pack:` still "
            "chooses another for one game.", ephemeral=True)

    @timezone.autocomplete("zone_name")
    async def zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().casefold().replace(" ", "_")
        found = [name for name in zone_names() if typed in name.casefold()]
        found.sort(key=lambda name: (not name.casefold().startswith(typed), "/" not in name, name))
        return [app_commands.Choice(name=name, value=name) for name in found[:AUTOCOMPLETE_CHOICES]]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(SettingsCog(bot))
