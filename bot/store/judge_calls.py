"""Reading and writing judge calls, duty and an event's judge settings (bot/store/judge_models.py).

Every change two judges (or two processes) may race for is one conditional UPDATE whose row count says who won:
a call is claimed once, resolved once and raised again once. A second open call at a table is refused by the
database's unique index, so two presses at once leave one call.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.judge_models import JudgeCall, JudgeDuty, JudgeSettings, TableTime


class JudgeCallRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    # ---- calls ------------------------------------------------------------------------------------

    async def add(self, row: JudgeCall) -> JudgeCall | None:
        """Store a new call; None when its table has an open call already (nothing is written)."""
        try:
            async with self._sessionmaker() as session, session.begin():
                session.add(row)
        except IntegrityError:
            return None
        return row

    async def get(self, call_id: int) -> JudgeCall | None:
        async with self._sessionmaker() as session, session.begin():
            return await session.get(JudgeCall, call_id)

    async def open_call(self, tournament_id: int, round_number: int, table: int) -> JudgeCall | None:
        query = select(JudgeCall).where(JudgeCall.tournament_id == tournament_id,
                                        JudgeCall.round_number == round_number, JudgeCall.table_number == table,
                                        col(JudgeCall.resolved_at).is_(None))
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(query)).first()

    async def open_calls(self, tournament_id: int) -> list[JudgeCall]:
        """The event's calls not resolved yet, oldest first."""
        query = (select(JudgeCall).where(JudgeCall.tournament_id == tournament_id,
                                         col(JudgeCall.resolved_at).is_(None))
                 .order_by(col(JudgeCall.raised_at), col(JudgeCall.id)))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def calls(self, tournament_id: int) -> list[JudgeCall]:
        """Every call of the event, in the order they were raised."""
        query = select(JudgeCall).where(JudgeCall.tournament_id == tournament_id).order_by(col(JudgeCall.id))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def waiting(self) -> list[JudgeCall]:
        """Every call nobody has claimed that was not raised again yet (at start-up, to arm its alarm)."""
        query = (select(JudgeCall).where(col(JudgeCall.resolved_at).is_(None), col(JudgeCall.claimed_by).is_(None),
                                         col(JudgeCall.reraised_at).is_(None))
                 .order_by(col(JudgeCall.raised_at)))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def claim(self, call_id: int, judge: str, name: str, at: datetime) -> bool:
        """Give an open, unclaimed call to `judge`: whether this claim won."""
        return await self._update(call_id, [col(JudgeCall.claimed_by).is_(None), col(JudgeCall.resolved_at).is_(None)],
                                  claimed_by=judge, claimed_name=name, claimed_at=at)

    async def resolve(self, call_id: int, judge: str, name: str, ruling: str | None, at: datetime) -> bool:
        """Close a claimed, open call with its ruling: whether this did."""
        return await self._update(call_id, [col(JudgeCall.claimed_by).is_not(None),
                                            col(JudgeCall.resolved_at).is_(None)],
                                  resolved_by=judge, resolved_name=name, resolved_at=at, ruling=ruling)

    async def mark_reraised(self, call_id: int, at: datetime) -> bool:
        """Mark a call nobody claimed as raised again: whether this did (it is raised once, by one process)."""
        return await self._update(call_id, [col(JudgeCall.claimed_by).is_(None), col(JudgeCall.resolved_at).is_(None),
                                            col(JudgeCall.reraised_at).is_(None)], reraised_at=at)

    async def set_message(self, call_id: int, channel_id: int, message_id: int) -> None:
        await self._update(call_id, [], channel_id=channel_id, message_id=message_id)

    async def add_minutes(self, call_id: int, minutes: int) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.exec(update(JudgeCall).where(col(JudgeCall.id) == call_id)  # type: ignore[call-overload]
                               .values(extra_minutes=JudgeCall.extra_minutes + minutes))

    async def extensions(self, tournament_id: int) -> dict[tuple[int, int], int]:
        """(round, table) -> the minutes organisers gave the table in that round (from its calls and from the
        desk), for the tables given any."""
        from_calls = (select(JudgeCall.round_number, JudgeCall.table_number, func.sum(JudgeCall.extra_minutes))
                      .where(JudgeCall.tournament_id == tournament_id, JudgeCall.extra_minutes > 0)
                      .group_by(col(JudgeCall.round_number), col(JudgeCall.table_number)))
        from_desk = (select(TableTime.round_number, TableTime.table_number, func.sum(TableTime.minutes))
                     .where(TableTime.tournament_id == tournament_id)
                     .group_by(col(TableTime.round_number), col(TableTime.table_number)))
        found: dict[tuple[int, int], int] = {}
        async with self._sessionmaker() as session, session.begin():
            for query in (from_calls, from_desk):
                for r, t, m in (await session.exec(query)).all():
                    found[(r, t)] = found.get((r, t), 0) + int(m)
        return found

    async def give_minutes(self, row: TableTime) -> None:
        async with self._sessionmaker() as session, session.begin():
            session.add(row)

    async def _update(self, call_id: int, conditions: list[Any], **values: Any) -> bool:
        statement = update(JudgeCall).where(col(JudgeCall.id) == call_id, *conditions).values(**values)
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(statement)).rowcount == 1  # type: ignore[call-overload]

    # ---- duty ---------------------------------------------------------------------------------------

    async def set_duty(self, tournament_id: int, judge: str, name: str, on: bool, at: datetime) -> bool:
        """Put a judge on duty or off: whether that changed anything."""
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(JudgeDuty, (tournament_id, judge))
            if on and row is None:
                session.add(JudgeDuty(tournament_id=tournament_id, judge_id=judge, name=name, since=at))
                return True
            if not on and row is not None:
                await session.exec(delete(JudgeDuty).where(  # type: ignore[call-overload]
                    col(JudgeDuty.tournament_id) == tournament_id, col(JudgeDuty.judge_id) == judge))
                return True
        return False

    async def on_duty(self, tournament_id: int) -> list[JudgeDuty]:
        """The event's judges on duty, longest on duty first."""
        query = (select(JudgeDuty).where(JudgeDuty.tournament_id == tournament_id)
                 .order_by(col(JudgeDuty.since), col(JudgeDuty.judge_id)))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    # ---- settings -----------------------------------------------------------------------------------

    async def settings(self, tournament_id: int) -> JudgeSettings:
        """The event's settings (all unset for an event nobody set up)."""
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(JudgeSettings, tournament_id)
        return row or JudgeSettings(tournament_id=tournament_id)

    async def save_settings(self, tournament_id: int, **values: Any) -> JudgeSettings:
        """Set some of the event's settings, keeping the others."""
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(JudgeSettings, tournament_id)
            if row is None:
                row = JudgeSettings(tournament_id=tournament_id)
            for name, value in values.items():
                setattr(row, name, value)
            session.add(row)
        return row
