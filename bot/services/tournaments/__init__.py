"""Tournaments, through one service: `TournamentService` gathers what the surfaces ask of an event, each part in its
module: the lock and save every change goes through (events.py), who plays (entries.py), the rounds and their clock
(rounds.py), and the results (results.py)."""

from __future__ import annotations

from datetime import datetime

from bot.engine.chapter_approved.state import CA_PACK
from bot.engine.errors import GameError, InvalidValue
from bot.engine.rng import new_seed
from bot.engine.teams.event import TeamEvent, TeamRules
from bot.engine.tournament import event as tournament
from bot.engine.tournament.ranking import MAX_GAME_VP
from bot.services.tournaments.entries import Entries, absent_digest, not_checked_in
from bot.services.tournaments.events import CHANGED_MESSAGE
from bot.services.tournaments.results import STALE_REPORT, ReportOutcome, Results, report_digest
from bot.services.tournaments.rounds import MAX_ROUND_MINUTES, Rounds
from bot.store.tournament_repository import ActiveTournamentExists, EventState, ListPolicy, TournamentRecord

MAX_ROUNDS = 20
MAX_NAME = 100
MAX_SEED = 64

# What the surfaces and tests name, from the module that says it.
__all__ = ["CHANGED_MESSAGE", "MAX_NAME", "MAX_ROUNDS", "MAX_ROUND_MINUTES", "STALE_REPORT", "ReportOutcome",
           "TournamentService", "absent_digest", "not_checked_in", "report_digest"]


class TournamentService(Entries, Rounds, Results):
    async def create(
        self, guild_id: int, name: str, rounds: int, *, announce_channel_id: int | None = None,
        organiser_role_id: int | None = None, bye_vp: int = 0, seed: str | None = None, pack: str = CA_PACK,
        pool: bool = True, list_policy: ListPolicy = "none", list_deadline: datetime | None = None,
        teams: TeamRules | None = None, doubles: bool = False, channel_id: int | None = None,
    ) -> TournamentRecord:
        """`pack`: the Chapter Approved season played; `pool`: its rounds draw a pool mission (False: CA 2026-27,
        where each table's missions come from its players' Force Dispositions, registered with them or read from
        their lists); `list_policy`: whether players submit lists, and who sees them; `doubles`: each entrant is a pair
        (never in a team event: the surface refuses both); `channel_id`: where the event was created, its rounds'
        channel until one is published from Discord (so the desk can publish the first with no announcement channel)."""
        if list_deadline is not None and list_policy == "none":
            raise InvalidValue("A list deadline needs lists: pick closed or open `lists:`.")
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME:
            raise InvalidValue(f"A tournament name is 1 to {MAX_NAME} characters.")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidValue(f"A tournament has 1 to {MAX_ROUNDS} rounds.")
        if not 0 <= bye_vp <= MAX_GAME_VP:
            raise InvalidValue(f"The bye's VP must be between 0 and {MAX_GAME_VP}.")
        if seed is not None and not 1 <= len(seed) <= MAX_SEED:
            raise InvalidValue(f"A seed is 1 to {MAX_SEED} characters.")
        async with self._locked(guild_id):
            try:
                return await self.repo.create(
                    guild_id=guild_id, name=name, rounds_planned=rounds, announce_channel_id=announce_channel_id,
                    organiser_role_id=organiser_role_id, seed=seed or new_seed(),
                    state=EventState(event=tournament.Tournament(bye_vp=bye_vp, pool=pool), pack=pack,
                                     list_policy=list_policy, list_deadline=list_deadline, doubles=doubles,
                                     tables_channel_id=channel_id,
                                     teams=TeamEvent(rules=teams) if teams is not None else None),
                )
            except ActiveTournamentExists:
                raise GameError("This server already has a tournament running: finish it first "
                                "(`/tournament finish`).") from None
