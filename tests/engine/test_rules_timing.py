"""Rules timing: information arrives at its step of the battle sequence, both players finish the
end-of-turn scoring, and an Adapt or Die swap scores from the next window.

Games stored before this timing (setup version 1) keep the timing they were played with: the last
tests here play one.
"""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Phase, Status
from bot.engine.errors import GameError, InvalidValue, NotYourTurn, WrongPhase
from bot.engine.rng import roll_off, stream_of

FIXED_PAIR = ("cleanse", "assassination")


def _adapt_or_die(make_table, **options):
    """A game with the Adapt or Die Twist whose opening Tactical draws open no prompt."""
    def good(seed: str) -> bool:
        return (all(set(make_table.deck_order(seed, p)[:4]) <= make_table.QUIET_CARDS
                    for p in (make_table.P1, make_table.P2))
                and make_table(seed=seed, mission=None, twist=True, **options).state.mission.twist == "adapt-or-die")
    return make_table(seed=make_table.find_seed(good, "timing-twist"), mission=None, twist=True, **options)


# ---- Determine First Turn: after the secondaries are revealed and both armies are deployed ---------

def test_the_first_turn_is_rolled_off_only_once_both_players_have_deployed(table):
    table.choose_sides()
    assert table.state.first is None and table.state.first_turn_rolloff is None
    assert not any("goes first" in text or "first turn" in text.lower() and "roll-off:" in text
                   for text in table.public(table.events))
    table.act("choose_secondaries", table.P1, mode="tactical")
    events = table.act("choose_secondaries", table.P2, mode="fixed", cards=FIXED_PAIR)
    assert table.state.status == Status.DEPLOYMENT and table.state.first is None
    assert "Deploy armies" in table.texts(events)

    table.act("deployment_done", table.P2)  # either player may confirm first
    assert table.state.status == Status.DEPLOYMENT and table.state.first is None
    events = table.act("deployment_done", table.P1)
    expected = roll_off(table.setup, "first-turn")
    assert table.state.status == Status.BATTLE
    assert table.state.first_turn_rolloff == expected and table.state.first == expected.winner
    assert f"{table.name(expected.winner)} takes the first turn" in "\n".join(table.public(events))
    assert (table.state.round, table.state.active) == (1, expected.winner)


def test_deployment_done_is_pressed_once_by_each_player_and_only_at_its_step(table):
    table.refuse("deployment_done", table.P1, error=WrongPhase, match="once both players' Secondary Missions")
    table.to_deployment()
    table.refuse("deployment_done", table.OUTSIDER, error=GameError, match="Only the two players")
    table.act("deployment_done", table.P1)
    table.refuse("deployment_done", table.P1, error=GameError,
                 match="already confirmed your deployment: waiting for Bob")
    table.refuse("end_command_phase", table.P1, error=WrongPhase, match="both players must confirm their deployment")
    table.act("battle_ready", table.P2, ready=True)  # still before the battle
    table.act("deployment_done", table.P2)
    table.refuse("deployment_done", table.P2, error=WrongPhase, match="Deployment is over")


@pytest.mark.parametrize("size, deploys_first", [("strike-force", "defender"), ("incursion", "defender"),
                                                 ("asymmetric-war", "attacker")])
def test_who_deploys_first(make_table, size, deploys_first):
    t = make_table(size=size, mission=None)
    t.to_deployment(attacker=t.P1)
    assert t.state.deploys_first == (t.P1 if deploys_first == "attacker" else t.P2)
    assert f"Deploy armies: {t.name(t.state.deploys_first)} sets up" in t.texts(t.events)


def test_in_asymmetric_war_the_attacker_takes_the_first_turn_without_a_roll_off(make_table):
    t = make_table(size="asymmetric-war", mission=None, seed="timing-asym")
    t.to_deployment(attacker=t.other(roll_off(t.setup, "first-turn").winner))
    assert t.state.first is None
    events = t.deploy()
    assert t.state.first == t.state.attacker and t.state.first_turn_rolloff is None
    assert "In Asymmetric War the Attacker takes the first turn." in t.texts(events)


