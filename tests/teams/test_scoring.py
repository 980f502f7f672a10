"""Team events' scoring (bot/engine/teams/scoring.py): Battle Points at every band edge, the margin for every team size
at its edge, Team Points, and a team's score as its players' sum."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.teams.scoring import (
    GAME_BP, MARGINS, TEAM_POINTS, MatchOutcome, battle_points, bye_bp, match_outcome, result_bp,
)
from bot.engine.tournament.ranking import Outcome, Reason, Result

# (VP difference, the winner's BP) at both edges of every band of the Companion's table.
EDGES = [(0, 10), (5, 10), (6, 11), (10, 11), (11, 12), (15, 12), (16, 13), (20, 13), (21, 14), (25, 14),
         (26, 15), (30, 15), (31, 16), (35, 16), (36, 17), (40, 17), (41, 18), (45, 18), (46, 19), (50, 19),
         (51, 20), (90, 20)]


@pytest.mark.parametrize(("difference", "winner"), EDGES)
def test_battle_points_at_every_band_edge(difference: int, winner: int) -> None:
    assert battle_points(20 + difference, 20) == (winner, GAME_BP - winner)
    assert battle_points(20, 20 + difference) == (GAME_BP - winner, winner)


def test_the_companion_s_worked_example() -> None:
    assert battle_points(86, 54) == (16, 4)


@given(st.integers(0, 200), st.integers(0, 200))
def test_a_game_shares_twenty_battle_points_and_more_vp_never_takes_fewer(a: int, b: int) -> None:
    mine, theirs = battle_points(a, b)
    assert mine + theirs == GAME_BP and 0 <= mine <= GAME_BP
    assert (mine - 10) * (a - b) >= 0  # the player ahead takes at least half
    assert battle_points(a + 1, b)[0] >= mine  # one VP more never costs a BP


def test_a_forfeit_gives_the_winner_every_battle_point() -> None:
    conceded = Result(round_number=1, table=1, a="1", b="2", outcome=Outcome.B_WINS, vp_a=86, vp_b=54,
                      reason=Reason.CONCESSION)
    assert result_bp(conceded) == (0, 20)
    played = conceded.model_copy(update={"outcome": Outcome.A_WINS, "reason": Reason.SCORE})
    assert result_bp(played) == (16, 4)


@pytest.mark.parametrize("size", sorted(MARGINS))
def test_a_team_wins_only_by_the_margin_of_its_size(size: int) -> None:
    total, margin = GAME_BP * size, MARGINS[size]
    win = (total + margin) // 2  # the smallest lead of `margin`
    assert match_outcome(size, win, total - win) == MatchOutcome.WIN
    assert match_outcome(size, total - win, win) == MatchOutcome.LOSS
    short = win - 1  # a lead of margin - 2: short of it
    assert match_outcome(size, short, total - short) == MatchOutcome.DRAW
    assert match_outcome(size, total // 2, total - total // 2) == MatchOutcome.DRAW


def test_the_companion_s_five_player_examples() -> None:
    assert match_outcome(5, 54, 46) == MatchOutcome.WIN
    assert match_outcome(5, 53, 47) == MatchOutcome.WIN
    assert match_outcome(5, 52, 48) == MatchOutcome.DRAW
    assert MARGINS == {3: 4, 4: 6, 5: 6, 6: 8, 7: 10, 8: 12}


def test_team_points_and_the_bye() -> None:
    assert TEAM_POINTS == {MatchOutcome.WIN: 3, MatchOutcome.DRAW: 2, MatchOutcome.LOSS: 1}
    for size in MARGINS:  # the smallest win: a bye ranks below every team that won its match outright
        assert match_outcome(size, bye_bp(size), GAME_BP * size - bye_bp(size)) == MatchOutcome.WIN
        assert match_outcome(size, bye_bp(size) - 1, GAME_BP * size - bye_bp(size) + 1) == MatchOutcome.DRAW
