"""Where interactions meet the service: a press, menu or form is routed to its move, and its presser answered.

The rest follows from the change the service publishes (bot/plumbing/changes.py): `on_change` answers the presser's private
lines first (the interaction this task runs, `answering`), then shows the change on the board (bot/ui/live_board.py),
which carries the call: when an action leaves the game waiting on someone new, the board moves to the bottom of the
channel naming them; otherwise it is edited in place. A press whose effect shows on the board gets no reply of its
own; private replies are for private things (a secret choice, a refusal). Nothing here holds the service's lock
during a Discord call.

What the desk keeps per game is bounded, as other processes serve other games and a game may be left unfinished
forever: a board being posted for one accept, and the recent events of the board for the RECENT_GAMES most
recently active games (the boards' own memory, scheduled edits and the last press on each board, is LiveBoards').
Who to call follows from the state before and after each action, not from memory.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import discord

from bot.plumbing.changes import Change
from bot.engine import moves
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import CA_PACK, GameState
from bot.engine.errors import GameError
from bot.engine.rng import new_seed
from bot.services.games import ActResult, GameService, StaleBoard
from bot.store.models import GameStatus, utcnow
from bot.store.repository import GameRecord
from bot.ui.alarms import Alarms
from bot.ui.armies import ArmyForm
from bot.ui.board_feed import BoardFeed
from bot.present import game_model
from bot.present import play
from bot.present.asks import Wait
from bot.ui.challenge import ACCEPT_QUESTION, offer_game
from bot.ui.clock_watch import ClockWatch
from bot.ui.errors import answer_failure, send_error
from bot.ui.open_challenge import OpenChallenges
from bot.ui.packs import PackViews
from bot.ui.reminders import Reminders
from bot.ui.result_reports import ResultReports
from bot.ui.seats import acting_seat
from bot.ui.text import pinging
from bot.plumbing.drawing import drawn
from bot.engine.sides import members, mentions, seat_of

_log = logging.getLogger(__name__)

RECENT_EVENTS = 8
RECENT_GAMES = 512
ANSWERED = "This challenge has already been answered."
ACCEPTED = "accepted"  # a change's `what` when a challenge is accepted
REMATCH_WITHIN = timedelta(days=1)


class GameDesk:
    """Routes a game's presses, menus and forms to the service and answers the presser; what changed reaches the
    board, the clock watch and the result's reports as the change stream's subscribers."""

    def __init__(self, bot: discord.Client, service: GameService, views: PackViews | None = None, *,
                 activity: bool = False) -> None:
        self.bot = bot
        self.service = service
        self.views = views or PackViews(service.packs)
        self.board = BoardFeed(bot, service, self.views, activity=activity)
        self._accepting: set[int] = set()  # games whose board is being posted
        self._challenges: OrderedDict[int, tuple[int, int, str]] = OrderedDict()  # game -> its challenge, as posted
        self.alarms = Alarms()  # every stored moment this process waits for: clocks, challenges, reminders
        self.clocks = ClockWatch(bot, service, self.alarms)
        self.challenges = OpenChallenges(self, service.community)
        self.reminders = Reminders(bot, service, self.alarms, move_board=self.move_board)
        # The surfaces of a change, in this order: the board and its calls, the clock, the result's reports.
        service.changes.subscribe(self.board.on_change)
        service.changes.subscribe(self.clocks.on_change)
        service.changes.subscribe(ResultReports(bot, service).on_change)

    # ---- the board, for the controls, the open challenges and the reminders ----------------------

    def catalog_of(self, state: GameState) -> Catalog:
        """The decks of the Chapter Approved season a Mission Deck game is played with."""
        return self.views.mission_deck.catalog_of(state)

    def waits(self, state) -> set[Wait]:
        return self.board.waits(state)

    async def move_board(self, game_id: int, *, notify: set[str], headline: str | None = None,
                         first: bool = False) -> bool:
        return await self.board.move_board(game_id, notify=notify, headline=headline, first=first)

    def request_refresh(self, game_id: int) -> None:
        self.board.request_refresh(game_id)

    async def idle(self) -> None:
        """Wait for scheduled board edits (tests and shutdown)."""
        await self.board.idle()

    # ---- running actions -----------------------------------------------------------------------

    async def perform(self, interaction: discord.Interaction, action: moves.Move, *, game_id: int | None = None,
                      version: int | None = None) -> ActResult | None:
        """Apply the action; refusals go to the sender only, and change nothing."""
        if not interaction.response.is_done():
            # A slash command gets a private "thinking…" answer; a button or menu keeps its message as it is.
            await interaction.response.defer(ephemeral=interaction.type is discord.InteractionType.application_command)
        try:
            with self.board.answering(interaction):
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
        return result

    async def ping_to(self, record: GameRecord, seat: str) -> discord.AllowedMentions:
        """Mentions that notify the players of `seat` alone (both of a side in doubles), less those who turned pings
        off."""
        quiet = await self.service.repo.quiet_players(record.id)
        return pinging([p for p in members(record.setup, seat) if p not in quiet])

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
        acting_seat(interaction, record.setup)
        if version is not None and record.version != version:
            self.request_refresh(game_id)
            raise StaleBoard("This board is out of date: the game has moved on. The board is being refreshed.")
        return record

    async def _on_button(self, interaction: discord.Interaction, game_id: int, version: int, verb: str) -> None:
        if verb in ("accept", "accept-first", "decline"):
            await self._accept_or_decline(interaction, game_id, verb)
            return
        if verb == "rematch":
            await self._rematch(interaction, game_id)
            return
        if verb in ("endby-first", "endby-second"):  # an agreement holds however the game moved on
            await self._agree_to_end(interaction, game_id, verb)
            return
        if verb == "table":  # anyone in the call may open the table (bot/web/activity.py), to play or watch
            await self.service.get_state(game_id=game_id)
            await interaction.response.launch_activity()
            return
        if verb == "army":  # every pack's; a form must be the press's first answer
            await self._current(interaction, game_id, None)
            await interaction.response.send_modal(ArmyForm(self, game_id))
            return
        version = None if verb in play.UNVERSIONED else version
        # Acknowledged at once, as an update of the board (a menu follows privately): reading the game may wait
        # behind other tables' writes, and the press's token can then edit the board outside the global limit.
        if verb not in play.FORMS:
            await interaction.response.defer()
            self.board.boards.pressed(interaction)
        record = await self._current(interaction, game_id, version)
        me = acting_seat(interaction, record.setup)
        actions = play.simple_actions(record.state)
        if verb == "undo":
            await self._undo(interaction, record, me)
        elif verb in actions:
            await self.perform(interaction, actions[verb](me, record.state), game_id=game_id, version=version)
        else:
            await self.views.of(record.state).press(self, interaction, record, verb, version)

    async def _undo(self, interaction: discord.Interaction, record: GameRecord, me: str) -> None:
        if not interaction.response.is_done():
            await interaction.response.defer()
        try:
            with self.board.answering(interaction):
                await self.service.undo(record.channel_id, me, expected_version=record.version)
        except GameError as exc:
            await send_error(interaction, exc.message)

    async def _agree_to_end(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        """/game end by one side: the other side's press abandons the game."""
        record = await self.service.get_state(game_id=game_id)
        me = acting_seat(interaction, record.setup)
        asked_by = record.setup.players[0 if verb == "endby-first" else 1]
        if me == asked_by:
            raise GameError("Your opponent has to agree: wait for them to press the button.")
        await interaction.response.defer()
        with self.board.answering(interaction):
            await self.service.act(moves.Abandon(actor=me), game_id=game_id)

    async def _on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                         values: list[str]) -> None:
        version = None if verb in play.UNVERSIONED else version
        record = await self._current(interaction, game_id, version)
        await self.views.of(record.state).select(self, interaction, record, verb, values, version)

    async def _accept_or_decline(self, interaction: discord.Interaction, game_id: int, verb: str) -> None:
        await interaction.response.defer()  # at once: reading the game may wait behind other writes
        asked = (interaction.message.content if interaction.message else "").removesuffix(ACCEPT_QUESTION)

        async def answered(line: str) -> None:
            await interaction.edit_original_response(content=f"{asked}\n{line}", view=None,
                                                     allowed_mentions=discord.AllowedMentions.none())
        await self._answer_challenge(game_id, str(interaction.user.id), verb, answered)

    async def answer_challenge(self, game_id: int, me: str, verb: str) -> None:
        """Accept or decline from the table in the call (bot/web/activity.py): the challenge in the chat says so
        when this process posted it."""
        posted = self._challenges.get(game_id)

        async def answered(line: str) -> None:
            if posted is None:
                return
            channel_id, message_id, asked = posted
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            try:
                await message.edit(content=f"{asked}\n{line}", view=None,
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                _log.info("Challenge %s of game %s could not be marked answered", message_id, game_id)
        await self._answer_challenge(game_id, me, verb, answered)

    async def _answer_challenge(self, game_id: int, me: str, verb: str,
                                answered: Callable[[str], Awaitable[None]]) -> None:
        """Accept (the board is posted) or decline (the game is abandoned); the challenge keeps its briefing, loses
        its question and buttons, and says who answered (`answered`)."""
        record = await self.service.get_state(game_id=game_id)
        seat = seat_of(record.setup, me)
        if seat is None:
            raise GameError("This challenge is not for you.")
        me = seat  # in doubles, either player of a side answers for it
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
            name = record.state.player(me).name
            if verb == "decline":  # either player may call it off before it starts
                # By game id: an old challenge must never end a newer game of the channel.
                await self.service.act(moves.Abandon(actor=me), game_id=game_id)
                await answered(f"❌ {name} called the game off.")
            else:
                await answered(f"✅ {name} accepted.")
                await self.open_board(record, actor=me)
                # No move, but the pages show the board's controls from now on (the Activity's accept goes).
                await self.service.changes.publish(Change("game", game_id, record.version, ACCEPTED))
            self._challenges.pop(game_id, None)
        finally:
            self._accepting.discard(game_id)

    def challenge_posted(self, game_id: int, message: discord.Message) -> None:
        """Remember where a challenge is, so an answer from the call can mark it answered (in this process's
        memory: after a restart, its buttons say it was answered when pressed)."""
        self._challenges[game_id] = (message.channel.id, message.id, message.content.removesuffix(ACCEPT_QUESTION))
        while len(self._challenges) > RECENT_GAMES:
            self._challenges.popitem(last=False)

    async def offer_in_call(self, guild_id: int | None, channel_id: int, setup) -> int:
        """A challenge made at the table in the call (bot/web/activity.py), posted in the call's chat as /game new
        posts one, pinging the challenged player alone."""
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        me, other = setup.players
        what = "a game" if setup.pack == CA_PACK else f"a {self.service.packs.rules(setup.pack).title} game"
        content = f"<@{other}>, <@{me}> challenges you to {what} from the table in this call."
        result, message = await offer_game(self.bot, guild_id, channel, setup, content, [discord.Object(int(other))],
                                           thread=False)
        self.challenge_posted(result.game_id, await channel.send(**message))
        return result.game_id

    async def briefing(self, started: ActResult) -> dict:
        """The briefing embeds (and map pictures) of a game about to start, for any pack, headed as its public
        model. Drawn in a worker thread: a map takes a tenth of a second, which would hold up every other table's
        presses."""
        model = game_model(self.service.packs, started.state, game_id=started.game_id, version=started.version,
                           recent=[])
        return await drawn(self.views.of(started.state).briefing, model, started.state, started.events)

    async def open_board(self, record: GameRecord, *, actor: str) -> None:
        """Both players are in: the board, calling the player the game passes to first (the roll-off or Strategy
        Roll winner)."""
        called = {w.player for w in self.waits(record.state)}
        await self.move_board(record.id, notify=called - {actor}, first=True)

    async def _rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The same pack, size and options with a new secret seed, the seats the other way round; the other
        player accepts."""
        record = await self.service.get_state(game_id=game_id)
        me = acting_seat(interaction, record.setup, "ask for a rematch")
        if record.status == GameStatus.ACTIVE:
            raise GameError("This game is still being played.")
        if utcnow() - record.updated_at > REMATCH_WITHIN:
            raise GameError("Rematches can be asked for up to a day after the game: start a new one with /game new.")
        setup = rematch_setup(record.setup, record.state)
        other = next(p for p in setup.players if p != me)
        await interaction.response.defer(ephemeral=True, thinking=True)
        content = (f"{mentions(setup, other)}, {interaction.user.mention} asks for a rematch: the same pack, size and "
                   "options, a new secret seed, the seats the other way round.")
        offered, message = await offer_game(self.bot, interaction.guild_id, interaction.channel, setup, content,
                                            [discord.Object(int(p)) for p in members(setup, other)], thread=False,
                                            accept="accept" if setup.players[1] == other else "accept-first")
        self.challenge_posted(offered.game_id, await interaction.channel.send(**message))
        await interaction.delete_original_response()  # the offer itself is the answer


def rematch_setup(setup, state):
    """A new game like `setup`'s: the players' seats swapped with what each seat holds (their armies as played,
    ratings, dispositions), a new secret seed, the current setup version."""
    fields = setup.model_dump(exclude={"version", "seed", "seed_fixed_by"})
    fields.update(players=setup.players[::-1], names=setup.names[::-1], seed=new_seed())
    for sided in ("partners", "player_names"):  # doubles: each side's second player goes with its seat
        if fields.get(sided) is not None:
            fields[sided] = fields[sided][::-1]
    armies = tuple(p.army for p in state.players)[::-1]
    fields["armies"] = armies if any(armies) else None
    for seated in ("strategy_ratings", "dispositions"):
        if fields.get(seated) is not None:
            fields[seated] = getattr(setup, seated)[::-1]
    return type(setup)(**fields)
