"""The chess clock: whose time runs after every kind of action, pauses, time running out, claims, undo, replay."""

from __future__ import annotations

import pytest

from bot.engine import clock as clocks
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import apply, new_game, replay, runner
from bot.engine.chapter_approved.state import Phase, Prompt, PromptKind, Status
from bot.engine.errors import GameError
from tests.engine.conftest import CATALOG, P1, Table

MINUTE = 60_000


class ClockTable(Table):
    """A game with a clock whose every action is stamped with the table's own time, as the service does."""

    def __init__(self, minutes: int = 90, expiry: str = "play-on") -> None:
        super().__init__()
        self.setup = self.setup.model_copy(update={"clock_minutes": minutes, "clock_expiry": expiry})
        self.state = new_game(CATALOG, self.setup).state
        self.now = 1_700_000_000_000

    def tick(self, ms: int) -> None:
        self.now += ms

    def action(self, kind: str, actor: str | None = None, **fields) -> a.Action:
        return super().action(kind, actor, at=self.now, **fields)

    @property
    def clock(self) -> clocks.Clock:
        return self.state.clock

    def used(self, player: str) -> int:
        return self.clock.used_ms.get(player, 0)


@pytest.fixture
def table() -> ClockTable:
    return ClockTable()


def test_no_time_runs_before_the_first_turn(table: ClockTable) -> None:
    assert table.clock.budget_ms == 90 * MINUTE and table.clock.running is None
    table.to_deployment()
    table.tick(10 * MINUTE)
    table.deploy()
    assert table.clock.running == table.first and table.clock.since_ms == table.now
    assert table.clock.used_ms == {}


def test_the_clock_switches_each_time_play_passes(table: ClockTable) -> None:
    table.to_battle()
    first, second = table.first, table.second
    table.tick(5 * MINUTE)
    table.act("end_command_phase")
    assert table.clock.running == first and table.used(first) == 5 * MINUTE
    table.tick(MINUTE)
    table.act("end_turn")
    table.tick(MINUTE)
    table.act("done_scoring", first)  # the opponent's Done scoring is what the game waits on now
    assert table.clock.running == second and table.used(first) == 7 * MINUTE
    table.tick(30_000)
    table.act("done_scoring", second)
    assert table.used(second) == 30_000
    if table.state.phase == Phase.DISCARDS:  # the discard step waits on the first player
        assert table.clock.running == table.state.discard_queue[0]
        table.act("discard", table.state.discard_queue[0])
    table.settle()
    assert table.state.active == second and table.clock.running == second


def test_a_decision_runs_the_time_of_the_player_it_waits_on(table: ClockTable) -> None:
    table.to_battle()
    asked = Prompt(kind=PromptKind.ALPHA_TARGETS, player=table.second, owner=table.first, card="marked-for-death")
    state = table.state.model_copy(update={"prompts": (asked,)})
    assert runner(state) == table.second
    assert runner(table.state) == table.first


def test_pausing_stops_the_clock_and_resuming_needs_the_player_who_paused(table: ClockTable) -> None:
    table.to_battle()
    first, second = table.first, table.second
    table.tick(MINUTE)
    table.act("pause_clock", second)
    assert table.clock.paused_by == second and table.used(first) == MINUTE
    assert table.clock.deadline_ms is None
    table.tick(20 * MINUTE)
    table.act("resume_clock", first)  # the other player asks; the clock stays paused
    assert table.clock.paused_by == second and table.clock.resume_asked_by == first
    table.refuse("resume_clock", first, match="already asked")
    table.tick(MINUTE)
    table.act("resume_clock", second)
    assert table.clock.paused_by is None and table.clock.since_ms == table.now
    assert table.used(first) == MINUTE  # the 21 paused minutes counted for nobody
    table.tick(2 * MINUTE)
    table.act("end_command_phase")
    assert table.used(first) == 3 * MINUTE
    table.refuse("resume_clock", first, match="not paused")


def test_time_runs_out_only_when_it_has_and_the_game_plays_on(table: ClockTable) -> None:
    table.to_battle()
    first = table.first
    table.tick(90 * MINUTE - 1)
    table.refuse("time_out", first, match="still has time")
    assert table.clock.deadline_ms == table.now + 1
    table.tick(1)
    events = table.act("time_out", first)
    assert table.clock.out == (first,) and table.clock.deadline_ms is None
    assert "time has run out. The game plays on." in table.texts(events)
    table.refuse("claim_time", table.second, match="plays on when time runs out")
    table.tick(MINUTE)
    table.act("end_command_phase")  # play on: the clock keeps counting
    assert table.clock.left_ms(first) == -MINUTE and table.state.status == Status.BATTLE


def test_with_the_claim_setting_the_opponent_may_claim_the_game(table: ClockTable) -> None:
    table = ClockTable(minutes=1, expiry="claim")
    table.to_battle()
    first, second = table.first, table.second
    table.score("primary", first, vp=5)
    table.refuse("claim_time", second, match="has not run out")
    table.tick(MINUTE)
    table.act("time_out", first)
    table.refuse("claim_time", first, match="has not run out")  # the player out of time claims nothing
    events = table.act("claim_time", second)
    result = table.state.result
    assert (result.winner, result.reason) == (second, "time") and result.vp[first] == 5  # the VP as scored
    assert "wins (on time)" in table.texts(events) and table.clock.running is None


def test_a_game_without_a_clock_refuses_clock_actions() -> None:
    table = Table()
    table.to_battle()
    table.refuse("pause_clock", P1, match="no clock")


def test_replay_and_undo_give_the_clock_back(table: ClockTable) -> None:
    table.to_battle()
    table.tick(MINUTE)
    table.act("end_command_phase")
    before_last = table.state
    table.tick(MINUTE)
    table.act("end_turn")
    assert replay(CATALOG, table.setup, table.log) == table.state
    assert replay(CATALOG, table.setup, table.log[:-1]) == before_last  # undo replays without the last action


def test_a_stamp_earlier_than_the_last_one_charges_nothing(table: ClockTable) -> None:
    table.to_battle()
    late = a.EndCommandPhase(actor=table.active, at=table.now - 5_000)
    after = apply(CATALOG, table.state, late).state
    assert after.clock.used_ms.get(table.first, 0) == 0 and after.clock.since_ms == table.now


@pytest.mark.parametrize("minutes", [0, clocks.MAX_CLOCK_MINUTES + 1])
def test_a_clock_out_of_range_is_refused(minutes: int) -> None:
    with pytest.raises(GameError, match="1 to 600 minutes"):
        clocks.new_clock(minutes, "play-on")

