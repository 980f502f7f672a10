"""Reminders of scheduled games: both players are told 15 minutes before the time and at the time, with the
board's first step. The moments are stored (bot/store/community.py) and armed again at start-up; each is sent
once, by whichever process claims it first."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import partial

import discord

from bot.engine.errors import GameError
from bot.services.games import GameService
from bot.store.community_models import Reminder
from bot.store.models import GameStatus
from bot.plumbing.times import relative, stamp
from bot.ui.alarms import Alarms
from bot.ui.text import pinging
from bot.engine.sides import everyone

_log = logging.getLogger(__name__)


class Reminders:
    def __init__(self, bot: discord.Client, service: GameService, alarms: Alarms, *,
                 move_board: Callable[..., Awaitable[bool]]) -> None:
        """`move_board(game_id, notify=..., headline=...)`: the desk posts the board anew with the news (False: the
        game has no board yet)."""
        self.bot, self.service, self.alarms = bot, service, alarms
        self.repo = service.community
        self._move_board = move_board

    async def schedule(self, game_id: int, channel_id: int, starts_at: datetime) -> None:
        for row in await self.repo.schedule(game_id, channel_id, starts_at):
            self.watch(row)

    def watch(self, row: Reminder) -> None:
        self.alarms.arm(("reminder", row.id), row.due_at.timestamp(), partial(self.send, row))

    async def watch_stored(self) -> int:
        """At start-up: arm every reminder not sent yet whose channel this process serves; how many."""
        rows = [row for row in await self.repo.pending_reminders()
                if self.bot.get_channel(row.channel_id) is not None]
        for row in rows:
            self.watch(row)
        return len(rows)

    async def send(self, row: Reminder) -> bool:
        """Tell both players, mentioning exactly them, if the game still waits to be played: whether it did. Once
        the board is up, the board itself moves to the bottom with the reminder."""
        try:
            record = await self.service.get_state(game_id=row.game_id)
        except GameError:
            return False
        if record.status != GameStatus.ACTIVE or not await self.repo.mark_sent(row.id):
            return False  # over already, or sent by another process
        players = everyone(record.setup)
        names = " ".join(f"<@{p}>" for p in players)
        if row.kind == "soon":
            text = f"⏰ {names}, your game starts {relative(row.starts_at)} ({stamp(row.starts_at)})."
        else:
            text = f"⏰ {names}, it is time for your game."
        if await self._move_board(record.id, notify=set(record.setup.players), headline=text):
            return True
        if row.kind != "soon":
            text += f" {record.setup.names[1]}: press **Accept the game** on the challenge above to start."
        quiet = await self.service.repo.quiet_players(record.id)
        await self.bot.get_partial_messageable(row.channel_id).send(
            text, allowed_mentions=pinging(p for p in players if p not in quiet))
        return True
