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
from collections.abc import Callable
from datetime import timedelta

import discord

from bot.engine import actions as a
from bot.engine.errors import GameError
from bot.engine.game import apply
from bot.engine.events import Event
from bot.engine.catalog import Catalog
from bot.engine.packs import is_mission_deck
from bot.engine.state import GameState, Phase, PromptKind, Status
from bot.service import ActResult, GameService, StaleBoard
from bot.engine.rng import new_seed
from bot.store.models import GameStatus, utcnow
from bot.store.repository import GameRecord
from bot.ui import choices, table_board, table_controls
from bot.ui.board import board_embed
from bot.ui.briefing import briefing, table_map
from bot.ui.calls import Calls
from bot.ui.challenge import offer_game
from bot.ui.alarms import Alarms
from bot.ui.clock_watch import ClockWatch
from bot.ui.open_challenge import OpenChallenges
from bot.ui.reminders import Reminders
from bot.ui.controls import GameButton, GameSelect, view_of
from bot.ui.errors import MESSAGE_LIMIT, answer_failure, send_error
from bot.ui.permissions import missing_permission_text
from bot.ui.result_card import result_embed, sheet_file
from bot.ui.table_sheet import table_sheet_file
from bot.ui.text import clip, title_case
from bot.ui.tournament import report_table_game

_log = logging.getLogger(__name__)

