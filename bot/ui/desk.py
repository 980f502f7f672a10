"""Where interactions meet the service: run an action, answer the player, keep the live board current.

The board (bot/ui/live_board.py) carries the call: when an action leaves the game waiting on someone new, the board
moves to the bottom of the channel naming them; otherwise it is edited in place. A press whose effect shows on the
board gets no reply of its own; private replies are for private things (a secret choice, a refusal). Nothing here
holds the service's lock during a Discord call.

What the desk keeps per game is bounded, as other processes serve other games and a game may be left unfinished
forever: a board being posted for one accept, and the recent events of the board for the RECENT_GAMES most
recently active games (the boards' own memory, scheduled edits and the last press on each board, is LiveBoards').
Who to call follows from the state before and after each action, not from memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from datetime import datetime, timedelta

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
from bot.ui.armies import ArmyForm
from bot.ui.calls import StoredCalls, call_line
from bot.ui.challenge import ACCEPT_QUESTION, offer_game
from bot.ui.clock_watch import ClockWatch
from bot.ui.controls import GameButton, view_of
from bot.ui.errors import answer_failure, send_error
from bot.ui.live_board import Drawing, LiveBoards
from bot.ui.open_challenge import OpenChallenges
from bot.ui.packs import PackViews
from bot.ui.reminders import Reminders
from bot.ui.text import clip
from bot.ui.tournament import report_table_game
from bot.ui.limits import MESSAGE_CHARS

_log = logging.getLogger(__name__)

RECENT_EVENTS = 8
RECENT_GAMES = 512
ANSWERED = "This challenge has already been answered."
REMATCH_WITHIN = timedelta(days=1)


class GameDesk:
    """Routes a game's presses, menus and forms to the service, answers the presser, and hands what changed to the
    live board, the calls, the clock watch and the result card."""

    def __init__(self, bot: discord.Client, service: GameService, *, coalesce_seconds: float = 0.75) -> None:
        self.bot = bot
        self.service = service
        self.recent = RecentEvents(RECENT_GAMES, RECENT_EVENTS)
        self.views = PackViews(service.packs)
        self.boards = LiveBoards(bot, service.repo, self._load, self.draw, coalesce_seconds=coalesce_seconds)
        self.calls = StoredCalls(bot, service.community)
        self._accepting: set[int] = set()  # games whose board is being posted
        self.alarms = Alarms()  # every stored moment this process waits for: clocks, challenges, reminders
        self.clocks = ClockWatch(bot, service, self.alarms, shown=self.show)
        self.challenges = OpenChallenges(self, service.community)
        self.reminders = Reminders(bot, service, self.alarms, move_board=self.move_board)

    @property
    def coalesce_seconds(self) -> float:
        return self.boards.coalesce_seconds

    @coalesce_seconds.setter
    def coalesce_seconds(self, seconds: float) -> None:
        self.boards.coalesce_seconds = seconds

    # ---- the board -----------------------------------------------------------------------------

    def catalog_of(self, state: GameState) -> Catalog:
        """The decks of the Chapter Approved season a Mission Deck game is played with."""
        return self.views.mission_deck.catalog_of(state)

    async def _load(self, game_id: int) -> GameRecord:
        return await self.service.get_state(game_id=game_id)

    def draw(self, record: GameRecord, headline: str | None) -> Drawing:
        """The board as it stands: news first, then the call naming who the game waits on, the embed, the
        buttons."""
        embed, view = self.views.of(record.state).board(record.id, record.state, record.version,
                                                        self.recent.lines(record.id))
        call = call_line(self.catalog_of, record.state, self.waits(record.state))
        if record.status != GameStatus.ACTIVE:
            self.recent.forget(record.id)  # the final board is drawn: forget the game
        return Drawing("\n".join(line for line in (headline, call) if line), embed, view)

    async def move_board(self, game_id: int, *, notify: set[str], headline: str | None = None,
                         first: bool = False) -> bool:
        """Post the board anew at the bottom, notifying `notify` less anyone who turned pings off: whether it did
        (a game whose challenge is not accepted has no board to move, unless this is its `first`)."""
        quiet = await self.service.repo.quiet_players(game_id)
        return await self.boards.move(game_id, notify=notify - quiet, headline=headline, first=first) is not None

    def request_refresh(self, game_id: int) -> None:
        self.boards.refresh(game_id)

    async def idle(self) -> None:
        """Wait for scheduled board edits (tests and shutdown)."""
        await self.boards.idle()

    # ---- running actions -----------------------------------------------------------------------

    async def perform(self, interaction: discord.Interaction, action: moves.Move, *, game_id: int | None = None,
                      version: int | None = None) -> ActResult | None:
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
        await self.after(interaction, result, actor=action.actor)
        return result

    async def after(self, interaction: discord.Interaction, result: ActResult, *, actor: str) -> None:
        """Show what happened: lines for the actor alone privately, everything else on the board."""
        await _answer_privately(interaction, [e.text for e in result.events if e.private_to == actor])
        await self.show(result, actor=actor)

    def waits(self, state) -> set[tuple[str, ...]]:
        """What the game waits on, as (player, verb, ...): each pack says."""
        return self.views.of(state).waits(state)

    def note(self, game_id: int, events: tuple[Event, ...]) -> None:
        self.recent.add(game_id, [event.text for event in events if event.private_to is None])

    async def show(self, result: ActResult, *, actor: str | None, headline: str | None = None) -> None:
        """After an action: the board moves to the bottom calling each player play passes to (their turn, a
        decision), once, or with news for both players; otherwise it is edited in place. The end of the game gets
        its result card."""
        state = result.state
        self.note(result.game_id, result.events)
        self.clocks.watch(result.game_id, state)
        # Each turn and decision is called once, when it appears, not again with every action taken while it
        # waits: what waited before this action is known from its state, so a restart repeats nothing.
        now = self.waits(state)
        await self.calls.close_answered(result.game_id, state, now)
        before = self.waits(result.previous) if result.previous is not None else set()
        called = {w[0] for w in now - before}
        headline = headline or self.views.of(state).headline(result)
        over = state.status in (Status.ENDED, Status.ABANDONED)
        players = set(state.setup.players) if headline else called
        if not ((called or headline) and not over
                and await self.move_board(result.game_id, notify=players - {actor}, headline=headline)):
            self.request_refresh(result.game_id)
        if over:
            await self._result_card(result, headline)

    async def _result_card(self, result: ActResult, headline: str | None) -> None:
        """The result card, under the final board; news that ended the game (a time-out) notifies both players."""
        record = await self.service.get_state(game_id=result.game_id)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        quiet = await self.service.repo.quiet_players(result.game_id)
        notify = [p for p in record.setup.players if p not in quiet] if headline else []
        content = " ".join([*(f"<@{p}>" for p in notify), headline]) if headline else None
        drawn = await asyncio.to_thread(self.result_card, result.state, result.game_id)  # the sheet takes a while
        card = await channel.send(content, **drawn,
                                  allowed_mentions=discord.AllowedMentions(
                                      everyone=False, roles=False, users=[discord.Object(int(p)) for p in notify]))
        await self.service.history.set_result_message(result.game_id, card.id)
        if record.guild_id is None:
            return
        try:
            await report_table_game(self.bot, channel, record.guild_id, result.game_id, result.state)
        except Exception:  # the game is over either way; /tournament status collects its result later
            _log.exception("Could not report game %s to its tournament", result.game_id)
        try:  # after the report, which marks a tournament's game as such
            await self.service.ladders.game_ended(record.guild_id, result.game_id)
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

    async def schedule(self, game_id: int, channel_id: int, starts_at: datetime) -> None:
        """Remind both players of a scheduled game before it starts and when it starts."""
        await self.reminders.schedule(game_id, channel_id, starts_at)

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
        if verb == "army":  # every pack's; a form must be the press's first answer
            await self._current(interaction, game_id, None)
            await interaction.response.send_modal(ArmyForm(self, game_id))
            return
        version = None if verb in self.views.unversioned else version
        # Acknowledged at once, as an update of the board (a menu follows privately): reading the game may wait
        # behind other tables' writes, and the press's token can then edit the board outside the global limit.
        if verb not in self.views.forms:
            await interaction.response.defer()
            self.boards.pressed(interaction)
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
        await interaction.response.defer()
        result = await self.service.act(moves.Abandon(actor=me), game_id=game_id)
        await self.after(interaction, result, actor=me)

    async def _on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                         values: list[str]) -> None:
        version = None if verb in self.views.unversioned else version
        record = await self._current(interaction, game_id, version)
        await self.views.of(record.state).select(self, interaction, record, verb, values, version)

    async def _accept_or_decline(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        me = str(interaction.user.id)
        await interaction.response.defer()  # at once: reading the game may wait behind other writes
        record = await self.service.get_state(game_id=game_id)
        if me not in record.setup.players:
            raise GameError("This challenge is not for you.")
        if record.status != GameStatus.ACTIVE:
            raise GameError("This game is over: start a new one with /game new.")
        accepting = record.setup.players[0 if verb == "accept-first" else 1]
        if verb != "decline" and me != accepting:
            raise GameError("Waiting for your opponent to accept.")
        if game_id in self._accepting:  # checked and claimed with no await between: a double click posts one board
            raise GameError(ANSWERED)
        self._accepting.add(game_id)
        try:
            if await self.service.repo.board_messages(game_id):
                raise GameError(ANSWERED)
            # The challenge stays as the briefing: its question and buttons go, it says who answered.
            asked = (interaction.message.content if interaction.message else "").removesuffix(ACCEPT_QUESTION)
            name = record.state.player(me).name
            if verb == "decline":  # either player may call it off before it starts
                # By game id: an old challenge must never end a newer game of the channel.
                result = await self.service.act(moves.Abandon(actor=me), game_id=game_id)
                self.note(game_id, result.events)
                await interaction.edit_original_response(content=f"{asked}\n❌ {name} called the game off.",
                                                         view=None, allowed_mentions=discord.AllowedMentions.none())
            else:
                await interaction.edit_original_response(content=f"{asked}\n✅ {name} accepted.", view=None,
                                                         allowed_mentions=discord.AllowedMentions.none())
                await self.open_board(record, actor=me)
        finally:
            self._accepting.discard(game_id)

    async def briefing(self, state, events: tuple[Event, ...]) -> dict:
        """The briefing embeds (and map pictures) of a game about to start, for any pack. Drawn in a worker thread:
        a map takes a tenth of a second, which would hold up every other table's presses."""
        return await asyncio.to_thread(self.views.of(state).briefing, state, events)

    async def open_board(self, record: GameRecord, *, actor: str) -> None:
        """Both players are in: the board, calling the player the game passes to first (the roll-off or Strategy
        Roll winner)."""
        called = {w[0] for w in self.waits(record.state)}
        await self.move_board(record.id, notify=called - {actor}, first=True)

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
        setup = rematch_setup(record.setup, record.state)
        other = next(p for p in setup.players if p != me)
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = (f"<@{other}>, {interaction.user.mention} asks for a rematch: the same pack, size and options, "
                   "a new secret seed, the seats the other way round.")
        _, message = await offer_game(self.bot, interaction.guild_id, interaction.channel, setup, content,
                                      [discord.Object(int(other))], thread=False,
                                      accept="accept" if setup.players[1] == other else "accept-first")
        await interaction.channel.send(**message)
        await interaction.delete_original_response()  # the offer itself is the answer


def rematch_setup(setup, state):
    """A new game like `setup`'s: the players' seats swapped with what each seat holds (their armies as played,
    ratings, dispositions), a new secret seed, the current setup version."""
    fields = setup.model_dump(exclude={"version", "seed", "seed_fixed_by"})
    fields.update(players=setup.players[::-1], names=setup.names[::-1], seed=new_seed())
    armies = tuple(p.army for p in state.players)[::-1]
    fields["armies"] = armies if any(armies) else None
    for seated in ("strategy_ratings", "dispositions"):
        if fields.get(seated) is not None:
            fields[seated] = getattr(setup, seated)[::-1]
    return type(setup)(**fields)


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
