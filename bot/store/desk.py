"""Reading and writing the desk's sessions and log (bot/store/desk_models.py)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.desk_models import DeskEntry, DeskSession
from bot.store.models import utcnow

TOKEN_BYTES = 32
SESSION_HOURS = 16  # an event day, sign-in to finish


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class DeskRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def open(self, user_id: str, name: str, *, now: datetime | None = None) -> tuple[str, DeskSession]:
        """A new session: its secret (for the cookie, the only copy) and the stored row."""
        now = now or utcnow()
        token = secrets.token_urlsafe(TOKEN_BYTES)
        row = DeskSession(token_hash=token_hash(token), user_id=user_id, name=name[:100],
                          csrf=secrets.token_urlsafe(24), created_at=now,
                          expires_at=now + timedelta(hours=SESSION_HOURS))
        async with self._sessionmaker() as session, session.begin():
            session.add(row)
            await session.exec(delete(DeskSession).where(col(DeskSession.expires_at) < now))  # type: ignore[call-overload]
        return token, row

    async def session(self, token: str, *, now: datetime | None = None) -> DeskSession | None:
        """The live session `token` opens (None: unknown, forged or expired)."""
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(DeskSession, token_hash(token))
        return row if row is not None and row.expires_at > (now or utcnow()) else None

    async def close(self, token: str) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.exec(delete(DeskSession).where(  # type: ignore[call-overload]
                col(DeskSession.token_hash) == token_hash(token)))

    async def log(self, tournament_id: int, user_id: str, user_name: str, action: str, detail: str) -> DeskEntry:
        entry = DeskEntry(tournament_id=tournament_id, at=utcnow(), user_id=user_id, user_name=user_name[:100],
                          action=action[:40], detail=detail[:500])
        async with self._sessionmaker() as session, session.begin():
            session.add(entry)
        return entry

    async def entries(self, tournament_id: int, limit: int = 50) -> list[DeskEntry]:
        """The event's latest desk actions, newest first."""
        query = (select(DeskEntry).where(DeskEntry.tournament_id == tournament_id)
                 .order_by(col(DeskEntry.id).desc()).limit(limit))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())
