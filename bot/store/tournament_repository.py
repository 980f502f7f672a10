"""Reading and writing tournaments. Each method is one transaction: it commits whole or not at all.

A save names the version it was computed from and is refused (StaleVersion) when someone saved first,
so no update is ever lost. The state is stored as JSON with a schema version; one this bot does not
know is refused with a clear error rather than half-read.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.chapter_approved.state import CA_PACK
from bot.engine.models import Army, Frozen
from bot.engine.sides import JOINED
from bot.engine.teams.event import TeamEvent
from bot.engine.tournament.event import Outcome, Reason, Result, Tournament, outcome_of
from bot.engine.tournament.rules import PairingRules

from bot.store.codec import load_snapshot
from bot.store.models import utcnow
from bot.store.versioned import bump_statement, bumped, insert_unique, save_bump
from bot.store.tournament_models import TournamentRow, TournamentStatus

STATE_SCHEMA = 4
STATES_KEPT = 64  # parsed event states kept (one running event per server)


class ActiveTournamentExists(Exception):
    """The server already has a tournament running: nothing was written."""


class PendingReport(Frozen):
    """A player's report of their table's result, waiting for their opponent to confirm it."""

    round_number: int
    table: int
    reporter: str
    outcome: Outcome
    vp_a: int
    vp_b: int
    reason: Reason = Reason.SCORE


class Correction(Frozen):
    """An organiser's entry that replaced a recorded result, kept with who made it."""

    by: str
    before: Result
    after: Result


class EntryList(Frozen):
    """A player's list for the event, as the event reads it: the army it names (faction, detachment and its Force
    Disposition, recomputed points, the army_list row) and how many flags its check raised."""

    army: Army
    flags: int = 0


class ListChange(Frozen):
    """An organiser's change of a list after the lists were locked (the first round started), and who made it."""

    player: str
    by: str
    before: int | None = Field(description="The army_list id replaced (None: the player had none)")
    after: int
    at: datetime


ListPolicy = Literal["none", "closed", "open"]


class RoundClock(Frozen):
    """The running round's end time, stored so the reminders survive a restart."""

    round_number: int
    ends_at: int = Field(description="Unix seconds")
    channel_id: int
    reminded: tuple[int, ...] = Field((), description="Minutes-left marks already posted (30, 10, 0)")


class TableGame(Frozen):
    """The game the bot set up in a table's thread: its end reports the table's result."""

    round_number: int
    table: int
    game_id: int
    thread_id: int


class MatchBoard(Frozen):
    """A team match's pairing board in Discord: its thread, its message, and the step it shows with that step's
    deadline (stored, so the organiser's call at the deadline survives a restart)."""

    round_number: int
    match: int
    thread_id: int
    message_id: int
    step: int = Field(description="The pairing's step the message was posted for (TeamMatch.steps)")
    deadline: int | None = Field(None, description="Unix seconds; None: no deadline")
    called: bool = Field(False, description="The organiser was called at the deadline")
    score: str = Field("", description="The results the message shows (bot/ui/teams/board.py's score_key)")


