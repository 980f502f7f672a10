"""A server's opt-in ladder: which games count, the table as each one ends, and the recompute that a void or a new
season needs. Nothing is ranked on a server before an admin starts a ladder there. A server may rate doubles too,
on a second ladder of their own that opens, turns season and closes with the first: a doubles game rates its four
players there, and never moves a singles rating."""

from __future__ import annotations

import logging
from typing import Any, cast

from bot.engine.errors import GameError
from bot.engine.ladder import MODEL, CountedGame, Standing, _after, rated
from bot.plumbing.locks import KeyedLocks
from bot.store.community_models import GameSummary, Ladder
from bot.store.history import DoublesGame, HistoryRepository
from bot.store.ladders import LadderRepository
from bot.store.models import utcnow

_log = logging.getLogger(__name__)

NO_LADDER = "This server has no ladder: a server admin starts one with `/ladder start`."
DOUBLES_NAME = " (doubles)"  # after the name of a server's doubles ladder


class Ladders:
    def __init__(self, history: HistoryRepository, repo: LadderRepository) -> None:
        self.history = history
        self.repo = repo
        self._lock = KeyedLocks()  # one writer per ladder: two games ending at once never lose an update

    async def ladder(self, guild_id: int, *, doubles: bool = False) -> Ladder:
        """The server's open ladder, or (`doubles`) its doubles ladder."""
        ladder = await self.repo.open_ladder(guild_id)
        if ladder is None:
            raise GameError(NO_LADDER)
        if not doubles:
            return ladder
        pairs = await self.repo.open_ladder(guild_id, doubles=True)
        if pairs is None:
            raise GameError(f"**{ladder.name}** does not rate doubles: an admin chooses that when starting a ladder "
                            "(`/ladder start doubles:separate`).")
        return pairs

    async def start(self, guild_id: int, name: str, packs: tuple[str, ...], tournaments: bool, by: str, *,
                    doubles: bool = False) -> Ladder:
        """Open the server's ladder, and beside it its doubles ladder if `doubles`: the singles one."""
        if await self.repo.open_ladder(guild_id) is not None:
            raise GameError("This server already has a ladder: `/ladder season new` starts its next season.")
        at = utcnow()
        kinds = [(name, False)] + ([(name[:100 - len(DOUBLES_NAME)] + DOUBLES_NAME, True)] if doubles else [])
        ladders = [Ladder(guild_id=guild_id, name=n, packs=",".join(packs), include_tournaments=tournaments,
                          doubles=d, started_by=by, started_at=at) for n, d in kinds]
        await self.repo.start(ladders)
        return ladders[0]

    async def game_ended(self, guild_id: int, game_id: int) -> bool:
        """Count a game that has just ended, if the server's ladder of its kind counts it: whether it did."""
        summary = await self.history.summary(game_id)
        if summary is None:
            return False
        ladder = await self.repo.open_ladder(guild_id, doubles=summary.doubles)
        if ladder is None or not counts(ladder, summary):
            return False
        ladder_id = cast(int, ladder.id)  # a ladder read from the store has its id
        async with self._lock(ladder_id):
            game = counted(summary)
            table = await self.repo.standings_of(ladder_id, game.players)
            await self.repo.save(ladder_id, rate(table, game))
        return True

    async def recompute(self, ladder: Ladder) -> dict[str, Standing]:
        """The table from the ordered counted games, stored whole."""
        ladder_id = cast(int, ladder.id)  # a stored ladder (started, or read from the store) has its id
        async with self._lock(ladder_id):
            games = await self.history.counted(ladder.guild_id, ladder.started_at, packs_of(ladder),
                                               ladder.include_tournaments, await self.repo.voids(ladder_id),
                                               doubles=ladder.doubles)
            table: dict[str, Standing] = {}
            for game in games:
                table.update(rate(table, game))
            await self.repo.save(ladder_id, table, replace_all=True)
        return table

    async def void(self, guild_id: int, game_id: int, by: str) -> Ladder:
        """Take a game off the ladder that counted it (the doubles one for a doubles game): that ladder."""
        await self.ladder(guild_id)  # a server without a ladder is told so
        summary = await self.history.summary(game_id)
        ladder = await self.repo.open_ladder(guild_id, doubles=summary.doubles) if summary else None
        if ladder is None or summary is None or summary.guild_id != guild_id or not counts(ladder, summary):
            raise GameError(f"Game {game_id} does not count on this ladder, so there is nothing to void.")
        ladder_id = cast(int, ladder.id)  # a ladder read from the store has its id
        if game_id in await self.repo.voids(ladder_id):
            raise GameError(f"Game {game_id} is voided already.")
        await self.repo.void(ladder_id, game_id, by, utcnow())
        _log.info("Ladder %s: game %s voided by %s", ladder_id, game_id, by)
        await self.recompute(ladder)
        return ladder

    async def new_season(self, guild_id: int, by: str) -> Ladder:
        """Archive the server's ladder (and its doubles ladder) and open the next season of each: the singles one."""
        ladders = [await self.ladder(guild_id)]
        if (doubles := await self.repo.open_ladder(guild_id, doubles=True)) is not None:
            ladders.append(doubles)
        return (await self.repo.new_season(ladders, utcnow(), by))[0]


def packs_of(ladder: Ladder) -> tuple[str, ...]:
    return tuple(p for p in ladder.packs.split(",") if p)


def counts(ladder: Ladder, summary: GameSummary) -> bool:
    """Finished on the ladder's server since it started, of the ladder's kind (singles or doubles), in its packs
    (abandoned games never count; concessions and wins on time do)."""
    packs = packs_of(ladder)
    return (summary.guild_id == ladder.guild_id and summary.ended_at >= ladder.started_at
            and summary.reason != "abandoned" and summary.doubles == ladder.doubles
            and (not packs or summary.pack in packs)
            and (ladder.include_tournaments or summary.tournament_id is None))


def counted(summary: Any) -> CountedGame | DoublesGame:
    """A summary (GameSummary) as the game its ladder rates: in doubles, its partner columns are all set."""
    if summary.partner_a is None:
        return CountedGame(summary.game_id, (summary.player_a, summary.player_b), (summary.name_a, summary.name_b),
                           summary.winner)
    return DoublesGame(summary.game_id, ((summary.player_a, summary.partner_a), (summary.player_b, summary.partner_b)),
                       ((summary.name_a, summary.partner_name_a), (summary.name_b, summary.partner_name_b)),
                       summary.winner)


def rate(table: dict[str, Standing], game: CountedGame | DoublesGame) -> dict[str, Standing]:
    """The standings of the game's players after it, from theirs in `table` (a player missing there is new)."""
    return rated(table, game) if isinstance(game, CountedGame) else rated_doubles(table, game)


def rated_doubles(table: dict[str, Standing], game: DoublesGame) -> dict[str, Standing]:
    """The four players' standings after a doubles game: openskill rates the two sides as teams, each player
    keeping a rating of their own."""
    before = [[table.get(p) or Standing(p, n) for p, n in zip(side, names)]
              for side, names in zip(game.sides, game.names)]
    score = 0.5 if game.winner is None else 1.0 if game.winner == game.sides[0][0] else 0.0  # side a's result
    ranks: list[float] = [1, 1] if game.winner is None else [1, 2] if score else [2, 1]
    after = MODEL.rate([[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in before], ranks=ranks)
    found: dict[str, Standing] = {}
    for side, names, ratings, result in zip(before, game.names, after, (score, 1 - score)):
        for standing, name, rating in zip(side, names, ratings):
            found[standing.player] = _after(standing, name, (rating.mu, rating.sigma), result, game.game_id)
    return found
