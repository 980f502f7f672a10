"""What every command group of the bot shares: the bot it belongs to, and the game service and desk by name."""

from __future__ import annotations

from discord.ext import commands


class BotCog(commands.GroupCog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def service(self):
        return self.bot.service  # type: ignore[attr-defined]

    @property
    def desk(self):
        return self.bot.desk  # type: ignore[attr-defined]
