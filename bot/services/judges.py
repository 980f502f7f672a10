"""Judges at an event's tables: a table calls, a judge claims the call and resolves it with a ruling, an organiser
gives the table more time, and judges go on and off duty. Every call is stored (bot/store/judge_calls.py), so a
restart loses none, and every change is published on the change stream as a change of its event (the venue screen
shows the calls).

The core knows a table only as an `EventTable`: the event, round and table numbers, its players, its thread and its
game. `tables_of` reads them from an event's rounds, a team event's included (its games are tables of the rounds
underneath); another kind of event would add its reader to the judge desk's `sources` (bot/ui/judges/desk.py). Who
may judge is the surface's to decide (it knows the Discord roles); the service checks what only the calls know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.plumbing.changes import Change, ChangeStream
from bot.engine.errors import GameError, InvalidValue, NotAPlayer
from bot.engine.tournament.pairing import Pairing
from bot.store.judge_calls import JudgeCallRepository
from bot.store.judge_models import JudgeCall, JudgeDuty, JudgeSettings, TableTime
from bot.store.models import utcnow
from bot.store.tournament_repository import TournamentRecord

DEFAULT_RERAISE_MINUTES = 5  # a call nobody claims within this is raised again, once (an event may set its own)
MAX_RERAISE_MINUTES = 120
EXTRA_MINUTES = 5  # what the call's time button gives the table
MAX_EXTRA_MINUTES = 60  # at most, per table and round
MAX_NOTE = 200
MAX_RULING = 1000
CHANGE = "judges"  # a change's `what` when an event's calls or duty changed

GONE = "That judge call no longer exists."
CLOSED = "This call is closed already: it was resolved by {name}."


@dataclass(frozen=True)
class EventTable:
    """A table of an event's round, as the judges see it."""

    event_id: int
    guild_id: int
    round_number: int
    table: int
    players: tuple[str, ...]  # A and B (the entrants), then in doubles their partners (A's, B's): side i is [i::2]
    thread_id: int
    game_id: int | None = None


@dataclass(frozen=True)
class Venue:
    """What the venue screen shows of the judges: the open calls oldest first, who is on duty, and the minutes each
    (round, table) was given."""

    calls: list[JudgeCall]
    on_duty: list[JudgeDuty]
    extensions: dict[tuple[int, int], int] = field(default_factory=dict)


def tables_of(record: TournamentRecord) -> list[EventTable]:
    """The tables of a Swiss event's published round that have a thread (the bye has none)."""
    rounds = record.state.event.rounds
    if not rounds or not rounds[-1].published:
        return []
    current = rounds[-1]
    pairings = {p.table: p for p in current.pairings.tables}
    partners = record.state.partners

    def players(p: Pairing) -> tuple[str, ...]:
        return (p.a, p.b, partners[p.a], partners[p.b]) if p.a in partners else (p.a, p.b)
    return [EventTable(event_id=record.id, guild_id=record.guild_id, round_number=current.number, table=link.table,
                       players=players(pairings[link.table]), thread_id=link.thread_id, game_id=link.game_id)
            for link in record.state.table_games if link.round_number == current.number and link.table in pairings]


