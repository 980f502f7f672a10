"""A game's result, reported where it counts once the game ends: its tournament (which posts what it recorded in
the game's channel) and then its server's ladder. A subscriber of the change stream (bot/plumbing/changes.py), after the
board, so the result card is posted first."""

from __future__ import annotations

import logging

import discord

from bot.plumbing.changes import Change
from bot.services.game_log import OVER
from bot.services.games import GameService
from bot.ui.tournament import report_table_game

_log = logging.getLogger(__name__)


class ResultReports:
    def __init__(self, bot: discord.Client, service: GameService) -> None:
        self.bot, self.service = bot, service

    async def on_change(self, change: Change) -> None:
        """A game this process ended (another process reports its own) in a server."""
        result = change.result
        if not change.played_here or result.state.status not in OVER:
            return
        if result.previous is not None and result.previous.status in OVER:
            return
        record = await self.service.get_state(game_id=change.id)
        if record.guild_id is None:
            return
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        try:
            await report_table_game(self.bot, channel, record.guild_id, change.id, result.state)
        except Exception:  # the game is over either way; /tournament status collects its result later
            _log.exception("Could not report game %s to its tournament", change.id)
        try:  # after the report, which marks a tournament's game as such
            await self.service.ladders.game_ended(record.guild_id, change.id)
        except Exception:  # the ladder's recompute (/ladder void, a new season) counts it again
            _log.exception("Could not count game %s on its server's ladder", change.id)
