"""Battle flow: Command phase CP and draws, New Orders, end-of-turn discards, the end of the battle,
and who may act when (battle sequence steps 8, 14-16; core rules Command phase)."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.game import replay
from bot.engine.chapter_approved.state import Phase, Status
from bot.engine.errors import GameError, InvalidValue, NotAPlayer, NotYourTurn, WrongPhase

PLAIN = ("secure-no-mans-land", "area-denial")


def test_both_players_gain_1cp_at_every_command_phase(table):
    table.to_battle()
    seen = []
    while table.state.status == Status.BATTLE:
        seen.append((table.player(table.P1).cp, table.player(table.P2).cp))
        table.end_turn()
    assert seen == [(n, n) for n in range(1, 11)]


def test_five_rounds_with_the_same_player_first_then_the_battle_ends(table):
    table.to_battle()
    turns = []
    while table.state.status == Status.BATTLE:
        turns.append((table.state.round, table.state.turn, table.active))
        table.end_turn()
    assert turns == [(r, n, table.first if n == 1 else table.second) for r in range(1, 6) for n in (1, 2)]
    assert table.state.status == Status.ENDED and table.state.round == 5
    assert table.state.result.reason == "battle"


def test_the_action_log_replays_to_the_same_state(table):
    table.to_battle(first="fixed")
    table.end_turn()
    table.act("new_orders", card=table.player(table.second).hand[0])
    table.to_round(3)
    table.score("primary", vp=5)
    assert replay(table.catalog, table.setup, table.log) == table.state


def test_tactical_draws_two_at_the_first_command_phase(table):
    second_top = table.deck_order(table.setup.seed, table.second)[:2]
    table.to_battle()
    assert table.player(table.first).hand == table.deck_order(table.setup.seed, table.first)[:2]
    assert table.player(table.second).hand == ()  # not their Command phase yet
    table.end_turn()
    assert table.player(table.second).hand == second_top


def test_tactical_tops_up_to_two_later(table):
    table.to_battle()
    first = table.first
    table.rig(first, hand=PLAIN)
    table.to_end_of_turn()
    table.score("secondary", first, card="secure-no-mans-land", option="one-objective")
    table.end_turn()
    assert table.player(first).hand == ("area-denial",)  # achieved and discarded
    top = table.player(first).deck[0]
    table.end_turn()
    assert table.player(first).hand == ("area-denial", top)


def test_an_empty_deck_draws_nothing_and_says_so(table):
    table.to_battle()
    first = table.first
    table.set_player(first, hand=("area-denial",), deck=())
    table.end_turn()
    events = table.end_turn()
    assert table.player(first).hand == ("area-denial",)
    assert "Secondary Mission deck is empty: no more Secondary Missions" in table.texts(events)


# ---- New Orders ---------------------------------------------------------------------------------

def test_new_orders_discards_the_card_and_draws_one_for_1cp(table):
    table.to_battle()
    p = table.player(table.first)
    card, kept, top = p.hand[0], p.hand[1], p.deck[0]
    table.act("new_orders", card=card)
    p = table.player(table.first)
    assert p.cp == 0
    assert p.hand == (kept, top) and p.discard == (card,)


def test_new_orders_only_in_your_own_command_phase(table):
    table.to_battle()
    card = table.player(table.first).hand[0]
    table.refuse("new_orders", table.second, error=NotYourTurn, match="only they can use New Orders",
                 card=table.player(table.first).hand[0])
    table.act("end_command_phase")
    table.refuse("new_orders", error=WrongPhase, match="only in the Command phase", card=card)


def test_new_orders_refused_at_0cp(table):
    table.to_battle()
    table.act("spend_cp", amount=1)
    table.refuse("new_orders", match="New Orders costs 1CP and you have 0CP", card=table.player(table.first).hand[0])


def test_new_orders_once_per_phase(table):
    table.to_battle()
    table.act("gain_cp", amount=1)
    table.act("new_orders", card=table.player(table.first).hand[0])
    assert table.player(table.first).cp == 1
    table.refuse("new_orders", match="already used this phase", card=table.player(table.first).hand[0])


def test_new_orders_names_one_of_your_active_cards(table):
    table.to_battle()
    missing = next(c for c in table.ALL_CARDS if c not in table.player(table.first).hand)
    table.refuse("new_orders", error=InvalidValue, match="is not one of your active Secondary Missions", card=missing)


def test_new_orders_refused_on_an_empty_deck(table):
    table.to_battle()
    table.set_player(table.first, deck=())
    table.refuse("new_orders", match="would draw nothing", card=table.player(table.first).hand[0])


def test_new_orders_only_for_tactical(table):
    table.to_battle(first="fixed")
    table.refuse("new_orders", error=WrongPhase, match="New Orders is for Tactical Missions", card="cleanse")


# ---- End of turn: achieved cards, then discards ----------------------------------------------

def _both_hands(table, first_hand, second_hand):
    """Battle round 1, second player's turn, both Tactical with these hands."""
    table.to_battle()
    table.end_turn()
    table.rig(table.first, hand=first_hand)
    table.rig(table.second, hand=second_hand)


