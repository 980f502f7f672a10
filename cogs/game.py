"""/game: start a game in this channel, show its board, undo, concede, end it, export its log."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import datetime, timedelta
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.decks import fourth_edition
from bot.engine import moves
from bot.engine.chapter_approved.state import CA_PACK
from bot.engine.clock import MAX_CLOCK_MINUTES
from bot.engine.errors import GameError
from bot.engine.names import resolve
from bot.engine.packs import is_mission_deck
from bot.engine.rng import seed_hash
from bot.store.models import utcnow
from bot.plumbing.times import DEFAULT_ZONE, parse_when, stamp
from bot.ui import history_view
from bot.ui.armies import detachments_typed, factions_typed
from bot.present.asks import Wait
from bot.ui.challenge import offer_game, open_thread
from bot.ui.chapter_approved.result_card import score_sheet_text
from bot.store.share_models import ShareKind
from bot.ui.controls import GameButton, view_of
from bot.ui.sharing import ShareAgree, web_of
from bot.services.game_options import MAX_SEED, GameOptions, mission_choices, pack_choices, read_typed
from bot.ui.game_options import packs_typed
from bot.ui.open_challenge import DEFAULT_EXPIRY
from bot.present.pictures.table_sheet import table_sheet_text
from bot.ui.limits import AUTOCOMPLETE_CHOICES
from bot.engine.sides import mentions, seat_of
from bot.ui.seats import acting_seat
from cogs.base import BotCog

MAX_EXPIRY_HOURS = 24 * 7


class GameCog(BotCog, name="game", description="Play a mission pack's game here"):
    @app_commands.command(name="new", description="Challenge someone to a game here, or post an open challenge")
    @app_commands.describe(size="Game size (Chapter Approved: decks used; Grand Tournament 2020: battle size)",
                           opponent="Who you play against (leave empty: an open challenge anyone can take)",
                           pack="The mission pack (default: the server's, set by /settings pack; else Chapter "
                                "Approved 2025-26)",
                           mission="Agree on a mission instead of drawing or rolling it (Chapter Approved: a pool "
                                   "mission, Strike Force)",
                           level="4th edition: agree on a level instead of rolling the D3",
                           my_strategy="4th edition: your army's Strategy Rating (1-3), for a Strategy Roll",
                           their_strategy="4th edition: your opponent's Strategy Rating (1-3)",
                           twist="Chapter Approved: draw a Twist card (not in pool missions)",
                           challenger="Chapter Approved: use Challenger cards (default: on)",
                           seed="Replay a game's shuffles: the seed is shown to everyone, so none is secret",
                           thread="Open a thread for the game from this channel and play there",
                           clock="A chess clock: minutes for each player (e.g. 90 for Strike Force)",
                           clock_expiry="When a player's time runs out: play on (default), or the opponent may "
                                        "claim the game",
                           when="Schedule it, in your time zone (/settings timezone): \"tonight 20:00\", "
                                "\"tomorrow 19:30\", \"in 2 hours\"",
                           expires="Open challenge: hours until it expires (default 24, at most 168)",
                           for_role="Open challenge: only members with this role may take the seat",
                           deployment="Chapter Approved 2026-27: agree on a Deployment card instead of drawing it",
                           layout="Chapter Approved 2026-27: play the pairing's layout instead of a Deployment card",
                           faction="Your army's faction (your opponent sets theirs on the board)",
                           detachment="Your detachment, or several (commas or 'and'): in 2026-27 they give your Force Disposition",
                           partner="Doubles: your partner, playing your side with you (name your opponent's too)",
                           opponent_partner="Doubles: your opponent's partner",
                           doubles="Without an opponent: an open doubles challenge, filling four seats")
    @app_commands.rename(clock_expiry="clock-expiry", my_strategy="my-strategy", their_strategy="their-strategy",
                         for_role="for", opponent_partner="opponent-partner")
    @app_commands.autocomplete(pack=packs_typed, faction=factions_typed, detachment=detachments_typed)
    @app_commands.choices(layout=[app_commands.Choice(name=f"Layout {x}", value=x) for x in "ABC"]
                          + [app_commands.Choice(name="Layout drawn for the pairing", value="drawn")])
    @app_commands.choices(level=[app_commands.Choice(name=x.name, value=x.id) for x in fourth_edition().levels])
    async def new(self, interaction: discord.Interaction, opponent: discord.Member | None = None,
                  size: Literal["incursion", "strike-force", "asymmetric-war"] | None = None,
                  pack: str | None = None, mission: str | None = None, level: str | None = None,
                  my_strategy: app_commands.Range[int, 1, 3] | None = None,
                  their_strategy: app_commands.Range[int, 1, 3] | None = None,
                  twist: bool = False, challenger: bool = True,
                  seed: app_commands.Range[str, 1, MAX_SEED] | None = None, thread: bool = False,
                  clock: app_commands.Range[int, 1, MAX_CLOCK_MINUTES] | None = None,
                  clock_expiry: Literal["play-on", "claim"] = "play-on",
                  when: app_commands.Range[str, 1, 100] | None = None,
                  expires: app_commands.Range[int, 1, MAX_EXPIRY_HOURS] | None = None,
                  for_role: discord.Role | None = None, deployment: str | None = None,
                  layout: Literal["A", "B", "C", "drawn"] | None = None, faction: app_commands.Range[str, 1, 100] | None = None,
                  detachment: app_commands.Range[str, 1, 100] | None = None, partner: discord.Member | None = None,
                  opponent_partner: discord.Member | None = None, doubles: bool = False) -> None:
        if thread and not isinstance(interaction.channel, discord.TextChannel):
            raise GameError("`thread:` opens a thread from a text channel; here, start the game without it.")
        if my_strategy is not None and not 1 <= my_strategy <= 3 or their_strategy is not None and not (
                1 <= their_strategy <= 3):
            raise GameError("Strategy Ratings run from 1 to 3.")
        if clock is not None and not 1 <= clock <= MAX_CLOCK_MINUTES:
            raise GameError(f"The chess clock gives each player 1 to {MAX_CLOCK_MINUTES} minutes.")
        partners = _partners(opponent, partner, opponent_partner, doubles)
        if opponent is not None:
            if expires is not None or for_role is not None:
                raise GameError("`expires:` and `for:` belong to open challenges: leave `opponent:` empty to post one.")
            if opponent.bot:
                raise GameError("Bots cannot play: challenge a person.")
            # Acknowledged before anything is read or stored: forty tables start together. Here the challenge
            # replaces the public "thinking…" (an interaction's follow-up, outside Discord's global limit); in a
            # thread it is posted there and the "thinking…" is private.
            await interaction.response.defer(ephemeral=thread, thinking=True)
        try:
            pack = pack or await self.service.community.default_pack(interaction.guild_id)
            pack, mission = read_typed(self.service.packs, pack, mission, size)
            options = GameOptions(pack=pack, size=size, mission=mission, level=level, my_strategy=my_strategy,
                                  their_strategy=their_strategy, twist=twist, challenger=challenger, seed=seed,
                                  thread=thread, clock=clock, clock_expiry=clock_expiry, deployment=deployment,
                                  layout=layout, faction=faction, detachment=detachment,
                                  doubles=opponent is None and (doubles or partner is not None))
            me = str(interaction.user.id)
            starts_at = await self._when(me, when) if when else None
            if opponent is None:
                await self._open_challenge(interaction, options, starts_at, expires, for_role, partner)
                return
            setup = options.setup(self.service.packs, (me, str(opponent.id)),
                                  (interaction.user.display_name, opponent.display_name),
                                  partners=partners and tuple((str(m.id), m.display_name) for m in partners))
            await self._challenge(interaction, opponent, setup, options, starts_at, partners)
        except Exception:
            if opponent is not None and not thread:  # a refusal or a fault is the sender's: "thinking…" goes first
                await interaction.delete_original_response()
            raise

    async def _challenge(self, interaction: discord.Interaction, opponent: discord.Member, setup, options: GameOptions,
                         starts_at: datetime | None, partners: tuple[discord.Member, discord.Member] | None) -> None:
        pack, size, thread, seed = options.pack, options.size, options.thread, options.seed
        clock, clock_expiry = options.clock, options.clock_expiry
        rules = self.service.packs.rules(pack)
        place = interaction.channel
        players = [interaction.user, opponent, *(partners or ())]
        if thread:
            kind = size.replace('-', ' ') if size else rules.title
            name = f"{setup.names[0]} vs {setup.names[1]} ({kind})"
            place = await open_thread(self.bot, interaction.channel, name, players, "Mission Deck game")
        what = "a game" if pack == CA_PACK else f"a {rules.title} game"
        challenge = f"{opponent.mention}, {interaction.user.mention} challenges you to {what}."
        if partners is not None:
            challenge = (f"{opponent.mention} {partners[1].mention}, {interaction.user.mention} and "
                         f"{partners[0].mention} challenge you to a doubles game, two a side.")
        if starts_at is not None:
            challenge += f" It is set for {stamp(starts_at)}."
        if clock:
            then = "the opponent may claim the game" if clock_expiry == "claim" else "play on"
            challenge += (f" Chess clock: {clock} minutes each, from the first turn; when a player's time runs out, "
                          f"{then}.")
        if seed:  # the opponent accepts knowing that the shuffles are known in advance
            challenge += (f"\n**Replay:** {interaction.user.mention} fixed the seed `` {seed} ``: anyone who knows it "
                          "can work out every shuffle and roll in advance. Accept only a replay or practice game.")
        result, message = await offer_game(self.bot, interaction.guild_id, place, setup, challenge, players[1:],
                                           thread=thread)
        if starts_at is not None:
            await self.desk.reminders.schedule(result.game_id, place.id, starts_at)
        if thread:  # Discord shows the thread; this says where
            self.desk.challenge_posted(result.game_id, await place.send(**message))
            await interaction.followup.send(f"Game {result.game_id} is in {place.mention}.", ephemeral=True)
        else:
            self.desk.challenge_posted(result.game_id, await interaction.followup.send(**message, wait=True))

    async def _when(self, me: str, when: str) -> datetime:
        """The moment a player typed, read in their own time zone."""
        zone = await self.service.community.time_zone(me) or DEFAULT_ZONE
        return await asyncio.to_thread(parse_when, when, zone, utcnow())  # dateparser takes a while on first use

    async def _open_challenge(self, interaction: discord.Interaction, options: GameOptions,
                              starts_at: datetime | None, expires: int | None, role: discord.Role | None,
                              partner: discord.Member | None) -> None:
        if interaction.guild_id is None:
            raise GameError("Open challenges are for servers: in a private chat, name your `opponent:`.")
        if expires is not None and not 1 <= expires <= MAX_EXPIRY_HOURS:
            raise GameError(f"`expires:` is a number of hours from 1 to {MAX_EXPIRY_HOURS} (a week).")
        # Checked now, with stand-ins for the seats still open, so a bad option is refused before anyone takes one.
        stand_ins = (("1", "?"), ("2", "?")) if options.doubles else None
        options.setup(self.service.packs, (str(interaction.user.id), "0"), (interaction.user.display_name, "?"),
                      partners=stand_ins)
        expires_at = utcnow() + (timedelta(hours=expires) if expires else DEFAULT_EXPIRY)
        if starts_at is not None:  # a scheduled game's seat can be taken until it starts
            if expires is not None and expires_at < starts_at:
                raise GameError("The challenge would expire before the game starts: leave `expires:` out, and "
                                "the seat stays open until the start.")
            expires_at = starts_at
        await self.desk.challenges.post(interaction, options, role=role, expires_at=expires_at,
                                        starts_at=starts_at, partner=partner)

    @new.autocomplete("deployment")
    async def deployments(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The chosen pack's Deployment cards (Chapter Approved 2026-27)."""
        pack = interaction.namespace.pack or await self.service.community.default_pack(interaction.guild_id)
        rules = self.service.packs.rules(pack) if pack in self.service.packs else None
        cards = getattr(getattr(rules, "catalog", None), "deployment_cards", ())
        typed = current.casefold()
        return [app_commands.Choice(name=c.name, value=c.id) for c in cards if typed in c.name.casefold()
                ][:AUTOCOMPLETE_CHOICES]

    @new.autocomplete("mission")
    async def missions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The chosen pack's missions (and battle size's, for the Grand Tournament)."""
        pack = interaction.namespace.pack or await self.service.community.default_pack(interaction.guild_id)
        if pack not in self.service.packs:
            return []
        found = mission_choices(self.service.packs.rules(pack), interaction.namespace.size)
        typed = current.casefold()
        return [app_commands.Choice(name=name, value=value) for value, name in found
                if typed in name.casefold()][:AUTOCOMPLETE_CHOICES]

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): arm the stored moments this process serves: clocks, open challenges, reminders."""
        await self.desk.clocks.watch_stored()
        await self.desk.challenges.watch_stored()
        await self.desk.reminders.watch_stored()

    @app_commands.command(name="status", description="Bring this channel's game board to the bottom")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # a refusal stays private
        record = await self.service.get_state(channel_id=interaction.channel_id)
        if not await self.desk.move_board(record.id, notify=set()):
            raise GameError("This game is waiting for the challenged player to accept.")
        await interaction.delete_original_response()  # the board at the bottom is the answer

    @app_commands.command(name="undo", description="Take back the last action of this channel's game")
    async def undo(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)  # a refusal must stay private
        with self.desk.board.answering(interaction):
            await self.service.undo(interaction.channel_id, str(interaction.user.id))  # the service finds the seat

    @app_commands.command(name="concede", description="Concede the game: your opponent wins")
    async def concede(self, interaction: discord.Interaction) -> None:
        await self.desk.perform(interaction, moves.Concede(actor=str(interaction.user.id)))

    @app_commands.command(name="end", description="Abandon this channel's game (both players, or Manage Channels)")
    async def end(self, interaction: discord.Interaction) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        me = str(interaction.user.id)
        moderator = interaction.permissions.manage_channels
        if moderator:
            await interaction.response.defer(ephemeral=True)
            with self.desk.board.answering(interaction):
                await self.service.abandon(interaction.channel_id, me, moderator=True)
            return
        seat = seat_of(record.setup, me)
        if seat is None:
            raise GameError("Only the players, or someone with Manage Channels, can end this game.")
        other = record.state.opponent(seat).id
        verb = "endby-first" if seat == record.setup.players[0] else "endby-second"
        await interaction.response.send_message(
            f"{mentions(record.setup, other)}, {interaction.user.mention} wants to abandon this game (no result). "
            "Agree?", view=view_of(GameButton(record.id, record.version, verb)),
            allowed_mentions=await self.desk.ping_to(record, other))
        # Its button goes once the game is over, whichever way it ends.
        await self.desk.board.calls.remember(await interaction.original_response(), record.id, other, [Wait(other, "endby")])

    @app_commands.command(name="share", description="Live web pages of this game: a board page and OBS overlays")
    @app_commands.describe(stop="Revoke the links: the pages open with them stop (either player)")
    async def share(self, interaction: discord.Interaction, stop: bool = False) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        me = acting_seat(interaction, record.setup, "share it")
        web = web_of(self.bot)
        name = interaction.user.display_name
        if stop:
            if not await web.unshare(ShareKind.GAME, record.id):
                raise GameError("This game has no live pages to stop.")
            await interaction.response.send_message(f"{name} stopped this game's live pages: their links open "
                                                    "nothing now.", allowed_mentions=discord.AllowedMentions.none())
            return
        if await web.shares.shared(ShareKind.GAME, record.id):
            raise GameError("This game's live pages are shared already (their links were posted here). For new "
                            "links, revoke them with `/game share stop:True`, then share again.")
        other = record.state.opponent(me).id
        await interaction.response.send_message(
            f"{mentions(record.setup, other)}, {name} asks to put this game on live web pages: a board page and OBS "
            "overlays anyone with the links can watch (hidden choices stay hidden). Agree?",
            view=view_of(ShareAgree(record.id, record.setup.players.index(me))),
            allowed_mentions=await self.desk.ping_to(record, other))

    @app_commands.command(name="pings", description="Turn the bot's pings to you on or off in this channel's game")
    @app_commands.describe(setting="off: the bot still names you with your buttons, but your phone stays quiet")
    async def pings(self, interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        record = await self.service.get_state(channel_id=interaction.channel_id)
        me = str(interaction.user.id)  # each player's own, a partner's too
        if seat_of(record.setup, me) is None:
            raise GameError("Only the players of this game can change their pings.")
        await self.service.repo.set_pings(record.id, me, setting == "on")
        await interaction.response.send_message(
            "Pings on: you are notified when the game passes to you." if setting == "on" else
            "Pings off: the bot still names you when the game waits on you, without notifying you.",
            ephemeral=True)

    @app_commands.command(name="log", description="The game's log as JSON and a per-round score sheet (for you "
                                                  "alone unless public)")
    @app_commands.describe(public="Post it for everyone in the channel (default: only you see it)")
    async def log(self, interaction: discord.Interaction, public: bool = False) -> None:
        record = await self.service.latest_game(interaction.channel_id)
        data = await self.service.export_log(record.id)
        payload = io.BytesIO(json.dumps(data, indent=2, ensure_ascii=False).encode())
        await interaction.response.send_message(
            self._sheet_message(record.state), file=discord.File(payload, filename=f"game-{record.id}.json"),
            ephemeral=not public)

    @app_commands.command(name="history", description="A player's finished games on this server, newest first")
    @app_commands.describe(player="Whose games (default: yours)", pack="Only this pack's games",
                           public="Post it for everyone (default: you alone)")
    @app_commands.guild_only()
    @app_commands.autocomplete(pack=packs_typed)
    async def history(self, interaction: discord.Interaction, player: discord.Member | None = None,
                      pack: str | None = None, public: bool = False) -> None:
        who = str((player or interaction.user).id)
        if pack is not None:
            pack = resolve(pack, pack_choices(self.service.packs), "a pack of this bot")
        page = await self.service.history.history(interaction.guild_id, who, pack=pack, limit=history_view.PAGE)
        message = history_view.history_message(interaction.guild_id, who, pack, 0, page,
                                               history_view.pack_titles(self.service.packs))
        await interaction.response.send_message(**message, ephemeral=not public)

    @app_commands.command(name="sheet", description="The score sheet picture of this channel's latest game")
    async def sheet(self, interaction: discord.Interaction) -> None:
        record = await self.service.latest_game(interaction.channel_id)
        await interaction.response.send_message(
            f"Score sheet of game {record.id}.", file=self.desk.board.sheet_file(record.state, record.id))

    def _sheet_message(self, state) -> str:
        if is_mission_deck(state):
            tables = score_sheet_text(state)
        else:
            tables = table_sheet_text(self.service.packs.rules(state.pack), state)
        parts = [f"**{name}**\n{table}" for name, table in tables.items()]
        return "\n".join(parts) + f"\nSeed hash `{seed_hash(state.setup.seed)}`"


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(GameCog(bot))


def _partners(opponent: discord.Member | None, partner: discord.Member | None, theirs: discord.Member | None,
              doubles: bool) -> tuple[discord.Member, discord.Member] | None:
    """A doubles challenge's partners (yours, your opponent's), all four seats named; None for a game of two or an
    open challenge (an open doubles one may name your partner)."""
    if any(p is not None and p.bot for p in (partner, theirs)):
        raise GameError("Bots cannot play: challenge people.")
    if opponent is None:
        if theirs is not None:
            raise GameError("`opponent-partner:` is your opponent's partner: name your `opponent:` too, or leave "
                            "both out for an open doubles challenge.")
        return None
    if partner is None and theirs is None and not doubles:
        return None
    if partner is None or theirs is None:
        raise GameError("A doubles game is four players, two a side: name your `partner:`, your `opponent:` and "
                        "their partner (`opponent-partner:`).")
    return partner, theirs
