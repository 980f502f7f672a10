"""/judge: judges at this server's event. A player calls one from their table's thread (`call`, or the board's
**Call a judge**); judges (organisers, and the judge role an organiser names with `setup`) go on and off `duty` and
claim and resolve calls with the buttons on each call; `calls` brings the list of open calls to the bottom of the
judges' channel. Refusals are private one-liners."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.services.judges import DEFAULT_RERAISE_MINUTES, MAX_NOTE, MAX_RERAISE_MINUTES
from bot.ui.judges.desk import JudgeDesk
from cogs.base import BotCog


@app_commands.guild_only()
class JudgeCog(BotCog, name="judge", description="Call a judge to your table; judges claim and resolve the calls"):
    @property
    def judges(self) -> JudgeDesk:
        return self.bot.judges  # type: ignore[attr-defined]

    @app_commands.command(name="call", description="Call a judge to your table (in your table's thread)")
    @app_commands.describe(note="What it is about, for the judges (the thread does not see it)")
    async def call(self, interaction: discord.Interaction,
                   note: app_commands.Range[str, 1, MAX_NOTE] | None = None) -> None:
        await self.judges.call_from_thread(interaction, note)

    duty = app_commands.Group(name="duty", description="Judges: whether calls mention you")

    @duty.command(name="on", description="Go on duty: each call mentions you (judges)")
    async def duty_on(self, interaction: discord.Interaction) -> None:
        await self.judges.duty(interaction, True)

    @duty.command(name="off", description="Go off duty: calls no longer mention you (judges)")
    async def duty_off(self, interaction: discord.Interaction) -> None:
        await self.judges.duty(interaction, False)

    @app_commands.command(name="setup", description="Where judge calls go, and who judges besides organisers "
                                                    "(organisers)")
    @app_commands.describe(channel="The judges' channel (default: the event's announcement channel)",
                           role="Members with this role judge too; with nobody on duty, calls notify it",
                           reraise_minutes=f"A call nobody claims is raised again after these minutes (default "
                                           f"{DEFAULT_RERAISE_MINUTES})")
    @app_commands.rename(reraise_minutes="reraise-minutes")
    async def setup_judges(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None,
                           role: discord.Role | None = None,
                           reraise_minutes: app_commands.Range[int, 1, MAX_RERAISE_MINUTES] | None = None) -> None:
        await self.judges.configure(interaction, channel, role, reraise_minutes)

    @app_commands.command(name="calls", description="Bring the list of open calls to the bottom of the judges' "
                                                    "channel (judges)")
    async def calls(self, interaction: discord.Interaction) -> None:
        await self.judges.bring_calls(interaction)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): the event tables this process serves, and the calls waiting to be raised again."""
        await self.judges.watch_stored()


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(JudgeCog(bot))
