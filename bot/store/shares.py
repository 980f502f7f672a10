"""Reading and writing share links (bot/store/share_models.py): a link's secret is made here, handed out once, and
kept only as its hash."""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.models import utcnow
from bot.store.share_models import ShareKind, ShareLink

TOKEN_BYTES = 24  # 192 random bits: 32 characters in a link


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class ShareRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def create(self, kind: ShareKind, target_id: int, *, guild_id: int | None, created_by: str) -> str:
        """A new link's secret (the only time it exists outside the link itself)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        async with self._sessionmaker() as session, session.begin():
            session.add(ShareLink(token_hash=token_hash(token), kind=kind, target_id=target_id, guild_id=guild_id,
                                  created_by=created_by))
        return token

    async def resolve(self, token: str) -> ShareLink | None:
        """The link `token` opens, unless it was revoked."""
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(select(ShareLink).where(ShareLink.token_hash == token_hash(token)))).first()
        return row if row is not None and row.revoked_at is None else None

    async def revoke(self, kind: ShareKind, target_id: int) -> int:
        """Stop every link to a game or an event: how many were working."""
        async with self._sessionmaker() as session, session.begin():
            done = await session.exec(  # type: ignore[call-overload]
                update(ShareLink).where(col(ShareLink.kind) == kind, col(ShareLink.target_id) == target_id,
                                        col(ShareLink.revoked_at).is_(None)).values(revoked_at=utcnow()))
        return done.rowcount

    async def shared(self, kind: ShareKind, target_id: int) -> bool:
        """Whether a working link to it exists."""
        async with self._sessionmaker() as session, session.begin():
            row = (await session.exec(select(ShareLink.id).where(
                ShareLink.kind == kind, ShareLink.target_id == target_id,
                col(ShareLink.revoked_at).is_(None)))).first()
        return row is not None
