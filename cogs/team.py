"""/team: a team event's teams (Teams Event Companion). A captain registers their team and changes its roster until
round 1 is paired; an organiser can do all of it for any team. The pairing itself happens on each match's board
(bot/ui/teams/board.py), and the team standings are here."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import GameError
from bot.engine.teams import event as teams
from bot.store.tournament_repository import TournamentRecord
from bot.services.team_rounds import roster_problems, team_event
from bot.services.teams import TeamService
from bot.ui import tournament as ui
from bot.ui.teams.board import watch_deadline
from bot.ui.armies import escaped
from bot.ui.teams.texts import roster_lines, standings_lines
from cogs.base import BotCog

NO_PINGS = discord.AllowedMentions.none()


class TeamCog(BotCog, name="team", description="A team event's teams: register, roster, standings"):
    @property
    def teams(self) -> TeamService:
        return self.bot.teams  # type: ignore[attr-defined]

    async def _event(self, interaction: discord.Interaction) -> TournamentRecord:
        if interaction.guild_id is None:
            raise GameError("Team events run in a server.")
        record = await self.bot.tournaments.current(interaction.guild_id)  # type: ignore[attr-defined]
        team_event(record)  # refused with one line when the event is singles
        return record

    def _team_to_change(self, interaction: discord.Interaction, record: TournamentRecord,
                        team: str | None) -> teams.Team:
        """The team the presser may change: their own as its captain, or any named one as an organiser."""
        ev, me = team_event(record), str(interaction.user.id)
        if team is not None:
            found = ev.named(team)
            if not ui.is_organiser(interaction, record) and not found.leads(me):
                raise GameError("Only its captain (or an organiser) changes a team.")
            return found
        own = ev.team_of(me)
        if own is None or not own.leads(me):
            raise GameError("You captain no team here: name the `team:` (organisers), or register one.")
        return own

    @app_commands.command(name="register", description="Register your team for this server's team event")
    @app_commands.describe(name="The team's name", captain="Register it for someone who captains it (organisers)",
                           **{f"player{i}": "One of its players (you are its captain)" for i in range(2, 9)})
    async def register(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, teams.MAX_TEAM_NAME],
                       player2: discord.Member | None = None, player3: discord.Member | None = None,
                       player4: discord.Member | None = None, player5: discord.Member | None = None,
                       player6: discord.Member | None = None, player7: discord.Member | None = None,
                       player8: discord.Member | None = None, captain: discord.Member | None = None) -> None:
        record = await self._event(interaction)
        if captain is not None and captain.id != interaction.user.id and not ui.is_organiser(interaction, record):
            raise GameError("Only an organiser registers a team for someone else.")
        leader = captain or interaction.user
        people = {str(m.id): m.display_name for m in (leader, player2, player3, player4, player5, player6, player7,
                                                      player8) if m is not None}
        if any(m.bot for m in (player2, player3, player4, player5, player6, player7, player8) if m is not None):
            raise GameError("Bots cannot play: register people.")
        saved = await self.teams.register(record.guild_id, name, str(leader.id), people)
        team = team_event(saved).team_of(str(leader.id))
        assert team is not None
        size = team_event(saved).rules.size
        more = "" if len(team.members) == size else " Add the others with `/team add`."
        await interaction.response.send_message(
            f"**{escaped(team.name)}** is registered for **{escaped(saved.name)}**, captained by {leader.mention}: "
            f"{len(team.members)} of {size} players ({' '.join(f'<@{p}>' for p in team.members)}).{more}",
            allowed_mentions=NO_PINGS)

    @app_commands.command(name="add", description="Add a player to your team (until round 1 is paired)")
    @app_commands.describe(player="The player to add", team="The team's name (organisers: any team)")
    async def add(self, interaction: discord.Interaction, player: discord.Member, team: str | None = None) -> None:
        record = await self._event(interaction)
        found = self._team_to_change(interaction, record, team)
        if player.bot:
            raise GameError("Bots cannot play: add a person.")
        saved = await self.teams.add_member(record.guild_id, found.id, str(player.id), player.display_name)
        await self._roster_reply(interaction, saved, found.id, f"{player.mention} joins **{escaped(found.name)}**.")

    @app_commands.command(name="replace", description="Swap a player of your team for another (until round 1)")
    @app_commands.describe(out="The player who leaves", into="The player who takes their place",
                           team="The team's name (organisers: any team)")
    async def replace(self, interaction: discord.Interaction, out: discord.Member, into: discord.Member,
                      team: str | None = None) -> None:
        record = await self._event(interaction)
        found = self._team_to_change(interaction, record, team)
        if into.bot:
            raise GameError("Bots cannot play: name a person.")
        saved = await self.teams.replace_member(record.guild_id, found.id, str(out.id), str(into.id),
                                                into.display_name)
        await self._roster_reply(interaction, saved, found.id,
                                 f"{into.mention} takes {out.mention}'s place in **{escaped(found.name)}**.")

    @app_commands.command(name="remove", description="Take a player off your team (until round 1)")
    @app_commands.describe(player="The player who leaves", team="The team's name (organisers: any team)")
    async def remove(self, interaction: discord.Interaction, player: discord.Member, team: str | None = None) -> None:
        record = await self._event(interaction)
        found = self._team_to_change(interaction, record, team)
        saved = await self.teams.remove_member(record.guild_id, found.id, str(player.id))
        await self._roster_reply(interaction, saved, found.id, f"{player.mention} leaves **{escaped(found.name)}**.")

    @app_commands.command(name="captain", description="Name your team's captain and a stand-in for the pairing")
    @app_commands.describe(captain="Who captains the team", stand_in="Who chooses for it when the captain cannot",
                           team="The team's name (organisers: any team)")
    @app_commands.rename(stand_in="stand-in")
    async def captain(self, interaction: discord.Interaction, captain: discord.Member,
                      stand_in: discord.Member | None = None, team: str | None = None) -> None:
        record = await self._event(interaction)
        found = self._team_to_change(interaction, record, team)
        saved = await self.teams.set_leaders(record.guild_id, found.id, str(captain.id),
                                             str(stand_in.id) if stand_in else None)
        await self._roster_reply(interaction, saved, found.id, f"{captain.mention} captains **{escaped(found.name)}**"
                                 + (f", {stand_in.mention} stands in." if stand_in else "."))

    @app_commands.command(name="show", description="A team's roster, and what keeps it from playing")
    @app_commands.describe(team="The team's name (default: yours)")
    async def show(self, interaction: discord.Interaction, team: str | None = None) -> None:
        record = await self._event(interaction)
        ev, me = team_event(record), str(interaction.user.id)
        found = ev.named(team) if team else ev.team_of(me)
        if found is None:
            raise GameError("You are in no team here: name the `team:`.")
        await interaction.response.send_message(embed=_roster_embed(interaction, record, found), ephemeral=True,
                                                allowed_mentions=NO_PINGS)

    @app_commands.command(name="standings", description="The team standings: Team Points, game wins, Battle Points")
    async def standings(self, interaction: discord.Interaction) -> None:
        record = await self._event(interaction)
        lines = standings_lines(record) or ["No team has registered yet."]
        embeds = ui.line_embeds(lines, f"{record.name}: team standings")
        await interaction.response.send_message(embeds=embeds[:10], allowed_mentions=NO_PINGS)

    @show.autocomplete("team")
    @add.autocomplete("team")
    @replace.autocomplete("team")
    @remove.autocomplete("team")
    @captain.autocomplete("team")
    async def team_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            record = await self.bot.tournaments.current(interaction.guild_id or 0)  # type: ignore[attr-defined]
        except GameError:
            return []
        found = record.state.teams.teams if record.state.teams else ()
        return [app_commands.Choice(name=t.name, value=t.name) for t in found
                if current.casefold() in t.name.casefold()][:25]

    async def _roster_reply(self, interaction: discord.Interaction, record: TournamentRecord, team_id: str,
                            said: str) -> None:
        team = team_event(record).team(team_id)
        await interaction.response.send_message(said, embed=_roster_embed(interaction, record, team),
                                                allowed_mentions=NO_PINGS)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): the alarm of every stored pairing step's deadline in this process's servers."""
        for record in await self.bot.tournaments.repo.all_active():  # type: ignore[attr-defined]
            if record.state.teams is not None and self.bot.get_guild(record.guild_id) is not None:
                for board in record.state.match_boards:
                    watch_deadline(self.bot, record.id, board)


def _roster_embed(interaction: discord.Interaction, record: TournamentRecord, team: teams.Team) -> discord.Embed:
    """A roster with its problems; armies shown to its own members, the organisers, or everyone at an open-list
    event."""
    me = str(interaction.user.id)
    sees = record.state.list_policy == "open" or me in team.members or ui.is_organiser(interaction, record)
    lines = roster_lines(record, team, roster_problems(record, team), armies=sees)
    return ui.line_embeds(lines, f"{record.name}: {team.name}")[0]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(TeamCog(bot))
