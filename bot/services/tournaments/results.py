"""An event's results: a player's report and its confirmation, an organiser's entry or correction (logged), and
the table games played in the event's threads, whose end records their result by itself."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from bot.engine.errors import GameError, InvalidValue, NotAPlayer
from bot.engine.tournament import event as tournament
from bot.services.tournaments.events import CHANGED_MESSAGE, EventChanges, StaleReport
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import Correction, EventState, PendingReport, TableGame, TournamentRecord
from bot.store.versioned import StaleVersion

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


def report_digest(tournament_id: int, report: PendingReport) -> str:
    """Names one exact report, so a confirm button for a replaced report is refused. A score report digests
    as it did before reports had a reason, so Confirm buttons posted by an earlier version keep working."""
    text = report.model_dump_json(exclude={"reason"} if report.reason == tournament.Reason.SCORE else None)
    return hashlib.sha256(f"{tournament_id}|{text}".encode()).hexdigest()[:12]


class Results(EventChanges):
    async def report_own(
        self, guild_id: int, actor: str, my_vp: int, opponent_vp: int, *, conceded: bool = False
    ) -> ReportOutcome:
        """A player's report from their own point of view: their table, seat and outcome are worked out (in
        doubles, their pair's)."""
        state = (await self.current(guild_id)).state
        event, actor = state.event, state.entrant_of(actor)
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
                reports = record.state.pending
                if index == len(event.rounds) - 1:
                    reports = _without(record.state, table)
                corrections = record.state.corrections
                if earlier is not None:
                    corrections = (*corrections, Correction(by=actor, before=earlier, after=result))
                state = record.state.model_copy(update={"event": checked, "pending": reports,
                                                        "corrections": corrections})
                saved = await self._save(record, state)
                return ReportOutcome(saved, pairing, result=result, corrected=earlier)
            actor = record.state.entrant_of(actor)  # in doubles either player reports for their pair
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
            actor = record.state.entrant_of(actor)  # in doubles either player of the other pair confirms
            if not organiser and actor != opponent:
                if actor == report.reporter:
                    raise NotAPlayer("Your opponent confirms your report, not you.")
                who = " or ".join(f"<@{p}>" for p in record.state.members(opponent))
                raise NotAPlayer(f"Only {who} (or an organiser) can confirm this result.")
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


def _without(state: EventState, table: int) -> tuple[PendingReport, ...]:
    return tuple(p for p in state.pending if p.table != table)
