"""Ladder ratings with openskill's Weng-Lin Bradley-Terry model, which rates draws and keeps each player's
uncertainty. The table is a fold over the counted games in the order they ended: `rate` adds one game, and
recomputing from the ordered history gives exactly the table the games built one by one (a voided game or a
corrected result then reads as if it never counted)."""

from __future__ import annotations

from collections.abc import Iterable
import math
from typing import NamedTuple

from openskill.models import BradleyTerryFull

MODEL = BradleyTerryFull()
# openskill's rate() spends most of its time checking and copying its arguments (about 65 µs a game here), which a
# recompute of a large server's history cannot afford; `_rate_two` is its Bradley-Terry update written out for two
# one-player teams, with the model's own constants, and tests/engine/test_ladder.py holds it equal to rate().
TAU_SQUARED, TWO_BETA_SQUARED, KAPPA = MODEL.tau ** 2, 2 * MODEL.beta ** 2, MODEL.kappa
PROVISIONAL_GAMES = 5  # fewer counted games than this: the rating is marked provisional
RECENT = 5  # rating changes kept per player for /ladder me


class Standing(NamedTuple):  # a tuple: a recompute builds two for every game of the history
    player: str
    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    recent: tuple[tuple[int, float], ...] = ()  # (game id, change of the shown rating), the last RECENT

    @property
    def rating(self) -> float:
        """The conservative rating shown and ranked by: mu - 3 sigma (low while uncertain)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class CountedGame(NamedTuple):
    game_id: int
    players: tuple[str, str]
    names: tuple[str, str]
    winner: str | None  # None: a draw


def rated(table: dict[str, Standing], game: CountedGame) -> dict[str, Standing]:
    """The two players' standings after `game`, from theirs in `table` (a player missing there is new)."""
    (a, b), (name_a, name_b) = game.players, game.names
    one, two = table.get(a) or Standing(a, name_a), table.get(b) or Standing(b, name_b)
    score = 0.5 if game.winner is None else 1.0 if game.winner == a else 0.0  # the first player's result
    new_one, new_two = _rate_two(one.mu, one.sigma, two.mu, two.sigma, score)
    return {a: _after(one, name_a, new_one, score, game.game_id),
            b: _after(two, name_b, new_two, 1 - score, game.game_id)}


def _after(before: Standing, name: str, rating: tuple[float, float], score: float, game_id: int) -> Standing:
    """A player's standing after a game they won (1), drew (0.5) or lost (0), with the new (mu, sigma)."""
    mu, sigma = rating
    recent = before.recent[1 - RECENT:] + ((game_id, mu - 3 * sigma - before.mu + 3 * before.sigma),)
    return Standing(before.player, name, mu, sigma, before.games + 1, before.wins + (score == 1),
                    before.losses + (score == 0), before.draws + (score == 0.5), recent)


def _rate_two(mu_a: float, sigma_a: float, mu_b: float, sigma_b: float,
              score_a: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """openskill's BradleyTerryFull.rate for two one-player teams: (mu, sigma) of each after a game that the first
    won (1), drew (0.5) or lost (0)."""
    var_a, var_b = sigma_a * sigma_a + TAU_SQUARED, sigma_b * sigma_b + TAU_SQUARED  # tau keeps sigma from vanishing
    c = math.sqrt(var_a + var_b + TWO_BETA_SQUARED)
    p_a = 1 / (1 + math.exp((mu_b - mu_a) / c))
    p_b = 1 / (1 + math.exp((mu_a - mu_b) / c))
    return (_moved(mu_a, var_a, c, score_a, p_a), _moved(mu_b, var_b, c, 1 - score_a, p_b))


def _moved(mu: float, var: float, c: float, score: float, p: float) -> tuple[float, float]:
    omega = var / c * (score - p)
    delta = (math.sqrt(var) / c * (var / c)) / c * p * (1 - p)
    return mu + omega, math.sqrt(var) * math.sqrt(max(1 - delta, KAPPA))


def recompute(games: Iterable[CountedGame]) -> dict[str, Standing]:
    """The standings from scratch: every counted game, in the order they ended."""
    table: dict[str, Standing] = {}
    for game in games:
        table.update(rated(table, game))
    return table
