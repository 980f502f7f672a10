"""Ladder ratings with openskill's Weng-Lin Bradley-Terry model, which rates draws and keeps each player's
uncertainty. The table is a fold over the counted games in the order they ended: `rate` adds one game, and
recomputing from the ordered history gives exactly the table the games built one by one (a voided game or a
corrected result then reads as if it never counted)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
PROVISIONAL_GAMES = 5  # fewer counted games than this: the rating is marked provisional
RECENT = 5  # rating changes kept per player for /ladder me


@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    recent: tuple[tuple[int, float], ...] = field(default=())  # (game id, change of the shown rating)

    @property
    def rating(self) -> float:
        """The conservative rating shown and ranked by: mu - 3 sigma (low while uncertain)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class CountedGame:
    game_id: int
    players: tuple[str, str]
    names: tuple[str, str]
    winner: str | None  # None: a draw


def rated(table: dict[str, Standing], game: CountedGame) -> dict[str, Standing]:
    """The two players' standings after `game`, from theirs in `table` (a player missing there is new)."""
    before = [table.get(p) or Standing(p, n) for p, n in zip(game.players, game.names)]
    ranks = [1, 1] if game.winner is None else [1 if p == game.winner else 2 for p in game.players]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    [[one], [two]] = MODEL.rate(teams, ranks=ranks)
    after = {}
    for standing, new, name, rank in zip(before, (one, two), game.names, ranks):
        moved = replace(standing, name=name, mu=new.mu, sigma=new.sigma, games=standing.games + 1,
                        wins=standing.wins + (game.winner is not None and rank == 1),
                        losses=standing.losses + (rank == 2), draws=standing.draws + (game.winner is None))
        change = round(moved.rating - standing.rating, 2)
        after[standing.player] = replace(moved, recent=(*standing.recent, (game.game_id, change))[-RECENT:])
    return after


def recompute(games: Iterable[CountedGame]) -> dict[str, Standing]:
    """The standings from scratch: every counted game, in the order they ended."""
    table: dict[str, Standing] = {}
    for game in games:
        table.update(rated(table, game))
    return table
