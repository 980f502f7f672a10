"""/game: start a game in this channel, show its board, undo, concede, end it, export its log."""

from __future__ import annotations

import io
import json
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.decks import fourth_edition
from bot.engine import actions as a
from bot.engine.clock import MAX_CLOCK_MINUTES
from bot.engine.errors import GameError
from bot.engine.packs import GT_PACK, ChapterApprovedRules, is_mission_deck
from bot.engine.rng import new_seed, seed_hash
from bot.engine.state import CA_PACK, GameSetup
from bot.engine.table.state import TableSetup
from bot.ui.challenge import offer_game, open_thread
from bot.ui.controls import GameButton, view_of
from bot.ui.result_card import score_sheet_text
from bot.ui.table_sheet import table_sheet_text

MAX_SEED = 64
MAX_CHOICES = 25  # Discord's limit for autocomplete


class GameCog(commands.GroupCog, name="game", description="Play a mission pack's game here"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def desk(self):
        return self.bot.desk

    @property
    def service(self):
        return self.bot.service

    @app_commands.command(name="new", description="Challenge someone to a game in this channel")
    @app_commands.describe(size="Game size (Chapter Approved: decks used; Grand Tournament 2020: battle size)",
                           opponent="Who you play against",
                           pack="The mission pack (default: Chapter Approved 2025-26)",
                           mission="Agree on a mission instead of drawing or rolling it (Chapter Approved: a "
                                   "Tournament Mission Pool mission, Strike Force only)",
                           level="4th edition: agree on a level instead of rolling the D3",
                           my_strategy="4th edition: your army's Strategy Rating (1-3), for a Strategy Roll",
                           their_strategy="4th edition: your opponent's Strategy Rating (1-3)",
                           twist="Chapter Approved: draw a Twist card (not in pool missions)",
                           challenger="Chapter Approved: use Challenger cards (default: on)",
                           seed="Replay a game's shuffles: the seed is shown to everyone, so none is secret",
                           thread="Open a thread for the game from this channel and play there",
                           clock="A chess clock: minutes for each player (e.g. 90 for Strike Force)",
                           clock_expiry="When a player's time runs out: play on (default), or the opponent may "
                                        "claim the game")
    @app_commands.rename(clock_expiry="clock-expiry", my_strategy="my-strategy", their_strategy="their-strategy")
    @app_commands.choices(level=[app_commands.Choice(name=x.name, value=x.id) for x in fourth_edition().levels])
    async def new(self, interaction: discord.Interaction, opponent: discord.Member,
                  size: Literal["incursion", "strike-force", "asymmetric-war"] | None = None,
                  pack: str = CA_PACK, mission: str | None = None, level: str | None = None,
                  my_strategy: app_commands.Range[int, 1, 3] | None = None,
                  their_strategy: app_commands.Range[int, 1, 3] | None = None,
                  twist: bool = False, challenger: bool = True,
                  seed: app_commands.Range[str, 1, MAX_SEED] | None = None, thread: bool = False,
                  clock: app_commands.Range[int, 1, MAX_CLOCK_MINUTES] | None = None,
                  clock_expiry: Literal["play-on", "claim"] = "play-on") -> None:
        if opponent.bot:
            raise GameError("Bots cannot play: challenge a person.")
        if len(seed or "") > MAX_SEED:
            raise GameError(f"Seeds are at most {MAX_SEED} characters.")
        if thread and not isinstance(interaction.channel, discord.TextChannel):
            raise GameError("`thread:` opens a thread from a text channel; here, start the game without it.")
        if pack not in self.service.packs:
            raise GameError(f"There is no pack {pack!r}: pick one from the list.")
        common = dict(players=(str(interaction.user.id), str(opponent.id)),
                      names=(interaction.user.display_name, opponent.display_name), seed=seed or new_seed(),
                      seed_fixed_by=str(interaction.user.id) if seed else None,
                      clock_minutes=clock, clock_expiry=clock_expiry)
        rules = self.service.packs.rules(pack)
        if isinstance(rules, ChapterApprovedRules):
            if level or my_strategy or their_strategy:
                raise GameError("Levels and Strategy Ratings belong to the 4th edition missions.")
            if size is None:
                raise GameError("Pick a size: Incursion, Strike Force or Asymmetric War.")
            setup = GameSetup(size=size, twist=twist, challenger_cards=challenger, mission=mission, pack=pack,
                              **common)
        else:
            setup = _table_setup(pack, size, mission, level, (my_strategy or 1, their_strategy or 1), twist,
                                 challenger, common)
        place = interaction.channel
        if thread:
            await interaction.response.defer(ephemeral=True)  # a refusal stays private; Discord shows the thread
            kind = size.replace('-', ' ') if size else rules.title
            name = f"{interaction.user.display_name} vs {opponent.display_name} ({kind})"
            place = await open_thread(interaction.channel, name, [interaction.user, opponent], "Mission Deck game")
        what = "a game" if pack == CA_PACK else f"a {rules.title} game"
        challenge = f"{opponent.mention}, {interaction.user.mention} challenges you to {what}."
        if clock:
            then = "the opponent may claim the game" if clock_expiry == "claim" else "play on"
            challenge += (f" Chess clock: {clock} minutes each, from the first turn; when a player's time runs out, "
                          f"{then}.")
        if seed:  # the opponent accepts knowing that the shuffles are known in advance
            challenge += (f"\n**Replay:** {interaction.user.mention} fixed the seed `` {seed} ``: anyone who knows it "
                          "can work out every shuffle and roll in advance. Accept only a replay or practice game.")
        result, message = await offer_game(self.bot, interaction.guild_id, place, setup, challenge, [opponent],
                                           thread=thread)
        if thread:
            await place.send(**message)
            await interaction.followup.send(f"Game {result.game_id} is in {place.mention}.", ephemeral=True)
        else:
            await interaction.response.send_message(**message)

    @new.autocomplete("pack")
    async def packs(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed = current.casefold()
        return [app_commands.Choice(name=rules.title, value=rules.pack) for rules in self.service.packs
                if typed in rules.title.casefold() or typed in rules.pack][:MAX_CHOICES]

    @new.autocomplete("mission")
    async def missions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The chosen pack's missions (and battle size's, for the Grand Tournament)."""
        pack = interaction.namespace.pack or CA_PACK
        if pack not in self.service.packs:
            return []
        rules = self.service.packs.rules(pack)
        if isinstance(rules, ChapterApprovedRules):  # its Tournament Mission Pool
            found = [(f"Mission {m.letter}", m.letter) for m in rules.catalog.pool]
            found.append(("Random pool mission", "random"))
        elif pack == GT_PACK:
            size = interaction.namespace.size or "strike-force"
            found = [(m.name, m.id) for m in rules.data.missions if m.size == size]
        else:
            found = [(m.name, m.id) for m in rules.data.missions]
        typed = current.casefold()
        return [app_commands.Choice(name=name, value=value) for name, value in found
                if typed in name.casefold()][:MAX_CHOICES]

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): watch the clocks of the games in progress; their deadlines are stored."""
        await self.desk.clocks.watch_stored()

    @app_commands.command(name="status", description="Show this channel's game board again")
    async def status(self, interaction: discord.Interaction) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        if not await self.service.repo.board_messages(record.id):
            raise GameError("This game is waiting for the challenged player to accept.")
        await interaction.response.send_message("Here is the board.", ephemeral=True)
        await self.desk.post_board(interaction.channel, record)

    @app_commands.command(name="undo", description="Take back the last action of this channel's game")
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)  # a refusal must stay private
        result = await self.service.undo(interaction.channel_id, str(interaction.user.id))
        await self.desk.after(interaction, result, actor=str(interaction.user.id), done="Undone.")

    @app_commands.command(name="concede", description="Concede the game: your opponent wins")
    async def concede(self, interaction: discord.Interaction) -> None:
        await self.desk.perform(interaction, a.Concede(actor=str(interaction.user.id)), done="You conceded.")

    @app_commands.command(name="end", description="Abandon this channel's game (both players, or Manage Channels)")
    async def end(self, interaction: discord.Interaction) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        me = str(interaction.user.id)
        moderator = interaction.permissions.manage_channels
        if moderator:
            await interaction.response.defer(ephemeral=True)
            result = await self.service.abandon(interaction.channel_id, me, moderator=True)
            await self.desk.after(interaction, result, actor=me, done="Game abandoned.")
            return
        if me not in record.setup.players:
            raise GameError("Only the players, or someone with Manage Channels, can end this game.")
        other = record.state.opponent(me).id
        verb = "endby-first" if me == record.setup.players[0] else "endby-second"
        await interaction.response.send_message(
            f"<@{other}>, {interaction.user.mention} wants to abandon this game (no result). Agree?",
            view=view_of(GameButton(record.id, record.version, verb)),
            allowed_mentions=await self.desk.ping_to(record.id, other, actor=me))

    @app_commands.command(name="pings", description="Turn the bot's pings to you on or off in this channel's game")
    @app_commands.describe(setting="off: the bot still names you with your buttons, but your phone stays quiet")
    async def pings(self, interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        me = str(interaction.user.id)
        if me not in record.setup.players:
            raise GameError("Only the players of this game can change their pings.")
        await self.service.repo.set_pings(record.id, me, setting == "on")
        await interaction.response.send_message(
            "Pings on: you are notified when the game passes to you." if setting == "on" else
            "Pings off: the bot still names you when the game waits on you, without notifying you.",
            ephemeral=True)

    @app_commands.command(name="log", description="The game's log as JSON and a per-round score sheet")
    async def log(self, interaction: discord.Interaction) -> None:
        record = await self.service.latest_game(interaction.channel_id)
        data = await self.service.export_log(record.id)
        payload = io.BytesIO(json.dumps(data, indent=2, ensure_ascii=False).encode())
        await interaction.response.send_message(
            self._sheet_message(record.state), file=discord.File(payload, filename=f"game-{record.id}.json"))

    @app_commands.command(name="sheet", description="The score sheet picture of this channel's latest game")
    async def sheet(self, interaction: discord.Interaction) -> None:
        record = await self.service.latest_game(interaction.channel_id)
        await interaction.response.send_message(
            f"Score sheet of game {record.id}.", file=self.desk.sheet_file(record.state, record.id))

    def _sheet_message(self, state) -> str:
        if is_mission_deck(state):
            tables = score_sheet_text(state)
        else:
            tables = table_sheet_text(self.service.packs.rules(state.pack), state)
        parts = [f"**{name}**\n{table}" for name, table in tables.items()]
        return "\n".join(parts) + f"\nSeed hash `{seed_hash(state.setup.seed)}`"


def _table_setup(pack: str, size: str | None, mission: str | None, level: str | None, ratings: tuple[int, int],
                 twist: bool, challenger: bool, common: dict) -> TableSetup:
    """The setup of an older pack's game, refusing the options that belong to another pack."""
    if twist or not challenger:
        raise GameError("Twists and Challenger cards belong to the Chapter Approved 2025-26 deck.")
    if pack == GT_PACK:
        if level or ratings != (1, 1):
            raise GameError("Levels and Strategy Ratings belong to the 4th edition missions.")
        if size == "asymmetric-war":
            raise GameError("Grand Tournament 2020 battles are Incursion or Strike Force.")
        return TableSetup(pack=pack, size=size or "strike-force", mission=mission, **common)
    if size is not None:
        raise GameError("Battle sizes belong to the Chapter Approved and Grand Tournament 2020 missions.")
    return TableSetup(pack=pack, mission=mission, level=level, strategy_ratings=ratings, **common)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))
