"""A server's opt-in ladder: which games count, the table as each one ends, and the recompute that a void or a new
season needs. Nothing is ranked on a server before an admin starts a ladder there."""

from __future__ import annotations

import logging
from typing import cast

from bot.engine.errors import GameError
from bot.engine.ladder import CountedGame, Standing, rated, recompute
from bot.plumbing.locks import KeyedLocks
from bot.store.community_models import GameSummary, Ladder
from bot.store.history import HistoryRepository
from bot.store.ladders import LadderRepository
from bot.store.models import utcnow

_log = logging.getLogger(__name__)

NO_LADDER = "This server has no ladder: a server admin starts one with `/ladder start`."


class Ladders:
    def __init__(self, history: HistoryRepository, repo: LadderRepository) -> None:
        self.history = history
        self.repo = repo
        self._lock = KeyedLocks()  # one writer per ladder: two games ending at once never lose an update

    async def ladder(self, guild_id: int) -> Ladder:
        ladder = await self.repo.open_ladder(guild_id)
        if ladder is None:
            raise GameError(NO_LADDER)
        return ladder

    async def start(self, guild_id: int, name: str, packs: tuple[str, ...], tournaments: bool, by: str) -> Ladder:
        if await self.repo.open_ladder(guild_id) is not None:
            raise GameError("This server already has a ladder: `/ladder season new` starts its next season.")
        return await self.repo.start(Ladder(guild_id=guild_id, name=name, packs=",".join(packs),
                                            include_tournaments=tournaments, started_by=by, started_at=utcnow()))

    async def game_ended(self, guild_id: int, game_id: int) -> bool:
        """Count a game that has just ended, if the server's ladder counts it: whether it did."""
        ladder = await self.repo.open_ladder(guild_id)
        summary = await self.history.summary(game_id)
        if ladder is None or summary is None or not counts(ladder, summary):
            return False
        ladder_id = cast(int, ladder.id)  # a ladder read from the store has its id
        async with self._lock(ladder_id):
            game = counted(summary)
            table = await self.repo.standings_of(ladder_id, game.players)
            await self.repo.save(ladder_id, rated(table, game))
        return True

    async def recompute(self, ladder: Ladder) -> dict[str, Standing]:
        """The table from the ordered counted games, stored whole."""
        ladder_id = cast(int, ladder.id)  # a stored ladder (started, or read from the store) has its id
        async with self._lock(ladder_id):
            games = await self.history.counted(ladder.guild_id, ladder.started_at, packs_of(ladder),
                                               ladder.include_tournaments, await self.repo.voids(ladder_id))
            table = recompute(games)
            await self.repo.save(ladder_id, table, replace_all=True)
        return table

    async def void(self, guild_id: int, game_id: int, by: str) -> Ladder:
        ladder = await self.ladder(guild_id)
        summary = await self.history.summary(game_id)
        if summary is None or summary.guild_id != guild_id or not counts(ladder, summary):
            raise GameError(f"Game {game_id} does not count on this ladder, so there is nothing to void.")
        ladder_id = cast(int, ladder.id)  # a ladder read from the store has its id
        if game_id in await self.repo.voids(ladder_id):
            raise GameError(f"Game {game_id} is voided already.")
        await self.repo.void(ladder_id, game_id, by, utcnow())
        _log.info("Ladder %s: game %s voided by %s", ladder_id, game_id, by)
        await self.recompute(ladder)
        return ladder

    async def new_season(self, guild_id: int, by: str) -> Ladder:
        return await self.repo.new_season(await self.ladder(guild_id), utcnow(), by)


def packs_of(ladder: Ladder) -> tuple[str, ...]:
    return tuple(p for p in ladder.packs.split(",") if p)


def counts(ladder: Ladder, summary: GameSummary) -> bool:
    """Finished on the ladder's server since it started, between two players, in its packs (abandoned games never
    count; concessions and wins on time do)."""
    packs = packs_of(ladder)
    return (summary.guild_id == ladder.guild_id and summary.ended_at >= ladder.started_at
            and summary.reason != "abandoned" and (not packs or summary.pack in packs)
            and (ladder.include_tournaments or summary.tournament_id is None))


def counted(summary: GameSummary) -> CountedGame:
    return CountedGame(summary.game_id, (summary.player_a, summary.player_b), (summary.name_a, summary.name_b),
                       summary.winner)