def test_achieved_cards_are_discarded_for_each_tactical_player_turn_player_first(table):
    _both_hands(table, ("assassination", "extend-battle-lines"), PLAIN)
    first, second = table.first, table.second
    table.to_end_of_turn()
    table.score("secondary", second, card="secure-no-mans-land", option="one-objective")
    table.score("secondary", first, card="assassination", option="characters-destroyed-this-turn")
    events = table.done_scoring()
    assert table.player(second).hand == ("area-denial",) and table.player(second).discard == ("secure-no-mans-land",)
    assert table.player(first).hand == ("extend-battle-lines",) and table.player(first).discard == ("assassination",)
    achieved = [e.text for e in events if "achieved" in e.text]
    assert achieved == [f"{table.name(second)} achieved Secure No Man’s Land: discarded.",
                        f"{table.name(first)} achieved Assassination: discarded."]
    assert table.state.phase == Phase.DISCARDS and table.state.discard_queue == (second, first)


def test_discarding_on_your_turn_gains_1cp_however_many_cards(table):
    _both_hands(table, ("assassination", "extend-battle-lines"), PLAIN)
    table.to_end_of_turn()
    table.done_scoring()
    cp = table.player(table.second).cp
    table.act("discard", table.second, cards=PLAIN)
    assert table.player(table.second).cp == cp + 1
    assert table.player(table.second).hand == () and table.player(table.second).discard == PLAIN


def test_discarding_on_the_opponents_turn_gains_nothing(table):
    _both_hands(table, ("assassination", "extend-battle-lines"), PLAIN)
    table.to_end_of_turn()
    table.done_scoring()
    table.act("discard", table.second, cards=())
    cp = table.player(table.first).cp
    events = table.act("discard", table.first, cards=("assassination",))
    assert table.player(table.first).discard == ("assassination",)
    # The last discard ends the turn: the only CP is the next Command phase's.
    assert (table.state.round, table.active, table.state.phase) == (2, table.first, Phase.COMMAND)
    assert table.player(table.first).cp == cp + 1
    assert "discarding" not in table.texts(events)


def test_discards_are_decided_turn_player_first(table):
    _both_hands(table, ("assassination", "extend-battle-lines"), PLAIN)
    table.to_end_of_turn()
    table.done_scoring()
    table.refuse("discard", table.first, error=NotYourTurn, match="decides their discards first",
                 cards=("assassination",))


def test_fixed_cards_are_never_discarded(table):
    table.to_battle(first="fixed")
    fixed = table.first
    table.refuse("new_orders", fixed, error=WrongPhase, match="Fixed Missions cannot be discarded", card="cleanse")
    table.to_end_of_turn()
    table.score("secondary", fixed, card="cleanse", option="one-cleansed")
    table.done_scoring()
    assert table.player(fixed).hand == ("cleanse", "assassination")  # scored but not achieved away
    table.end_turn()
    table.to_end_of_turn()
    table.done_scoring()
    assert table.state.discard_queue == (table.second,)  # no discard decision for the Fixed player
    table.refuse("discard", fixed, error=NotYourTurn, match="no end-of-turn discard", cards=("cleanse",))


# ---- The end of the battle ---------------------------------------------------------------------