RECENT_EVENTS = 8
RECENT_GAMES = 512
ANSWERED = "This challenge has already been answered."
REMATCH_WITHIN = timedelta(days=1)
MENU_LINES = 3  # what a used menu says when the action had no line for the player alone
# The secret choice does not depend on what the board shows, and both players make it at the same
# time: a menu opened before the opponent chose must still work. The engine checks the game state.
UNVERSIONED = frozenset({"fixed", "tactical", "pause", "resume", "claim"}) | table_controls.UNVERSIONED
# Buttons that act at once (no menu, no form first): verb -> the action of the player `me` pressing it.
SIMPLE_ACTIONS: dict[str, Callable[[str, GameState], a.Action]] = {
    "attacker": lambda me, state: a.ChooseSide(actor=me, side="attacker"),
    "defender": lambda me, state: a.ChooseSide(actor=me, side="defender"),
    "ready": lambda me, state: a.DeclareBattleReady(actor=me, ready=not state.player(me).battle_ready),
    "deployed": lambda me, state: a.DeploymentDone(actor=me),
    "endcmd": lambda me, state: a.EndCommandPhase(actor=me),
    "endturn": lambda me, state: a.EndTurn(actor=me),
    "done": lambda me, state: a.DoneScoring(actor=me),
    "tactical": lambda me, state: a.ChooseSecondaries(actor=me, mode="tactical"),
    "keep": lambda me, state: a.Discard(actor=me),
    "yes": lambda me, state: a.AnswerPrompt(actor=me, accept=True),
    "no": lambda me, state: a.AnswerPrompt(actor=me, accept=False),
    "nounits": lambda me, state: a.AnswerPrompt(actor=me, units=()),
    "nogamma": lambda me, state: a.AnswerPrompt(actor=me, units=()),
    "stratagem": lambda me, state: a.UseChallenger(actor=me, use="stratagem"),
    "mission": lambda me, state: a.UseChallenger(actor=me, use="mission"),
    "ritual": lambda me, state: a.CompleteRitual(actor=me),
    "pause": lambda me, state: a.PauseClock(actor=me),
    "resume": lambda me, state: a.ResumeClock(actor=me),
    "claim": lambda me, state: a.ClaimTime(actor=me),
}
# Their presses are acknowledged before any work: reading the game may wait behind other games' writes.
# Waits a call names without a button of its own: the turn (the board has its buttons), the side (chosen on the board).
NO_BUTTON = frozenset({"turn", "sides"})
ACTING = frozenset(SIMPLE_ACTIONS) | frozenset(table_controls.SIMPLE_ACTIONS) | table_controls.DEPLOYING | {"undo"}


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
        self.reminders = Reminders(self, service.community)

    # ---- the board -----------------------------------------------------------------------------

    def catalog_of(self, state: GameState) -> Catalog:
        """The decks of the Chapter Approved season a Mission Deck game is played with."""
        return self.service.packs.rules(state.pack).catalog

    def board_view(self, record_id: int, state: GameState, version: int) -> discord.ui.View:
        catalog = self.catalog_of(state)
        twist = state.mission.twist
        adapt_or_die = twist is not None and catalog.twist(twist).adapt_or_die
        primary = catalog.primary(state.mission.primary)
        return view_of(*board_buttons(
            record_id, state, version, adapt_or_die=adapt_or_die, ritual=primary.sets_up_objectives,
            new_orders=new_orders_allowed(catalog, state),
            corner=primary.random_setup == "hidden_supplies" and state.mission.hidden_supplies_corner is None))

    def render(self, game_id: int, state, version: int) -> tuple[discord.Embed, discord.ui.View]:
        if not is_mission_deck(state):
            rules = self.service.packs.rules(state.pack)
            embed = table_board.board_embed(rules, state, game_id=game_id, version=version,
                                            recent=self.recent.lines(game_id))
            return embed, view_of(*table_controls.board_buttons(rules, game_id, state, version))
        embed = board_embed(self.catalog_of(state), state, game_id=game_id, version=version,
                            recent=self.recent.lines(game_id))
        return embed, self.board_view(game_id, state, version)

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

    async def perform(self, interaction: discord.Interaction, action: a.Action, *, game_id: int | None = None,
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
        if is_mission_deck(state):
            return waits(state)
        return table_controls.waits(self.service.packs.rules(state.pack), state)

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
        if not is_mission_deck(state):
            await self._reveal(interaction.channel, result)
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

    async def _reveal(self, channel: discord.abc.Messageable, result: ActResult) -> None:
        """Secret selections revealed by this action are told to both players in one message."""
        text = table_board.reveal_text(self.service.packs.rules(result.state.pack), result.previous, result.state)
        if text is None:
            return
        quiet = await self.service.repo.quiet_players(result.game_id)
        users = [discord.Object(int(p)) for p in result.state.setup.players if p not in quiet]
        await channel.send(text, allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=users))

    def result_card(self, state, game_id: int) -> dict:
        """The result embed with its score sheet picture, for any pack (none for a game VP do not decide)."""
        rematch = view_of(GameButton(game_id, 0, "rematch"))  # any version: it reads the finished game
        if is_mission_deck(state):
            sheet = self.sheet_file(state, game_id)
            return dict(embed=result_embed(self.catalog_of(state), state, game_id), file=sheet, view=rematch)
        rules = self.service.packs.rules(state.pack)
        if not rules.scores_vp(state):
            return dict(embed=table_board.result_embed(rules, state, game_id, None), view=rematch)
        sheet = self.sheet_file(state, game_id)
        return dict(embed=table_board.result_embed(rules, state, game_id, sheet.filename), file=sheet, view=rematch)

    def sheet_file(self, state, game_id: int) -> discord.File:
        """The score sheet picture (public information only) of any pack's game."""
        if is_mission_deck(state):
            return sheet_file(self.catalog_of(state), state, game_id)
        rules = self.service.packs.rules(state.pack)
        if not rules.scores_vp(state):
            raise GameError(f"A {rules.data.level(state.level).name} mission scores no VP, so it has no score "
                            "sheet: its result card says who achieved the mission's objective.")
        return table_sheet_file(rules, state, game_id)

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
        version = None if verb in UNVERSIONED else version
        if verb in ACTING:  # acknowledge at once: reading the game may wait behind other games' writes
            await interaction.response.defer()
        record = await self._current(interaction, game_id, version)
        state = record.state
        table = not is_mission_deck(state)
        simple = table_controls.SIMPLE_ACTIONS if table else SIMPLE_ACTIONS
        if table and verb in table_controls.DEPLOYING:
            await table_controls.deploy(self, interaction, record, verb, version)
        elif verb in simple:
            await self.perform(interaction, simple[verb](me, state), game_id=game_id, version=version)
        elif verb == "undo":
            await self._undo(interaction, record, me)
        elif table:
            await table_controls.open_menu(self, interaction, record, verb)
        elif verb == "units":
            await interaction.response.send_modal(UnitsModal(self, record, me))
        else:
            await self.open_menu(interaction, record, verb)

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
        result = await self.service.act(a.Abandon(actor=me), game_id=game_id)
        await self.after(interaction, result, actor=me, done="Game abandoned.")

    async def open_menu(self, interaction: discord.Interaction, record: GameRecord, verb: str) -> None:
        """Menus open privately for the presser, drawn from what they may pick right now."""
        me = str(interaction.user.id)
        if me not in record.setup.players:
            raise GameError("Only the two players of this game can do that.")
        state, game, version = record.state, record.id, record.version
        cat = self.catalog_of(state)
        if verb == "choose":
            content = ("Pick **two** Fixed Missions in the menu, or use Tactical Missions. "
                       "Nobody sees your choice until both players have chosen.")
            items = [GameSelect(game, version, "fixed", placeholder="Fixed Missions: pick two",
                                options=choices.fixed_choices(cat, state), min_values=2, max_values=2),
                     GameButton(game, version, "tactical")]
        elif verb == "score":
            options = choices.score_choices(cat, state, me)
            if not options:
                raise GameError("Nothing of yours scores right now. Use /score add for anything the menu lacks.")
            content = "What do you score? (For anything else use `/score add`.)"
            items = [GameSelect(game, version, "score", placeholder="Scoring option", options=options)]
        elif verb == "neworders":
            if state.player(me).mode != "tactical":
                raise GameError("New Orders is for Tactical Missions; Fixed Missions cannot be discarded.")
            content = "New Orders (1CP): which active card do you discard to draw a new one?"
            items = [GameSelect(game, version, "neworders", options=choices.hand_choices(cat, state, me))]
        elif verb == "discard":
            hand = choices.hand_choices(cat, state, me)
            if me not in state.discard_queue or not hand:
                raise GameError("You have no end-of-turn discard to decide now.")
            if state.player(me).mode == "fixed":  # in the queue only for an Adapt or Die swap
                content, items = self._adapt_menu(state, me, game, version)
                items.append(GameButton(game, version, "keep"))
            else:
                content = "Discard any active Secondary Missions? (1CP if it is your turn, once per battle round.)"
                items = [GameSelect(game, version, "discard", placeholder="Cards to discard", options=hand,
                                    max_values=len(hand)), GameButton(game, version, "keep")]
        elif verb == "challenger":
            card = state.player(me).challenger_card
            if card is None:
                raise GameError("You hold no Challenger card.")
            challenger = cat.challenger(card)
            content = (f"**{title_case(challenger.name)}**: use it as its Stratagem (0CP) or go for its Mission "
                       f"**{challenger.mission.name}** — not both.")
            items = [GameButton(game, version, "stratagem"), GameButton(game, version, "mission")]
        elif verb == "answer":
            content, items = self._prompt_menu(state, me, game, version)
        elif verb == "adapt":
            content, items = self._adapt_menu(state, me, game, version)
        elif verb == "corner":
            rolloff = state.mission.hidden_supplies_rolloff
            who = f" ({state.player(rolloff.winner).name} won the roll-off and selects)" if rolloff else ""
            content = f"Hidden Supplies: which corner did the centre marker move 6\" towards?{who}"
            items = [GameSelect(game, version, "corner", options=choices.corner_choices(state))]
        else:
            raise GameError("That button is not available here.")
        await interaction.response.send_message(content, view=view_of(*items), ephemeral=True)

    def _adapt_menu(self, state: GameState, me: str, game: int, version: int):
        """Adapt or Die: a Tactical player draws again after a draw; a Fixed player swaps a card once."""
        player = state.player(me)
        if player.mode == "tactical":
            options = choices.adapt_draw_choices(self.catalog_of(state), state, me)
            if not options:
                raise GameError("Adapt or Die follows a card you have just drawn in this Command phase.")
            return ("Adapt or Die (twice per battle): after which card do you draw another? "
                    "Then you keep one of the two and shuffle the other back.",
                    [GameSelect(game, version, "adaptdraw", options=options)])
        options = choices.adapt_swap_choices(self.catalog_of(state), state, me)
        if not options:
            raise GameError("You have no Fixed Mission to swap.")
        return ("Adapt or Die (once per battle, at the end of your turn after scoring): "
                "replace which Fixed Mission with which?",
                [GameSelect(game, version, "adaptswap", options=options)])

    def _prompt_menu(self, state: GameState, me: str, game: int, version: int):
        prompt = next((q for q in state.prompts if q.player == me), None)
        if prompt is None:
            raise GameError("Nothing is waiting for your answer.")
        catalog = self.catalog_of(state)
        card = catalog.secondary(prompt.card)
        name = title_case(card.name)
        owner = state.player(prompt.owner).name
        match prompt.kind:
            case PromptKind.OPTIONAL_RESHUFFLE:
                return (f"**{name}** — {card.when_drawn.text}\nShuffle it back and draw a new card?",
                        [GameButton(game, version, "yes"), GameButton(game, version, "no")])
            case PromptKind.DISCARD_IF:
                hint = ""
                if state.setup.size in card.when_drawn.holds_in_sizes:
                    hint = f"\n(This is a {state.setup.size.replace('-', ' ')} game, so the condition holds.)"
                return (f"**{name}** — {card.when_drawn.condition}{hint}\nDiscard it and draw a new card?",
                        [GameButton(game, version, "yes"), GameButton(game, version, "no")])
            case PromptKind.ALPHA_TARGETS:
                return (f"{owner} drew **{name}**: select three units from your army on the battlefield "
                        "(all of them if you have only one or two) as their Alpha Targets.",
                        [GameButton(game, version, "units"), GameButton(game, version, "nounits")])
            case PromptKind.GAMMA_TARGET:
                return (f"**{name}**: you can select one enemy unit on the battlefield as your Gamma Target.",
                        [GameButton(game, version, "units"), GameButton(game, version, "nogamma")])
            case PromptKind.TEMPTING_OBJECTIVE:
                return (f"{owner} drew **{name}**: select one objective marker in No Man's Land as their "
                        "Tempting Target.",
                        [GameSelect(game, version, "objective",
                                    options=choices.objective_choices(catalog, state))])
            case PromptKind.ADAPT_KEEP:
                options = [(title_case(catalog.secondary(c).name), c) for c in (prompt.card, prompt.other_card)]
                return ("Adapt or Die: keep which card? The other is shuffled back.",
                        [GameSelect(game, version, "keep", options=options)])
        raise GameError("Nothing is waiting for your answer.")

    async def _on_select(self, interaction: discord.Interaction, game_id: int, version: int, verb: str,
                         values: list[str]) -> None:
        version = None if verb in UNVERSIONED else version
        record = await self._current(interaction, game_id, version)
        me = str(interaction.user.id)
        if not is_mission_deck(record.state):
            await table_controls.on_select(self, interaction, record, verb, values, version)
            return
        if verb == "fixed":
            action = a.ChooseSecondaries(actor=me, mode="fixed", cards=tuple(values))
        elif verb == "score":
            pick = choices.parse_score_value(values[0])
            action = a.Score(actor=me, source=pick.source, card=pick.card, option=pick.option, count=pick.count,
                             objective=pick.objective)
        elif verb == "neworders":
            action = a.NewOrders(actor=me, card=values[0])
        elif verb == "discard":
            action = a.Discard(actor=me, cards=tuple(values))
        elif verb == "objective":
            action = a.AnswerPrompt(actor=me, objective=values[0])
        elif verb == "keep":
            action = a.AnswerPrompt(actor=me, keep=values[0])
        elif verb == "adaptdraw":
            action = a.AdaptOrDieDraw(actor=me, card=values[0])
        elif verb == "adaptswap":
            card, replacement = values[0].split("|")
            action = a.AdaptOrDieSwap(actor=me, card=card, replacement=replacement)
        elif verb == "corner":
            action = a.HiddenSuppliesCorner(actor=me, corner=values[0])
        else:
            raise GameError("That menu is not available here.")
        result = await self.perform(interaction, action, game_id=game_id, version=version)
        if result is not None and verb == "corner" and interaction.channel is not None:
            # The briefing's map was drawn before the markers were placed: show where they are now.
            await interaction.channel.send(file=table_map(self.catalog_of(result.state), result.state))

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
                result = await self.service.act(a.Abandon(actor=me), game_id=game_id)
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
        if is_mission_deck(state):
            embeds, files = briefing(self.catalog_of(state), state, events)
            return dict(embeds=embeds, files=files)
        return dict(embeds=table_board.briefing(self.service.packs.rules(state.pack), state, events), files=[])

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


