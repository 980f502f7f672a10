"""Reading finished games as community memory: a player's history, stats of a player or a server, and the rows
behind them. Everything reads the game_summary table (one row per finished game, indexed for these queries),
never the games' logs. Games that ended before the table existed are summarised once, at start-up."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, NamedTuple

from sqlalchemy import case, func, insert, literal, or_, union_all
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.engine.ladder import CountedGame
from bot.store.codec import load_state
from bot.store.community_models import GameSummary, ServerTally
from bot.store.models import Game, GameStatus

BACKFILL_BATCH = 500
SUMMARY = GameSummary.__table__
TALLY = ServerTally.__table__


@dataclass(frozen=True)
class FactionRecord:
    """A faction's (and detachment's) games, as the seat of one player: mirror matches left out."""

    faction: str
    detachment: str | None
    games: int
    wins: int
    draws: int
    # A detachment an army fielded after its first: its games count on that detachment's line, the faction's once.
    further: bool = False

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws


class DoublesGame(NamedTuple):
    """A doubles game as a doubles ladder rates it: a CountedGame (bot/engine/ladder.py) of two a side."""

    game_id: int
    sides: tuple[tuple[str, str], tuple[str, str]]  # each side's players, its seat's first
    names: tuple[tuple[str, str], tuple[str, str]]
    winner: str | None  # the winning side's seat; None: a draw

    @property
    def players(self) -> tuple[str, ...]:
        return (*self.sides[0], *self.sides[1])


@dataclass(frozen=True)
class Page:
    rows: list[GameSummary]
    total: int


class HistoryRepository:
    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession]) -> None:
        self._sessionmaker = sessionmaker

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
                await add_tallies(await session.connection(), rows)
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
        """A player's finished games on a server, newest first, a page of them, and how many there are: doubles
        games included, whichever side's player they were."""
        where = [col(GameSummary.guild_id) == guild_id, _played(player)]
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
            where.append(_played(player))
        query = select(GameSummary).where(*where).order_by(col(GameSummary.ended_at), col(GameSummary.game_id))
        async with self._sessionmaker() as session, session.begin():
            return list((await session.exec(query)).all())

    async def counted(self, guild_id: int, since: Any, packs: tuple[str, ...], tournaments: bool,
                      voided: set[int], *, doubles: bool = False) -> list[CountedGame | DoublesGame]:
        """The games a ladder counts, singles or doubles, in the order they ended: finished (never abandoned). Read
        as plain rows of the few columns a rating needs, as a recompute reads them all."""
        g = SUMMARY.c
        where = [g.guild_id == guild_id, g.ended_at >= since, g.reason != "abandoned",
                 g.partner_a.is_not(None) if doubles else g.partner_a.is_(None)]
        if packs:
            where.append(g.pack.in_(packs))
        if not tournaments:
            where.append(g.tournament_id.is_(None))
        columns = [g.game_id, g.player_a, g.player_b, g.name_a, g.name_b, g.winner]
        if doubles:
            columns += [g.partner_a, g.partner_b, g.partner_name_a, g.partner_name_b]
        query = select(*columns).where(*where).order_by(g.ended_at, g.game_id)
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
        if doubles:
            return [DoublesGame(game, ((a, partner_a), (b, partner_b)),
                                ((name_a, partner_name_a), (name_b, partner_name_b)), winner)
                    for game, a, b, name_a, name_b, winner, partner_a, partner_b, partner_name_a, partner_name_b in rows
                    if game not in voided]
        return [CountedGame(game, (a, b), (name_a, name_b), winner)
                for game, a, b, name_a, name_b, winner in rows if game not in voided]

    async def factions(self, guild_id: int, *, tournament_id: int | None = None) -> list[FactionRecord]:
        """Each faction and detachment's record on a server (or in one event), summed in the database over both
        seats of its finished games: abandoned games, doubles and mirror matches left out, and games before armies
        too. The summary holds each army's first detachment; an army's further detachments (`further`) are read
        from the final snapshot of the few games whose armies had several."""
        g = SUMMARY.c
        seats, further = [], []
        for place, (me, them) in enumerate((("a", "b"), ("b", "a"))):
            faction, other = g[f"faction_{me}"], g[f"faction_{them}"]
            # a doubles side's army is not one player's: doubles are left out
            where = [g.guild_id == guild_id, g.reason != "abandoned", g.partner_a.is_(None), faction.is_not(None),
                     or_(other.is_(None), other != faction)]
            if tournament_id is not None:
                where.append(g.tournament_id == tournament_id)
            won = case((g.winner == g[f"player_{me}"], 1), else_=0).label("won")
            drew = case((g.winner.is_(None), 1), else_=0).label("drew")
            seats.append(select(faction.label("faction"), g[f"detachment_{me}"].label("detachment"), won, drew)
                         .where(*where))
            further.append(select(Game.__table__.c.state_json, literal(place).label("place"), faction.label("faction"),
                                  won, drew)
                           .join_from(SUMMARY, Game.__table__, Game.__table__.c.id == g.game_id)
                           .where(*where, g[f"detachment_{me}"].is_not(None),
                                  Game.__table__.c.state_json.contains(SEVERAL_DETACHMENTS, autoescape=True)))
        both = union_all(*seats).subquery()
        query = (select(both.c.faction, both.c.detachment, func.count(), func.sum(both.c.won), func.sum(both.c.drew))
                 .group_by(both.c.faction, both.c.detachment))
        async with self._sessionmaker() as session, session.begin():
            rows = (await session.exec(query)).all()
            several = (await session.exec(union_all(*further))).all() if rows else []
        found = [FactionRecord(f, d, n, int(w), int(dr)) for f, d, n, w, dr in rows]
        return found + _further_detachments(several)

    async def server_counts(self, guild_id: int) -> dict[str, list[tuple[str, int, int]]]:
        """The server's tallies by kind: (key, games, wins) rows (`tallies`)."""
        query = select(ServerTally).where(ServerTally.guild_id == guild_id)
        found: dict[str, list[tuple[str, int, int]]] = {}
        async with self._sessionmaker() as session, session.begin():
            for row in (await session.exec(query)).all():
                found.setdefault(row.kind, []).append((row.key, row.games, row.wins))
        return found


