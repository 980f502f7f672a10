"""Army lists: stored as given and as checked, read back by id, by event entry, or as an event's list of them."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.armies.check import CheckedList
from bot.store.army_models import ArmyList


class ArmyListRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def add(self, *, owner: str, guild_id: int | None, text: str, checked: CheckedList,
                  tournament_id: int | None = None) -> int:
        row = ArmyList(owner_id=owner, guild_id=guild_id, tournament_id=tournament_id, text=text,
                       checked_json=checked.model_dump_json(), faction=checked.faction,
                       detachment=checked.detachment, points=checked.points, flags=len(checked.flags))
        async with self._sessionmaker() as session, session.begin():
            session.add(row)
            await session.flush()
            return row.id  # type: ignore[return-value]

    async def get(self, list_id: int) -> tuple[ArmyList, CheckedList] | None:
        async with self._sessionmaker() as session, session.begin():
            row = await session.get(ArmyList, list_id)
        return (row, CheckedList.model_validate_json(row.checked_json)) if row is not None else None

    async def of_event(self, tournament_id: int) -> dict[str, tuple[ArmyList, CheckedList]]:
        """Each entrant's newest list submitted to the event, by player id."""
        query = (select(ArmyList).where(col(ArmyList.tournament_id) == tournament_id)
                 .order_by(col(ArmyList.id)))
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
        return {row.owner_id: (row, CheckedList.model_validate_json(row.checked_json)) for row in rows}
