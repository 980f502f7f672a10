"""Command points (core rules, Command phase): never negative, and outside the Command phase's own 1CP
a player gains at most 1CP per battle round, whatever the source."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Phase
from bot.engine.errors import GameError, InvalidValue, WrongPhase


def test_spending_more_than_you_have_is_refused(table):
    table.to_battle()
    assert table.player(table.first).cp == 1
    table.refuse("spend_cp", error=GameError, match="You have 1CP: you cannot spend 2CP", amount=2)
    table.act("spend_cp", amount=1)
    assert table.player(table.first).cp == 0
    table.refuse("spend_cp", error=GameError, match="You have 0CP: you cannot spend 1CP", amount=1)


def test_either_player_spends_their_own_cp(table):
    table.to_battle()
    table.act("spend_cp", table.second, amount=1, reason="Command Re-roll")
    assert (table.player(table.first).cp, table.player(table.second).cp) == (1, 0)


def test_at_most_1cp_per_battle_round_from_other_sources(table):
    table.to_battle()
    table.act("gain_cp", amount=1)
    assert table.player(table.first).cp == 2
    table.refuse("gain_cp", match="at most 1CP per battle round, already gained this round", amount=1)
    table.end_turn()  # the opponent's turn is the same battle round
    table.refuse("gain_cp", table.first, match="already gained this round", amount=1)


def test_more_than_1cp_at_once_is_refused(table):
    table.to_battle()
    table.refuse("gain_cp", match="cannot gain 2CP", amount=2)


def test_the_limit_is_per_player(table):
    table.to_battle()
    table.act("gain_cp", table.first, amount=1)
    table.act("gain_cp", table.second, amount=1)
    assert (table.player(table.first).cp, table.player(table.second).cp) == (2, 2)


def test_command_phase_cp_does_not_count_towards_the_limit(table):
    table.to_battle()
    table.act("gain_cp", amount=1)
    table.end_turn()  # the next Command phase still gives both players 1CP
    assert table.player(table.first).cp == 3


def test_a_new_battle_round_resets_the_limit(table):
    table.to_battle()
    table.act("gain_cp", amount=1)
    table.to_round(2)
    table.act("gain_cp", table.first, amount=1)
    assert table.player(table.first).cp == 5  # 3 Command phases + 1 in each round


def test_discard_cp_after_another_gain_in_the_round_is_not_granted_and_says_so(table):
    table.to_battle()
    table.end_turn()
    second = table.second  # on their turn, with the player going first still to decide after them
    table.act("gain_cp", amount=1)
    table.to_end_of_turn()
    table.done_scoring()
    cp = table.player(second).cp
    events = table.act("discard", second, cards=(table.player(second).hand[0],))
    assert table.state.discard_queue == (table.first,)
    assert table.player(second).cp == cp
    assert "cannot gain 1CP from discarding Secondary Missions" in table.texts(events)
    assert len(table.player(second).discard) == 1  # the discard itself still happens


def test_discard_cp_uses_up_the_rounds_limit(table):
    table.to_battle()
    table.to_end_of_turn()
    table.done_scoring()
    table.act("discard", table.first, cards=(table.player(table.first).hand[0],))
    assert table.state.phase == Phase.COMMAND and table.active == table.second
    table.refuse("gain_cp", table.first, match="already gained this round", amount=1)


@pytest.mark.parametrize("kind", ["spend_cp", "gain_cp"])
@pytest.mark.parametrize("amount", [0, -1, 11, 1000])
def test_amounts_out_of_range_are_refused(table, kind, amount):
    table.to_battle()
    table.refuse(kind, error=InvalidValue, match="CP amounts go from 1 to 10", amount=amount)


@pytest.mark.parametrize("kind", ["spend_cp", "gain_cp"])
def test_overlong_reason_is_refused(table, kind):
    table.to_battle()
    table.refuse(kind, error=InvalidValue, match="Keep the reason under 200 characters", amount=1, reason="x" * 201)


@pytest.mark.parametrize("kind", ["spend_cp", "gain_cp"])
def test_no_cp_before_the_battle(table, kind):
    table.choose_sides()
    table.refuse(kind, table.P1, error=WrongPhase, match="The battle has not started", amount=1)
