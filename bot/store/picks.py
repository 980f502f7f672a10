"""Secret selections on a posted mission: each kept hidden until both players have made theirs, then revealed once."""

from __future__ import annotations

import json

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.errors import InvalidValue
from bot.store.models import SecretPick


class SecretPicks:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def pick(self, message_id: int, player: str, picks: tuple[str, ...]) -> dict[str, tuple[str, ...]] | None:
        """Keep the player's selection (once: it is written down). Both selections when this save completed the
        pair, for the caller to reveal: only one save ever gets them (the one that marks them revealed)."""
        try:
            async with self._sessionmaker() as session, session.begin():
                session.add(SecretPick(message_id=message_id, player_id=player, picks=json.dumps(list(picks))))
        except IntegrityError:
            raise InvalidValue("You have already selected your secondary objectives for this mission.") from None
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(select(SecretPick).where(SecretPick.message_id == message_id))).all()
            if len(rows) < 2:
                return None
            flipped = await session.exec(update(SecretPick).where(
                col(SecretPick.message_id) == message_id, col(SecretPick.revealed).is_(False)).values(revealed=True))
            if flipped.rowcount == 0:
                return None  # the other player's save revealed them
            return {row.player_id: tuple(json.loads(row.picks)) for row in rows}

    async def has_picked(self, message_id: int, player: str) -> bool:
        async with self._sessionmaker() as session, session.begin():
            return await session.get(SecretPick, (message_id, player)) is not None
