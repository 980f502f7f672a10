"""The live board of each game: the newest bot message of its channel, with the buttons of the moment.

When the game starts waiting on someone new (a turn, a decision, a question) or has news that must reach the
players (a time-out, a reveal, the start of a scheduled game), the board is posted anew at the bottom, its content
naming exactly who it waits on, and the board before it is deleted: a call is part of the board, never a message
of its own left behind. Between calls the board is edited in place, at once: refreshes arriving while an edit is in
flight ride on one more edit made when it is done, reading the newest state. An edit through the channel spends the
channel's allowance as Discord counts it (5 edits in 5 s): while it has room the edit goes at once, and only when it
has none does the edit wait for it, gathering the refreshes that arrive meanwhile. So every move of a burst shows as
soon as the edit before it is done, and a busy channel never waits on Discord's side with an old board.

Nothing is pinned: the board moves, and in Discord every pin leaves a "pinned a message" notice in the channel.
A board posted by an earlier version (pinned, with calls of its own) is deleted like any other at the next move.

One lock per game serialises its posts, deletions and edits (never the service's lock: that one is held only
across load, rules and save), so two moves at once leave one board.

Discord counts a bot's REST requests against a global limit of 50 a second, but not those made with an
interaction's token. So when a player's press on the board is what changed it, the board is edited (or, once it
moves, deleted) through that press's interaction, for as long as its token lasts; only the new board's post, and
changes nobody pressed on the board for, go through the channel. Forty tables starting together stay inside the
limit that way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.plumbing.budget import ChannelBudget
from bot.plumbing.locks import KeyedLocks
from bot.store.repository import GameRecord, GameRepository
from bot.ui.text import pinging

_log = logging.getLogger(__name__)

THREAD_ARCHIVED = 50083  # Discord's error code: a message in an archived thread cannot be edited
TOKEN_SECONDS = 14 * 60  # an interaction's token lasts 15 minutes: a press older than this is not used
PRESSES_KEPT = 1024  # boards whose last press is remembered (older ones use the channel)


@dataclass(frozen=True)
class Drawing:
    """A board as it is sent: the call naming who the game waits on (mentions in the text), the embed, the
    buttons."""

    content: str
    embed: discord.Embed
    view: discord.ui.View | None


class LiveBoards:
    """Every game's board message: posted, moved to the bottom, edited (at once, within the channel's allowance) or deleted, one
    game at a time, through the last press's token where there is one."""

    def __init__(self, bot: discord.Client, repo: GameRepository, load: Callable[[int], Awaitable[GameRecord]],
                 draw: Callable[[GameRecord, str | None], Drawing], *, budget: ChannelBudget | None = None) -> None:
        self.bot, self.repo = bot, repo
        self._load, self._draw = load, draw
        self.budget = budget or ChannelBudget()  # edits of a channel's messages, as Discord allows them
        self._locks = KeyedLocks()
        self._scheduled: dict[int, asyncio.Task] = {}  # edits still waiting to read the state
        self._running: set[asyncio.Task] = set()  # every edit not finished yet, for idle()
        # board message -> the last press on it: a player may press the new board before the old one is deleted
        self._presses: OrderedDict[int, tuple[discord.Interaction, float]] = OrderedDict()

    def pressed(self, interaction: discord.Interaction) -> None:
        """A press acknowledged on the board itself (a deferred update): its token may edit or delete the board. A
        press in a private menu (an ephemeral message) is no press on the board."""
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return
        if interaction.response.type is discord.InteractionResponseType.deferred_message_update:
            self._presses.pop(message.id, None)
            self._presses[message.id] = (interaction, time.monotonic())
            while len(self._presses) > PRESSES_KEPT:
                self._presses.popitem(last=False)

    def _press_on(self, message_id: int) -> discord.Interaction | None:
        """The last press on the board `message_id`, if its token still lasts."""
        interaction, at = self._presses.get(message_id, (None, 0.0))
        return interaction if interaction is not None and time.monotonic() - at < TOKEN_SECONDS else None

    async def move(self, game_id: int, *, notify: set[str], headline: str | None = None,
                   first: bool = False) -> discord.Message | None:
        """Post the board anew at the bottom of the game's channel, notifying exactly `notify` (player ids), and
        delete the ones before it: the posted board, or None while the game has none yet (its challenge is not
        accepted) unless this is its `first`. It reads the game as it is now, so a move racing another press never
        shows an older state; an edit still waiting to be made is not needed any more."""
        if (waiting := self._scheduled.pop(game_id, None)) is not None:
            waiting.cancel()  # not started yet: the board posted here is newer than its edit
        async with self._locks(game_id):
            earlier = await self.repo.board_messages(game_id)
            if not earlier and not first:
                return None
            record = await self._load(game_id)
            drawing = self._draw(record, headline)
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            mentions = pinging(sorted(notify))
            unnamed = " ".join(f"<@{p}>" for p in sorted(notify) if f"<@{p}>" not in drawing.content)
            content = f"{unnamed} {drawing.content}" if unnamed else drawing.content  # only a mention notifies
            message = await channel.send(content or None, embed=drawing.embed, view=drawing.view,
                                         allowed_mentions=mentions)
            await self.repo.add_board_message(game_id, record.channel_id, message.id)
            for board in earlier:
                await self._retire(board.channel_id, board.message_id, message)
        return message

    async def _retire(self, channel_id: int, message_id: int, newer: discord.Message) -> None:
        await self.repo.drop_board_message(message_id)
        press = self._press_on(message_id)
        self._presses.pop(message_id, None)  # the board is gone: so is what was pressed on it
        if press is not None:
            try:
                await press.delete_original_response()
                return
            except discord.HTTPException:
                pass  # the token no longer works: the channel's way below
        old = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await old.delete()
        except discord.NotFound:
            pass
        except discord.HTTPException:  # in an archived thread, say: it says where the live one is instead
            try:
                await old.edit(content=f"This board moved: {newer.jump_url}", embed=None, view=None)
            except discord.HTTPException:
                _log.info("Board %s could not be retired", message_id)

    def refresh(self, game_id: int) -> None:
        """Schedule one edit of the game's board, made once the edit in flight is done and the channel has room for
        it; refreshes arriving before it reads the state ride on it."""
        if game_id in self._scheduled:
            return
        task = asyncio.get_running_loop().create_task(self._refresh_soon(game_id))
        self._scheduled[game_id] = task
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def idle(self) -> None:
        """Wait for scheduled board edits (tests and shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _refresh_soon(self, game_id: int) -> None:
        async with self._locks(game_id):  # behind the edit in flight, or a move
            try:
                try:
                    boards = await self.repo.board_messages(game_id)
                    await asyncio.sleep(self._wait_for_room(boards))  # refreshes meanwhile ride on this edit
                finally:
                    if self._scheduled.get(game_id) is asyncio.current_task():
                        del self._scheduled[game_id]  # from here on, a refresh needs an edit of its own
                record = await self._load(game_id)
                drawing = self._draw(record, None)
                fields = dict(content=drawing.content or None, embed=drawing.embed, view=drawing.view,
                              allowed_mentions=discord.AllowedMentions.none())  # an edit never notifies
                for board in boards:
                    if await self._edit_through_press(board.message_id, fields):
                        continue
                    message = self.bot.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)
                    try:
                        await self._edit(message, fields)
                    except (discord.NotFound, discord.Forbidden):  # deleted, or the bot lost access
                        _log.warning("Board message %s of game %s cannot be edited", board.message_id, game_id)
            except Exception:
                _log.exception("Could not refresh the board of game %s", game_id)

    def _wait_for_room(self, boards: list) -> float:
        """The seconds until every board edited through its channel fits the channel's allowance (a board pressed
        on is edited with the press's token, which the channel does not count)."""
        return max((self.budget.reserve(board.channel_id) for board in boards
                    if self._press_on(board.message_id) is None), default=0.0)

    async def _edit_through_press(self, message_id: int, fields: dict) -> bool:
        """Edit the board with the token of the press made on it, outside the global limit: whether it did."""
        press = self._press_on(message_id)
        if press is None:
            return False
        try:
            await press.edit_original_response(**fields)
        except discord.HTTPException:  # the token expired, or the thread archived itself: the channel's way
            return False
        return True

    async def _edit(self, message: discord.PartialMessage, fields: dict) -> None:
        """A board in a thread that archived itself while the game was quiet is unarchived first."""
        try:
            await message.edit(**fields)
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            thread = await self.bot.fetch_channel(message.channel.id)
            await thread.edit(archived=False, reason="Mission Deck game board")  # type: ignore[union-attr]
            await message.edit(**fields)