class JudgeService:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], changes: ChangeStream | None = None) -> None:
        self.repo = JudgeCallRepository(sessionmaker)
        self.changes = changes or ChangeStream()
        self.now: Callable[[], datetime] = utcnow  # tests move it

    # --- reading ----------------------------------------------------------------------------

    async def get(self, call_id: int) -> JudgeCall:
        call = await self.repo.get(call_id)
        if call is None:
            raise GameError(GONE)
        return call

    async def open_calls(self, event_id: int) -> list[JudgeCall]:
        return await self.repo.open_calls(event_id)

    async def calls(self, event_id: int) -> list[JudgeCall]:
        return await self.repo.calls(event_id)

    async def on_duty(self, event_id: int) -> list[JudgeDuty]:
        return await self.repo.on_duty(event_id)

    async def settings(self, event_id: int) -> JudgeSettings:
        return await self.repo.settings(event_id)

    async def extension(self, event_id: int, round_number: int, table: int) -> int:
        """The minutes organisers gave a table in a round."""
        return (await self.repo.extensions(event_id)).get((round_number, table), 0)

    async def venue(self, event_id: int) -> Venue:
        return Venue(await self.repo.open_calls(event_id), await self.repo.on_duty(event_id),
                     await self.repo.extensions(event_id))

    async def waiting(self) -> list[JudgeCall]:
        """The calls still to be raised again if nobody claims them (at start-up)."""
        return await self.repo.waiting()

    async def reraise_minutes(self, event_id: int) -> int:
        """How long a call of the event waits for a judge before it is raised again."""
        return (await self.settings(event_id)).reraise_minutes or DEFAULT_RERAISE_MINUTES

    async def reraise_at(self, call: JudgeCall) -> datetime:
        return call.raised_at + timedelta(minutes=await self.reraise_minutes(call.tournament_id))

    # --- changes ----------------------------------------------------------------------------

    async def call(self, table: EventTable, caller: str, note: str | None = None) -> JudgeCall:
        """A table's player calls a judge: refused for anyone else, and while the table has a call open."""
        if caller not in table.players:
            raise NotAPlayer(f"Only the players at table {table.table} can call a judge to it.")
        note = (note or "").strip() or None
        if note is not None and len(note) > MAX_NOTE:
            raise InvalidValue(f"A note for the judge is at most {MAX_NOTE} characters.")
        if (waiting := await self.repo.open_call(table.event_id, table.round_number, table.table)) is not None:
            raise GameError(already_waiting(waiting))
        row = JudgeCall(tournament_id=table.event_id, guild_id=table.guild_id, round_number=table.round_number,
                        table_number=table.table, game_id=table.game_id, thread_id=table.thread_id,
                        players=" ".join(table.players), caller=caller, note=note, raised_at=self.now())
        saved = await self.repo.add(row)
        if saved is None:  # the other player pressed at the same moment
            waiting = await self.repo.open_call(table.event_id, table.round_number, table.table)
            raise GameError(already_waiting(waiting) if waiting else "Try again: the table's call just changed.")
        await self._changed(table.event_id)
        return saved

    async def claim(self, call_id: int, judge: str, name: str) -> JudgeCall:
        """A judge takes the call: refused when it is claimed or closed already."""
        call = await self.get(call_id)
        self._open(call)
        if call.claimed_by is None and await self.repo.claim(call_id, judge, name[:100], self.now()):
            await self._changed(call.tournament_id)
            return await self.get(call_id)
        call = await self.get(call_id)
        self._open(call)
        mine = " (you)" if call.claimed_by == judge else ""
        raise GameError(f"{call.claimed_name}{mine} has claimed this call already.")

    async def resolvable(self, call_id: int) -> JudgeCall:
        """The call, if it can be resolved now: open and claimed."""
        call = await self.get(call_id)
        self._open(call)
        if call.claimed_by is None:
            raise GameError("Claim this call first (the table is told who is coming), then resolve it.")
        return call

    async def resolve(self, call_id: int, judge: str, name: str, ruling: str | None = None) -> JudgeCall:
        """Close a claimed call with the judge's ruling (optional), kept with the event."""
        ruling = (ruling or "").strip() or None
        if ruling is not None and len(ruling) > MAX_RULING:
            raise InvalidValue(f"A ruling is at most {MAX_RULING} characters.")
        await self.resolvable(call_id)
        if not await self.repo.resolve(call_id, judge, name[:100], ruling, self.now()):
            await self.resolvable(call_id)  # says why: closed meanwhile
            raise GameError("Try again: the call just changed.")
        call = await self.get(call_id)
        await self._changed(call.tournament_id)
        return call

    async def extend(self, call_id: int, minutes: int = EXTRA_MINUTES) -> tuple[JudgeCall, int]:
        """Give the call's table `minutes` more in its round: the call, and the table's minutes in all."""
        call = await self.get(call_id)
        total = await self.extension(call.tournament_id, call.round_number, call.table_number)
        if total + minutes > MAX_EXTRA_MINUTES:
            raise InvalidValue(f"Table {call.table_number} has {total} extra minutes this round already: at most "
                               f"{MAX_EXTRA_MINUTES} in all.")
        await self.repo.add_minutes(call_id, minutes)
        await self._changed(call.tournament_id)
        return await self.get(call_id), total + minutes

    async def give_minutes(self, table: EventTable, minutes: int, by: str) -> int:
        """An organiser gives a table `minutes` more in its round, without a call (the desk): its minutes in all."""
        total = await self.extension(table.event_id, table.round_number, table.table)
        if not 1 <= minutes <= MAX_EXTRA_MINUTES or total + minutes > MAX_EXTRA_MINUTES:
            raise InvalidValue(f"Table {table.table} has {total} extra minutes this round already: at most "
                               f"{MAX_EXTRA_MINUTES} in all.")
        await self.repo.give_minutes(TableTime(tournament_id=table.event_id, round_number=table.round_number,
                                               table_number=table.table, minutes=minutes, given_by=by,
                                               given_at=self.now()))
        await self._changed(table.event_id)
        return total + minutes

    async def reraise(self, call_id: int) -> JudgeCall | None:
        """Raise a call again if nobody has claimed it: the call, or None when it was claimed, closed or raised
        again already (here, in another process or before a restart)."""
        call = await self.repo.get(call_id)
        if call is None or not await self.repo.mark_reraised(call_id, self.now()):
            return None
        await self._changed(call.tournament_id)
        return await self.repo.get(call_id)

    async def set_message(self, call_id: int, channel_id: int, message_id: int) -> None:
        await self.repo.set_message(call_id, channel_id, message_id)

    async def duty(self, event_id: int, judge: str, name: str, on: bool) -> bool:
        """A judge goes on or off duty: whether that changed anything."""
        changed = await self.repo.set_duty(event_id, judge, name[:100], on, self.now())
        if changed:
            await self._changed(event_id)
        return changed

    async def configure(self, event_id: int, **values: int | None) -> JudgeSettings:
        """The judges' channel (`channel_id`), the judge role (`role_id`), the minutes before a call nobody claims is
        raised again (`reraise_minutes`), the calls message (`board_...`)."""
        minutes = values.get("reraise_minutes")
        if minutes is not None and not 1 <= minutes <= MAX_RERAISE_MINUTES:
            raise InvalidValue(f"A call is raised again after 1 to {MAX_RERAISE_MINUTES} minutes.")
        return await self.repo.save_settings(event_id, **values)

    @staticmethod
    def _open(call: JudgeCall) -> None:
        if call.resolved_at is not None:
            raise GameError(CLOSED.format(name=call.resolved_name))

    async def _changed(self, event_id: int) -> None:
        await self.changes.publish(Change("event", event_id, 0, CHANGE))


def already_waiting(call: JudgeCall) -> str:
    who = f"{call.claimed_name} is on the way" if call.claimed_by else "the judges have been told"
    return (f"A judge call for table {call.table_number} is already waiting (raised "
            f"<t:{int(call.raised_at.timestamp())}:R>): {who}.")
