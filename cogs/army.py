"""/army: your army in this channel's game (faction, detachment, list), and a player's list to read."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.armies.lists import ListError
from bot.engine.errors import GameError
from bot.engine.packs import is_mission_deck
from bot.engine.sides import seat_of
from bot.ui.armies import (
    NO_PINGS, ArmyForm, detachments_typed, factions_typed, list_message, read_attachment, set_army,
)
from cogs.base import BotCog


class ArmyCog(BotCog, name="army", description="Your army in this channel's game"):
    @app_commands.command(name="set", description="Set your army for this channel's game, before the battle")
    @app_commands.describe(faction="Your faction (leave everything empty to paste your list in a form)",
                           detachment="Your detachment, or several (commas or 'and'): in 2026-27 they give your Force Disposition",
                           file="Your list as a file: the Warhammer 40,000 app's export (.txt) or a NewRecruit "
                                "roster (.rosz)")
    @app_commands.autocomplete(faction=factions_typed, detachment=detachments_typed)
    async def set_(self, interaction: discord.Interaction, faction: app_commands.Range[str, 1, 100] | None = None,
                   detachment: app_commands.Range[str, 1, 100] | None = None,
                   file: discord.Attachment | None = None) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        if faction is None and detachment is None and file is None:
            await interaction.response.send_modal(ArmyForm(self.bot.desk, record.id))  # a form is the first answer
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            read = await read_attachment(file) if file is not None else None
        except ListError as exc:
            raise GameError(str(exc)) from None
        await set_army(self.bot.desk, interaction, record.id, faction=faction, detachment=detachment, file=read)

    @app_commands.command(name="show", description="A player's army and list in this channel's game, privately")
    @app_commands.describe(player="Whose (default: yours)")
    async def show(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.service.latest_game(interaction.channel_id)
        who = player or interaction.user
        seat_id = seat_of(record.setup, str(who.id))
        if seat_id is None:
            raise GameError(f"{who.display_name} does not play this channel's game.")
        seat = record.state.player(seat_id)
        hidden = is_mission_deck(record.state) and record.state.status.value == "dispositions"
        if hidden and seat_id != seat_of(record.setup, str(interaction.user.id)):  # a side sees its own
            raise GameError("Armies are shown once both Force Dispositions are revealed.")
        army = seat.army if seat_id == str(who.id) else seat.partner_army  # doubles: each player's own
        if army is None:
            raise GameError(f"{who.display_name} has not set an army in this game.")
        found = await self.service.lists.get(army.list_id) if army.list_id is not None else None
        if found is None:
            await interaction.followup.send(f"{who.display_name}: {army.label} (no list given).", ephemeral=True,
                                            allowed_mentions=NO_PINGS)
            return
        await interaction.followup.send(**list_message(found[1], who.display_name, found[0].id), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ArmyCog(bot))
