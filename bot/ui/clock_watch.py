"""Chess clocks between actions: the moment a running player's time runs out is recorded and announced.

Only times are stored (the clock in the game's state), never timers: an alarm (bot/ui/alarms.py) is armed from the
stored deadline after every action and, at start-up, for every clocked game in progress, so a restart loses none.
"""

from __future__ import annotations

import logging
from functools import partial

import discord

from bot.plumbing.changes import Change
from bot.engine import moves
from bot.engine.chapter_approved.state import GameState, Status
from bot.engine.errors import GameError
from bot.services.games import GameService
from bot.ui.alarms import Alarms

_log = logging.getLogger(__name__)


class ClockWatch:
    def __init__(self, bot: discord.Client, service: GameService, alarms: Alarms) -> None:
        self.bot, self.service, self.alarms = bot, service, alarms

    async def on_change(self, change: Change) -> None:
        """Every change of a game this process made moves its alarm (another process watches its own games)."""
        if change.played_here:
            self.watch(change.id, change.result.state)

    def deadline(self, game_id: int) -> int | None:
        moment = self.alarms.moment(("clock", game_id))
        return round(moment * 1000) if moment is not None else None

    def watch(self, game_id: int, state: GameState) -> None:
        """Arm (or move, or drop) the game's alarm for its running player's deadline."""
        clock = state.clock
        deadline = clock.deadline_ms if clock is not None and state.status == Status.BATTLE else None
        self.alarms.arm(("clock", game_id), deadline / 1000 if deadline is not None else None,
                        partial(self.time_out, game_id, deadline))

    async def watch_stored(self) -> int:
        """At start-up: watch the clocked games in progress in this process's servers; how many."""
        count = 0
        for record in await self.service.repo.clocked_games():
            if record.guild_id is None or self.bot.get_guild(record.guild_id) is not None:
                self.watch(record.id, record.state)
                count += 1
        return count

    async def time_out(self, game_id: int, deadline: int) -> bool:
        """Record that the running player's time ran out at `deadline`, if the game still waits on them (the board
        then moves to the bottom with the news, notifying both players): whether it did."""
        record = await self.service.get_state(game_id=game_id)
        clock = record.state.clock
        if clock is None or clock.deadline_ms != deadline or clock.running is None:
            return False  # the game moved on, or another process recorded it
        try:
            await self.service.act(moves.TimeOut(actor=clock.running), game_id=game_id)
        except GameError as exc:
            _log.info("Game %s: time-out not recorded (%s)", game_id, exc.message)
            return False
        return True
