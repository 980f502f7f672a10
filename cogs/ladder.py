"""/ladder: a server's opt-in ladder. Nothing is ranked before a server admin starts one; from then on, every game
finished here between two members counts (abandoned games never), rated with openskill."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import GameError
from bot.engine.ladder import PROVISIONAL_GAMES
from bot.engine.names import resolve
from bot.services.game_options import pack_choices
from bot.ui.ladder_view import PAGE, standing_line, standings_message
from cogs.base import BotCog

ADMINS = "Only a server admin (Manage Server) can {}."


@app_commands.guild_only()
class LadderCog(BotCog, name="ladder", description="This server's opt-in ladder with ratings"):
    season = app_commands.Group(name="season", description="Ladder seasons")

    @property
    def ladders(self):
        return self.bot.service.ladders

    @app_commands.command(name="start", description="Admins: start ranking this server's games from now on")
    @app_commands.describe(name="The ladder's name", packs="Only these packs count, comma-separated (default: all)",
                           tournaments="Count tournament games (default: yes)",
                           doubles="Doubles (2v2) games: rated on a separate doubles table, or not at all "
                                   "(default: off)")
    async def start(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100] = "Ladder",
                    packs: str = "", tournaments: bool = True, doubles: Literal["off", "separate"] = "off") -> None:
        _require_admin(interaction, "start a ladder")
        installed = pack_choices(self.bot.service.packs)
        chosen = tuple(resolve(p, installed, "a pack of this bot") for p in packs.split(",") if p.strip())
        ladder = await self.ladders.start(interaction.guild_id, name[:100], chosen, tournaments,
                                          str(interaction.user.id), doubles=doubles == "separate")
        which = ", ".join(chosen) if chosen else "every pack"
        pairs = ("Doubles games count on a table of their own (`/ladder standings doubles:True`)."
                 if doubles == "separate" else "Doubles games do not count.")
        await interaction.response.send_message(
            f"**{ladder.name}** starts now: every game finished here from now on between two members counts "
            f"({which}{'' if tournaments else ', tournament games left out'}); abandoned games never do. {pairs} "
            "`/ladder standings` shows the table, `/ladder me` your place.")

    @app_commands.command(name="standings", description="The ladder's table (an admin's is posted for everyone)")
    @app_commands.describe(doubles="The doubles table, if this server rates doubles (default: singles)")
    async def standings(self, interaction: discord.Interaction, doubles: bool = False) -> None:
        ladder = await self.ladders.ladder(interaction.guild_id, doubles=doubles)
        rows, total = await self.ladders.repo.page(ladder.id, 0, PAGE)
        await interaction.response.send_message(**standings_message(ladder, rows, total, 0),
                                                ephemeral=not interaction.permissions.manage_guild)

    @app_commands.command(name="me", description="Your rating, place and last changes on the ladder")
    async def me(self, interaction: discord.Interaction) -> None:
        ladder = await self.ladders.ladder(interaction.guild_id)
        me = str(interaction.user.id)
        lines = []
        for table in (ladder, await self.ladders.repo.open_ladder(interaction.guild_id, doubles=True)):
            if table is None:  # the server rates no doubles
                continue
            standing = (await self.ladders.repo.standings_of(table.id, (me,))).get(me)
            if standing is not None:
                place = await self.ladders.repo.place(table.id, standing)
                changes = ", ".join(f"game {game}: {change:+.1f}" for game, change in reversed(standing.recent))
                note = f" Provisional until {PROVISIONAL_GAMES} games." if standing.provisional else ""
                lines.append(f"**{table.name}**, place {place}: {standing_line(standing)}.{note}\n"
                             f"Last changes: {changes}.")
        if not lines:
            raise GameError(f"You have no counted game on **{ladder.name}** yet: finish a game here to get a "
                            "rating.")
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @app_commands.command(name="void", description="Admins: take a game off the ladder (recomputes the table)")
    @app_commands.describe(game="The game's number (on its board and result card)")
    async def void(self, interaction: discord.Interaction, game: int) -> None:
        _require_admin(interaction, "void a game")
        await interaction.response.defer(ephemeral=True)  # a refusal stays private; the recompute takes a moment
        ladder = await self.ladders.void(interaction.guild_id, game, str(interaction.user.id))
        await interaction.followup.send("Voided; the table is recomputed.", ephemeral=True)
        await interaction.channel.send(
            f"Game {game} no longer counts on **{ladder.name}** (voided by {interaction.user.mention}); the table "
            "is recomputed as if it never had.", allowed_mentions=discord.AllowedMentions.none())

    @season.command(name="new", description="Admins: archive this season's table and start afresh")
    async def new_season(self, interaction: discord.Interaction) -> None:
        _require_admin(interaction, "start a new season")
        ladder = await self.ladders.new_season(interaction.guild_id, str(interaction.user.id))
        await interaction.response.send_message(
            f"**{ladder.name}** season {ladder.season} starts now; season {ladder.season - 1}'s table is archived.")


def _require_admin(interaction: discord.Interaction, what: str) -> None:
    if not interaction.permissions.manage_guild:
        raise GameError(ADMINS.format(what))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(LadderCog(bot))
