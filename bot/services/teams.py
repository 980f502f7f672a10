"""Team events through the tournament's one way of changing an event (bot/services/tournaments/events.py: per-server lock,
pure rules, version-checked save): teams and rosters, and the captains' secret choices (bot/services/team_rounds.py says
what each does to the event)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace

from bot.engine.errors import InvalidValue, NotAPlayer
from bot.engine.teams import event as teams
from bot.engine.teams import match as pairing
from bot.store.tournament_repository import EventState, MatchBoard, TournamentRecord
from bot.services.team_rounds import Fixed, choose_state, late_rng, refuse_clashes, team_event, with_teams
from bot.services.tournaments import TournamentService


NOT_LATE = "This step's deadline has not passed: the captains still have time."


class TeamService:
    """Team events' changes, each one save of the event through the tournament service."""

    def __init__(self, tournaments: TournamentService) -> None:
        self.tournaments = tournaments

    async def register(self, guild_id: int, name: str, captain: str, members: Mapping[str, str]) -> TournamentRecord:
        """A team, by its captain (or an organiser for them); `members`: id -> display name, the captain's too."""
        def op(record: TournamentRecord) -> EventState:
            ev = teams.add_team(team_event(record), name, captain, list(members))
            return refuse_clashes(with_teams(record.state, ev, members), captain)
        return await self.tournaments.change(guild_id, op)

    async def add_member(self, guild_id: int, team_id: str, player: str, name: str) -> TournamentRecord:
        return await self.tournaments.change(guild_id, lambda r: refuse_clashes(with_teams(
            r.state, teams.add_member(team_event(r), team_id, player), {player: name}), player))

    async def replace_member(self, guild_id: int, team_id: str, out: str, into: str, name: str) -> TournamentRecord:
        return await self.tournaments.change(guild_id, lambda r: refuse_clashes(with_teams(
            r.state, teams.replace_member(team_event(r), team_id, out, into), {into: name}, left=out), into))

    async def remove_member(self, guild_id: int, team_id: str, player: str) -> TournamentRecord:
        return await self.tournaments.change(guild_id, lambda r: with_teams(
            r.state, teams.remove_member(team_event(r), team_id, player), left=player))

    async def set_leaders(self, guild_id: int, team_id: str, captain: str, stand_in: str | None) -> TournamentRecord:
        return await self.tournaments.change(guild_id, lambda r: with_teams(
            r.state, teams.set_leaders(team_event(r), team_id, captain, stand_in)))

    async def choose(self, tournament_id: int, round_number: int, match_number: int, by: str,
                     picks: tuple[str, ...]) -> tuple[TournamentRecord, list[Fixed]]:
        """A captain's (or stand-in's) choice for their team at the match's current step."""
        fixed: list[Fixed] = []

        def op(record: TournamentRecord) -> EventState:
            pair = teams.match_of(team_event(record), round_number, match_number)
            side = next((i for i, t in enumerate(pair.teams) if team_event(record).team(t).leads(by)), None)
            if side is None:
                raise NotAPlayer("Only the two teams' captains (or their stand-ins) choose in this pairing.")
            state, found = choose_state(record, round_number, match_number, side, picks)
            fixed.extend(found)
            return state
        return await self.tournaments.change_by_id(tournament_id, op), fixed

    async def choose_for_late(self, tournament_id: int, round_number: int, match_number: int, step: int
                              ) -> tuple[TournamentRecord, list[Fixed]]:
        """An organiser lets the bot choose at random for the side(s) still to choose at step `step`."""
        fixed: list[Fixed] = []

        def op(record: TournamentRecord) -> EventState:
            pair = teams.match_of(team_event(record), round_number, match_number)
            if pair.match.steps != step or pair.match.done:
                raise InvalidValue("That step is over: both captains chose in time.")
            board = next((b for b in record.state.match_boards if (b.round_number, b.match) == (round_number,
                                                                                                   match_number)), None)
            if board is None or board.step != step or board.deadline is None or time.time() <= board.deadline:
                raise InvalidValue(NOT_LATE)
            state = record.state
            for side in pair.match.waiting_on():
                current = teams.match_of(team_event(record), round_number, match_number).match
                picks = pairing.random_picks(current, side, late_rng(record.seed, round_number, match_number,
                                                                      step, side))
                state, found = choose_state(record, round_number, match_number, side, picks)
                fixed.extend(found)
                record = _replaced(record, state)
            return state
        return await self.tournaments.change_by_id(tournament_id, op), fixed

    async def set_board(self, tournament_id: int, board: MatchBoard) -> TournamentRecord:
        """Remember where a team match's pairing board is, replacing the one before it."""
        def op(record: TournamentRecord) -> EventState:
            kept = tuple(b for b in record.state.match_boards
                         if (b.round_number, b.match) != (board.round_number, board.match))
            return record.state.model_copy(update={"match_boards": (*kept, board)})
        return await self.tournaments.change_by_id(tournament_id, op)


def _replaced(record: TournamentRecord, state: EventState) -> TournamentRecord:
    return replace(record, state=state)

