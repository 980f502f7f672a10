"""/tournament: a Swiss event on this server: create, register, drop, reinstate, checkin, pair (a private draft
to publish or re-pair), announce, round start (the clock and its reminders), report, result, status, standings,
export, finish.

Organisers (Manage Server, or the event's organiser role) run the event; players register, drop and
report their own table, which their opponent confirms with a button. Everyone else gets an ephemeral no.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import datetime
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.engine.errors import GameError
from bot.engine.names import resolve
from bot.engine.packs import ChapterApprovedRules
from bot.engine.teams.event import TeamRules, margin_text
from bot.engine.teams.scoring import MatchOutcome
from bot.engine.tournament.event import MISSION_LETTERS, Reason, missing_tables
from bot.present.entrants import name_of
from bot.store.tournament_repository import TournamentRecord
from bot.present.exports import exports
from bot.services.tournaments.entries import MAX_CLUB
from bot.services.tournaments import (
    MAX_NAME,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
    ReportOutcome,
    TournamentService,
    absent_digest,
    not_checked_in,
    report_digest,
)
from bot.armies.lists import ListError
from bot.store.models import utcnow
from bot.store.share_models import ShareKind
from bot.plumbing.times import DEFAULT_ZONE, parse_when
from bot.ui import event_lists
from bot.ui import tournament as ui
from bot.ui.armies import detachments_typed, factions_typed, read_attachment
from bot.ui.controls import view_of
from bot.services.game_options import pack_choices
from bot.ui.game_options import packs_typed
from bot.ui.sharing import event_links_text, web_of
from bot.ui.limits import AUTOCOMPLETE_CHOICES
from bot.ui.text import pinging
from bot.ui.tournament.tables import opening, unopened
from cogs.base import BotCog

MISSIONS = [app_commands.Choice(name=f"Mission {c}", value=c) for c in MISSION_LETTERS]
OUTCOMES = [
    app_commands.Choice(name="Player A wins", value="a_wins"),
    app_commands.Choice(name="Player B wins", value="b_wins"),
    app_commands.Choice(name="Draw", value="draw"),
]
REASONS = [
    app_commands.Choice(name="The score: more VP wins, equal VP is a draw", value="score"),
    app_commands.Choice(name="Concession: the loser conceded (reported by them, or an organiser)", value="concession"),
    app_commands.Choice(name="No-show: the loser did not play (organisers)", value="no_show"),
]
ORGANISERS_ONLY = "Only an organiser (Manage Server, or the event's organiser role) can {}."
NO_PINGS = discord.AllowedMentions.none()
CLOCK_TICK = 20  # seconds between looks at the stored round clocks
_log = logging.getLogger(__name__)


async def dispositions_typed(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the Force Dispositions of the server's event's deck (none where it has no such cards)."""
    try:
        record = await interaction.client.tournaments.current(_guild(interaction))  # type: ignore[attr-defined]
    except GameError:
        return []
    typed = current.casefold()
    return [app_commands.Choice(name=d.name, value=d.id) for d in ui.event_catalog(interaction.client, record)
            .dispositions if typed in d.name.casefold()][:AUTOCOMPLETE_CHOICES]