def waits(state: GameState) -> set[tuple[str, ...]]:
    """(player, verb, ...) for each turn and decision the game waits on: the roll-off winner's side, the player
    whose turn it is, prompts to answer, the next discard, and once one player has chosen, deployed or finished
    scoring, the other."""
    waiting = {(q.player, "answer", q.kind.value, q.card) for q in state.prompts}
    if state.status == Status.SIDES:
        waiting.add((state.sides_rolloff.winner, "sides"))
    if state.status == Status.BATTLE and state.active is not None:
        waiting.add((state.active, "turn", str(state.round), str(state.turn)))
    if state.phase == Phase.DISCARDS and state.discard_queue:
        waiting.add((state.discard_queue[0], "discard", str(state.round), str(state.turn)))
    if state.clock is not None and state.clock.resume_asked_by is not None:
        waiting.add((state.clock.paused_by, "resume", str(state.clock.resume_asked_by)))
    if state.status == Status.SECONDARIES and any(p.choice for p in state.players):
        waiting |= {(p.id, "choose") for p in state.players if p.choice is None}
    for confirmed, verb in ((state.deployed if state.status == Status.DEPLOYMENT else (), "deployed"),
                            (state.scoring_done, "done")):
        for p in state.players:
            if confirmed and p.id not in confirmed:
                waiting.add((p.id, verb, str(state.round), str(state.turn)))
    return waiting


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


