"""The chess clock in the older packs' games: the same clock (bot/engine/clock.py) runs for the player whose turn it
is, from the stamps on the actions, so replay gives the same clock; time running out and a claim on time."""

from __future__ import annotations

import pytest

from bot.decks import installed_packs
from bot.engine import moves
from bot.engine.errors import GameError
from bot.engine.table import actions as t
from bot.engine.table.state import Step, TableSetup

MINUTE = 60_000
P1, P2 = "1", "2"
RULES = installed_packs().rules("4th-edition")


class Clocked:
    """A 4th edition game with a clock whose every action is stamped with the table's own time."""

    def __init__(self, minutes: int = 30, expiry: str = "play-on") -> None:
        self.setup = TableSetup(pack="4th-edition", players=(P1, P2), names=("Ann", "Ben"), seed="clock",
                                mission="recon", level="gamma", clock_minutes=minutes, clock_expiry=expiry)
        self.state = RULES.new_game(self.setup).state
        self.now = 1_700_000_000_000
        self.log: list[object] = []

    def act(self, action: object, minutes: float = 0) -> None:
        self.now += int(minutes * MINUTE)
        action = action.model_copy(update={"at": self.now})
        self.state = RULES.apply(self.state, action).state
        self.log.append(action)

    def to_battle(self) -> None:
        self.act(moves.DeploymentDone(actor=P1), minutes=10)
        self.act(moves.DeploymentDone(actor=P2), minutes=10)
        self.act(t.ChooseTurn(actor=self.state.first_turn_rolloff.winner, first=True))


def test_no_time_runs_before_the_battle_then_it_runs_for_the_player_whose_turn_it_is() -> None:
    game = Clocked()
    game.to_battle()
    first = game.state.first
    assert game.state.clock.used_ms == {} and game.state.clock.running == first
    game.act(t.ScoreObjective(actor=first, objective="vp", vp=50), minutes=4)
    game.act(moves.EndTurn(actor=first), minutes=3)
    second = game.state.active
    assert game.state.clock.used_ms == {first: 7 * MINUTE} and game.state.clock.running == second
    game.act(moves.EndTurn(actor=second), minutes=2)
    assert game.state.clock.used_ms == {first: 7 * MINUTE, second: 2 * MINUTE}
    assert RULES.replay(game.setup, game.log) == game.state


def test_time_runs_out_only_when_it_has_and_the_opponent_may_claim() -> None:
    game = Clocked(minutes=5, expiry="claim")
    game.to_battle()
    first = game.state.first
    with pytest.raises(GameError, match="still has time"):
        game.act(moves.TimeOut(actor=first), minutes=4)
    game.act(moves.TimeOut(actor=first), minutes=1)
    assert game.state.clock.out == (first,)
    second = game.state.opponent(first).id
    game.act(moves.ClaimTime(actor=second))
    assert game.state.status == Step.ENDED and game.state.result.winner == second
    assert game.state.result.reason == "time"


def test_a_paused_clock_charges_nobody() -> None:
    game = Clocked()
    game.to_battle()
    first = game.state.first
    game.act(moves.PauseClock(actor=first), minutes=1)
    game.act(moves.ResumeClock(actor=first), minutes=20)
    game.act(moves.EndTurn(actor=first), minutes=1)
    assert game.state.clock.used_ms == {first: 2 * MINUTE}
