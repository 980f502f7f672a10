"""The judges' side of an event in Discord: a table calls (the board's or its challenge's **Call a judge**, or
`/judge call` in its thread), the call goes to the judges' channel naming the judges on duty (with nobody on duty,
the judge role, else the organisers' role), a judge claims it (the thread is told who is coming, mentioning both
players) and resolves it with a ruling, an organiser gives the table more time. One message of the judges' channel
lists the open calls, oldest first, and who is on duty: edited in place, and moved under each new call.

A call nobody claims within the event's re-raise minutes (5 unless its organisers set them) is raised again, once:
its moment follows from the call and the setting, armed after the call, again when the setting changes and at
start-up (bot/ui/alarms.py), and what fires checks the stored call first, so a restart, a second timer or a second
process raises it once.

Which games are an event's tables is kept here for the boards (their button is drawn without reading the database),
from every change of an event and at start-up; a press reads the event itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

import discord

from bot.plumbing.changes import Change
from bot.engine.errors import GameError
from bot.services.judges import CHANGE, DEFAULT_RERAISE_MINUTES, EXTRA_MINUTES, EventTable, JudgeService, tables_of
from bot.plumbing.locks import KeyedLocks
from bot.store.judge_models import JudgeCall, JudgeDuty
from bot.store.models import GameStatus
from bot.store.repository import GameRecord
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import TournamentRecord
from bot.services.tournaments import TournamentService
from bot.ui.alarms import Alarms
from bot.ui.errors import reply_privately
from bot.ui.judges.buttons import CallJudgeButton, RulingForm, call_view
from bot.ui.judges.texts import (
    call_text, called_text, calls_embed, claimed_text, extended_text, reraised, resolved_text,
)
from bot.ui.text import pinging
from bot.ui.tournament import is_organiser

_log = logging.getLogger(__name__)

NOT_A_TABLE = ("Call a judge from your table's thread while its round is played (the board's **Call a judge**, or "
               "`/judge call` there): this is not a table of the event's round.")
JUDGES_ONLY = "Only a judge (an organiser, or the event's judge role) can {}."
NO_PINGS = discord.AllowedMentions.none()


class JudgeDesk:
    def __init__(self, bot: discord.Client, service: JudgeService, tournaments: TournamentService,
                 alarms: Alarms) -> None:
        self.bot, self.service, self.tournaments, self.alarms = bot, service, tournaments, alarms
        self.tables: dict[int, EventTable] = {}  # game id -> the event table it is played at
        # Each kind of event's tables, read from its record: a Swiss event's here; another kind adds its own.
        self.sources: list[Callable[[TournamentRecord], list[EventTable]]] = [tables_of]
        self._locks = KeyedLocks()  # one per event: its calls message
        service.changes.subscribe(self.on_change)

    # ---- the tables the boards offer a call from ------------------------------------------------

    def board_button(self, record: GameRecord) -> discord.ui.Item | None:
        """The board's **Call a judge**, for a game in progress at a table of an event's round."""
        if record.status != GameStatus.ACTIVE or record.id not in self.tables:
            return None
        return CallJudgeButton(record.id)

    async def on_change(self, change: Change) -> None:
        """An event changed (a round published, a table's game linked): learn its tables."""
        if change.kind == "event" and change.what != CHANGE:
            try:
                self.learn(await self.tournaments.get(change.id))
            except GameError:
                return

    def event_tables(self, record: TournamentRecord) -> list[EventTable]:
        """The tables of the round the event plays now."""
        return [table for source in self.sources for table in source(record)]

    def find(self, record: TournamentRecord, *, thread_id: int | None = None,
             game_id: int | None = None) -> EventTable:
        """The table of the event's round whose thread (or game) this is; refused for any other place."""
        found = next((t for t in self.event_tables(record)
                      if (thread_id is not None and t.thread_id == thread_id)
                      or (game_id is not None and t.game_id == game_id)), None)
        if found is None:
            raise GameError(NOT_A_TABLE)
        return found

    def learn(self, record: TournamentRecord) -> None:
        tables = self.event_tables(record) if record.status == TournamentStatus.ACTIVE else []
        for game in [g for g, t in self.tables.items() if t.event_id == record.id]:
            del self.tables[game]
        self.tables.update({t.game_id: t for t in tables if t.game_id is not None})

    async def watch_stored(self) -> int:
        """At start-up: the tables of the events in this process's servers, and the alarm of every call waiting
        to be raised again; how many alarms."""
        for record in await self.tournaments.repo.all_active():
            if self.bot.get_guild(record.guild_id) is not None:
                self.learn(record)
        calls = [c for c in await self.service.waiting() if self.bot.get_guild(c.guild_id) is not None]
        for call in calls:
            await self.watch(call)
        return len(calls)

    # ---- who judges ---------------------------------------------------------------------------------

    async def is_judge(self, interaction: discord.Interaction, record: TournamentRecord) -> bool:
        """An organiser, or a member with the event's judge role."""
        if is_organiser(interaction, record):
            return True
        role = (await self.service.settings(record.id)).role_id
        user = interaction.user
        return role is not None and isinstance(user, discord.Member) and user.get_role(role) is not None

    async def judge_record(self, interaction: discord.Interaction, what: str,
                           record: TournamentRecord | None = None) -> TournamentRecord:
        """The server's running event, if the user judges it."""
        record = record or await self.tournaments.current(_guild(interaction))
        if not await self.is_judge(interaction, record):
            raise GameError(JUDGES_ONLY.format(what))
        return record

    # ---- calling ------------------------------------------------------------------------------------

    async def call_from_board(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self._event(interaction)
        await self.call(interaction, record, self.find(record, game_id=game_id), None)

    async def call_from_thread(self, interaction: discord.Interaction, note: str | None) -> None:
        record = await self._event(interaction)
        await self.call(interaction, record, self.find(record, thread_id=interaction.channel_id), note)

    async def call(self, interaction: discord.Interaction, record: TournamentRecord, table: EventTable,
                   note: str | None) -> None:
        """A player at `table` calls: refused privately (nothing stored) for anyone else or while the table has a
        call waiting; otherwise the thread hears it, the judges' channel gets the call and its list moves under
        it. Any kind of event's table calls through here."""
        call = await self.service.call(table, str(interaction.user.id), note)
        await interaction.response.send_message(called_text(call), allowed_mentions=NO_PINGS)
        fallback = getattr(interaction.channel, "parent_id", None) or interaction.channel_id
        await self.post_call(record, call, fallback=fallback)
        await self.watch(call)
        await self.show_calls(record, move=True, fallback=fallback)

    async def post_call(self, record: TournamentRecord, call: JudgeCall, *, headline: str | None = None,
                        fallback: int | None = None) -> None:
        """Post the call at the bottom of the judges' channel, notifying exactly the judges on duty (with nobody on
        duty, the judge role, else the organisers' role); an earlier message of it goes."""
        channel_id = await self._channel(record, fallback or call.channel_id)
        if channel_id is None:
            _log.warning("Judge call %s of event %s has no channel to go to", call.id, record.id)
            return
        duty, role = await self._called(record)
        extra = await self.service.extension(record.id, call.round_number, call.table_number)
        text = call_text(record, call, duty, role, extra, self.service.now(), headline=headline)
        try:
            message = await self.bot.get_partial_messageable(channel_id, guild_id=record.guild_id).send(
                text, view=call_view(call), allowed_mentions=pinging([d.judge_id for d in duty], role=role))
        except discord.HTTPException:
            _log.warning("Could not post judge call %s in channel %s", call.id, channel_id, exc_info=True)
            return
        assert call.id is not None
        await self.service.set_message(call.id, channel_id, message.id)
        if call.message_id is not None and call.channel_id is not None:
            await _delete(self.bot, call.channel_id, call.message_id)

    async def _called(self, record: TournamentRecord) -> tuple[list[JudgeDuty], int | None]:
        """Whom a call notifies: the judges on duty, else the role called instead (the judge role, else the
        organisers'), if any."""
        duty = await self.service.on_duty(record.id)
        if duty:
            return duty, None
        return duty, (await self.service.settings(record.id)).role_id or record.organiser_role_id

    async def watch(self, call: JudgeCall) -> None:
        assert call.id is not None
        at = await self.service.reraise_at(call)
        self.alarms.arm(("judge", call.id), at.timestamp(), partial(self.reraise, call.id))

    async def reraise(self, call_id: int) -> bool:
        """Raise a call nobody claimed again, once, notifying the judges on duty: whether it did."""
        call = await self.service.get(call_id)
        record = await self.tournaments.get(call.tournament_id)
        if record.status != TournamentStatus.ACTIVE:
            return False
        raised = await self.service.reraise(call_id)
        if raised is None:
            return False
        await self.post_call(record, raised, headline=reraised(await self.service.reraise_minutes(record.id)))
        await self.show_calls(record, move=True)
        return True

    # ---- the judges' presses ------------------------------------------------------------------------

    async def on_press(self, interaction: discord.Interaction, call_id: int, action: str) -> None:
        call = await self.service.get(call_id)
        record = await self.tournaments.get(call.tournament_id)
        if action == "time":
            await self._give_time(interaction, record, call)
            return
        await self.judge_record(interaction, "claim a call" if action == "claim" else "resolve a call", record)
        if action == "claim":
            await self._claim(interaction, record, call)
        else:
            await self.service.resolvable(call_id)  # refused before the form: unclaimed, or closed already
            await interaction.response.send_modal(RulingForm(self, call))

    async def _claim(self, interaction: discord.Interaction, record: TournamentRecord, call: JudgeCall) -> None:
        assert call.id is not None
        claimed = await self.service.claim(call.id, str(interaction.user.id), interaction.user.display_name)
        self.alarms.drop(("judge", call.id))
        await self._show_call(interaction, record, claimed)
        await self._tell_thread(claimed, claimed_text(claimed), pinging(list(claimed.player_ids)))
        await self.show_calls(record)

    async def resolve(self, interaction: discord.Interaction, call_id: int, ruling: str | None) -> None:
        """The ruling form's submission (acknowledged already): close the call, tell its thread."""
        call = await self.service.get(call_id)
        record = await self.judge_record(interaction, "resolve a call", await self.tournaments.get(call.tournament_id))
        resolved = await self.service.resolve(call_id, str(interaction.user.id), interaction.user.display_name, ruling)
        self.alarms.drop(("judge", call_id))
        await self._show_call(interaction, record, resolved)
        await self._tell_thread(resolved, resolved_text(resolved), NO_PINGS)
        await self.show_calls(record)

    async def _give_time(self, interaction: discord.Interaction, record: TournamentRecord, call: JudgeCall) -> None:
        if not is_organiser(interaction, record):
            raise GameError("Only an organiser (Manage Server, or the event's organiser role) can give a table "
                            "more time.")
        assert call.id is not None
        extended, total = await self.service.extend(call.id)
        await self._show_call(interaction, record, extended)
        await self._tell_thread(extended, extended_text(record, extended, str(interaction.user.id), EXTRA_MINUTES,
                                                        total), pinging(list(extended.player_ids)))

    async def from_desk(self, record: TournamentRecord, call: JudgeCall) -> None:
        """A call claimed or resolved at the organiser's desk: its message, its thread and the calls list follow,
        as a press in the judges' channel would have them."""
        if call.message_id is not None and call.channel_id is not None:
            duty, role = await self._called(record)
            extra = await self.service.extension(record.id, call.round_number, call.table_number)
            try:
                await self.bot.get_partial_messageable(call.channel_id).get_partial_message(call.message_id).edit(
                    content=call_text(record, call, duty, role, extra, self.service.now()), view=call_view(call),
                    allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                _log.info("The message of judge call %s is gone", call.id)
        assert call.id is not None
        self.alarms.drop(("judge", call.id))
        if call.resolved_at is not None:
            await self._tell_thread(call, resolved_text(call), NO_PINGS)
        else:
            await self._tell_thread(call, claimed_text(call), pinging(list(call.player_ids)))
        await self.show_calls(record)

    async def _show_call(self, interaction: discord.Interaction, record: TournamentRecord, call: JudgeCall) -> None:
        """Redraw the call's message through the press (or the form) that changed it; nobody is notified."""
        duty, role = await self._called(record)
        extra = await self.service.extension(record.id, call.round_number, call.table_number)
        fields = dict(content=call_text(record, call, duty, role, extra, self.service.now()), view=call_view(call),
                      allowed_mentions=NO_PINGS)
        if interaction.response.is_done():
            await interaction.edit_original_response(**fields)
        else:
            await interaction.response.edit_message(**fields)

    async def _tell_thread(self, call: JudgeCall, text: str, mentions: discord.AllowedMentions) -> None:
        try:
            await self.bot.get_partial_messageable(call.thread_id, guild_id=call.guild_id).send(
                text, allowed_mentions=mentions)
        except discord.HTTPException:
            _log.warning("Could not tell the thread of judge call %s", call.id, exc_info=True)

    # ---- the calls message and who is on duty -------------------------------------------------------

    async def show_calls(self, record: TournamentRecord, *, move: bool = False,
                         fallback: int | None = None) -> str | None:
        """The event's calls message as it stands: edited in place, or posted anew at the bottom of the judges'
        channel (`move`, or when it is gone) with the one before deleted. Where it is, or None when the event has
        no judges' channel yet."""
        async with self._locks(record.id):
            settings = await self.service.settings(record.id)
            channel_id = await self._channel(record, fallback)
            if channel_id is None:
                return None
            embed = calls_embed(record, await self.service.open_calls(record.id), *await self._called(record))
            old_channel, old_message = settings.board_channel_id, settings.board_message_id
            if not move and old_channel == channel_id and old_message is not None:
                try:
                    await self.bot.get_partial_messageable(channel_id).get_partial_message(old_message).edit(
                        content=None, embed=embed, allowed_mentions=NO_PINGS)
                    return f"<#{channel_id}>"
                except discord.NotFound:
                    pass  # deleted: posted anew below
            try:
                message = await self.bot.get_partial_messageable(channel_id, guild_id=record.guild_id).send(
                    embed=embed, allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                _log.warning("Could not post the judge calls of event %s in %s", record.id, channel_id, exc_info=True)
                return None
            await self.service.configure(record.id, board_channel_id=channel_id, board_message_id=message.id)
            if old_channel is not None and old_message is not None:
                await _delete(self.bot, old_channel, old_message)
            return f"<#{channel_id}>"

    async def _channel(self, record: TournamentRecord, fallback: int | None) -> int | None:
        """The judges' channel: the organiser's choice, else the announcement channel, else where the calls went
        so far, else `fallback` (a table thread's channel)."""
        settings = await self.service.settings(record.id)
        return settings.channel_id or record.announce_channel_id or settings.board_channel_id or fallback

    async def duty(self, interaction: discord.Interaction, on: bool) -> None:
        record = await self.judge_record(interaction, "go on duty" if on else "go off duty")
        changed = await self.service.duty(record.id, str(interaction.user.id), interaction.user.display_name, on)
        where = await self.show_calls(record, fallback=interaction.channel_id) if changed else None
        state = "on duty: calls mention you" if on else "off duty: calls no longer mention you"
        already = "" if changed else " already"
        there = f" The calls are listed in {where}." if where else ""
        await reply_privately(interaction, f"You are{already} {state} at **{record.name}**.{there}")

    async def configure(self, interaction: discord.Interaction, channel: discord.abc.GuildChannel | None,
                        role: discord.Role | None, reraise_minutes: int | None) -> None:
        record = await self.tournaments.current(_guild(interaction))
        if not is_organiser(interaction, record):
            raise GameError("Only an organiser (Manage Server, or the event's organiser role) can set up the judges.")
        values: dict[str, int | None] = {}
        if channel is not None:
            values["channel_id"] = channel.id
        if role is not None:
            values["role_id"] = role.id
        if reraise_minutes is not None:
            values["reraise_minutes"] = reraise_minutes
        settings = await self.service.configure(record.id, **values)  # refused before the answer is deferred
        await interaction.response.defer(ephemeral=True, thinking=True)
        if reraise_minutes is not None:  # the calls waiting now are raised again at the new moment
            for call in await self.service.waiting():
                if call.tournament_id == record.id:
                    await self.watch(call)
        where = await self.show_calls(record, move=True, fallback=interaction.channel_id)
        judges = f"organisers and <@&{settings.role_id}>" if settings.role_id else "organisers"
        minutes = settings.reraise_minutes or DEFAULT_RERAISE_MINUTES
        await interaction.followup.send(
            f"Judge calls of **{record.name}** go to {where or 'the announcement channel'}; judges: {judges}. "
            f"A call nobody claims is raised again after {minutes} minutes. Judges go on duty with "
            "`/judge duty on`; with nobody on duty, a call notifies the judge role (else the organisers' role).",
            ephemeral=True, allowed_mentions=NO_PINGS)

    async def bring_calls(self, interaction: discord.Interaction) -> None:
        record = await self.judge_record(interaction, "list the calls")
        await interaction.response.defer(ephemeral=True, thinking=True)
        where = await self.show_calls(record, move=True, fallback=interaction.channel_id)
        await interaction.followup.send(f"The calls are listed at the bottom of {where}." if where else
                                        "No judges' channel yet: `/judge setup channel:`.", ephemeral=True)

    async def _event(self, interaction: discord.Interaction) -> TournamentRecord:
        record = await self.tournaments.repo.active(_guild(interaction))
        if record is None:
            raise GameError(NOT_A_TABLE)
        return record


async def _delete(bot: discord.Client, channel_id: int, message_id: int) -> None:
    try:
        await bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
    except discord.HTTPException:
        _log.info("Message %s of the judges is gone already", message_id)


def _guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise GameError("Judges work in a server's event.")
    return interaction.guild_id
