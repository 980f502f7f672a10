"""Team events' scoring (Teams Event Companion): each game's VP difference becomes 20 Battle Points shared by its two
players; a team's score is its players' sum, and it wins the round only by the margin its size asks for.

    VP difference   0-5  6-10  11-15  16-20  21-25  26-30  31-35  36-40  41-45  46-50  51+
    winner's BP      10    11     12     13     14     15     16     17     18     19   20

A concession or a no-show is a forfeit: the winner takes all 20 BP, whatever the VP. Team Points: a win 3, a draw 2,
a loss 1.
"""

from __future__ import annotations

from enum import StrEnum

from bot.engine.tournament.ranking import Outcome, Reason, Result

GAME_BP = 20
BAND = 5  # VP of difference per Battle Point past the first band
SIZES = range(3, 9)
MARGINS = {3: 4, 4: 6, 5: 6, 6: 8, 7: 10, 8: 12}  # the lead in BP a team of that size needs to win the round


class MatchOutcome(StrEnum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


TEAM_POINTS = {MatchOutcome.WIN: 3, MatchOutcome.DRAW: 2, MatchOutcome.LOSS: 1}


def battle_points(vp_a: int, vp_b: int) -> tuple[int, int]:
    """The BP each player takes from a game they scored `vp_a` to `vp_b` (86-54: 16 and 4)."""
    difference = abs(vp_a - vp_b)
    winner = 10 + min(10, max(0, difference - 1) // BAND)
    return (winner, GAME_BP - winner) if vp_a >= vp_b else (GAME_BP - winner, winner)


def result_bp(result: Result) -> tuple[int, int]:
    """A recorded game's BP for its players a and b: by the VP, or all 20 to the winner of a forfeit."""
    if result.reason in (Reason.CONCESSION, Reason.NO_SHOW):
        return (GAME_BP, 0) if result.outcome == Outcome.A_WINS else (0, GAME_BP)
    return battle_points(result.vp_a, result.vp_b)


def match_outcome(size: int, bp: int, other: int) -> MatchOutcome:
    """A team's round against another, from both teams' BP: a win needs the margin of its size (5: 54-46 wins,
    52-48 is a draw)."""
    if bp - other >= MARGINS[size]:
        return MatchOutcome.WIN
    if other - bp >= MARGINS[size]:
        return MatchOutcome.LOSS
    return MatchOutcome.DRAW


def bye_bp(size: int) -> int:
    """The BP of the smallest win a team of `size` can score: what a bye is worth by default."""
    half = GAME_BP * size // 2
    return half + (MARGINS[size] + 1) // 2