@app_commands.guild_only()
class TournamentCog(BotCog, name="tournament", description="Run a Swiss tournament on this server"):
    def __init__(self, bot: commands.Bot) -> None:
        self._ticking = asyncio.Lock()
        super().__init__(bot)

    @property
    def service(self) -> TournamentService:
        return self.bot.tournaments  # type: ignore[attr-defined]

    async def _organiser(self, interaction: discord.Interaction, what: str) -> TournamentRecord:
        record = await self.service.current(_guild(interaction))
        if not ui.is_organiser(interaction, record):
            raise GameError(ORGANISERS_ONLY.format(what))
        return record

    @app_commands.command(name="create", description="Start a Swiss tournament on this server (Manage Server)")
    @app_commands.rename(announce_channel="announce-channel", organiser_role="organiser-role", bye_vp="bye-vp")
    @app_commands.describe(name="The event's name", rounds="How many rounds will be played",
                           announce_channel="Where pairings are posted (default: where /tournament announce is used)",
                           organiser_role="Members with this role may run the event too",
                           bye_vp="VP scored by the player with the bye (default 0)",
                           pack="The Chapter Approved season (default: the server's, set by /settings pack)",
                           lists="Army lists: none (default), closed (organisers see them), open (each player sees "
                                 "the opponent's)",
                           list_deadline="When lists are due, in your time zone: \"friday 18:00\" (then only "
                                         "organisers enter them)",
                           team_size="A team event: players per team, 3 to 8 (Teams Event Companion, 2026-27)",
                           chapters="Team events: Space Marine chapters count as one faction keyword, or each its own",
                           team_bye="Team events: what a bye scores (default: the smallest win)",
                           pairing_minutes="Team events: each pairing step's deadline (default 15)",
                           layouts="Team events: the Defenders declare layouts secretly (default) or in turn",
                           doubles="Doubles: each entrant is a pair of players, registered together (not with teams)")
    @app_commands.rename(list_deadline="list-deadline", team_size="team-size", team_bye="team-bye",
                         pairing_minutes="pairing-minutes")
    @app_commands.autocomplete(pack=packs_typed)
    async def create(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME],
                     rounds: app_commands.Range[int, 1, MAX_ROUNDS],
                     announce_channel: discord.TextChannel | None = None,
                     organiser_role: discord.Role | None = None,
                     bye_vp: app_commands.Range[int, 0, 100] = 0, pack: str | None = None,
                     lists: Literal["none", "closed", "open"] = "none",
                     list_deadline: app_commands.Range[str, 1, 100] | None = None,
                     team_size: app_commands.Range[int, 3, 8] | None = None,
                     chapters: Literal["each", "one"] | None = None,
                     team_bye: Literal["win", "draw", "loss"] | None = None,
                     pairing_minutes: app_commands.Range[int, 1, 1440] | None = None,
                     layouts: Literal["secret", "in-turn"] | None = None, doubles: bool = False) -> None:
        if not interaction.permissions.manage_guild:
            raise GameError("Only someone with Manage Server can start a tournament.")
        if doubles and team_size is not None:
            raise GameError("A doubles event is of pairs, not teams: leave out `team-size:` or `doubles:`.")
        deadline = await self._deadline(interaction, list_deadline) if list_deadline else None
        packs = self.bot.service.packs  # type: ignore[attr-defined]
        typed = pack or await self.bot.service.community.default_pack(interaction.guild_id)  # type: ignore[attr-defined]
        chosen = resolve(typed, pack_choices(packs), "a pack of this bot")
        rules = packs.rules(chosen)
        if not isinstance(rules, ChapterApprovedRules):
            raise GameError(f"Tournaments play a Chapter Approved season, not {rules.title}: name `pack:`.")
        pool = not rules.catalog.force_dispositions
        team_rules = None
        team_options = {"chapters": chapters, "team-bye": team_bye, "pairing-minutes": pairing_minutes,
                        "layouts": layouts}
        if team_size is None and (given := [f"`{n}:`" for n, v in team_options.items() if v is not None]):
            raise GameError(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for team events: add "
                            "`team-size:`, or leave it out.")
        if team_size is not None:
            if pool:
                raise GameError("Team events play the 11th edition's Teams Event Companion: pick the Chapter "
                                "Approved 2026-27 `pack:`.")
            chosen_rules = {"chapters_one_faction": chapters and chapters == "one",
                            "bye": team_bye and MatchOutcome(team_bye),
                            "layouts_in_turn": layouts and layouts == "in-turn", "step_minutes": pairing_minutes}
            team_rules = TeamRules(size=team_size, **{k: v for k, v in chosen_rules.items() if v is not None})
        record = await self.service.create(
            _guild(interaction), name, rounds, bye_vp=bye_vp,
            announce_channel_id=announce_channel.id if announce_channel else None,
            organiser_role_id=organiser_role.id if organiser_role else None, pack=chosen, pool=pool,
            list_policy=lists, list_deadline=deadline, teams=team_rules, doubles=doubles,
            channel_id=interaction.channel_id,
        )
        where = (f" Pairings will be posted in {announce_channel.mention}." if announce_channel else
                 " Pairings will be posted here, or where a round is published from.")
        missions = ("missions from the Chapter Approved Tournament Mission Pool" if pool else
                    f"{rules.title}: each player's Primary Mission from both Force Dispositions")
        partner = " partner:" if doubles else ""  # a pair registers once, together
        join = f"`/tournament register{partner}`" if pool or lists != "none" else \
            f"`/tournament register{partner} disposition:` (your list's)"
        if doubles:
            missions += "; doubles: pairs of players, two a side"
        if lists != "none":
            due = f", due <t:{int(deadline.timestamp())}:f>" if deadline else ""
            join += f", then `/tournament list submit` ({event_lists.POLICIES[lists]}{due})"
        if team_rules is not None:
            join = "`/team register` (captains, with their players)" + (
                f", then each player's `/tournament list submit` ({event_lists.POLICIES[lists]})"
                if lists != "none" else ", then each player's `/tournament register disposition:`")
            missions += f"; teams of {team_size}, paired by their captains ({margin_text(team_size)})"
        await interaction.response.send_message(
            f"🏆 **{discord.utils.escape_markdown(record.name)}** is open for registration: "
            f"{record.rounds_planned} rounds of Swiss, {missions}.{where} Join with {join}.",
            allowed_mentions=NO_PINGS)

    async def _deadline(self, interaction: discord.Interaction, typed: str) -> datetime:
        """A moment the organiser typed, in their own time zone."""
        community = self.bot.service.community  # type: ignore[attr-defined]
        zone = await community.time_zone(str(interaction.user.id)) or DEFAULT_ZONE
        return await asyncio.to_thread(parse_when, typed, zone, utcnow())

    @app_commands.command(name="register", description="Register for this server's tournament")
    @app_commands.describe(player="Register someone else (organisers only)",
                           disposition="Chapter Approved 2026-27: your list's Force Disposition (registered once)",
                           club="Your club (or team): the organisers may keep club mates apart in the pairings",
                           partner="Doubles events: your partner, registered with you as one pair")
    @app_commands.autocomplete(disposition=dispositions_typed)
    async def register(self, interaction: discord.Interaction, player: discord.Member | None = None,
                       disposition: str | None = None,
                       club: app_commands.Range[str, 1, MAX_CLUB] | None = None,
                       partner: discord.Member | None = None) -> None:
        record = await self.service.current(_guild(interaction))
        who = player or interaction.user
        if who.id != interaction.user.id and not ui.is_organiser(interaction, record):
            raise GameError(ORGANISERS_ONLY.format("register someone else"))
        if who.bot or partner is not None and partner.bot:
            raise GameError("Bots cannot play: register a person.")
        catalog = ui.event_catalog(self.bot, record)
        if disposition is not None and catalog.force_dispositions:
            disposition = resolve(disposition, [(d.id, d.name) for d in catalog.dispositions],
                                  "a Force Disposition")
        saved = await self.service.register(record.guild_id, str(who.id), who.display_name, disposition, club,
                                            partner=(str(partner.id), partner.display_name) if partner else None)
        count = len(saved.state.event.players) - len(saved.state.event.dropped)
        with_list = f", {catalog.disposition(disposition).name}" if disposition else ""
        with_list += f", {discord.utils.escape_markdown(club.strip())}" if club and club.strip() else ""
        who_is = f"{who.mention} and {partner.mention} are registered as a pair" if partner else \
            f"{who.mention} is registered"
        await interaction.response.send_message(
            f"{who_is} for **{saved.name}**{with_list} ({ui.entrants(saved, count)}).", allowed_mentions=NO_PINGS)

    @app_commands.command(name="drop", description="Drop from this server's tournament (you keep your results)")
    @app_commands.describe(player="Drop someone else (organisers only)")
    async def drop(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        record = await self.service.current(_guild(interaction))
        who = player or interaction.user
        if who.id != interaction.user.id and not ui.is_organiser(interaction, record):
            raise GameError(ORGANISERS_ONLY.format("drop someone else"))
        saved = await self.service.drop(record.guild_id, str(who.id))
        dropped = ui.side(saved, saved.state.entrant_of(str(who.id)))  # in doubles, the pair
        await interaction.response.send_message(
            f"{dropped} {'have' if saved.state.doubles else 'has'} dropped from **{saved.name}**: they keep their "
            "results and will not be paired again.", allowed_mentions=NO_PINGS)

    @app_commands.command(name="pair", description="Pair the next round (organisers)")
    @app_commands.describe(mission="A Tournament Mission Pool mission (default: a random one not played yet)")
    @app_commands.choices(mission=MISSIONS)
    async def pair(self, interaction: discord.Interaction, mission: str | None = None) -> None:
        await self._organiser(interaction, "pair a round")
        # Private: the organiser reviews the draft (a refusal stays private too); Publish makes it public.
        await interaction.response.defer(ephemeral=True, thinking=True)
        saved = await self.service.pair(_guild(interaction), mission)
        await ui.send_draft(interaction, saved)

    @app_commands.command(name="announce", description="Post the current round's pairings and mission again "
                                                       "(organisers)")
    async def announce(self, interaction: discord.Interaction) -> None:
        record = await self._organiser(interaction, "announce the pairings")
        if not record.state.event.rounds:
            raise GameError("No round has been paired yet: `/tournament pair` first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        where, count = await ui.announce(self.bot, record, interaction.channel)  # type: ignore[arg-type]
        await interaction.followup.send(ui.announced_text(record, where, count), ephemeral=True)

    @app_commands.command(name="report", description="Report your game's result, as you saw it")
    @app_commands.rename(my_vp="my-vp", opponent_vp="opponent-vp")
    @app_commands.describe(my_vp="Your victory points", opponent_vp="Your opponent's victory points",
                           conceded="You conceded the game (your opponent wins whatever the VP)")
    async def report(self, interaction: discord.Interaction, my_vp: app_commands.Range[int, 0, 100],
                     opponent_vp: app_commands.Range[int, 0, 100], conceded: bool = False) -> None:
        done = await self.service.report_own(_guild(interaction), str(interaction.user.id), my_vp, opponent_vp,
                                             conceded=conceded)
        await _ask_confirmation(interaction, done)

    @app_commands.command(name="status", description="Which tables of the round have their result (organisers)")
    async def status(self, interaction: discord.Interaction) -> None:
        record = await self._organiser(interaction, "see the round's status")
        rounds = record.state.event.rounds
        if not rounds or not rounds[-1].published:
            raise GameError("No round is being played: `/tournament pair` and publish one first.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await ui.collect_table_games(self.bot, record)
        rounds = record.state.event.rounds
        lines = ui.status_lines(record)
        missing = len(missing_tables(rounds[-1]))
        title = f"{record.name}: round {rounds[-1].number}, {missing} of {len(lines)} tables waiting"
        messages = ui.pack_embeds(ui.line_embeds(lines or ["No tables (only a bye)."], title))
        view = view_of(ui.NudgeButton(record.id, rounds[-1].number)) if missing else None
        for i, embeds in enumerate(messages):
            extra = {"view": view} if view is not None and i == len(messages) - 1 else {}
            await interaction.followup.send(embeds=embeds, ephemeral=True, **extra)

    @app_commands.command(name="checkin", description="Open or close check-in before round 1 (organisers)")
    @app_commands.describe(action="open: post the check-in button; close: drop who did not check in (you confirm)")
    @app_commands.choices(action=[app_commands.Choice(name="open", value="open"),
                                  app_commands.Choice(name="close", value="close")])
    async def checkin(self, interaction: discord.Interaction, action: str) -> None:
        record = await self._organiser(interaction, "run check-in")
        if action == "open":
            saved = await self.service.open_checkin(record.guild_id)
            await interaction.response.send_message(
                f"📋 Check-in for **{saved.name}** is open: registered players, press **Check in**. Players who "
                "have not checked in when it closes are dropped.", view=view_of(ui.CheckInButton(saved.id)),
                allowed_mentions=NO_PINGS)
            return
        if not record.state.checkin_open:
            raise GameError("Check-in is not open: `/tournament checkin open` first.")
        absent = not_checked_in(record)
        if not absent:
            saved = await self.service.close_checkin(record.id, absent_digest(absent))
            await interaction.response.send_message(ui.checkin_closed_text(saved), ephemeral=True)
            return
        names = ", ".join(discord.utils.escape_markdown(name_of(record, p)) for p in absent)
        text = f"{ui.entrants(record, len(absent))} {'have' if len(absent) != 1 else 'has'} not checked in: {names}."
        await interaction.response.send_message(
            text[:1900] + ("…" if len(text) > 1900 else "") + " Drop them and close check-in?", ephemeral=True,
            view=view_of(ui.CloseCheckInButton(record.id, absent_digest(absent))))

    list_group = app_commands.Group(name="list", description="Army lists for the event")

    @list_group.command(name="submit", description="Submit your list (again to replace it, until the deadline)")
    @app_commands.describe(file="Your list file: the app's export (.txt) or a NewRecruit .rosz (none: paste it in a "
                                "form)",
                           faction="The faction, if the list does not say it",
                           detachment="The detachment, if the list does not say it",
                           player="Submit or correct someone else's list (organisers)")
    @app_commands.autocomplete(faction=factions_typed, detachment=detachments_typed)
    async def list_submit(self, interaction: discord.Interaction, file: discord.Attachment | None = None,
                          faction: app_commands.Range[str, 1, 100] | None = None,
                          detachment: app_commands.Range[str, 1, 100] | None = None,
                          player: discord.Member | None = None) -> None:
        record = await self.service.current(_guild(interaction))
        who = player or interaction.user
        if file is None:
            await interaction.response.send_modal(event_lists.EventListForm(self.bot, record.id, who))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            read = await read_attachment(file)
        except ListError as exc:
            raise GameError(str(exc)) from None
        await event_lists.submit(self.bot, interaction, record, who, faction=faction, detachment=detachment,
                                 file=read)

    @list_group.command(name="show", description="A player's list, privately (open lists: anyone's)")
    @app_commands.describe(player="Whose (default: yours)")
    async def list_show(self, interaction: discord.Interaction, player: discord.Member | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.service.latest(_guild(interaction))
        await event_lists.show(self.bot, interaction, record, player or interaction.user)

    @list_group.command(name="review", description="Every entrant's list: missing, flagged, corrected (organisers)")
    async def list_review(self, interaction: discord.Interaction) -> None:
        record = await self._organiser(interaction, "review the lists")
        await interaction.response.send_message(embeds=event_lists.review_embeds(record)[:10], ephemeral=True,
                                                allowed_mentions=NO_PINGS)

    round_group = app_commands.Group(name="round", description="The round being played")

    @round_group.command(name="start", description="Start the round's clock, with reminders (organisers)")
    @app_commands.describe(minutes="How long the round lasts (default 180)")
    async def round_start(self, interaction: discord.Interaction,
                          minutes: app_commands.Range[int, 1, MAX_ROUND_MINUTES] = 180) -> None:
        record = await self._organiser(interaction, "start the round")
        assert interaction.channel_id is not None
        saved = await self.service.start_clock(record.guild_id, minutes, interaction.channel_id, _now())
        clock = saved.state.clock
        assert clock is not None
        await interaction.response.send_message(
            f"⏱️ **{saved.name}** round {clock.round_number} has started: it ends <t:{clock.ends_at}:t> "
            f"(<t:{clock.ends_at}:R>). Reminders at 30 and 10 minutes left, and at time.", allowed_mentions=NO_PINGS)

    async def cog_load(self) -> None:
        self.clock.start()  # reminders stored before a restart are posted from here on

    async def cog_unload(self) -> None:
        async with self._ticking:  # a tick in flight finishes its database work before the bot closes
            self.clock.cancel()

    @tasks.loop(seconds=CLOCK_TICK)
    async def clock(self) -> None:
        async with self._ticking:
            try:
                await self.post_reminders(_now())
            except Exception:  # one bad tick must not stop the clock
                _log.exception("Posting round reminders failed")

    async def post_reminders(self, now: int) -> int:
        """Post the reminders due at `now` (unix seconds); how many were posted."""
        due = await self.service.due_reminders(now)
        for record, minutes in due:
            clock = record.state.clock
            assert clock is not None
            left = "time is up: finish your turn and report your result" if minutes == 0 else \
                f"{minutes} minutes left (ends <t:{clock.ends_at}:R>)"
            try:
                channel = self.bot.get_channel(clock.channel_id) or await self.bot.fetch_channel(clock.channel_id)
                await channel.send(f"⏰ **{record.name}** round {clock.round_number}: {left}.",  # type: ignore[union-attr]
                                   allowed_mentions=NO_PINGS)
            except discord.HTTPException:
                _log.warning("Could not post a reminder of tournament %s", record.id, exc_info=True)
        return len(due)

    @app_commands.command(name="reinstate", description="Bring back a player who dropped (organisers)")
    @app_commands.describe(player="The player who dropped: they are paired again from the next round")
    async def reinstate(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._organiser(interaction, "reinstate a player")
        saved = await self.service.reinstate(_guild(interaction), str(player.id))
        back = ui.side(saved, saved.state.entrant_of(str(player.id)))  # in doubles, the pair
        await interaction.response.send_message(
            f"{back} {'are' if saved.state.doubles else 'is'} back in **{saved.name}** and will be paired from the "
            f"next round, keeping their record. Reinstated by organiser {interaction.user.mention}.",
            allowed_mentions=NO_PINGS)

    @app_commands.command(name="result", description="Report your table's result; organisers enter or correct one")
    @app_commands.rename(vp_a="vp-a", vp_b="vp-b", round_number="round")
    @app_commands.describe(table="Your table number this round", vp_a="Player A's victory points (A is named first)",
                           vp_b="Player B's victory points",
                           outcome="Leave it out: the VP decide. Must agree with them, except for a concession "
                                   "or no-show",
                           reason="Only for a concession or a no-show: the outcome then stands whatever the VP",
                           round_number="Organisers: correct a result of an earlier round (default: this round)")
    @app_commands.choices(outcome=OUTCOMES, reason=REASONS)
    async def result(self, interaction: discord.Interaction, table: app_commands.Range[int, 1, 10_000],
                     vp_a: app_commands.Range[int, 0, 100], vp_b: app_commands.Range[int, 0, 100],
                     outcome: str | None = None, reason: str = "score",
                     round_number: app_commands.Range[int, 1, MAX_ROUNDS] | None = None) -> None:
        record = await self.service.current(_guild(interaction))
        organiser = ui.is_organiser(interaction, record)
        done = await self.service.report(record.guild_id, str(interaction.user.id), table, outcome, vp_a, vp_b,
                                         organiser=organiser, reason=reason, round_number=round_number)
        round_number = round_number or len(done.record.state.event.rounds)
        if done.result is not None:
            line = ui.score_line(done.record, done.table, done.result)
            was = ""
            if (old := done.corrected) is not None:
                why = "" if old.reason == Reason.SCORE else f" ({old.reason.value.replace('_', ' ')})"
                was = f" (corrected from {old.vp_a} – {old.vp_b}, {ui.OUTCOME_WORDS[old.outcome]}{why})"
            await interaction.response.send_message(
                f"📝 **{done.record.name}** round {round_number}, table {table}: {line}{was}. "
                f"Entered by organiser {interaction.user.mention}.", allowed_mentions=NO_PINGS)
            return
        await _ask_confirmation(interaction, done)

    @app_commands.command(name="standings", description="The standings: posted by organisers, privately to players")
    async def standings(self, interaction: discord.Interaction) -> None:
        record = await self.service.latest(_guild(interaction))
        messages = ui.standings_messages(record)
        # Only an organiser posts the standings for everyone; a player gets them, and their own place, privately.
        public = ui.is_organiser(interaction, record)
        own = "" if public else ui.own_standing(record, str(interaction.user.id))
        await interaction.response.send_message(own, embeds=messages[0], ephemeral=not public,
                                                allowed_mentions=NO_PINGS)
        for embeds in messages[1:]:
            await interaction.followup.send(embeds=embeds, ephemeral=not public)

    @app_commands.command(name="desk", description="The organiser's desk: run the event from one live web page "
                                                  "(organisers and judges)")
    async def desk(self, interaction: discord.Interaction) -> None:
        record = await self.service.current(_guild(interaction))
        if not await self.bot.judges.is_judge(interaction, record):  # type: ignore[attr-defined]
            raise GameError("Only the event's organisers (Manage Server, or its organiser role) and judges (its judge "
                            "role) open its desk.")
        web = web_of(self.bot)
        if web.desk is None:
            raise GameError("The desk signs organisers in with Discord: the bot's host sets DISCORD_CLIENT_SECRET "
                            "(and the redirect URL in the Developer Portal), as the admins' page on the web pages "
                            "says.")
        await interaction.response.send_message(
            f"🗂️ **{discord.utils.escape_markdown(record.name)}**'s desk: <{web.public_url}/desk/{record.id}>\n"
            "Sign in with Discord there: organisers run the whole day (check-in, pairings and their draft, results, "
            "time, judge calls, exports), judges see the round and the calls. Discord decides who is which, again "
            "at every action.", ephemeral=True)

    @app_commands.command(name="tables", description="Where table threads open (up to 5 channels), and open any the "
                                                    "round lacks (organisers)")
    @app_commands.rename(channel_2="channel-2", channel_3="channel-3", channel_4="channel-4", channel_5="channel-5")
    @app_commands.describe(channel="The first channel (none named: the event's announcement channel)",
                           channel_2="Another: Discord opens about one thread a second in each channel",
                           channel_3="Another", channel_4="Another", channel_5="Another")
    async def tables(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None,
                     channel_2: discord.TextChannel | None = None, channel_3: discord.TextChannel | None = None,
                     channel_4: discord.TextChannel | None = None,
                     channel_5: discord.TextChannel | None = None) -> None:
        record = await self._organiser(interaction, "choose where table threads open")
        named = tuple(c.id for c in (channel, channel_2, channel_3, channel_4, channel_5) if c is not None)
        if record.state.teams is not None and named:
            raise GameError("A team event's games open in their match's channel: name its announcement channel "
                            "instead.")
        record = await self.service.set_table_channels(record.id, named)
        where = ", ".join(f"<#{c}>" for c in named) if named else "the event's announcement channel"
        said = f"Table threads open in {where}, the tables in blocks in that order." if len(named) > 1 else \
            f"Table threads open in {where}."
        missing = unopened(record)
        if not missing:
            await interaction.response.send_message(said, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async def answer(text: str, over: bool) -> None:
            await interaction.edit_original_response(content=text)
        number, _, _ = opening(record)
        lacking = ("match", "matches") if record.state.teams is not None else ("table", "tables")
        head = f"{said} Round {number} has {missing} {lacking[missing != 1]} without a thread:"
        tables = self.bot.tables  # type: ignore[attr-defined]
        if tables.busy(record.id):
            await answer(f"{said} Round {number}'s threads are opening already.", True)
            return
        await answer(f"{head} opening them.", False)
        tables.open(record, interaction.channel, answer, head=head)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): the table threads a restart cut short carry on opening."""
        if resumed := await self.bot.tables.resume():  # type: ignore[attr-defined]
            _log.info("Resumed opening the table threads of %d events", resumed)

    @app_commands.command(name="share", description="Live web pages: the venue screen and each table's overlays "
                                                   "(organisers)")
    @app_commands.describe(stop="Revoke the links: the pages open with them stop")
    async def share(self, interaction: discord.Interaction, stop: bool = False) -> None:
        record = await self._organiser(interaction, "share the event's live pages")
        web = web_of(self.bot)
        if stop:
            count = await web.unshare(ShareKind.EVENT, record.id)
            await interaction.response.send_message(f"Revoked {count} link{'s' * (count != 1)}: the pages open "
                                                    "with them stop.", ephemeral=True)
            return
        # Privately: the organiser puts them on a screen or hands them to the stream team.
        token = await web.share(ShareKind.EVENT, record.id, guild_id=record.guild_id, by=str(interaction.user.id))
        await interaction.response.send_message(event_links_text(web.event_links(token), record.name,
                                                                 teams=record.state.teams is not None),
                                                ephemeral=True)

    @app_commands.command(name="export", description="The standings and every result as CSV files")
    async def export(self, interaction: discord.Interaction) -> None:
        record = await self.service.latest(_guild(interaction))
        calls = None
        if ui.is_organiser(interaction, record):  # every judge call, with its notes and rulings: the organisers'
            calls = await self.bot.judges.service.calls(record.id)  # type: ignore[attr-defined]
        files = [ui.csv_file(text, f"tournament-{record.id}-{name}.csv")
                 for name, text in exports(record, calls).items()]
        await interaction.response.send_message(f"**{record.name}**: standings and results.", files=files,
                                                ephemeral=True)

    @app_commands.command(name="finish", description="End the tournament once every result is in (organisers)")
    async def finish(self, interaction: discord.Interaction) -> None:
        await self._organiser(interaction, "finish the tournament")
        saved = await self.service.finish(_guild(interaction))
        top = ui.standings_messages(saved)[0][0]
        played = len(saved.state.event.rounds)
        await interaction.response.send_message(
            f"🏁 **{saved.name}** is over after {played} round{'s' if played != 1 else ''}. Final standings:",
            embed=top, allowed_mentions=NO_PINGS)
        if played:
            await ui.archive_table_threads(self.bot, saved, played)


async def _ask_confirmation(interaction: discord.Interaction, done: ReportOutcome) -> None:
    """A player's report, mentioning their opponent (both of a doubles pair), with the button that confirms it."""
    assert done.pending is not None
    opponent = done.table.b if done.pending.reporter == done.table.a else done.table.a
    button = ui.ConfirmResult(done.record.id, done.pending.round_number, done.pending.table,
                              report_digest(done.record.id, done.pending))
    await interaction.response.send_message(
        ui.report_text(done.record, done.table, done.pending), view=view_of(button),
        allowed_mentions=pinging(ui.side_users(done.record, opponent)))


def _now() -> int:
    return int(time.time())


def _guild(interaction: discord.Interaction) -> int:
    assert interaction.guild_id is not None  # the group is guild-only
    return interaction.guild_id


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TournamentCog(bot))
