"""Where interactions meet the service: run an action, answer the player, keep the board current.

Board edits are coalesced: a burst of presses schedules one edit that reads the newest state, so a
busy table stays inside Discord's rate limits. Nothing here holds the service's lock during a
Discord call.

What the desk keeps per game is bounded, as other processes serve other games and a game may be left
unfinished forever: a scheduled edit lives for one coalescing delay, a board being posted for one
accept, and the recent events of the board for the RECENT_GAMES most recently active games.
Which decisions to announce follows from the state before and after each action, not from memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from datetime import timedelta

import discord

from bot.engine import moves
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, Status
from bot.engine.errors import GameError
from bot.engine.events import Event
from bot.engine.rng import new_seed
from bot.service import ActResult, GameService, StaleBoard
from bot.store.models import GameStatus, utcnow
from bot.store.repository import GameRecord
from bot.ui.alarms import Alarms
from bot.ui.calls import Calls
from bot.ui.challenge import offer_game
from bot.ui.clock_watch import ClockWatch
from bot.ui.controls import GameButton, view_of
from bot.ui.errors import MESSAGE_LIMIT, answer_failure, send_error
from bot.ui.open_challenge import OpenChallenges
from bot.ui.packs import PackViews
from bot.ui.permissions import missing_permission_text
from bot.ui.reminders import Reminders
from bot.ui.text import clip
from bot.ui.tournament import report_table_game

_log = logging.getLogger(__name__)

RECENT_EVENTS = 8
RECENT_GAMES = 512
ANSWERED = "This challenge has already been answered."
REMATCH_WITHIN = timedelta(days=1)
MENU_LINES = 3  # what a used menu says when the action had no line for the player alone
# Waits a call names without a button of its own: the turn (the board has its buttons), the side (chosen on the board).
NO_BUTTON = frozenset({"turn", "sides"})


class GameDesk:
    def __init__(self, bot: discord.Client, service: GameService, *, coalesce_seconds: float = 0.75) -> None:
        self.bot = bot
        self.service = service
        self.coalesce_seconds = coalesce_seconds
        self.recent = RecentEvents(RECENT_GAMES, RECENT_EVENTS)
        self._scheduled: dict[int, asyncio.Task] = {}  # edits still waiting to read the state
        self._running: set[asyncio.Task] = set()  # every edit not finished yet, for idle()
        self._accepting: set[int] = set()  # games whose board is being posted
        self.alarms = Alarms()  # every stored moment this process waits for: clocks, challenges, reminders
        self.clocks = ClockWatch(self, self.alarms)
        self.calls = Calls(self)
        self.challenges = OpenChallenges(self, service.community)
        self.views = PackViews(service.packs)
        self.reminders = Reminders(self, service.community)

    # ---- the board -----------------------------------------------------------------------------

    def catalog_of(self, state: GameState) -> Catalog:
        """The decks of the Chapter Approved season a Mission Deck game is played with."""
        return self.views.mission_deck.catalog_of(state)

    def render(self, game_id: int, state, version: int) -> tuple[discord.Embed, discord.ui.View]:
        return self.views.of(state).board(game_id, state, version, self.recent.lines(game_id))

    async def post_board(self, channel: discord.abc.Messageable, record: GameRecord) -> discord.Message:
        """Post the board and pin it; an earlier board of the game is unpinned and retired, so the channel has
        one live, pinned board."""
        embed, view = self.render(record.id, record.state, record.version)
        earlier = await self.service.repo.board_messages(record.id)
        message = await channel.send(embed=embed, view=view)
        await self.service.repo.add_board_message(record.id, record.channel_id, message.id)
        try:
            await message.pin(reason="Mission Deck game board")
        except discord.Forbidden:
            await channel.send(missing_permission_text("manage_messages"))
        for board in earlier:
            await self._retire_board(board, message)
        return message

    async def _retire_board(self, board, newer: discord.Message) -> None:
        old = self.bot.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)
        await self.service.repo.drop_board_message(board.message_id)
        try:
            await old.unpin(reason="The board moved")
            await old.edit(content=f"This board moved: {newer.jump_url}", embed=None, view=None)
        except (discord.NotFound, discord.Forbidden):
            pass  # deleted, or no Manage Messages: it was never pinned either

    def request_refresh(self, game_id: int) -> None:
        """Schedule one board edit; presses arriving meanwhile ride on it."""
        if game_id in self._scheduled:
            return
        task = asyncio.get_running_loop().create_task(self._refresh_later(game_id))
        self._scheduled[game_id] = task
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def idle(self) -> None:
        """Wait for scheduled board edits (tests and shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _refresh_later(self, game_id: int) -> None:
        try:
            await asyncio.sleep(self.coalesce_seconds)
        finally:
            del self._scheduled[game_id]  # from here on, a new press schedules a new edit
        try:
            record = await self.service.get_state(game_id=game_id)
            embed, view = self.render(record.id, record.state, record.version)
            for board in await self.service.repo.board_messages(game_id):
                message = self.bot.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)
                try:
                    await _edit_board(self.bot, message, embed=embed, view=view)
                except (discord.NotFound, discord.Forbidden):  # deleted, or the bot lost access: the others
                    _log.warning("Board message %s of game %s cannot be edited", board.message_id, game_id)
            if record.status != GameStatus.ACTIVE:
                self.recent.forget(game_id)  # the final board is drawn: forget the game
        except Exception:
            _log.exception("Could not refresh the board of game %s", game_id)

    # ---- running actions -----------------------------------------------------------------------

    async def perform(self, interaction: discord.Interaction, action: moves.Move, *, game_id: int | None = None,
                      version: int | None = None, done: str | None = None) -> ActResult | None:
        """Apply the action; refusals go to the sender only, and change nothing."""
        if not interaction.response.is_done():
            # A slash command gets a private "thinking…" answer; a button or menu keeps its message as it is.
            await interaction.response.defer(ephemeral=interaction.type is discord.InteractionType.application_command)
        try:
            result = await self.service.act(action, game_id=game_id, channel_id=None if game_id else
                                            interaction.channel_id, expected_version=version)
        except StaleBoard as exc:
            await send_error(interaction, exc.message)
            if game_id is not None:
                self.request_refresh(game_id)
            return None
        except GameError as exc:
            await send_error(interaction, exc.message)
            return None
        await self.after(interaction, result, actor=action.actor, done=done)
        return result

    async def after(self, interaction: discord.Interaction, result: ActResult, *, actor: str,
                    done: str | None = None) -> None:
        """Show what happened: private lines to the actor, public ones on the board, prompts to their player."""
        lines = [e.text for e in result.events if e.private_to == actor] + ([done] if done else [])
        self.note(result.game_id, result.events)
        if _used_menu(interaction):  # a private menu closes once used, saying what was chosen
            chosen = lines or [e.text for e in result.events if e.private_to is None][:MENU_LINES] or ["Done."]
            await interaction.edit_original_response(content=clip("\n".join(chosen), MESSAGE_LIMIT), view=None)
        elif lines:
            await interaction.followup.send("\n".join(lines), ephemeral=True)
        self.request_refresh(result.game_id)
        self.clocks.watch(result.game_id, result.state)
        await self._announce(interaction, result, actor)

    def waits(self, state) -> set[tuple[str, ...]]:
        """What the game waits on, as (player, verb, ...): each pack says."""
        return self.views.of(state).waits(state)

    def note(self, game_id: int, events: tuple[Event, ...]) -> None:
        self.recent.add(game_id, [event.text for event in events if event.private_to is None])

    async def _announce(self, interaction: discord.Interaction, result: ActResult, actor: str) -> None:
        """Ping each player play passes to (their turn, a decision), once; the end of the game gets its result card."""
        state = result.state
        if interaction.channel is None:
            return
        # Each turn and decision is announced once, when it appears, not again with every action taken while it
        # waits: what waited before this action is known from its state, so a restart repeats nothing.
        now = self.waits(state)
        await self.calls.close_answered(result.game_id, state, now)
        await self.views.of(state).announce(self, interaction.channel, result)
        before = self.waits(result.previous) if result.previous is not None else set()
        new = now - before
        for player in sorted({w[0] for w in new}):
            asked = sorted((w for w in new if w[0] == player), key=lambda w: (w[1] != "turn", w))  # the turn first
            buttons = [GameButton(result.game_id, result.version, verb)
                       for verb in dict.fromkeys(w[1] for w in asked) if verb not in NO_BUTTON]
            await self.calls.post(interaction.channel, result.game_id, state, player, asked,
                                  view_of(*buttons) if buttons else None,
                                  await self.ping_to(result.game_id, player, actor=actor))
        if state.status in (Status.ENDED, Status.ABANDONED):
            card = await interaction.channel.send(**self.result_card(state, result.game_id))
            await self.service.history.set_result_message(result.game_id, card.id)
            if interaction.guild_id is not None:
                try:
                    await report_table_game(self.bot, interaction.channel, interaction.guild_id, result.game_id,
                                            state)
                except Exception:  # the game is over either way; /tournament status collects its result later
                    _log.exception("Could not report game %s to its tournament", result.game_id)
                try:  # after the report, which marks a tournament's game as such
                    await self.service.ladders.game_ended(interaction.guild_id, result.game_id)
                except Exception:  # the ladder's recompute (/ladder void, a new season) counts it again
                    _log.exception("Could not count game %s on its server's ladder", result.game_id)

    def result_card(self, state, game_id: int) -> dict:
        """The result embed with its score sheet picture (where the game has one), and the Rematch button."""
        rematch = view_of(GameButton(game_id, 0, "rematch"))  # any version: it reads the finished game
        return dict(**self.views.of(state).result_card(state, game_id), view=rematch)

    def sheet_file(self, state, game_id: int) -> discord.File:
        """The score sheet picture (public information only) of any pack's game."""
        return self.views.of(state).sheet_file(state, game_id)

    async def ping_to(self, game_id: int, player: str, *, actor: str | None) -> discord.AllowedMentions:
        """Mentions that notify `player` alone; none when they just acted themselves or turned pings off."""
        if player == actor or player in await self.service.repo.quiet_players(game_id):
            return discord.AllowedMentions.none()
        return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(int(player))])

    # ---- buttons and menus ---------------------------------------------------------------------

    async def on_button(self, interaction: discord.Interaction, game_id: int, version: int, verb: str) -> None:
        try:
            await self._on_button(interaction, game_id, version, verb)
        except Exception as exc:
            await answer_failure(interaction, exc, f"Button {verb} of game {game_id}")

    async def on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                        values: list[str]) -> None:
        try:
            await self._on_select(interaction, game_id, version, verb, values)
        except Exception as exc:
            await answer_failure(interaction, exc, f"Menu {verb} of game {game_id}")

    async def _current(self, interaction: discord.Interaction, game_id: int, version: int | None) -> GameRecord:
        """The game as it is now, refusing strangers and presses on an outdated board."""
        record = await self.service.get_state(game_id=game_id, version=version)
        me = str(interaction.user.id)
        if me not in record.setup.players:
            raise GameError("Only the two players of this game can use its buttons.")
        if version is not None and record.version != version:
            self.request_refresh(game_id)
            raise StaleBoard("This board is out of date: the game has moved on. The board is being refreshed.")
        return record

    async def _on_button(self, interaction: discord.Interaction, game_id: int, version: int, verb: str) -> None:
        me = str(interaction.user.id)
        if verb in ("accept", "accept-first", "decline"):
            await self._accept_or_decline(interaction, game_id, verb)
            return
        if verb == "rematch":
            await self._rematch(interaction, game_id)
            return
        if verb in ("endby-first", "endby-second"):  # an agreement holds however the game moved on
            await self._agree_to_end(interaction, game_id, me, verb)
            return
        version = None if verb in self.views.unversioned else version
        if verb in self.views.acting or verb == "undo":  # at once: reading the game may wait behind other writes
            await interaction.response.defer()
        record = await self._current(interaction, game_id, version)
        view = self.views.of(record.state)
        if verb == "undo":
            await self._undo(interaction, record, me)
        elif verb in view.simple_actions:
            await self.perform(interaction, view.simple_actions[verb](me, record.state), game_id=game_id,
                               version=version)
        else:
            await view.press(self, interaction, record, verb, version)

    async def _undo(self, interaction: discord.Interaction, record: GameRecord, me: str) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()
        try:
            result = await self.service.undo(record.channel_id, me, expected_version=record.version)
        except GameError as exc:
            await send_error(interaction, exc.message)
            return
        await self.after(interaction, result, actor=me)

    async def _agree_to_end(self, interaction: discord.Interaction, game_id: int, me: str, verb: str) -> None:
        """/game end by one player: the other player's press abandons the game."""
        record = await self.service.get_state(game_id=game_id)
        if me not in record.setup.players:
            raise GameError("Only the two players of this game can use its buttons.")
        asked_by = record.setup.players[0 if verb == "endby-first" else 1]
        if me == asked_by:
            raise GameError("Your opponent has to agree: wait for them to press the button.")
        await interaction.response.edit_message(view=None)
        result = await self.service.act(moves.Abandon(actor=me), game_id=game_id)
        await self.after(interaction, result, actor=me, done="Game abandoned.")

    async def _on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                         values: list[str]) -> None:
        version = None if verb in self.views.unversioned else version
        record = await self._current(interaction, game_id, version)
        await self.views.of(record.state).select(self, interaction, record, verb, values, version)

    async def _accept_or_decline(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        record = await self.service.get_state(game_id=game_id)
        me = str(interaction.user.id)
        if me not in record.setup.players:
            raise GameError("This challenge is not for you.")
        if record.status != GameStatus.ACTIVE:
            raise GameError("This game is over: start a new one with /game new.")
        accepting = record.setup.players[0 if verb == "accept-first" else 1]
        if verb != "decline" and me != accepting:
            raise GameError("Waiting for your opponent to accept.")
        if game_id in self._accepting:  # claimed before any await: a double click posts one board
            raise GameError(ANSWERED)
        self._accepting.add(game_id)
        try:
            if await self.service.repo.board_messages(game_id):
                raise GameError(ANSWERED)
            await interaction.response.edit_message(view=None)  # the briefing stays, its buttons go
            if verb == "decline":  # either player may call it off before it starts
                # By game id: an old challenge must never end a newer game of the channel.
                result = await self.service.act(moves.Abandon(actor=me), game_id=game_id)
                self.note(game_id, result.events)
                await interaction.followup.send(f"{interaction.user.mention} called the game off.")
            else:
                await interaction.followup.send(
                    f"{interaction.user.mention} accepts! Here is the board; the briefing is above.",
                    allowed_mentions=discord.AllowedMentions.none())
                await self.open_board(interaction.channel, record, actor=me)
        finally:
            self._accepting.discard(game_id)

    def briefing(self, state, events: tuple[Event, ...]) -> dict:
        """The briefing embeds (and map pictures) of a game about to start, for any pack."""
        return self.views.of(state).briefing(state, events)

    async def open_board(self, channel: discord.abc.Messageable, record: GameRecord, *, actor: str) -> None:
        """Both players are in: the board, and a ping to the player the game passes to first."""
        await self.post_board(channel, record)
        for player in sorted({w[0] for w in self.waits(record.state)}):  # the roll-off or Strategy Roll winner
            asked = sorted(w for w in self.waits(record.state) if w[0] == player)
            await self.calls.post(channel, record.id, record.state, player, asked, None,
                                  await self.ping_to(record.id, player, actor=actor))

    async def _rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The same pack, size and options with a new secret seed, the seats the other way round; the other
        player accepts."""
        record = await self.service.get_state(game_id=game_id)
        me = str(interaction.user.id)
        if me not in record.setup.players:
            raise GameError("Only the two players of this game can ask for a rematch.")
        if record.status == GameStatus.ACTIVE:
            raise GameError("This game is still being played.")
        if utcnow() - record.updated_at > REMATCH_WITHIN:
            raise GameError("Rematches can be asked for up to a day after the game: start a new one with /game new.")
        setup = rematch_setup(record.setup)
        other = next(p for p in setup.players if p != me)
        await interaction.response.defer(ephemeral=True)
        content = (f"<@{other}>, {interaction.user.mention} asks for a rematch: the same pack, size and options, "
                   "a new secret seed, the seats the other way round.")
        result, message = await offer_game(self.bot, interaction.guild_id, interaction.channel, setup, content,
                                           [discord.Object(int(other))], thread=False,
                                           accept="accept" if setup.players[1] == other else "accept-first")
        await interaction.channel.send(**message)
        await interaction.followup.send(f"Rematch offered: game {result.game_id}.", ephemeral=True)


def rematch_setup(setup):
    """A new game like `setup`'s: the players' seats swapped, a new secret seed, the current setup version."""
    fields = setup.model_dump(exclude={"version", "seed", "seed_fixed_by"})
    fields.update(players=setup.players[::-1], names=setup.names[::-1], seed=new_seed())
    if "strategy_ratings" in fields:
        fields["strategy_ratings"] = setup.strategy_ratings[::-1]
    return type(setup)(**fields)


def _used_menu(interaction: discord.Interaction) -> bool:
    """Was this a press on a private menu (an ephemeral message of the bot's), not on the board or a call?"""
    message = interaction.message
    return interaction.type is discord.InteractionType.component and message is not None and message.flags.ephemeral


THREAD_ARCHIVED = 50083  # Discord's error code: a message in an archived thread cannot be edited


async def _edit_board(bot: discord.Client, message: discord.PartialMessage, **fields) -> None:
    """Edit a board; one in a thread that archived itself while the game was quiet is unarchived first."""
    try:
        await message.edit(**fields)
    except discord.HTTPException as exc:
        if exc.code != THREAD_ARCHIVED:
            raise
        thread = await bot.fetch_channel(message.channel.id)
        await thread.edit(archived=False, reason="Mission Deck game board")
        await message.edit(**fields)


class RecentEvents:
    """The last public lines of each of the most recently active games, for their boards: a bounded cache
    (a game pushed out, or served before a restart, shows fewer lines, nothing else)."""

    def __init__(self, games: int, lines: int) -> None:
        self._games, self._lines = games, lines
        self._by_game: OrderedDict[int, deque[str]] = OrderedDict()

    def add(self, game_id: int, texts: list[str]) -> None:
        lines = self._by_game.pop(game_id, None) or deque(maxlen=self._lines)
        lines.extend(texts)
        self._by_game[game_id] = lines  # now the most recent
        while len(self._by_game) > self._games:
            self._by_game.popitem(last=False)

    def lines(self, game_id: int) -> list[str]:
        return list(self._by_game.get(game_id, ()))

    def forget(self, game_id: int) -> None:
        self._by_game.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._by_game)
