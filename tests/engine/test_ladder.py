"""Ladder ratings: the fold over counted games is the same whether games are added one by one or recomputed
from the ordered history, and it rates as openskill's model does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from bot.engine.ladder import MODEL, PROVISIONAL_GAMES, CountedGame, Standing, _rate_two, rated, recompute

PLAYERS = [str(n) for n in range(6)]


@st.composite
def histories(draw) -> list[CountedGame]:
    games = []
    for game_id in range(draw(st.integers(0, 30))):
        a, b = draw(st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True))
        winner = draw(st.sampled_from([a, b, None]))
        games.append(CountedGame(game_id, (a, b), (f"P{a}", f"P{b}"), winner))
    return games


@settings(max_examples=60, deadline=None)
@given(histories())
def test_recompute_equals_the_games_added_one_by_one(games) -> None:
    table: dict[str, Standing] = {}
    for game in games:  # as the bot does when each game ends: the two players' rows only
        table.update(rated({p: table[p] for p in game.players if p in table}, game))
    assert table == recompute(games)


@settings(max_examples=60, deadline=None)
@given(histories())
def test_records_add_up_and_every_player_counts_their_games(games) -> None:
    table = recompute(games)
    for player, s in table.items():
        played = [g for g in games if player in g.players]
        assert s.games == len(played) == s.wins + s.losses + s.draws
        assert s.wins == sum(g.winner == player for g in played)
        assert s.draws == sum(g.winner is None for g in played)
        assert s.provisional == (s.games < PROVISIONAL_GAMES)
        assert [game for game, _ in s.recent] == [g.game_id for g in played][-5:]


def test_a_win_moves_both_ratings_as_openskill_does() -> None:
    game = CountedGame(1, ("a", "b"), ("Alice", "Bob"), "a")
    after = rated({}, game)
    [[win], [loss]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert (after["a"].mu, after["a"].sigma) == pytest.approx((win.mu, win.sigma), rel=1e-12)
    assert (after["b"].mu, after["b"].sigma) == pytest.approx((loss.mu, loss.sigma), rel=1e-12)
    assert after["a"].rating > after["b"].rating and after["a"].recent[0][1] > 0 > after["b"].recent[0][1]


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 50), st.floats(0.5, 9), st.floats(0, 50), st.floats(0.5, 9), st.sampled_from([1.0, 0.5, 0.0]))
def test_the_written_out_update_is_openskills(mu_a, sigma_a, mu_b, sigma_b, score) -> None:
    ranks = {1.0: [1, 2], 0.5: [1, 1], 0.0: [2, 1]}[score]
    [[a], [b]] = MODEL.rate([[MODEL.rating(mu=mu_a, sigma=sigma_a)], [MODEL.rating(mu=mu_b, sigma=sigma_b)]],
                            ranks=ranks)
    (new_a, new_b) = _rate_two(mu_a, sigma_a, mu_b, sigma_b, score)
    assert new_a == pytest.approx((a.mu, a.sigma), rel=1e-12, abs=1e-12)
    assert new_b == pytest.approx((b.mu, b.sigma), rel=1e-12, abs=1e-12)


def test_a_draw_between_equals_leaves_them_equal() -> None:
    after = rated({}, CountedGame(1, ("a", "b"), ("Alice", "Bob"), None))
    assert after["a"].mu == after["b"].mu and after["a"].draws == after["b"].draws == 1
