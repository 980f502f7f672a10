"""Reading and writing ladders: the open ladder of a server, its voids, and its stored standings (read by the
standings pages, written by each counted game and replaced whole by a recompute)."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import delete, func, insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.errors import GameError
from bot.engine.ladder import Standing
from bot.store.community_models import Ladder, LadderRating, LadderVoid


class LadderRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

    async def open_ladder(self, guild_id: int, *, doubles: bool = False) -> Ladder | None:
        """The server's open ladder, or its open doubles ladder."""
        query = select(Ladder).where(Ladder.guild_id == guild_id, Ladder.doubles == doubles,
                                     col(Ladder.archived_at).is_(None))
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(query)).first()

    async def ladder(self, ladder_id: int) -> Ladder | None:
        async with self._sessionmaker() as session, session.begin():
            return await session.get(Ladder, ladder_id)

    async def start(self, ladders: list[Ladder]) -> None:
        """Open a server's ladders (singles, and doubles if it rates them) together."""
        try:
            async with self._sessionmaker() as session, session.begin():
                session.add_all(ladders)
        except IntegrityError:  # opened at the same moment by someone else
            raise GameError("This server already has a ladder.") from None

    async def new_season(self, ladders: list[Ladder], at: datetime, by: str) -> list[Ladder]:
        """Archive `ladders` (their tables stay readable) and open the next season of each from `at`, together."""
        following = [Ladder(guild_id=ladder.guild_id, name=ladder.name, packs=ladder.packs,
                            include_tournaments=ladder.include_tournaments, doubles=ladder.doubles,
                            season=ladder.season + 1, started_by=by, started_at=at) for ladder in ladders]
        async with self._sessionmaker() as session, session.begin():
            await session.exec(update(Ladder).where(col(Ladder.id).in_([ladder.id for ladder in ladders]))
                               .values(archived_at=at))
            session.add_all(following)
        return following

    async def voids(self, ladder_id: int) -> set[int]:
        async with self._sessionmaker() as session, session.begin():
            return set((await session.exec(select(LadderVoid.game_id).where(LadderVoid.ladder_id == ladder_id)))
                       .all())

    async def void(self, ladder_id: int, game_id: int, by: str, at: datetime) -> None:
        async with self._sessionmaker() as session, session.begin():
            session.add(LadderVoid(ladder_id=ladder_id, game_id=game_id, voided_by=by, voided_at=at))

    async def standings_of(self, ladder_id: int, players: tuple[str, ...]) -> dict[str, Standing]:
        query = select(LadderRating).where(LadderRating.ladder_id == ladder_id,
                                           col(LadderRating.player_id).in_(players))
        async with self._sessionmaker() as session, session.begin():
            return {row.player_id: _standing(row) for row in (await session.exec(query)).all()}

    async def save(self, ladder_id: int, standings: dict[str, Standing], *, replace_all: bool = False) -> None:
        """Write these standings (`replace_all`: they are the whole table, from a recompute)."""
        rows = [_row(ladder_id, s) for s in standings.values()]
        table = LadderRating.__table__
        async with self._sessionmaker() as session, session.begin():
            if replace_all:
                await session.exec(delete(LadderRating).where(col(LadderRating.ladder_id) == ladder_id))
            else:
                await session.exec(delete(LadderRating).where(col(LadderRating.ladder_id) == ladder_id,
                                                              col(LadderRating.player_id).in_(list(standings))))
            if rows:
                await session.exec(insert(table), params=rows)

    async def page(self, ladder_id: int, offset: int, limit: int) -> tuple[list[Standing], int]:
        """A page of the table, best first, and how many players it has."""
        query = (select(LadderRating).where(LadderRating.ladder_id == ladder_id)
                 .order_by(col(LadderRating.rating).desc(), col(LadderRating.player_id)).offset(offset).limit(limit))
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
            total = (await session.exec(select(func.count()).select_from(LadderRating)
                                        .where(LadderRating.ladder_id == ladder_id))).one()
        return [_standing(row) for row in rows], total

    async def place(self, ladder_id: int, standing: Standing) -> int:
        """The place `standing` holds on its ladder (1: first)."""
        query = select(func.count()).select_from(LadderRating).where(
            LadderRating.ladder_id == ladder_id, col(LadderRating.rating) > standing.rating)
        async with self._sessionmaker() as session, session.begin():
            return (await session.exec(query)).one() + 1


def _standing(row: LadderRating) -> Standing:
    return Standing(row.player_id, row.name, row.mu, row.sigma, row.games, row.wins, row.losses, row.draws,
                    tuple((game, change) for game, change in json.loads(row.recent)))


def _row(ladder_id: int, s: Standing) -> dict:
    return dict(ladder_id=ladder_id, player_id=s.player, name=s.name, mu=s.mu, sigma=s.sigma, rating=s.rating,
                games=s.games, wins=s.wins, losses=s.losses, draws=s.draws, recent=json.dumps(s.recent))
