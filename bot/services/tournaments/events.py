"""The one way the bot changes a tournament: per-server lock -> load -> pure rules -> version-checked save, and
each saved change published once the lock is released.

The lock is held only across that sequence, never across a Discord call; the version check in the store
catches writers in other processes. A refused change raises a GameError before anything is written.
Who may do what (organiser or player) is decided by the surface, which knows the Discord permissions; the
service checks what only the event knows: who plays at which table, and which report is current.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import datetime

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.errors import GameError
from bot.plumbing.changes import Change, ChangeStream
from bot.plumbing.locks import KeyedLocks
from bot.store.models import utcnow
from bot.store.tournament_models import TournamentStatus
from bot.store.tournament_repository import EventState, TournamentRecord, TournamentRepository
from bot.store.versioned import StaleVersion, found

CHANGED_MESSAGE = "The tournament changed at the same moment; please try again."

# The changes saved under the lock the current task holds, published once it is released.
_unpublished: ContextVar[list[Change] | None] = ContextVar("unpublished", default=None)


class NoTournament(GameError):
    pass


class StaleReport(GameError):
    pass


class EventChanges:
    """Reading an event, and the lock and save every change of one goes through."""

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

    # --- changing ---------------------------------------------------------------------------

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