@pytest.mark.parametrize("vp_p1, vp_p2, winner", [(12, 7, "P1"), (3, 9, "P2"), (6, 6, None)])
def test_victor_has_more_vp_else_draw(table, vp_p1, vp_p2, winner):
    table.to_battle()
    table.score("primary", table.P1, vp=vp_p1)
    table.score("primary", table.P2, vp=vp_p2)
    table.to_round(5)
    table.end_turn()
    events = table.end_turn()
    result = table.state.result
    assert result.winner == (getattr(table, winner) if winner else None)
    assert result.vp == {table.P1: vp_p1, table.P2: vp_p2}
    if winner is None:
        assert "draw" in table.texts(events)


def test_concession_makes_the_opponent_win(table):
    table.to_battle()
    table.score("primary", table.first, vp=30)
    table.act("concede", table.first)
    assert table.state.status == Status.ENDED
    assert (table.state.result.winner, table.state.result.reason) == (table.second, "concession")


def test_concession_before_the_battle_is_refused(table):
    table.choose_sides()
    table.refuse("concede", table.P1, error=WrongPhase, match="once the battle has begun")


@pytest.mark.parametrize("kind, fields", [
    ("end_command_phase", {}), ("end_turn", {}), ("score", {"source": "primary", "vp": 5}),
    ("gain_cp", {"amount": 1}), ("spend_cp", {"amount": 1}), ("concede", {}), ("new_orders", {"card": "cleanse"}),
    ("answer", {"accept": True}), ("discard", {}), ("use_challenger", {"use": "stratagem"}),
])
def test_a_third_user_cannot_act(table, kind, fields):
    table.to_battle()
    table.refuse(kind, table.OUTSIDER, error=NotAPlayer, match="Only the two players of this game", **fields)


@pytest.mark.parametrize("kind, fields", [
    ("choose_side", {"side": "attacker"}), ("battle_ready", {"ready": True}),
    ("choose_secondaries", {"mode": "tactical"}),
])
def test_a_third_user_cannot_set_up(table, kind, fields):
    table.refuse(kind, table.OUTSIDER, error=NotAPlayer, match="Only the two players of this game", **fields)


@pytest.mark.parametrize("kind, fields", [
    ("end_command_phase", {}), ("score", {"source": "primary", "vp": 5}), ("gain_cp", {"amount": 1}),
    ("concede", {}), ("battle_ready", {"ready": True}),
])
def test_nothing_after_the_end(table, kind, fields):
    table.to_battle()
    table.act("concede", table.P2)
    for player in (table.P1, table.P2):
        table.refuse(kind, player, error=WrongPhase, match="This game is over", **fields)


def test_wrong_phase_and_not_your_turn_are_refused_with_a_message(table):
    table.refuse("end_command_phase", table.P1, error=WrongPhase, match="The battle has not started")
    table.to_battle()
    table.refuse("end_command_phase", table.second, error=NotYourTurn,
                 match=f"It is {table.name(table.first)}'s turn: only they can end the Command phase")
    table.refuse("end_turn", error=WrongPhase, match="End the Command phase first")
    table.refuse("done_scoring", error=WrongPhase, match="only in the end of the turn; it is the Command phase")
    table.refuse("discard", error=WrongPhase, match="only in the end-of-turn discards")
    table.act("end_command_phase")
    table.refuse("end_command_phase", error=WrongPhase, match="only in the Command phase")
    table.refuse("done_scoring", table.second, error=WrongPhase, match="only in the end of the turn")


def test_nothing_to_answer_is_refused(table):
    table.to_battle()
    table.refuse("answer", table.second, error=GameError, match="Nothing is waiting for your answer", accept=True)


def test_supply_drop_removes_alpha_at_round_4_and_omega_at_round_5(make_table):
    t = make_table(mission="B")
    t.to_battle()
    alpha, omega = t.state.mission.alpha_objective, t.state.mission.omega_objective
    t.to_round(3)
    assert t.state.removed_objectives == ()
    t.to_round(4)
    assert t.state.removed_objectives == (alpha,)
    t.to_round(5)
    assert t.state.removed_objectives == (alpha, omega)
