"""An event's rounds: paired as a draft, re-paired, published; the round clock and its reminders; the finish."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Awaitable, Callable

from bot.engine.errors import GameError, InvalidValue
from bot.engine.rng import derive_rng
from bot.engine.tournament import draft
from bot.engine.tournament import event as tournament
from bot.engine.tournament.rules import PairingRules
from bot.services import team_rounds
from bot.services.tournaments.events import EventChanges
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import EventState, RoundClock, TournamentRecord

MAX_ROUND_MINUTES = 600
MAX_TABLE = 1000
MAX_TABLE_CHANNELS = 5  # Discord opens about one thread a second in each: five open 150 tables in 30 s
STALE_DRAFT = ("The draft changed since your desk showed it (another organiser edited it, re-paired or published it): "
               "your desk shows it as it is now.")
REMINDERS = (30, 10, 0)  # minutes left when the round's channel is reminded


class StaleDraft(GameError):
    pass


class Rounds(EventChanges):
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
                missing = [record.state.name_of(p) for p in active if p not in record.state.dispositions]
                if missing:
                    raise InvalidValue("No Force Disposition yet for " + ", ".join(missing) + ": their lists name "
                                       "no detachment, or their choice among their detachments' is still to make. "
                                       "Correct them with `/tournament list submit player:`.")
            # Pairing a big field takes a moment: keep the event loop free meanwhile.
            paired = await asyncio.to_thread(
                tournament.start_round, event, pairing_rng(record.seed, number, 0), mission, published=False,
                **organisers_rules(record.state))
            state = record.state.model_copy(update={"event": paired, "pending": (), "clock": None})
            return await self._save(record, state)

    async def repair(self, tournament_id: int, number: int, draw: int) -> TournamentRecord:
        """Draw the draft round again (the next draw's stream); a button for an older draw is refused."""
        if (await self.get(tournament_id)).state.teams is not None:
            return await self.change_by_id(tournament_id, lambda record: team_rounds.pair_state(
                record, number, team_rounds.draft_of(record, number, draw) + 1))
        return await self._change_draft(tournament_id, lambda record: asyncio.to_thread(
            tournament.repair_round, record.state.event, number, draw, pairing_rng(record.seed, number, draw + 1),
            **organisers_rules(record.state)))

    async def publish(self, tournament_id: int, number: int, draw: int, *,
                      channel_id: int | None = None) -> TournamentRecord:
        """Make the draft round the round being played: announced, and open to results. `channel_id`: where in
        Discord it was published from (the event's channel when it names no announcement channel)."""
        def op(record: TournamentRecord) -> EventState:
            if record.state.teams is not None:
                state = team_rounds.publish_state(record, number, draw)
            else:
                state = record.state.model_copy(update={
                    "event": tournament.publish_round(record.state.event, number, draw)})
            return state.model_copy(update={"tables_channel_id": channel_id or state.tables_channel_id})
        return await self.change_by_id(tournament_id, op)

    async def set_table_channels(self, tournament_id: int, channels: tuple[int, ...]) -> TournamentRecord:
        """The text channels the table threads open from, from the next table opened on (none: the event's)."""
        if len(channels) > MAX_TABLE_CHANNELS or len(set(channels)) != len(channels):
            raise InvalidValue(f"Name up to {MAX_TABLE_CHANNELS} different channels for the table threads.")
        return await self.change_by_id(
            tournament_id, lambda r: r.state.model_copy(update={"table_channels": channels}))

    async def set_opening(self, tournament_id: int, round_number: int | None, *,
                          was: int | None = None) -> TournamentRecord:
        """Which round's table threads are being opened (None: none), so that a restart resumes the opening; with
        `was`, only if that round's is the one stored (a later round's opening stays)."""
        def op(record: TournamentRecord) -> EventState:
            if was is not None and record.state.opening != was:
                return record.state
            return record.state.model_copy(update={"opening": round_number})
        return await self.change_by_id(tournament_id, op)

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

    # --- the organiser's rules and edits of a draft -----------------------------------------------

    async def set_rules(self, tournament_id: int, rules: PairingRules) -> TournamentRecord:
        """The pairing rules of the rounds paired from now on (a draft already paired keeps its draw: re-pair it)."""
        return await self.change_by_id(tournament_id, lambda r: r.state.model_copy(update={"pairing_rules": rules}))

    async def pin(self, tournament_id: int, player: str, table: int | None) -> TournamentRecord:
        """Pin a player to a table for the rest of the event (None: unpin); a draft waiting is seated so."""
        def op(record: TournamentRecord) -> EventState:
            state = record.state
            if player not in state.event.players:
                raise InvalidValue("That player is not registered in this event.")
            if table is not None and not 1 <= table <= MAX_TABLE:
                raise InvalidValue(f"Tables are numbered 1 to {MAX_TABLE}.")
            if table is not None and (taken := next((p for p, t in state.pins.items() if t == table and p != player),
                                                    None)):
                raise InvalidValue(f"Table {table} is pinned for {state.name_of(taken)} already.")
            pins = {p: t for p, t in state.pins.items() if p != player} | ({player: table} if table else {})
            update: dict = {"pins": pins}
            rounds = state.event.rounds
            if table is not None and rounds and not rounds[-1].published and rounds[-1].pairings.tables \
                    and table <= len(rounds[-1].pairings.tables) and state.teams is None:
                seated = draft.pin_player(rounds[-1], player, table) if not _has_bye(rounds[-1], player) else None
                if seated is not None:
                    update["event"] = state.event.model_copy(update={"rounds": (*rounds[:-1], seated)})
            return state.model_copy(update=update)
        return await self.change_by_id(tournament_id, op)

    async def edit_draft(self, tournament_id: int, number: int, draw: int, seen: str,
                         edit: Callable[[tournament.Round], tournament.Round]) -> TournamentRecord:
        """An organiser's edit of the draft round they see (`seen`: its draft_digest): refused when the draft moved
        on or another organiser edited it since."""
        def op(record: TournamentRecord) -> EventState:
            if record.state.teams is not None:
                raise InvalidValue("A team round's games are paired by its captains: there is no draft to edit.")
            current = tournament.draft_round(record.state.event, number, draw)
            if draft_digest(current) != seen:
                raise StaleDraft(STALE_DRAFT)
            rounds = (*record.state.event.rounds[:-1], edit(current))
            return record.state.model_copy(update={"event": record.state.event.model_copy(update={"rounds": rounds})})
        return await self.change_by_id(tournament_id, op)

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


def organisers_rules(state: EventState) -> dict:
    """What the organisers chose for the next pairing: the rules, the players' clubs and pins."""
    return {"rules": state.pairing_rules, "clubs": state.clubs, "pins": state.pins}


def draft_digest(r: tournament.Round) -> str:
    """Names one exact draft (its draw and seats): an edit made on an older one is refused."""
    return hashlib.sha256(r.pairings.model_dump_json().encode()).hexdigest()[:12]


def _has_bye(r: tournament.Round, player: str) -> bool:
    return r.pairings.bye is not None and r.pairings.bye.a == player


def pairing_rng(seed: str, number: int, draw: int) -> random.Random:
    """Round `number`'s first draw keeps the stream rounds were always paired with; each re-pair a new one."""
    return derive_rng(seed, f"round:{number}" if draw == 0 else f"round:{number}:draw:{draw}")