def _played(player: str) -> Any:
    """The games `player` played: in either seat, or in doubles as either side's second player."""
    return or_(*(col(column) == player for column in (GameSummary.player_a, GameSummary.player_b,
                                                      GameSummary.partner_a, GameSummary.partner_b)))


# How a game's snapshot holds an army of several detachments (bot/engine/models.py, Army): the games whose final
# snapshot lacks it (all but a few) are never read.
SEVERAL_DETACHMENTS = '"more_detachments":["'


def _further_detachments(seats: list[Any]) -> list[FactionRecord]:
    """(final snapshot, seat, faction, won, drew) -> the records of the detachments each army fielded after its
    first, summed by faction and detachment."""
    summed: dict[tuple[str, str], tuple[int, int, int]] = {}
    for state_json, place, faction, won, drew in seats:
        army = (json.loads(state_json).get("players") or [{}, {}])[place].get("army") or {}
        for detachment in dict.fromkeys(army.get("more_detachments") or ()):
            games, wins, draws = summed.get((faction, detachment), (0, 0, 0))
            summed[faction, detachment] = (games + 1, wins + won, draws + drew)
    return [FactionRecord(f, d, n, w, dr, further=True) for (f, d), (n, w, dr) in summed.items()]


def tallies(summary: dict[str, Any]) -> list[tuple[str, str, int, int]]:
    """(kind, key, games, wins) that a finished game adds to its server's tallies (the server_tally table):
    nothing for an abandoned game or one played outside a server."""
    if summary["guild_id"] is None or summary["reason"] == "abandoned":
        return []
    winner, ended = summary["winner"], summary["ended_at"]
    monday = (ended.date() - timedelta(days=ended.weekday())).isoformat()
    found = [("week", monday, 1, 0), ("mission", summary["mission"], 1, 0)]
    if summary["deployment"]:
        found.append(("deployment", summary["deployment"], 1, 0))
    if summary["first"] is not None and winner is not None:
        found.append(("first", "", 1, int(winner == summary["first"])))
    for seat in ("a", "b"):
        if summary[f"mode_{seat}"]:
            found.append(("mode", summary[f"mode_{seat}"], 1, int(winner == summary[f"player_{seat}"])))
    if summary["challenger"] is not None:
        found.append(("challenger", "", 1, int(winner == summary["challenger"])))
    return found


async def add_tallies(conn: AsyncConnection, summaries: list[dict[str, Any]]) -> None:
    """Add finished games (summary rows with their end) to their servers' tallies, in the caller's transaction: one
    upsert, its rows summed first (a statement may not touch a row twice)."""
    summed: dict[tuple[int, str, str], list[int]] = {}
    for summary in summaries:
        for kind, key, games, wins in tallies(summary):
            counts = summed.setdefault((summary["guild_id"], kind, key), [0, 0])
            counts[0] += games
            counts[1] += wins
    if not summed:
        return
    upsert = (sqlite_insert if conn.dialect.name == "sqlite" else postgresql_insert)(TALLY)
    statement = upsert.values([dict(guild_id=g, kind=k, key=key, games=n, wins=w)
                               for (g, k, key), (n, w) in summed.items()])
    await conn.execute(statement.on_conflict_do_update(
        index_elements=["guild_id", "kind", "key"],
        set_={"games": TALLY.c.games + statement.excluded.games, "wins": TALLY.c.wins + statement.excluded.wins}))
