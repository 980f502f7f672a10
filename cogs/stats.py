"""/stats: a player's record and a server's habits as pictures, and the rows behind them as CSV. Read from this
server's finished games only."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.armies.data import army_data
from bot.engine.errors import GameError
from bot.ui.history_view import pack_titles
from bot.present.pictures.stats import (
    faction_picture, faction_stats, player_picture, player_stats, rows_csv, server_picture, server_stats,
)
from bot.ui.text import clip
from bot.ui.limits import MESSAGE_CHARS
from bot.plumbing.drawing import drawn
from cogs.base import BotCog


@app_commands.guild_only()
class StatsCog(BotCog, name="stats", description="Stats of this server's finished games, as pictures"):
    @property
    def history(self):
        return self.bot.service.history

    @app_commands.command(name="player", description="A player's record here: results, VP, missions, first or "
                                                     "second, Fixed or Tactical")
    @app_commands.describe(player="Whose stats (default: yours)", public="Post them for everyone (default: you "
                                                                         "alone)")
    async def player(self, interaction: discord.Interaction, player: discord.Member | None = None,
                     public: bool = False) -> None:
        who = player or interaction.user
        rows = await self.history.rows(interaction.guild_id, str(who.id))
        if not rows:
            raise GameError(f"{who.display_name} has no finished games on this server yet.")
        await interaction.response.defer(ephemeral=not public, thinking=True)
        stats = player_stats(rows, str(who.id), pack_titles(self.bot.service.packs), army_data().faction_name)
        picture = await self.bot.loop.run_in_executor(None, player_picture, stats)  # drawing takes a moment
        await interaction.followup.send(stats.text(), file=discord.File(io.BytesIO(picture), "stats.png"),
                                        ephemeral=not public)

    @app_commands.command(name="server", description="This server's games per week, missions, first-turn wins, "
                                                     "Fixed or Tactical, the Challenger")
    @app_commands.describe(public="Post them for everyone (default: you alone)")
    async def server(self, interaction: discord.Interaction, public: bool = False) -> None:
        stats = server_stats(await self.history.server_counts(interaction.guild_id))
        if not stats.games:
            raise GameError("No finished games on this server yet.")
        await interaction.response.defer(ephemeral=not public, thinking=True)
        picture = await drawn(server_picture, stats)
        await interaction.followup.send(stats.text(), file=discord.File(io.BytesIO(picture), "server-stats.png"),
                                        ephemeral=not public)

    @app_commands.command(name="faction", description="Each faction's games, wins, draws and losses and win rate "
                                                      "here, or in the server's event")
    @app_commands.describe(scope="This server's games (default), or those of its latest tournament",
                           public="Post them for everyone (default: you alone)")
    async def faction(self, interaction: discord.Interaction, scope: Literal["server", "event"] = "server",
                      public: bool = False) -> None:
        tournament = None
        if scope == "event":
            tournament = await self.bot.tournaments.latest(interaction.guild_id)  # type: ignore[attr-defined]
        records = await self.history.factions(interaction.guild_id,
                                              tournament_id=tournament.id if tournament else None)
        data = army_data()
        where = f"in {tournament.name}" if tournament else "on this server"
        stats = faction_stats(records, where, data.faction_name, data.detachment_name)
        if not stats.lines:
            raise GameError(stats.text())
        await interaction.response.defer(ephemeral=not public, thinking=True)
        picture = await drawn(faction_picture, stats)
        await interaction.followup.send(clip(stats.text(), MESSAGE_CHARS),
                                        file=discord.File(io.BytesIO(picture), "factions.png"),
                                        ephemeral=not public, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="export", description="The rows behind the pictures as CSV: a player's finished "
                                                     "games here")
    @app_commands.describe(player="Whose games (default: yours)")
    async def export(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        who = player or interaction.user
        rows = await self.history.rows(interaction.guild_id, str(who.id))
        if not rows:
            raise GameError(f"{who.display_name} has no finished games on this server yet.")
        await interaction.response.send_message(
            f"{len(rows)} finished games of {who.display_name}.", ephemeral=True,
            file=discord.File(io.BytesIO(rows_csv(rows)), f"games-{who.id}.csv"))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(StatsCog(bot))
