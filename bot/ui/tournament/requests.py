"""The Discord side of what organisers ask at the desk (bot/services/tournaments/requests.py): a subscriber of the
change stream, in the process that serves the event's server, posting what the desk asked for in the event's
channels: a round published (its announcement and threads), an announcement again, the round clock's start, a
table's extra minutes, a judge call claimed or resolved. What it did goes to the desk's log."""

from __future__ import annotations

import logging
import re

import discord

from bot.engine.errors import GameError
from bot.plumbing.changes import Change
from bot.present.desk import named
from bot.services.judges import MAX_EXTRA_MINUTES
from bot.services.tournaments import TournamentService
from bot.services.tournaments.requests import DiscordAsk
from bot.store.desk import DeskRepository
from bot.store.tournament_repository import TournamentRecord
from bot.ui.judges.desk import JudgeDesk
from bot.ui.teams.board import follow_late
from bot.ui.text import pinging
from bot.ui.tournament.posting import announce
from bot.ui.tournament.rounds import open_round
from bot.ui.tournament.texts import side, side_users

_log = logging.getLogger(__name__)
CHANNEL = re.compile(r"<#(\d+)>")
NO_PINGS = discord.AllowedMentions.none()


class DeskAsks:
    def __init__(self, bot: discord.Client, tournaments: TournamentService, judges: JudgeDesk,
                 log: DeskRepository) -> None:
        self.bot, self.tournaments, self.judges, self.log = bot, tournaments, judges, log

    async def on_change(self, change: Change) -> None:
        ask = DiscordAsk.of(change)
        if ask is None:
            return
        try:
            record = await self.tournaments.get(change.id)
        except GameError:
            return
        if self.bot.get_guild(record.guild_id) is None:  # another process serves this server
            return
        try:
            done = await self._do(record, ask)
        except (GameError, discord.HTTPException) as exc:
            done = f"Discord refused: {getattr(exc, 'message', None) or exc}"
            _log.info("The desk's %s for event %s failed: %s", ask.what, record.id, done)
        if done:
            await self._note(record, ask, done)

    async def _note(self, record: TournamentRecord, ask: DiscordAsk, done: str) -> None:
        await self.log.log(record.id, ask.by, "Discord", ask.what, self._plain(record, done))
        await self.tournaments.changes.publish(Change("event", record.id, 0, "desk"))

    async def _do(self, record: TournamentRecord, ask: DiscordAsk) -> str | None:
        fallback = await self._channel(record.state.tables_channel_id)
        if ask.what == "publish":
            async def opened(text: str, over: bool) -> None:  # the tables open in the background
                if over:
                    await self._note(record, ask, text)
            return await open_round(self.bot, record, fallback, opened)
        if ask.what == "announce":
            where, count = await announce(self.bot, record, fallback)
            return f"Announced in {where} ({count} message{'s' if count != 1 else ''})."
        if ask.what == "clock":
            clock = record.state.clock
            if clock is None:
                return None
            await self.bot.get_partial_messageable(clock.channel_id, guild_id=record.guild_id).send(
                f"⏱️ **{discord.utils.escape_markdown(record.name)}** round {clock.round_number} has started: it ends "
                f"<t:{clock.ends_at}:t> (<t:{clock.ends_at}:R>). Reminders at 30 and 10 minutes left, and at time.",
                allowed_mentions=NO_PINGS)
            return f"The round's start posted in <#{clock.channel_id}>."
        if ask.what == "minutes":
            table, minutes, total = (int(a) for a in ask.args)
            return await self._minutes(record, table, minutes, total, ask.by)
        if ask.what == "late":
            round_number, match = (int(a) for a in ask.args)
            await follow_late(self.bot, record, round_number, match)
            return None
        if ask.what == "call":
            call = await self.judges.service.get(int(ask.args[0]))
            await self.judges.from_desk(record, call)
            return None
        return None

    async def _minutes(self, record: TournamentRecord, table: int, minutes: int, total: int, by: str) -> str | None:
        current = record.state.event.rounds[-1]
        link = next((g for g in record.state.table_games
                     if (g.round_number, g.table) == (current.number, table)), None)
        pairing = next((p for p in current.pairings.tables if p.table == table), None)
        if link is None or pairing is None:
            return None
        clock = record.state.clock
        until = ""
        if clock is not None and clock.round_number == current.number:
            ends = clock.ends_at + 60 * min(total, MAX_EXTRA_MINUTES)
            until = f" Your round now ends <t:{ends}:t> (<t:{ends}:R>)."
        await self.bot.get_partial_messageable(link.thread_id, guild_id=record.guild_id).send(
            f"⏱️ {side(record, pairing.a)} {side(record, pairing.b)}: organiser <@{by}> gave table {table} {minutes} "
            f"more minutes ({total} in all this round).{until}",
            allowed_mentions=pinging(side_users(record, pairing.a, pairing.b)))
        return f"Table {table}'s thread told of its {minutes} minutes."

    def _plain(self, record: TournamentRecord, text: str) -> str:
        """What Discord was told, as the desk's log says it: names for mentions, no markdown."""
        def channel(match: re.Match[str]) -> str:
            found = self.bot.get_channel(int(match.group(1)))
            return f"#{found.name}" if found is not None and hasattr(found, "name") else "the event's channel"
        return named(record, CHANNEL.sub(channel, text).replace("**", ""))

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        try:
            found = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None
        return found if isinstance(found, discord.abc.Messageable) else None