def new_orders_allowed(catalog: Catalog, state: GameState) -> bool:
    """Would the engine take New Orders from the player whose turn it is now (Tactical, their Command phase, the
    CP, not used yet this phase, a card to draw)? Asked of the engine itself, so the board never offers a button
    that would only be refused."""
    player = state.active
    if player is None or state.phase != Phase.COMMAND or not state.player(player).hand:
        return False
    try:
        apply(catalog, state, a.NewOrders(actor=player, card=state.player(player).hand[0]))
    except GameError:
        return False
    return True


def board_buttons(game_id: int, state: GameState, version: int, *, adapt_or_die: bool = False,
                  ritual: bool = False, corner: bool = False, new_orders: bool = False) -> list[discord.ui.Item]:
    """The buttons of the common moves for the current step of the game; `ritual`: The Ritual is the
    Primary Mission; `corner`: the Hidden Supplies corner is still to be recorded; `new_orders`: New Orders can
    be used now (new_orders_allowed)."""
    verbs: list[str] = []
    if state.status == Status.SIDES:
        verbs = ["attacker", "defender", "ready"]
    elif state.status == Status.SECONDARIES:
        verbs = ["choose", "ready", "undo"]
    elif state.status == Status.DEPLOYMENT:
        verbs = ["deployed", "ready", "undo"]
    elif state.status == Status.BATTLE:
        if state.prompts:
            verbs.append("answer")
        verbs += {
            Phase.COMMAND: ["endcmd", "score", *(["neworders"] if new_orders else [])],
            Phase.BATTLE: ["endturn", "score"],
            Phase.END_OF_TURN: ["done", "score"],
            Phase.DISCARDS: ["discard"],
        }[state.phase]
        if any(p.challenger_card for p in state.players):
            verbs.append("challenger")
        # Tactical: after a draw in the Command phase. Fixed: end of own turn (version 2: a decision of
        # the discard step, offered by its Discard button).
        swap_phase = (Phase.END_OF_TURN,) if state.setup.legacy else ()
        if adapt_or_die and state.phase in (Phase.COMMAND, *swap_phase):
            verbs.append("adapt")
        if ritual and state.phase == Phase.END_OF_TURN:
            verbs.append("ritual")  # The Ritual's Action completes at the end of the turn
        verbs.append("undo")
        clock = state.clock
        if clock is not None:
            verbs.append("resume" if clock.paused_by else "pause")
            if clock.expiry == "claim" and clock.out:
                verbs.append("claim")
    if corner and state.status in (Status.SIDES, Status.SECONDARIES, Status.BATTLE):
        verbs.insert(0, "corner")
    return [GameButton(game_id, version, verb) for verb in verbs]


class UnitsModal(discord.ui.Modal):
    """Unit names for Marked for Death: three Alpha Targets from the opponent, one Gamma from the drawer."""

    def __init__(self, desk: GameDesk, record: GameRecord, me: str) -> None:
        prompt = next((q for q in record.state.prompts if q.player == me), None)
        if prompt is None:
            raise GameError("Nothing is waiting for your answer.")
        alpha = prompt.kind == PromptKind.ALPHA_TARGETS
        super().__init__(title="Alpha Targets" if alpha else "Gamma Target", timeout=600)
        self.desk, self.game_id, self.version, self.me = desk, record.id, record.version, me
        self.fields = [
            discord.ui.TextInput(label=f"Unit {i + 1}", max_length=80, required=i == 0)
            for i in range(3 if alpha else 1)
        ]
        for field in self.fields:
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        units = tuple(f.value for f in self.fields if f.value.strip())
        await self.desk.perform(interaction, a.AnswerPrompt(actor=self.me, units=units), game_id=self.game_id,
                                version=self.version)
