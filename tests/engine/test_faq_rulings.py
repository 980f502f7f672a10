"""Errata & FAQ and Designer's Notes rulings the engine can express (seed 002, "FAQ" and "Designer's Notes").

Each test is written to the ruling's words; where the engine disagrees the test fails and says which ruling.
"""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Phase, Status
from bot.engine.errors import GameError, WrongPhase

_BURDEN: list[str] = []


def _burden_of_trust(make_table):
    """A Strike Force game with the Burden of Trust Primary Mission (not in the Tournament Mission Pool)."""
    if not _BURDEN:
        _BURDEN.append(make_table.find_seed(
            lambda s: make_table(seed=s, mission=None).state.mission.primary == "burden-of-trust", "burden"))
    t = make_table(seed=_BURDEN[0], mission=None)
    t.to_battle(first="fixed", second="fixed")
    return t


def test_burden_of_trust_guarding_turns(make_table):
    """Q: In Burden of Trust, how many times can each player score VP for guarding an objective marker?
    A: The player going first ... at the end of their opponent's first, second, third, fourth and fifth turn.
    The player going second ... at the end of their opponent's second, third, fourth and fifth turn."""
    t = _burden_of_trust(make_table)
    scored: dict[str, list[int]] = {t.first: [], t.second: []}
    while t.state.status == Status.BATTLE:
        t.to_end_of_turn()
        guard = t.other(t.active)
        try:
            t.score("primary", guard, option="guarding", count=1)
            scored[guard].append(t.state.round)
        except GameError:
            pass
        t.end_turn()
    assert scored[t.first] == [1, 2, 3, 4, 5]
    assert scored[t.second] == [2, 3, 4, 5]


def test_burden_of_trust_going_second_cannot_guard_score_at_the_end_of_the_first_turn(make_table):
    t = _burden_of_trust(make_table)
    t.to_end_of_turn()
    # The FAQ gives no message; any GameError that leaves the state unchanged honours the ruling.
    t.refuse("score", t.second, error=GameError, match=None, source="primary", option="guarding", count=1)


def test_burden_of_trust_going_first_scores_guarding_at_the_end_of_the_opponents_first_turn(make_table):
    t = _burden_of_trust(make_table)
    t.end_turn()
    t.to_end_of_turn()
    t.score("primary", t.first, option="guarding", count=2)
    assert (t.last_vp().round, t.last_vp().turn, t.last_vp().awarded) == (1, 2, 4)


def test_burden_of_trust_guarding_scores_for_the_opponent_of_the_active_player_at_a_turn_end(make_table):
    t = _burden_of_trust(make_table)
    t.end_turn()
    t.act("end_command_phase")
    t.refuse("score", t.first, error=WrongPhase, match="This scores at the end of a turn", source="primary",
             option="guarding", count=1)
    t.act("end_turn")
    t.refuse("score", t.second, error=WrongPhase, match="This scores for the opponent of the player whose turn it is",
             source="primary", option="guarding", count=1)


@pytest.mark.parametrize("cards, card, option, vp", [
    (("assassination", "cleanse"), "assassination", "character-w4-plus", 4),
    (("bring-it-down", "cleanse"), "bring-it-down", "monster-vehicle-destroyed", 2),
    (("cull-the-horde", "cleanse"), "cull-the-horde", "horde-destroyed-fixed", 5),
])
def test_units_destroyed_again_score_again(make_table, cards, card, option, vp):
    """FAQ: CHARACTER models returned to the battlefield and destroyed again award VP again. Designer's Note
    'VP for destroying models or units': you can gain VP again if a relevant card is active."""
    t = make_table()
    t.to_battle(first="fixed", first_cards=cards)
    t.score("secondary", t.first, card=card, option=option)
    t.score("secondary", t.first, card=card, option=option)  # the same unit, back and destroyed again
    t.end_turn()
    t.score("secondary", t.first, card=card, option=option)  # and again in the opponent's turn
    assert [e.awarded for e in t.state.vp] == [vp, vp, vp]


def test_vp_up_to_a_limit_keeps_scoring_to_the_limit_then_excess_is_lost(make_table):
    """Designer's Note 'VP up to a limit': e.g. '3VP (up to 5VP)' scores 3, then 2, the excess is lost."""
    t = make_table()
    t.to_battle()
    t.rig(t.first, hand=("overwhelming-force", "cleanse"))
    t.score("secondary", t.first, card="overwhelming-force", option="unit-on-objective-destroyed")
    t.score("secondary", t.first, card="overwhelming-force", option="unit-on-objective-destroyed")
    first, second = t.state.vp
    assert (first.awarded, second.claimed, second.awarded, second.lost) == (3, 3, 2, 1)


def test_when_drawn_only_applies_to_tactical_missions(make_table):
    """Designer's Note 'Discarding cards': a Secondary Mission's When Drawn applies only with Tactical Missions."""
    t = make_table()
    t.to_battle(first="fixed", first_cards=("behind-enemy-lines", "bring-it-down"))
    assert t.state.prompts == () and t.state.phase == Phase.COMMAND
    assert t.player(t.first).hand == ("behind-enemy-lines", "bring-it-down")
