"""Threads within Discord's count: a server holds at most 1,000 active threads, and an event opens one a table every
round. When a new thread finds the server full, the bot archives its own threads where nothing is being played (no
game in progress, not a table or match of a running event's round), the longest quiet first, and opens it again.
An archived thread stays readable, and a message in it opens it again."""

from __future__ import annotations

import logging

import discord

from bot.engine.errors import GameError
from bot.store.tournament_repository import TournamentRecord
from bot.ui.permissions import missing_permission_text

_log = logging.getLogger(__name__)

MAX_ACTIVE_THREADS = 160006  # Discord's error code: the server has as many active threads as it may
ROOM = 25  # threads archived at once to make room: a round's tables open soon after one another
FULL = ("This server has as many active threads as Discord allows (1,000), and none of mine can be archived to make "
        "room: archive some threads (a thread's ⋯ menu, Close Thread) and try again.")


async def new_thread(client: discord.Client, channel: discord.TextChannel, name: str, reason: str) -> discord.Thread:
    """A public thread from `channel`, making room for it when the server is at Discord's count. Its members come
    in by a mention in its first message, which adds them to a public thread without a call each."""
    for attempt in range(2):
        try:
            return await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread, reason=reason)
        except discord.Forbidden:
            raise GameError(missing_permission_text("create_public_threads")) from None
        except discord.HTTPException as exc:
            if exc.code != MAX_ACTIVE_THREADS:
                raise
            if attempt or not await make_room(client, channel.guild):
                raise GameError(FULL) from None
    raise AssertionError("unreachable: the second attempt returns or raises")


async def make_room(client: discord.Client, guild: discord.Guild) -> int:
    """Archive up to ROOM of the bot's own active threads where nothing is being played, the longest quiet first:
    how many."""
    assert client.user is not None
    own = [t for t in await guild.active_threads() if t.owner_id == client.user.id]
    record = await client.tournaments.repo.active(guild.id)  # type: ignore[attr-defined]
    kept = in_play(record) | await client.service.repo.channels_playing([t.id for t in own])  # type: ignore[attr-defined]
    quiet = sorted((t for t in own if t.id not in kept), key=lambda t: t.last_message_id or t.id)[:ROOM]
    for thread in quiet:
        await thread.edit(archived=True, reason="Room for new threads: the server is at Discord's limit")
    _log.info("Archived %d threads of server %s to make room for new ones", len(quiet), guild.id)
    return len(quiet)


async def archive(client: discord.Client, thread_id: int, reason: str) -> None:
    """Archive a thread; one deleted or out of reach has nothing to archive."""
    try:
        await client.http.edit_channel(thread_id, archived=True, reason=reason)
    except discord.HTTPException as exc:  # deleted, out of reach, or archived already
        _log.info("Thread %s not archived: %s", thread_id, exc)


def in_play(record: TournamentRecord | None) -> set[int]:
    """The threads of a running event's current round: its tables' and its team matches'."""
    if record is None or not record.state.event.rounds:
        return set()
    number = record.state.event.rounds[-1].number
    return ({g.thread_id for g in record.state.table_games if g.round_number == number}
            | {b.thread_id for b in record.state.match_boards if b.round_number == number})
