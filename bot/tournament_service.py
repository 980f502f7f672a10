"""The one way the bot changes a tournament: per-server lock -> load -> pure rules -> version-checked save.

The lock is held only across that sequence, never across a Discord call; the version check in the store
catches writers in other processes. A refused change raises a GameError before anything is written.
Who may do what (organiser or player) is decided by the cog, which knows the Discord permissions; the
service checks what only the event knows: who plays at which table, and which report is current.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.changes import Change, ChangeStream
from bot.engine.chapter_approved.state import CA_PACK
from bot.engine.errors import GameError, InvalidValue, NotAPlayer
from bot.engine.rng import derive_rng, new_seed
from bot import team_rounds
from bot.engine.teams.event import TeamEvent, TeamRules
from bot.engine.tournament import event as tournament
from bot.engine.tournament.ranking import MAX_GAME_VP
from bot.locks import KeyedLocks
from bot.store.models import utcnow
from bot.store.versioned import StaleVersion, found
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import (
    ActiveTournamentExists,
    Correction,
    EntryList,
    EventState,
    ListChange,
    ListPolicy,
    PendingReport,
    RoundClock,
    TableGame,
    TournamentRecord,
    TournamentRepository,
)

MAX_ROUNDS = 20
MAX_NAME = 100
MAX_SEED = 64
MAX_ROUND_MINUTES = 600
REMINDERS = (30, 10, 0)  # minutes left when the round's channel is reminded


class NoTournament(GameError):
    pass


class StaleReport(GameError):
    pass


# The changes saved under the lock the current task holds, published once it is released.
_unpublished: ContextVar[list[Change] | None] = ContextVar("unpublished", default=None)

CHANGED_MESSAGE = "The tournament changed at the same moment; please try again."
STALE_REPORT = ("This report is out of date: it was replaced by a newer report, an organiser entered the "
                "result, or the round is over.")


@dataclass(frozen=True)
class GameReport:
    """What a finished table game did to its tournament: `result` newly recorded, or `clash` the confirmed
    result it left alone because it disagrees (an organiser decides); neither when it was recorded before."""

    record: TournamentRecord
    link: TableGame
    result: tournament.Result | None = None
    clash: tournament.Result | None = None


@dataclass(frozen=True)
class ReportOutcome:
    record: TournamentRecord
    table: tournament.Pairing
    result: tournament.Result | None = None  # recorded: final
    pending: PendingReport | None = None  # waiting for the opponent
    corrected: tournament.Result | None = None  # the result an organiser replaced


def settled_id(entry: EntryList) -> int:
    list_id = entry.army.list_id
    if list_id is None:
        raise ValueError("an event's list is always stored")
    return list_id


def report_digest(tournament_id: int, report: PendingReport) -> str:
    """Names one exact report, so a confirm button for a replaced report is refused. A score report digests
    as it did before reports had a reason, so Confirm buttons posted by an earlier version keep working."""
    text = report.model_dump_json(exclude={"reason"} if report.reason == tournament.Reason.SCORE else None)
    return hashlib.sha256(f"{tournament_id}|{text}".encode()).hexdigest()[:12]


class TournamentService:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], changes: ChangeStream | None = None) -> None:
        self.repo = TournamentRepository(sessionmaker)
        self.changes = changes or ChangeStream()  # every saved change of an event (the venue screen shows them)
        self.now: Callable[[], datetime] = utcnow  # the list deadline's clock (tests move it)
        self._lock = KeyedLocks()  # one per server

    @asynccontextmanager
    async def _locked(self, guild_id: int) -> AsyncIterator[None]:
        """The server's lock; the changes saved under it are published once it is released, so a surface that
        acts on a change (a match board remembering where it is) never waits on the lock it was told under."""
        saved: list[Change] = []
        token = _unpublished.set(saved)
        try:
            async with self._lock(guild_id):
                yield
        finally:
            _unpublished.reset(token)
            for change in saved:
                await self.changes.publish(change)

    # --- reading ----------------------------------------------------------------------------

    async def current(self, guild_id: int) -> TournamentRecord:
        return found(await self.repo.active(guild_id), NoTournament(
            "There is no tournament running on this server: an organiser starts one with `/tournament create`."))

    async def latest(self, guild_id: int) -> TournamentRecord:
        """The running event, else the last one that finished."""
        return found(await self.repo.latest(guild_id), NoTournament("This server has no tournament yet."))

    async def get(self, tournament_id: int) -> TournamentRecord:
        return found(await self.repo.get(tournament_id), NoTournament("That tournament no longer exists."))

    # --- changes ----------------------------------------------------------------------------

    async def create(
        self, guild_id: int, name: str, rounds: int, *, announce_channel_id: int | None = None,
        organiser_role_id: int | None = None, bye_vp: int = 0, seed: str | None = None, pack: str = CA_PACK,
        pool: bool = True, list_policy: ListPolicy = "none", list_deadline: datetime | None = None,
        teams: TeamRules | None = None,
    ) -> TournamentRecord:
        """`pack`: the Chapter Approved season played; `pool`: its rounds draw a pool mission (False: CA 2026-27,
        where each table's missions come from its players' Force Dispositions, registered with them or read from
        their lists); `list_policy`: whether players submit lists, and who sees them."""
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
                                     list_policy=list_policy, list_deadline=list_deadline,
                                     teams=TeamEvent(rules=teams) if teams is not None else None),
                )
            except ActiveTournamentExists:
                raise GameError("This server already has a tournament running: finish it first "
                                "(`/tournament finish`).") from None

    async def register(self, guild_id: int, player: str, name: str, disposition: str | None = None
                       ) -> TournamentRecord:
        """A player, with their Force Disposition where the event's deck has them: registered once, as it is
        written on their list."""
        def op(record: TournamentRecord) -> EventState:
            state = record.state
            dispositions = state.dispositions
            if state.event.pool and disposition is not None:
                raise InvalidValue("This event's deck has no Force Dispositions: register without one.")
            if not state.event.pool:
                # With lists, the list's detachment gives it; without, it is registered once, as the list says.
                chosen = disposition if disposition is not None or state.list_policy == "none" \
                    else dispositions.get(player)
                if chosen is None and state.list_policy == "none":
                    raise InvalidValue("Register with your list's Force Disposition: `/tournament register "
                                       "disposition:`.")
                if dispositions.get(player, chosen) != chosen:
                    raise InvalidValue("Your Force Disposition is registered once, with your list.")
                if chosen is not None:
                    dispositions = {**dispositions, player: chosen}
            event = state.event
            if state.teams is None:
                event = tournament.add_player(event, player)
            elif state.teams.team_of(player) is None:
                raise NotAPlayer("In a team event your captain registers you with `/team register` or `/team add`; "
                                 "then register your Force Disposition here.")
            elif disposition is None:
                raise InvalidValue("You are registered with your team: register your list's Force Disposition "
                                   "(`disposition:`), or submit your list.")
            return team_rounds.refuse_clashes(state.model_copy(update={
                "event": event, "names": {**state.names, player: name}, "dispositions": dispositions,
            }), player)
        return await self._change(guild_id, op)

    async def submit_list(self, guild_id: int, player: str, entry: EntryList, *, by: str,
                          organiser: bool) -> TournamentRecord:
        """A registered player's list (again to replace it) until the deadline and the first round; after either,
        only an organiser changes it, and a change after the first round is logged. In a 2026-27 event the list's
        detachments give the player's Force Disposition, or among several the one it records or is chosen."""
        def op(record: TournamentRecord) -> EventState:
            state = record.state
            self.list_refusal(state, player, by=by, organiser=organiser)
            started = bool(state.event.rounds)
            update: dict = {"lists": {**state.lists, player: entry}}
            if started:
                before = state.lists.get(player)
                change = ListChange(player=player, by=by, before=before.army.list_id if before else None,
                                    after=settled_id(entry), at=self.now())
                update["list_changes"] = (*state.list_changes, change)
            disposition = entry.army.disposition
            if not state.event.pool and entry.army.to_choose:
                # several granted, none recorded: a choice made before stands where this list grants it too
                kept = state.dispositions.get(player)
                if kept in entry.army.dispositions:
                    update["lists"] = {**state.lists, player: _choosing(entry, kept)}
                elif started:
                    raise InvalidValue("This list's detachments do not grant the Force Disposition the player's "
                                       "games are paired with: correct the detachments.")
                else:  # to choose among those its detachments grant (`choose_disposition`)
                    update["dispositions"] = {p: d for p, d in state.dispositions.items() if p != player}
            elif not state.event.pool and disposition is not None:
                if started and state.dispositions.get(player) not in (None, disposition):
                    raise InvalidValue("This list's detachment gives another Force Disposition than the one the "
                                       "player's games are paired with: correct the detachment.")
                update["dispositions"] = {**state.dispositions, player: disposition}
            return team_rounds.refuse_clashes(state.model_copy(update=update), player)
        return await self._change(guild_id, op)

    async def choose_disposition(self, tournament_id: int, list_id: int, disposition: str, *, by: str,
                                 organiser: bool) -> TournamentRecord:
        """CA 2026-27: the Force Disposition a list plays when its detachments grant several and it records none,
        chosen among those only, by its player (or an organiser) as for the list itself; once the first round is
        paired it stays the one the player's games are paired with."""
        guild_id = (await self.get(tournament_id)).guild_id

        def op(record: TournamentRecord) -> EventState:
            state = record.state
            player = next((p for p, e in state.lists.items() if e.army.list_id == list_id), None)
            if record.id != tournament_id or player is None:
                raise InvalidValue("That list is no longer in the event: submit it again.")
            if by != player and not organiser:
                raise NotAPlayer("Only an organiser can choose the Force Disposition of someone else's list.")
            self.list_refusal(state, player, by=by, organiser=organiser)
            entry = state.lists[player]
            if disposition not in entry.army.granted:
                raise InvalidValue("Pick one of the Force Dispositions the list's detachments grant.")
            if state.event.rounds and state.dispositions.get(player) not in (None, disposition):
                raise InvalidValue("The player's games are paired with another Force Disposition.")
            return team_rounds.refuse_clashes(state.model_copy(update={
                "lists": {**state.lists, player: _choosing(entry, disposition)},
                "dispositions": {**state.dispositions, player: disposition}}), player)
        return await self._change(guild_id, op)

    def list_refusal(self, state: EventState, player: str, *, by: str, organiser: bool) -> None:
        """Raise why `by` may not enter `player`'s list now: no lists, not registered, locked or past the deadline
        (both but for an organiser)."""
        if state.list_policy == "none":
            raise InvalidValue("This event takes no lists.")
        if player not in state.event.players:
            raise NotAPlayer("Register for the event first (`/tournament register`), then submit your list."
                             if player == by else "That player is not registered for this event.")
        if organiser:
            return
        if state.event.rounds:
            raise InvalidValue("Lists are locked since the first round started: an organiser can correct yours.")
        if state.list_deadline is not None and self.now() > state.list_deadline:
            raise InvalidValue("The list deadline has passed: an organiser can still take your list.")

    async def reinstate(self, guild_id: int, player: str) -> TournamentRecord:
        return await self._change(
            guild_id, lambda r: r.state.model_copy(update={"event": tournament.reinstate_player(r.state.event, player)})
        )

    async def drop(self, guild_id: int, player: str) -> TournamentRecord:
        return await self._change(
            guild_id, lambda r: r.state.model_copy(update={"event": tournament.drop_player(r.state.event, player)})
        )

    async def pair(self, guild_id: int, mission: str | None = None) -> TournamentRecord:
        """Pair the next round as a draft for the organiser to review: nothing is public and no result can be
        reported until it is published. The rng comes from the event's secret seed, the round number and the
        draw, so the same results always give the same pairings."""
        async with self._locked(guild_id):
            record = await self.current(guild_id)
            event = record.state.event
            if len(event.rounds) >= record.rounds_planned and not (
                    event.rounds and tournament.missing_tables(event.rounds[-1])):
                raise InvalidValue(f"All {record.rounds_planned} planned rounds have been paired: "
                                   "`/tournament finish` ends the event.")
            number = len(event.rounds) + 1
            if record.state.teams is not None:  # team matches, whose captains pair the games
                return await self._save(record, team_rounds.pair_state(record, number, 0))
            if not event.pool:  # CA 2026-27: every table's missions need both players' Force Dispositions
                active = [p for p in event.players if p not in event.dropped]
                missing = [record.state.names.get(p, p) for p in active if p not in record.state.dispositions]
                if missing:
                    raise InvalidValue("No Force Disposition yet for " + ", ".join(missing) + ": their lists name "
                                       "no detachment, or their choice among their detachments' is still to make. "
                                       "Correct them with `/tournament list submit player:`.")
            # Pairing a big field takes a moment: keep the event loop free meanwhile.
            paired = await asyncio.to_thread(
                tournament.start_round, event, pairing_rng(record.seed, number, 0), mission, published=False)
            state = record.state.model_copy(update={"event": paired, "pending": (), "clock": None})
            return await self._save(record, state)

    async def repair(self, tournament_id: int, number: int, draw: int) -> TournamentRecord:
        """Draw the draft round again (the next draw's stream); a button for an older draw is refused."""
        if (await self.get(tournament_id)).state.teams is not None:
            return await self.change_by_id(tournament_id, lambda record: team_rounds.pair_state(
                record, number, team_rounds.draft_of(record, number, draw) + 1))
        return await self._change_draft(tournament_id, lambda record: asyncio.to_thread(
            tournament.repair_round, record.state.event, number, draw, pairing_rng(record.seed, number, draw + 1)))

    async def publish(self, tournament_id: int, number: int, draw: int) -> TournamentRecord:
        """Make the draft round the round being played: announced, and open to results."""
        if (await self.get(tournament_id)).state.teams is not None:
            return await self.change_by_id(tournament_id, lambda r: team_rounds.publish_state(r, number, draw))
        async def op(record: TournamentRecord) -> tournament.Tournament:
            return tournament.publish_round(record.state.event, number, draw)
        return await self._change_draft(tournament_id, op)

    async def _change_draft(
        self, tournament_id: int, op: Callable[[TournamentRecord], Awaitable[tournament.Tournament]]
    ) -> TournamentRecord:
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            if record.status != TournamentStatus.ACTIVE:
                raise GameError("This tournament has finished.")
            event = await op(record)
            return await self._save(record, record.state.model_copy(update={"event": event}))

    async def report_own(
        self, guild_id: int, actor: str, my_vp: int, opponent_vp: int, *, conceded: bool = False
    ) -> ReportOutcome:
        """A player's report from their own point of view: their table, seat and outcome are worked out."""
        event = (await self.current(guild_id)).state.event
        current = event.rounds[-1] if event.rounds else None
        pairing = next((p for p in current.pairings.tables if actor in (p.a, p.b)), None) if current else None
        if current is None or pairing is None:
            bye = current is not None and current.pairings.bye is not None and current.pairings.bye.a == actor
            raise NotAPlayer("You have the bye this round: there is nothing to report." if bye else
                             "You have no table in the current round.")
        seat_a = actor == pairing.a
        vp_a, vp_b = (my_vp, opponent_vp) if seat_a else (opponent_vp, my_vp)
        outcome = (tournament.Outcome.B_WINS if seat_a else tournament.Outcome.A_WINS) if conceded else None
        return await self.report(guild_id, actor, pairing.table, outcome, vp_a, vp_b, organiser=False,
                                 reason=tournament.Reason.CONCESSION if conceded else tournament.Reason.SCORE)

    async def report(
        self, guild_id: int, actor: str, table: int, outcome: str | None, vp_a: int, vp_b: int, *, organiser: bool,
        reason: str = tournament.Reason.SCORE, round_number: int | None = None,
    ) -> ReportOutcome:
        """A player's report waits for their opponent; an organiser's entry is final and may correct one, of
        any round (`round_number`), logged with who made it. The VP decide the outcome; a concession is
        reported by the player who conceded (or an organiser), a no-show only by an organiser."""
        async with self._locked(guild_id):
            record = await self.current(guild_id)
            event = record.state.event
            if round_number is not None and not organiser:
                raise NotAPlayer("Only an organiser enters or corrects the result of an earlier round.")
            index = (round_number or len(event.rounds) or 1) - 1
            # validates the round, table, outcome and VP
            checked = tournament.record_result(event, table, outcome, vp_a, vp_b, reason, round_number)
            current = checked.rounds[index]
            pairing = next(p for p in current.pairings.tables if p.table == table)
            result = next(r for r in current.results if r.table == table)
            earlier = next((r for r in event.rounds[index].results if r.table == table), None)
            if organiser:
                pending = record.state.pending
                if index == len(event.rounds) - 1:
                    pending = _without(record.state, table)
                corrections = record.state.corrections
                if earlier is not None:
                    corrections = (*corrections, Correction(by=actor, before=earlier, after=result))
                state = record.state.model_copy(update={"event": checked, "pending": pending,
                                                        "corrections": corrections})
                saved = await self._save(record, state)
                return ReportOutcome(saved, pairing, result=result, corrected=earlier)
            if actor not in (pairing.a, pairing.b):
                raise NotAPlayer(f"You do not play at table {table} in round {current.number}: report your own "
                                 "table, or ask an organiser.")
            if result.reason == tournament.Reason.NO_SHOW:
                raise NotAPlayer("Only an organiser records a no-show.")
            if result.reason == tournament.Reason.CONCESSION and actor != tournament.loser(result):
                raise NotAPlayer("Only the player who conceded (or an organiser) records a concession: report the "
                                 "score, or ask an organiser.")
            if earlier is not None:
                raise InvalidValue(f"Table {table} already has a confirmed result: ask an organiser to correct it.")
            pending = PendingReport(round_number=current.number, table=table, reporter=actor,
                                    outcome=result.outcome, vp_a=vp_a, vp_b=vp_b, reason=result.reason)
            state = record.state.model_copy(update={"pending": (*_without(record.state, table), pending)})
            saved = await self._save(record, state)
            return ReportOutcome(saved, pairing, pending=pending)

    async def confirm(
        self, tournament_id: int, round_number: int, table: int, digest: str, actor: str, *, organiser: bool
    ) -> ReportOutcome:
        """The opponent (or an organiser) accepts the report the button was drawn for."""
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            if record.status != TournamentStatus.ACTIVE:
                raise StaleReport("This tournament has finished.")
            event = record.state.event
            report = next((p for p in record.state.pending if (p.round_number, p.table) == (round_number, table)), None)
            if report is None or report_digest(record.id, report) != digest or len(event.rounds) != round_number:
                raise StaleReport(STALE_REPORT)
            pairing = next(p for p in event.rounds[-1].pairings.tables if p.table == table)
            opponent = pairing.b if report.reporter == pairing.a else pairing.a
            if not organiser and actor != opponent:
                if actor == report.reporter:
                    raise NotAPlayer("Your opponent confirms your report, not you.")
                raise NotAPlayer(f"Only <@{opponent}> (or an organiser) can confirm this result.")
            checked = tournament.record_result(event, table, report.outcome, report.vp_a, report.vp_b, report.reason)
            result = next(r for r in checked.rounds[-1].results if r.table == table)
            state = record.state.model_copy(update={"event": checked, "pending": _without(record.state, table)})
            saved = await self._save(record, state)
            return ReportOutcome(saved, pairing, result=result)

    # --- games played in table threads ----------------------------------------------------------

    async def link_games(self, tournament_id: int, links: list[TableGame]) -> TournamentRecord:
        """Remember the games set up in the table threads, so their results come back by themselves."""
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            state = record.state.model_copy(update={"table_games": (*record.state.table_games, *links)})
            return await self._save(record, state)

    async def game_ended(self, guild_id: int, game_id: int, vp: dict[str, int], winner: str | None,
                         conceded: bool) -> GameReport | None:
        """Record the result of a table game that ended (None: not a table game of a running event). Both
        players played it, so it counts as confirmed and replaces a report awaiting confirmation; a confirmed
        result that disagrees is left for an organiser. Calling it again changes nothing."""
        for _ in range(3):  # nobody is there to "try again" when another process saved first
            try:
                return await self._game_ended(guild_id, game_id, vp, winner, conceded)
            except StaleVersion:
                continue
        raise GameError(CHANGED_MESSAGE)

    async def _game_ended(self, guild_id: int, game_id: int, vp: dict[str, int], winner: str | None,
                          conceded: bool) -> GameReport | None:
        async with self._locked(guild_id):
            record = await self.repo.active(guild_id)
            link = next((g for g in record.state.table_games if g.game_id == game_id), None) if record else None
            if record is None or link is None:
                return None
            event = record.state.event
            pairing = next(p for p in event.rounds[link.round_number - 1].pairings.tables if p.table == link.table)
            outcome = None
            if conceded:
                outcome = tournament.Outcome.A_WINS if winner == pairing.a else tournament.Outcome.B_WINS
            reason = tournament.Reason.CONCESSION if conceded else tournament.Reason.SCORE
            checked = tournament.record_result(event, link.table, outcome, vp[pairing.a], vp[pairing.b], reason,
                                      link.round_number)
            result = next(r for r in checked.rounds[link.round_number - 1].results if r.table == link.table)
            earlier = next((r for r in event.rounds[link.round_number - 1].results if r.table == link.table), None)
            if earlier is not None:
                return GameReport(record, link, clash=None if earlier == result else earlier)
            pending = tuple(p for p in record.state.pending
                            if (p.round_number, p.table) != (link.round_number, link.table))
            state = record.state.model_copy(update={"event": checked, "pending": pending})
            return GameReport(await self._save(record, state), link, result=result)

    # --- check-in ------------------------------------------------------------------------------

    async def open_checkin(self, guild_id: int) -> TournamentRecord:
        def op(record: TournamentRecord) -> EventState:
            if record.state.event.rounds:
                raise InvalidValue("Check-in is before round 1: this event has started.")
            return record.state.model_copy(update={"checkin_open": True})
        return await self._change(guild_id, op)

    async def check_in(self, tournament_id: int, player: str) -> TournamentRecord:
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            state = record.state
            if record.status != TournamentStatus.ACTIVE or not state.checkin_open:
                raise InvalidValue("Check-in is closed.")
            if player not in state.event.players or player in state.event.dropped:
                raise NotAPlayer("You are not registered: `/tournament register` first, then check in.")
            if player in state.checked_in:
                raise InvalidValue("You are already checked in.")
            return await self._save(record, state.model_copy(update={"checked_in": (*state.checked_in, player)}))

    async def close_checkin(self, tournament_id: int, digest: str) -> TournamentRecord:
        """Close check-in, dropping exactly the players the organiser was shown (`absent_digest` of them);
        refused if the list changed since (someone checked in, dropped or registered)."""
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            if not record.state.checkin_open:
                raise InvalidValue("Check-in is closed already.")
            absent = not_checked_in(record)
            if absent_digest(absent) != digest:
                raise StaleReport("Who has checked in changed since: `/tournament checkin close` again.")
            event = record.state.event
            for player in absent:
                event = tournament.drop_player(event, player)
            return await self._save(record, record.state.model_copy(update={"event": event, "checkin_open": False}))

    # --- the round clock ------------------------------------------------------------------------

    async def start_clock(self, guild_id: int, minutes: int, channel_id: int, now: int) -> TournamentRecord:
        """Start the published round's clock: it ends `minutes` from `now`. Reminders a round that short never
        reaches count as posted."""
        if not 1 <= minutes <= MAX_ROUND_MINUTES:
            raise InvalidValue(f"A round lasts 1 to {MAX_ROUND_MINUTES} minutes.")

        def op(record: TournamentRecord) -> EventState:
            rounds = record.state.event.rounds
            if not rounds or not rounds[-1].published:
                raise InvalidValue("No round is being played: `/tournament pair` and publish one first.")
            clock = RoundClock(round_number=rounds[-1].number, ends_at=now + 60 * minutes, channel_id=channel_id,
                               reminded=tuple(m for m in REMINDERS if m >= minutes))
            return record.state.model_copy(update={"clock": clock})
        return await self._change(guild_id, op)

    async def due_reminders(self, now: int) -> list[tuple[TournamentRecord, int]]:
        """The reminders due at `now` (the lowest mark passed, per event), marked as posted before they are
        posted: a reminder is posted at most once, across restarts too."""
        due = []
        for record in await self.repo.all_active():
            clock = record.state.clock
            if clock is None:
                continue
            marks = [m for m in REMINDERS if m not in clock.reminded and now >= clock.ends_at - 60 * m]
            if not marks:
                continue
            async with self._locked(record.guild_id):
                fresh = await self.get(record.id)
                if fresh.state.clock != clock:
                    continue  # changed meanwhile: the next tick sees it
                updated = clock.model_copy(update={"reminded": (*clock.reminded, *marks)})
                saved = await self._save(fresh, fresh.state.model_copy(update={"clock": updated}))
            due.append((saved, min(marks)))
        return due

    async def finish(self, guild_id: int) -> TournamentRecord:
        async with self._locked(guild_id):
            record = await self.current(guild_id)
            rounds = record.state.event.rounds
            if rounds and (missing := tournament.missing_tables(rounds[-1])):
                raise InvalidValue(f"Round {rounds[-1].number} is still missing results for "
                                   f"table{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))}.")
            team_rounds.refuse_unfinished(record)
            return await self._save(record, record.state, TournamentStatus.FINISHED)

    async def change_by_id(self, tournament_id: int,
                           op: Callable[[TournamentRecord], EventState]) -> TournamentRecord:
        """One change of the event a button names, refused once it has finished (the team pairing's presses)."""
        guild_id = (await self.get(tournament_id)).guild_id
        async with self._locked(guild_id):
            record = await self.get(tournament_id)
            if record.status != TournamentStatus.ACTIVE:
                raise GameError("This tournament has finished.")
            return await self._save(record, op(record))

    async def change(self, guild_id: int, op: Callable[[TournamentRecord], EventState]) -> TournamentRecord:
        """One change of the server's running event (the team commands')."""
        return await self._change(guild_id, op)

    async def _change(self, guild_id: int, op: Callable[[TournamentRecord], EventState]) -> TournamentRecord:
        async with self._locked(guild_id):
            record = await self.current(guild_id)
            return await self._save(record, op(record))  # op raises a GameError before anything is written

    async def _save(
        self, record: TournamentRecord, state: EventState, status: TournamentStatus | None = None
    ) -> TournamentRecord:
        try:
            saved = await self.repo.save_if_version(record, state, status)
        except StaleVersion:  # another process saved first: the user tries again on fresh state
            raise GameError(CHANGED_MESSAGE) from None
        held = _unpublished.get()
        assert held is not None, "an event is saved only under its server's lock"
        held.append(Change("event", saved.id, saved.version, "event"))
        return saved


def _choosing(entry: EntryList, disposition: str) -> EntryList:
    """The list with the Force Disposition chosen among those its detachments grant."""
    return entry.model_copy(update={"army": entry.army.model_copy(update={"disposition": disposition})})


def not_checked_in(record: TournamentRecord) -> list[str]:
    """The players still in the event who have not checked in."""
    state = record.state
    return [p for p in state.event.players if p not in state.event.dropped and p not in state.checked_in]


def absent_digest(players: list[str]) -> str:
    return hashlib.sha256("|".join(players).encode()).hexdigest()[:12]


def pairing_rng(seed: str, number: int, draw: int) -> random.Random:
    """Round `number`'s first draw keeps the stream rounds were always paired with; each re-pair a new one."""
    return derive_rng(seed, f"round:{number}" if draw == 0 else f"round:{number}:draw:{draw}")


def _without(state: EventState, table: int) -> tuple[PendingReport, ...]:
    return tuple(p for p in state.pending if p.table != table)