# ---- Supply Drop: "Start of the Battle: Players randomly select ..." --------------------------------

def test_supply_drop_is_drawn_and_announced_at_the_start_of_the_battle(make_table):
    t = make_table(mission="B")  # Supply Drop
    assert t.state.mission.alpha_objective is None
    t.to_deployment()
    assert t.state.mission.alpha_objective is None
    assert not any("Alpha" in e.text for e in t.events)
    events = t.deploy()
    mission = t.state.mission
    candidates = [o.id for o in t.objectives() if o.area == "no_mans_land" and not o.centre]
    assert [mission.alpha_objective, mission.omega_objective] == stream_of(t.setup.seed, "supply-drop").sample(
        candidates, 2)
    announced = "\n".join(t.public(events))
    assert "Supply Drop, drawn at random" in announced
    assert announced.index("takes the first turn") < announced.index("Supply Drop") < announced.index("round 1")


def test_hidden_supplies_roll_off_stays_at_the_place_objective_markers_step(make_table):
    t = make_table(mission="F")  # Hammer and Anvil: No Man's Land touches no corner, so the players roll off
    assert t.state.mission.hidden_supplies_rolloff == roll_off(t.setup, "hidden-supplies")


# ---- End of the turn: both players finish their scoring -------------------------------------------

def _end_of_the_second_turn(table):
    """Round 2, turn 2, at the end of the turn: the player going first holds Defend Stronghold and
    Sabotage (they score at the end of the opponent's turn), the active player two quiet cards."""
    table.to_battle()
    table.to_turn(2, 2)
    table.rig(table.first, hand=("defend-stronghold", "sabotage"))
    table.rig(table.second, hand=("secure-no-mans-land", "area-denial"))
    table.to_end_of_turn()


def test_the_window_stays_open_until_both_players_are_done(table):
    _end_of_the_second_turn(table)
    active, opponent = table.second, table.first
    table.act("done_scoring", active)
    assert table.state.phase == Phase.END_OF_TURN and table.state.scoring_done == (active,)
    # The opponent still scores what scores at the end of their opponent's turn, and it is achieved.
    table.score("secondary", opponent, card="defend-stronghold", option="hold-home-objective")
    table.act("done_scoring", opponent)
    assert table.state.phase == Phase.DISCARDS and table.state.scoring_done == ()
    assert "defend-stronghold" in table.player(opponent).discard
    assert table.player(opponent).hand == ("sabotage",)


def test_either_player_may_finish_first(table):
    _end_of_the_second_turn(table)
    active, opponent = table.second, table.first
    table.score("secondary", opponent, card="sabotage", option="sabotage-in-enemy-zone")
    table.act("done_scoring", opponent)
    table.score("secondary", active, card="area-denial", option="centre-no-enemy-within-3")
    assert table.state.phase == Phase.END_OF_TURN
    table.act("done_scoring", active)
    assert "sabotage" in table.player(opponent).discard and "area-denial" in table.player(active).discard


def test_a_player_who_is_done_scores_nothing_more_in_that_window(table):
    _end_of_the_second_turn(table)
    opponent = table.first
    table.act("done_scoring", opponent)
    table.refuse("score", opponent, error=WrongPhase, match="You pressed Done scoring", source="secondary",
                 card="defend-stronghold", option="hold-home-objective")
    table.refuse("score", opponent, error=WrongPhase, match="You pressed Done scoring", source="primary", vp=3)
    table.refuse("done_scoring", opponent, error=GameError, match="already finished scoring this turn")


def test_nobody_scores_in_the_discard_step(table):
    _end_of_the_second_turn(table)
    table.done_scoring()
    assert table.state.phase == Phase.DISCARDS
    for player in (table.first, table.second):
        table.refuse("score", player, error=WrongPhase, match="end-of-turn scoring is over", source="primary", vp=1)


