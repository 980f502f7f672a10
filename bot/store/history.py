"""Reading finished games as community memory: a player's history, stats of a player or a server, and the rows
behind them. Everything reads the game_summary table (one row per finished game, indexed for these queries),
never the games' logs. Games that ended before the table existed are summarised once, at start-up."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, case, func, insert, or_
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.ladder import CountedGame
from bot.store.codec import load_state
from bot.store.community_models import GameSummary
from bot.store.models import Game, GameStatus

BACKFILL_BATCH = 500
SUMMARY = GameSummary.__table__


@dataclass(frozen=True)
class Page:
    rows: list[GameSummary]
    total: int


class HistoryRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker
        self._server_counts: dict[int, tuple[tuple, dict[str, list[tuple]]]] = {}  # guild -> (its stamp, counts)

    async def backfill(self, summarise: Callable[[Game, Any], dict[str, Any]]) -> int:
        """Summarise the finished games that have no summary yet (stored before summaries existed), in batches so
        a large database never sits in memory: how many."""
        done, last = 0, 0
        while True:
            query = (select(Game).outerjoin(GameSummary, col(GameSummary.game_id) == col(Game.id))
                     .where(col(Game.status) != GameStatus.ACTIVE, col(GameSummary.game_id).is_(None),
                            col(Game.id) > last)
                     .order_by(col(Game.id)).limit(BACKFILL_BATCH))
            async with self._sessionmaker() as session, session.begin():
                games = (await session.exec(query)).all()
                if not games:
                    return done
                rows = [{**summarise(game, load_state(game.state_json, game.pack)), "ended_at": game.updated_at}
                        for game in games]
                await session.exec(insert(SUMMARY), params=rows)
            done += len(rows)
            last = games[-1].id

    async def summary(self, game_id: int) -> GameSummary | None:
        async with self._sessionmaker() as session, session.begin():
            return await session.get(GameSummary, game_id)

    async def set_result_message(self, game_id: int, message_id: int) -> None:
        await self._set(game_id, result_message_id=message_id)

    async def set_tournament(self, game_id: int, tournament_id: int) -> None:
        await self._set(game_id, tournament_id=tournament_id)

    async def _set(self, game_id: int, **values: Any) -> None:
        async with self._sessionmaker() as session, session.begin():
            await session.exec(SUMMARY.update().where(SUMMARY.c.game_id == game_id).values(**values))

    async def history(self, guild_id: int, player: str, *, pack: str | None = None, offset: int = 0,
                      limit: int = 10) -> Page:
        """A player's finished games on a server, newest first, a page of them, and how many there are."""
        where = [col(GameSummary.guild_id) == guild_id,
                 or_(col(GameSummary.player_a) == player, col(GameSummary.player_b) == player)]
        if pack is not None:
            where.append(col(GameSummary.pack) == pack)
        query = (select(GameSummary).where(*where).order_by(col(GameSummary.ended_at).desc(),
                                                            col(GameSummary.game_id).desc())
                 .offset(offset).limit(limit))
        async with self._sessionmaker() as session, session.begin():
            rows = list((await session.exec(query)).all())
            total = (await session.exec(select(func.count()).select_from(GameSummary).where(*where))).one()
        return Page(rows, total)

    async def rows(self, guild_id: int, player: str | None = None) -> list[GameSummary]:
        """Every finished game of a server (or of one player there), oldest first: what stats and exports read."""
        where = [col(GameSummary.guild_id) == guild_id]
        if player is not None:
            where.append(or_(col(GameSummary.player_a) == player, col(GameSummary.player_b) == player))
        query = select(GameSummary).where(*where).order_by(col(GameSummary.ended_at), col(GameSummary.game_id))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def counted(self, guild_id: int, since: Any, packs: tuple[str, ...], tournaments: bool,
                      voided: set[int]) -> list[CountedGame]:
        """The games a ladder counts, in the order they ended: finished between two players (never abandoned).
        Read as plain rows of the few columns a rating needs, as a recompute reads them all."""
        g = SUMMARY.c
        where = [g.guild_id == guild_id, g.ended_at >= since, g.reason != "abandoned"]
        if packs:
            where.append(g.pack.in_(packs))
        if not tournaments:
            where.append(g.tournament_id.is_(None))
        query = (select(g.game_id, g.player_a, g.player_b, g.name_a, g.name_b, g.winner).where(*where)
                 .order_by(g.ended_at, g.game_id))
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
        return [CountedGame(game, (a, b), (name_a, name_b), winner)
                for game, a, b, name_a, name_b, winner in rows if game not in voided]

    async def server_counts(self, guild_id: int) -> dict[str, list[tuple]]:
        """The counts behind the server picture, each grouped by the database (a few rows each, however many games):
        games per day, missions, deployments, Fixed against Tactical with their wins, the first turn's results
        and the Challenger's. Kept until a game of the server ends (or another process adds one): the grouping
        reads every game, the check only counts them on an index."""
        stamp_query = select(func.count(), func.max(col(GameSummary.game_id))).where(
            col(GameSummary.guild_id) == guild_id)
        async with self._sessionmaker() as session, session.begin():
            stamp = tuple((await session.exec(stamp_query)).one())
        cached = self._server_counts.get(guild_id)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        counts = await self._group_server(guild_id)
        self._server_counts[guild_id] = (stamp, counts)
        return counts

    async def _group_server(self, guild_id: int) -> dict[str, list[tuple]]:
        g = GameSummary
        played = and_(col(g.guild_id) == guild_id, col(g.reason) != "abandoned")
        won = func.sum(case((col(g.winner) == col(g.first), 1), else_=0))
        decided = func.sum(case((col(g.winner).is_not(None), 1), else_=0))
        queries = {
            "days": select(func.date(col(g.ended_at)), func.count()).where(played).group_by(func.date(col(g.ended_at))),
            "missions": select(col(g.mission), func.count()).where(played).group_by(col(g.mission)),
            "deployments": select(col(g.deployment), func.count()).where(played, col(g.deployment).is_not(None))
            .group_by(col(g.deployment)),
            "first": select(func.count(), won, decided).where(played, col(g.first).is_not(None)),
            "challenger": select(func.count(), func.sum(case((col(g.winner) == col(g.challenger), 1), else_=0)))
            .where(played, col(g.challenger).is_not(None)),
        }
        for seat in ("a", "b"):
            mode, player = getattr(g, f"mode_{seat}"), getattr(g, f"player_{seat}")
            queries[f"modes_{seat}"] = (select(col(mode), func.count(), func.sum(case((col(g.winner) == col(player), 1),
                                                                                    else_=0)))
                                        .where(played, col(mode).is_not(None)).group_by(col(mode)))
        async with self._sessionmaker() as session, session.begin():
            return {name: [tuple(row) for row in (await session.exec(query)).all()] for name, query in queries.items()}
