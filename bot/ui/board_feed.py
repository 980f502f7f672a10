"""The Discord board's side of the change stream (bot/plumbing/changes.py): each change of a game this process made is
answered to its presser privately first (the interaction the task runs, `answering`), then shown on the live board
(bot/ui/live_board.py), which carries the call: when an action leaves the game waiting on someone new, the board
moves to the bottom of the channel naming them; otherwise it is edited in place. The end of a game gets its result
card. Who to call follows from the state before and after each action, not from memory.

What it keeps per game is bounded, as other processes serve other games and a game may be left unfinished forever:
the recent events of the board for the RECENT_GAMES most recently active games (the boards' own memory, scheduled
edits and the last press on each board, is LiveBoards').
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import discord

from bot.plumbing.changes import Change
from bot.engine.chapter_approved.state import Status
from bot.engine.events import Event
from bot.services.games import ActResult, GameService
from bot.store.models import GameStatus
from bot.store.repository import GameRecord
from bot.present import game_model, play
from bot.present.asks import Wait
from bot.present.pictures.sheets import score_sheet
from bot.present.recent import RecentEvents
from bot.ui.board_embed import board_embed
from bot.ui.calls import StoredCalls, call_line
from bot.ui.controls import GameButton, view_of
from bot.ui.files import attached
from bot.ui.limits import MESSAGE_CHARS
from bot.ui.live_board import Drawing, LiveBoards
from bot.ui.packs import PackViews
from bot.ui.text import clip, pinging
from bot.engine.sides import everyone, members, seat_of
from bot.plumbing.drawing import drawn

RECENT_EVENTS = 8
RECENT_GAMES = 512
# The interaction the running task answers, so that the change it makes is answered to its sender first.
_ANSWERING: ContextVar[discord.Interaction | None] = ContextVar("answering", default=None)


class BoardFeed:
    """The live boards of this process's games, their calls and result cards: a subscriber of the change stream."""

    def __init__(self, bot: discord.Client, service: GameService, views: PackViews, *,
                 activity: bool = False) -> None:
        self.bot, self.service, self.views = bot, service, views
        self.activity = activity  # the web pages serve the Discord Activity: a board in a voice chat can open it
        self.recent = RecentEvents(RECENT_GAMES, RECENT_EVENTS)
        self.boards = LiveBoards(bot, service.repo, self._load, self.draw)
        self.calls = StoredCalls(bot, service.community)
        self._showing = InFlight()  # changes on their way to the board
        # Buttons other features add to a game's board (an event table's Call a judge): None where they have none.
        self.extras: list[Callable[[GameRecord], discord.ui.Item | None]] = []

    async def _load(self, game_id: int) -> GameRecord:
        return await self.service.get_state(game_id=game_id)

    def draw(self, record: GameRecord, headline: str | None) -> Drawing:
        """The board as it stands: news first, then the call naming who the game waits on, the embed, the
        buttons."""
        model = game_model(self.service.packs, record.state, game_id=record.id, version=record.version,
                           recent=self.recent.lines(record.id))
        embed = board_embed(model)
        view = view_of(*(GameButton(record.id, record.version, c.verb)
                         for c in play.controls(self.service.packs, record.state)))
        if self.activity and record.status == GameStatus.ACTIVE and self._in_voice(record.channel_id):
            view.add_item(GameButton(record.id, 0, "table"))  # any version: it opens the table as it is then
        for extra in self.extras:
            if (item := extra(record)) is not None:
                try:
                    view.add_item(item)
                except ValueError:  # the board has no room left: the feature's command still works
                    pass
        call = call_line(self.views.mission_deck.catalog_of, record.state, self.waits(record.state))
        if record.status != GameStatus.ACTIVE:
            self.recent.forget(record.id)  # the final board is drawn: forget the game
        return Drawing("\n".join(line for line in (headline, call) if line), embed, view)

    def _in_voice(self, channel_id: int) -> bool:
        """Whether the channel is a voice channel's chat, where the Activity runs in the call."""
        return isinstance(self.bot.get_channel(channel_id), discord.VoiceChannel | discord.StageChannel)

    async def move_board(self, game_id: int, *, notify: set[str], headline: str | None = None,
                         first: bool = False) -> bool:
        """Post the board anew at the bottom, notifying the players of the seats `notify` (both of a side, in
        doubles) less anyone who turned pings off: whether it did (a game whose challenge is not accepted has no
        board to move, unless this is its `first`)."""
        setup = (await self.service.get_state(game_id=game_id)).setup
        quiet = await self.service.repo.quiet_players(game_id)
        people = {p for seat in notify for p in members(setup, seat)} - quiet
        return await self.boards.move(game_id, notify=people, headline=headline, first=first) is not None

    def request_refresh(self, game_id: int) -> None:
        self.boards.refresh(game_id)

    async def idle(self) -> None:
        """Wait for the changes being shown and the board edits scheduled (tests and shutdown): a change published
        by another surface (the Activity) may still be on its way to the board when its page has it."""
        await self._showing.none()
        await self.boards.idle()

    @contextmanager
    def answering(self, interaction: discord.Interaction) -> Iterator[None]:
        """The press or command this task runs: the change it makes answers it (bot/plumbing/changes.py)."""
        token = _ANSWERING.set(interaction)
        try:
            yield
        finally:
            _ANSWERING.reset(token)

    async def on_change(self, change: Change) -> None:
        """A change of a game this process made: lines for the actor alone go to them privately first, if the
        change answers their press; then the board and its calls show the rest (a time-out with its news)."""
        if not change.played_here or change.what == "start":
            return  # another process serves that channel; a new game's board waits for its challenge's answer
        with self._showing:
            await self._show_change(change)

    async def _show_change(self, change: Change) -> None:
        interaction = _ANSWERING.get()
        if interaction is not None and change.actor == seat_of(change.result.state.setup, str(interaction.user.id)):
            await _answer_privately(interaction, [e.text for e in change.result.events
                                                  if e.private_to == change.actor])
        if change.what == "time_out":  # news for both players
            text = " ".join(e.text for e in change.result.events if e.private_to is None)
            await self.show(change.result, actor=None, headline=f"⌛ {text}")
        else:
            await self.show(change.result, actor=change.actor)

    def waits(self, state) -> set[Wait]:
        """What the game waits on: each pack says, flat as (player, verb, ...)."""
        return {Wait.of(flat) for flat in self.views.of(state).waits(state)}

    def note(self, game_id: int, events: tuple[Event, ...]) -> None:
        self.recent.add(game_id, [event.text for event in events if event.private_to is None])

    async def show(self, result: ActResult, *, actor: str | None, headline: str | None = None) -> None:
        """After an action: the board moves to the bottom calling each player play passes to (their turn, a
        decision), once, or with news for both players; otherwise it is edited in place. The end of the game gets
        its result card."""
        state = result.state
        self.note(result.game_id, result.events)
        # Each turn and decision is called once, when it appears, not again with every action taken while it
        # waits: what waited before this action is known from its state, so a restart repeats nothing.
        now = self.waits(state)
        await self.calls.close_answered(result.game_id, state, now)
        before = self.waits(result.previous) if result.previous is not None else set()
        called = {w.player for w in now - before}
        headline = headline or self.views.of(state).headline(result)
        over = state.status in (Status.ENDED, Status.ABANDONED)
        players = set(state.setup.players) if headline else called
        if not ((called or headline) and not over
                and await self.move_board(result.game_id, notify=players - {actor}, headline=headline)):
            self.request_refresh(result.game_id)
        if over:
            await self._result_card(result, headline)

    async def _result_card(self, result: ActResult, headline: str | None) -> None:
        """The result card, under the final board; news that ended the game (a time-out) notifies both players.
        A challenge called off before it was accepted had no board, and has no result card."""
        if not await self.service.repo.board_messages(result.game_id):
            return
        record = await self.service.get_state(game_id=result.game_id)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        quiet = await self.service.repo.quiet_players(result.game_id)
        notify = [p for p in everyone(record.setup) if p not in quiet] if headline else []
        content = " ".join([*(f"<@{p}>" for p in notify), headline]) if headline else None
        card_fields = await drawn(self.result_card, result)  # the sheet takes a while
        card = await channel.send(content, **card_fields, allowed_mentions=pinging(notify))
        await self.service.history.set_result_message(result.game_id, card.id)

    def result_card(self, result: ActResult) -> dict:
        """The result embed with its score sheet picture (where the game has one), and the Rematch button."""
        model = game_model(self.service.packs, result.state, game_id=result.game_id, version=result.version,
                           recent=[])
        rematch = view_of(GameButton(result.game_id, 0, "rematch"))  # any version: it reads the finished game
        return dict(**self.views.of(result.state).result_card(model, result.state), view=rematch)

    def sheet_file(self, state, game_id: int) -> discord.File:
        """The score sheet picture (public information only) of any pack's game."""
        return attached(score_sheet(self.service.packs, state, game_id))


async def _answer_privately(interaction: discord.Interaction, lines: list[str]) -> None:
    """Lines for the actor alone (a secret choice confirmed) replace the private menu or the "thinking…" they used;
    without any, the menu or the "thinking…" goes, as the board shows the rest. A press on the board says
    nothing."""
    text = clip("\n".join(lines), MESSAGE_CHARS)
    message = interaction.message
    menu = message is not None and message.flags.ephemeral
    try:
        if menu or interaction.type is discord.InteractionType.application_command:
            if lines:
                await interaction.edit_original_response(content=text, view=None)
            else:
                await interaction.delete_original_response()
            return
    except discord.NotFound:  # gone already: a press that made two moves (Battle Ready, then deployed)
        pass
    if lines:
        await interaction.followup.send(text, ephemeral=True)


class InFlight:
    """Work under way (a `with` block each), and a wait for none."""

    def __init__(self) -> None:
        self._count, self._idle = 0, asyncio.Event()
        self._idle.set()

    def __enter__(self) -> None:
        self._count += 1
        self._idle.clear()

    def __exit__(self, *exc: object) -> None:
        self._count -= 1
        if not self._count:
            self._idle.set()

    async def none(self) -> None:
        await self._idle.wait()