class EventState(Frozen):
    """What the bot keeps about an event: the pure Tournament plus names and unconfirmed reports."""

    schema_version: Literal[4] = STATE_SCHEMA
    event: Tournament = Tournament()
    names: dict[str, str] = Field(default_factory=dict, description="player id -> display name at registration")
    pending: tuple[PendingReport, ...] = ()
    corrections: tuple[Correction, ...] = ()
    checkin_open: bool = False
    checked_in: tuple[str, ...] = ()
    clock: RoundClock | None = None
    table_games: tuple[TableGame, ...] = ()
    pack: str = Field(CA_PACK, description="The Chapter Approved season the event plays")
    dispositions: dict[str, str] = Field(
        default_factory=dict, description="player id -> Force Disposition, registered once with their list (2026-27)")
    list_policy: ListPolicy = Field("none", description="none; closed: the organisers see the lists; open: each "
                                                        "player sees their opponent's at pairing")
    list_deadline: datetime | None = Field(None, description="After it, players' lists go through an organiser")
    lists: dict[str, EntryList] = Field(default_factory=dict, description="player id -> their list")
    list_changes: tuple[ListChange, ...] = ()
    teams: TeamEvent | None = Field(None, description="A team event's teams and rounds of team matches (None: "
                                                      "singles); its games are the event's tables")
    match_boards: tuple[MatchBoard, ...] = ()
    clubs: dict[str, str] = Field(default_factory=dict, description="player id -> their club (or team, in a singles "
                                                                     "event): friendly fire keeps them apart")
    pins: dict[str, int] = Field(default_factory=dict, description="player id -> the table they always sit at")
    pairing_rules: PairingRules = PairingRules()
    tables_channel_id: int | None = Field(None, description="Where the last round was published from in Discord "
                                                            "(before one, where the event was created): the event's "
                                                            "channel when it names none")
    table_channels: tuple[int, ...] = Field((), description="The text channels table threads open from, the tables "
                                                            "in blocks among them (none: the event's channel)")
    opening: int | None = Field(None, description="The round whose table threads are being opened: a restart "
                                                  "resumes it")
    doubles: bool = Field(False, description="Each entrant is a pair, playing as one: its first player's id")
    partners: dict[str, str] = Field(default_factory=dict, description="Doubles: entrant (the pair's first player) "
                                                                       "-> their partner; both are in `names`")

    def entrant_of(self, player: str) -> str:
        """Whom `player` plays as: themselves, or in doubles the pair whose partner they are."""
        return next((entrant for entrant, partner in self.partners.items() if partner == player), player)

    def members(self, entrant: str) -> tuple[str, ...]:
        """Who plays as `entrant`: themselves, and in doubles their partner."""
        partner = self.partners.get(entrant)
        return (entrant,) if partner is None else (entrant, partner)

    def name_of(self, entrant: str) -> str:
        """An entrant's name as registered; a pair's names both its players: 'A & B'."""
        return JOINED.join(self.names.get(p, p) for p in self.members(entrant))

    def granted(self, entrant: str) -> tuple[str, ...]:
        """The Force Dispositions the entrant's lists grant: their list's, or in doubles either player's."""
        found = [d for p in self.members(entrant) if (e := self.lists.get(p)) for d in e.army.granted]
        return tuple(dict.fromkeys(found))

    def to_choose(self, player: str) -> bool:
        """Whether the player's list (in doubles, their pair's lists) waits on the Force Disposition it plays,
        among several granted."""
        entry, entrant = self.lists.get(player), self.entrant_of(player)
        if not self.doubles:
            return entry is not None and entry.army.to_choose
        return entry is not None and entrant not in self.dispositions and len(self.granted(entrant)) > 1


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    guild_id: int
    name: str
    status: TournamentStatus
    version: int
    rounds_planned: int
    announce_channel_id: int | None
    organiser_role_id: int | None
    seed: str
    state: EventState
    created_at: datetime
    updated_at: datetime


BUMP = bump_statement(TournamentRow.__table__, "state_json", "status")


class TournamentRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker
        self._engine: AsyncEngine = sessionmaker.kw["bind"]
        # The state each event was last read or saved as, by id, with its text: a row holding the same text is not
        # parsed again (a team event's state is large, and every press reads it). States are immutable.
        self._states: OrderedDict[int, tuple[str, EventState]] = OrderedDict()

    def _record(self, row: TournamentRow) -> TournamentRecord:
        assert row.id is not None
        text, state = self._states.pop(row.id, ("", None))
        if state is None or text != row.state_json:
            state = load_event(row.state_json)
        self._remember(row.id, row.state_json, state)
        return _record(row, state)

    def _remember(self, tournament_id: int, text: str, state: EventState) -> None:
        self._states[tournament_id] = (text, state)
        while len(self._states) > STATES_KEPT:
            self._states.popitem(last=False)

    async def create(
        self, *, guild_id: int, name: str, rounds_planned: int, announce_channel_id: int | None,
        organiser_role_id: int | None, seed: str, state: EventState,
    ) -> TournamentRecord:
        now = utcnow()
        row = TournamentRow(
            guild_id=guild_id, name=name, status=TournamentStatus.ACTIVE, version=0,
            rounds_planned=rounds_planned, announce_channel_id=announce_channel_id,
            organiser_role_id=organiser_role_id, seed=seed, state_json=dump_event(state),
            created_at=now, updated_at=now,
        )
        taken = ActiveTournamentExists(f"Server {guild_id} already has a tournament running")
        return self._record(await insert_unique(self._sessionmaker, row, taken))

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(TournamentRow, tournament_id)
        return self._record(row) if row is not None else None

    async def active(self, guild_id: int) -> TournamentRecord | None:
        query = select(TournamentRow).where(
            TournamentRow.guild_id == guild_id, TournamentRow.status == TournamentStatus.ACTIVE
        )
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(query)).one_or_none()
        return self._record(row) if row is not None else None

    async def all_active(self) -> list[TournamentRecord]:
        """Every running event (one per server at most)."""
        query = select(TournamentRow).where(TournamentRow.status == TournamentStatus.ACTIVE)
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
        return [self._record(row) for row in rows]

    async def latest(self, guild_id: int) -> TournamentRecord | None:
        """The running event, else the one that finished last (a new event always has the highest id,
        since it can only start once the previous one has finished)."""
        query = select(TournamentRow).where(TournamentRow.guild_id == guild_id).order_by(
            col(TournamentRow.id).desc()
        ).limit(1)
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(query)).one_or_none()
        return self._record(row) if row is not None else None

    async def save_if_version(
        self, record: TournamentRecord, state: EventState, status: TournamentStatus | None = None
    ) -> TournamentRecord:
        """Store `state` if the event is still at `record.version`; raises StaleVersion otherwise."""
        saved = bumped(record, state=state, status=status or record.status)
        state_json = dump_event(state)
        async with self._engine.begin() as conn:
            await save_bump(conn, BUMP, record, saved, "Tournament", state_json=state_json,
                            status=saved.status.value)
        self._remember(saved.id, state_json, state)
        return saved


def dump_event(state: EventState) -> str:
    return state.model_dump_json()


def _event_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 gave each result its reason. A stored result whose outcome agrees with its VP was decided by
    the score. One that does not was confirmed before outcomes had to agree (a concession, or a slip): it
    keeps the outcome it was confirmed with, marked "as entered" in the standings for an organiser to check.
    A pending report is a score report: confirming one that contradicts its VP is refused, saying why."""
    def upgraded(result: dict[str, Any] | None) -> dict[str, Any] | None:
        if result is None:
            return None
        agrees = result["b"] is None or result["outcome"] == outcome_of(result["vp_a"], result["vp_b"])
        return {**result, "reason": Reason.SCORE if agrees else Reason.AS_ENTERED}

    event = data["event"]
    rounds = [
        {**r, "results": [upgraded(x) for x in r["results"]],
         "pairings": {**r["pairings"], "bye": upgraded(r["pairings"]["bye"])}}
        for r in event["rounds"]
    ]
    pending = [{**p, "reason": Reason.SCORE} for p in data["pending"]]
    return {**data, "schema_version": 2, "event": {**event, "rounds": rounds}, "pending": pending}


def _event_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 keeps a paired round as an unpublished draft until the organiser publishes it. Every round
    stored before was public as soon as it was paired, and was never re-paired."""
    event = data["event"]
    rounds = [{**r, "published": True, "draw": 0} for r in event["rounds"]]
    return {**data, "schema_version": 3, "event": {**event, "rounds": rounds}}


def _event_v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 links the games the bot set up in table threads; no event stored before had any."""
    return {**data, "schema_version": 4, "table_games": []}


# schema version -> the step that upgrades a stored event of that version to the next one
_EVENT_UPGRADES = {1: _event_v1_to_v2, 2: _event_v2_to_v3, 3: _event_v3_to_v4}


def load_event(text: str) -> EventState:
    return load_snapshot(EventState, text, schema=STATE_SCHEMA, what="Tournament state", upgrades=_EVENT_UPGRADES)


def _record(row: TournamentRow, state: EventState) -> TournamentRecord:
    assert row.id is not None
    return TournamentRecord(
        id=row.id, guild_id=row.guild_id, name=row.name, status=TournamentStatus(row.status),
        version=row.version, rounds_planned=row.rounds_planned, announce_channel_id=row.announce_channel_id,
        organiser_role_id=row.organiser_role_id, seed=row.seed, state=state,
        created_at=row.created_at, updated_at=row.updated_at,
    )