# ---- Adapt or Die, Fixed: after scoring, and the new card scores from the next window ---------------

def test_the_fixed_swap_waits_until_scoring_is_over_and_the_new_card_scores_from_the_next_window(make_table):
    t = _adapt_or_die(make_table)
    t.to_battle(first="fixed", first_cards=FIXED_PAIR)
    t.to_turn(2, 1)  # the Tactical opponent holds cards: their discards follow the swap
    t.to_end_of_turn()
    swap = dict(card="cleanse", replacement="no-prisoners")
    t.refuse("adapt_swap", error=WrongPhase, match="once both players have finished scoring", **swap)
    t.act("done_scoring")
    t.refuse("adapt_swap", error=WrongPhase, match="once both players have finished scoring", **swap)
    t.act("done_scoring", t.second)
    assert t.state.discard_queue == (t.first, t.second)
    t.act("adapt_swap", **swap)
    assert t.player(t.first).hand == ("no-prisoners", "assassination")
    t.refuse("score", t.first, error=WrongPhase, match="end-of-turn scoring is over", source="secondary",
             card="no-prisoners", option="unit-destroyed-fixed")
    t.act("discard", t.second, cards=())
    assert (t.active, t.state.phase) == (t.second, Phase.COMMAND)
    t.score("secondary", t.first, card="no-prisoners", option="unit-destroyed-fixed")  # from the next window
    assert t.last_vp().awarded == 2


def test_without_a_swap_left_the_fixed_player_has_no_discard_decision(make_table):
    t = _adapt_or_die(make_table)
    t.to_battle(first="fixed", second="fixed", first_cards=FIXED_PAIR)
    t.to_end_of_turn()
    t.done_scoring()
    t.refuse("discard", error=InvalidValue, match="Fixed Missions cannot be discarded", cards=("cleanse",))
    t.act("adapt_swap", card="cleanse", replacement="no-prisoners")
    t.end_turn()  # Bob keeps his cards in his own discard step
    t.to_end_of_turn()
    t.done_scoring()
    assert t.state.discard_queue == ()  # Alice's swap is used: the turn went on
    assert (t.state.round, t.active) == (2, t.second)


# ---- Games stored before this timing (setup version 1) replay as they were played -----------------

def test_version_1_games_keep_the_timing_they_were_played_with(make_table):
    t = make_table(mission="B", version=1)
    rolloff = t.state.first_turn_rolloff
    assert rolloff == roll_off(t.setup, "first-turn")  # drawn at creation
    assert t.state.mission.alpha_objective is not None  # Supply Drop drawn at creation
    t.choose_sides()
    assert t.state.first == rolloff.winner  # and announced with the sides
    t.act("choose_secondaries", t.first, mode="tactical")
    t.act("choose_secondaries", t.second, mode="tactical")
    assert t.state.status == Status.BATTLE and t.state.deployed == ()  # no deployment step
    t.refuse("deployment_done", t.first, error=WrongPhase, match="Deployment is over")
    t.to_end_of_turn()
    t.refuse("done_scoring", t.second, error=NotYourTurn, match="only they can close the end-of-turn scoring")
    t.act("done_scoring")  # one press by the player whose turn it is closes the window for both
    assert t.state.phase == Phase.DISCARDS and t.state.scoring_done == ()


def test_version_1_fixed_swap_stays_in_the_end_of_turn_window(make_table):
    t = _adapt_or_die(make_table, version=1)
    t.to_battle(first="fixed", first_cards=FIXED_PAIR)
    t.to_end_of_turn()
    t.act("adapt_swap", card="cleanse", replacement="no-prisoners")
    t.score("secondary", t.first, card="no-prisoners", option="unit-destroyed-fixed")  # as it was played
    t.act("done_scoring")
    assert t.active == t.second
