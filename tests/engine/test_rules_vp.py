"""Victory points: the caps of the "Determine Victor" table (excess kept as lost), Battle Ready, and the
scoring windows, alternatives, repeats, modes and counts printed on the cards."""

from __future__ import annotations

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.scoring import hand_totals
from bot.engine.chapter_approved.state import Source, Status
from bot.engine.errors import InvalidValue, WrongPhase


def _turn_end(table, first_hand=None, second_hand=None):
    """Battle round 1, the second player's turn, at its end-of-turn scoring window, with rigged hands."""
    table.to_battle()
    table.end_turn()
    if first_hand:
        table.rig(table.first, hand=first_hand)
    if second_hand:
        table.rig(table.second, hand=second_hand)
    table.to_end_of_turn()


def _assert_capped(entry, claimed, awarded, cap):
    assert (entry.claimed, entry.awarded, entry.lost) == (claimed, awarded, claimed - awarded)
    assert entry.capped_by == cap


# ---- Caps ---------------------------------------------------------------------------------------

def test_primary_is_capped_at_50(table):
    table.to_battle()
    first = table.first
    for round_ in (2, 3, 4, 5):
        table.to_round(round_)
        table.score("primary", first, option="control", count=3)
    _assert_capped(table.last_vp(), 15, 5, "50VP from the Primary Mission")
    assert table.state.total_vp(first) == 50
    assert "10VP lost to the cap of 50VP from the Primary Mission" in table.texts(table.events[-1:])


# The caps are reached below by large entries typed by hand, which a version-2 setup takes as entered (from
# version 3 a card's hand entry must be a total of its options: test_hand_entries_are_totals_of_the_cards_options).
V2 = 2


def test_secondaries_are_capped_at_40(make_table):
    table = make_table(version=V2)
    _turn_end(table, second_hand=("sabotage", "area-denial"))
    table.score("secondary", table.second, card="sabotage", vp=25)
    table.score("secondary", table.second, card="area-denial", vp=20)
    _assert_capped(table.last_vp(), 20, 15, "40VP from Secondary Missions")


def test_each_fixed_card_is_capped_at_20(make_table):
    t = make_table()
    t.to_battle(first="fixed", first_cards=("assassination", "cleanse"))
    for _ in range(5):
        t.score("secondary", t.first, card="assassination", option="character-w4-plus")
    assert t.state.total_vp(t.first) == 20
    t.score("secondary", t.first, card="assassination", option="character-w4-plus")
    _assert_capped(t.last_vp(), 4, 0, "20VP per Fixed Mission card")
    t.to_end_of_turn()
    t.score("secondary", t.first, card="cleanse", option="one-cleansed")  # the other card has its own 20VP
    assert t.last_vp().awarded == 2


def test_tactical_cards_have_no_per_card_cap(make_table):
    table = make_table(version=V2)
    _turn_end(table, second_hand=("sabotage", "area-denial"))
    table.score("secondary", table.second, card="sabotage", vp=30)
    assert table.last_vp().awarded == 30


@pytest.mark.parametrize("mode, option", [("tactical", "unit-destroyed-tactical"), ("fixed", "unit-destroyed-fixed")])
def test_no_prisoners_2vp_up_to_5vp_per_turn(make_table, mode, option):
    t = make_table(mission=None)
    t.to_battle(first=mode, first_cards=("no-prisoners", "cleanse"))
    if mode == "tactical":
        t.rig(t.first, hand=("no-prisoners", "cleanse"))
    for _ in range(2):
        t.score("secondary", t.first, card="no-prisoners", option=option)
        assert t.last_vp().awarded == 2
    t.score("secondary", t.first, card="no-prisoners", option=option)
    _assert_capped(t.last_vp(), 2, 1, "“Enemy unit destroyed” up to 5VP per turn" if mode == "tactical"
                   else "“Bodyguard/non-CHARACTER unit destroyed” up to 5VP per turn")
    t.score("secondary", t.first, card="no-prisoners", option=option)
    assert (t.last_vp().awarded, t.last_vp().lost) == (0, 2)
    if mode == "fixed":  # a new turn, a new 5VP (a Tactical card would have been achieved and discarded)
        t.end_turn()
        t.score("secondary", t.first, card="no-prisoners", option=option)
        assert t.last_vp().awarded == 2


def test_primary_up_to_per_turn(table):
    table.to_battle()
    table.to_round(2)
    table.score("primary", table.first, option="control", count=4)
    _assert_capped(table.last_vp(), 20, 15, "“5VP each objective (max 15)” up to 15VP per turn")


def _challenger_mission(table, player):
    """Score the held Challenger card's Mission at the end of the player's turn (3VP on every card)."""
    card = table.catalog.challenger(table.player(player).challenger_card)
    option = card.mission.scoring[0]
    table.score("challenger", player, option=option.id, count=3 if option.per else None)


def test_challenger_cards_are_capped_at_12(make_table):
    table = make_table(version=V2)
    table.to_battle()
    table.score("primary", table.first, vp=30)
    table.to_turn(2, 2)  # the player going second trails by 30: the Challenger, holding a card
    table.score("challenger", table.second, vp=10)
    table.to_turn(3, 2)
    table.to_end_of_turn()
    _challenger_mission(table, table.second)
    _assert_capped(table.last_vp(), 3, 2, "12VP from Challenger cards")


def test_primary_secondary_and_challenger_are_capped_at_90_then_battle_ready_makes_100(make_table):
    t = make_table(version=V2)
    t.choose_sides()
    t.act("battle_ready", t.second, ready=True)
    for player in (t.first, t.second):
        t.act("choose_secondaries", player, mode="tactical")
    t.deploy()
    t.score("primary", t.first, vp=50)
    t.to_turn(2, 2)
    t.score("challenger", t.second, vp=12)
    t.score("primary", t.second, vp=50)
    t.rig(t.second, hand=("sabotage", "area-denial"))
    t.score("secondary", t.second, card="sabotage", vp=20)
    t.score("secondary", t.second, card="area-denial", vp=20)
    _assert_capped(t.last_vp(), 20, 8, "90VP from Primary, Secondary and Challenger combined")
    assert t.state.total_vp(t.second) == 90
    assert not any(e.source == Source.BATTLE_READY for e in t.state.vp)  # only at the end of the battle
    t.to_round(5)
    t.end_turn()
    t.end_turn()
    assert t.state.status == Status.ENDED
    (ready,) = [e for e in t.state.vp if e.source == Source.BATTLE_READY]
    assert (ready.player, ready.awarded, ready.capped_by) == (t.second, 10, None)
    assert t.state.total_vp(t.second) == 100 and t.state.result.vp[t.second] == 100
    assert t.state.total_vp(t.first) == 50  # not Battle Ready: no 10VP


def test_battle_ready_is_declared_before_the_battle_and_never_scored_by_hand(table):
    table.act("battle_ready", table.P1, ready=True)
    table.act("battle_ready", table.P1, ready=False)
    assert table.player(table.P1).battle_ready is False
    table.to_battle()
    table.refuse("battle_ready", table.P1, error=WrongPhase, match="declared before the battle begins", ready=True)
    table.refuse("score", error=InvalidValue, match="Battle Ready VP are added at the end of the battle",
                 source="battle_ready", vp=10)


@pytest.mark.parametrize("vp", [0, -5, 51, None])
def test_manual_vp_out_of_range_is_refused(table, vp):
    table.to_battle()
    table.refuse("score", error=InvalidValue, match="Give the VP to record, from 1 to 50", source="primary", vp=vp)


# ---- Scoring windows ---------------------------------------------------------------------------

def test_second_battle_round_onwards_is_refused_in_round_1(table):
    table.to_battle()
    table.refuse("score", error=WrongPhase, match="scores from battle round 2 onwards", source="primary",
                 option="control", count=1)


def test_primary_scores_at_the_end_of_the_command_phase_for_the_active_player_only(table):
    table.to_battle()
    table.to_round(2)
    table.refuse("score", table.second, error=WrongPhase, match="Only the player whose turn it is scores this",
                 source="primary", option="control", count=1)
    table.score("primary", table.first, option="control", count=2)
    assert table.last_vp().awarded == 10
    table.act("end_command_phase")
    table.refuse("score", error=WrongPhase, match="This scores at the end of your Command phase", source="primary",
                 option="control", count=1)


def test_round_5_player_going_second_scores_primary_at_the_end_of_their_turn(table):
    table.to_battle()
    table.to_round(5)
    table.score("primary", table.first, option="control", count=1)  # going first: the Command phase as usual
    table.to_end_of_turn()
    table.refuse("score", table.first, error=WrongPhase, match="This scores at the end of your Command phase",
                 source="primary", option="control", count=1)
    table.end_turn()
    table.refuse("score", table.second, error=WrongPhase,
                 match="In the fifth battle round the player going second scores this at the end of their turn",
                 source="primary", option="control", count=1)
    table.to_end_of_turn()
    table.score("primary", table.second, option="control", count=1)
    assert (table.last_vp().round, table.last_vp().turn, table.last_vp().awarded) == (5, 2, 5)


def test_end_of_your_turn_window(table):
    table.to_battle()
    table.end_turn()
    table.rig(table.first, hand=("secure-no-mans-land", "area-denial"))
    table.rig(table.second, hand=("secure-no-mans-land", "extend-battle-lines"))
    table.act("end_command_phase")
    table.refuse("score", table.second, error=WrongPhase, match="This scores at the end of your turn: press End turn",
                 source="secondary", card="secure-no-mans-land", option="one-objective")
    table.act("end_turn")
    table.refuse("score", table.first, error=WrongPhase, match="This scores at the end of your turn",
                 source="secondary", card="secure-no-mans-land", option="one-objective")
    table.score("secondary", table.second, card="secure-no-mans-land", option="one-objective")
    assert table.last_vp().awarded == 2


def test_end_of_opponents_turn_window_and_the_end_of_the_battle(table):
    table.to_battle()
    table.end_turn()
    table.rig(table.first, hand=("sabotage", "area-denial"))
    table.rig(table.second, hand=("sabotage", "extend-battle-lines"))
    table.to_end_of_turn()
    table.refuse("score", table.second, error=WrongPhase, match="This scores at the end of your opponent's turn",
                 source="secondary", card="sabotage", option="sabotage-in-enemy-zone")
    table.score("secondary", table.first, card="sabotage", option="sabotage-in-enemy-zone")
    assert table.last_vp().awarded == 6
    # "... or the end of the battle": the player going second scores it at the end of their own last turn.
    table.to_turn(5, 2)
    table.to_end_of_turn()
    table.score("secondary", table.second, card="sabotage", option="sabotage-outside-enemy-zone")
    assert (table.last_vp().round, table.last_vp().awarded) == (5, 3)


def test_defend_stronghold_scores_from_round_2(table):
    table.to_battle()
    table.end_turn()
    table.rig(table.first, hand=("defend-stronghold", "area-denial"))
    table.to_end_of_turn()
    table.refuse("score", table.first, error=WrongPhase, match="scores from battle round 2 onwards",
                 source="secondary", card="defend-stronghold", option="hold-home-objective")
    table.to_turn(2, 2)
    table.to_end_of_turn()
    table.score("secondary", table.first, card="defend-stronghold", option="hold-home-objective")
    assert table.last_vp().awarded == 3


def test_end_of_either_turn_window(table):
    table.to_battle()
    table.end_turn()
    table.rig(table.first, hand=("marked-for-death", "area-denial"))
    table.rig(table.second, hand=("marked-for-death", "extend-battle-lines"))
    table.act("end_command_phase")
    table.refuse("score", table.first, error=WrongPhase, match="This scores at the end of a turn",
                 source="secondary", card="marked-for-death", option="alpha-destroyed")
    table.act("end_turn")
    table.score("secondary", table.first, card="marked-for-death", option="alpha-destroyed")
    table.score("secondary", table.second, card="marked-for-death", option="gamma-destroyed")
    assert [e.awarded for e in table.state.vp] == [5, 2]


def test_end_of_battle_round_window(make_table):
    t = make_table(mission="G")  # Purge the Foe
    t.to_battle()
    t.to_end_of_turn()
    t.refuse("score", t.first, error=WrongPhase, match="This scores at the end of the battle round",
             source="primary", option="enemy-destroyed")
    t.end_turn()
    t.to_end_of_turn()
    t.refuse("score", t.first, error=WrongPhase, match="scores from battle round 2 onwards", source="primary",
             option="more-destroyed")
    t.score("primary", t.first, option="enemy-destroyed")  # each player, in either player's turn
    t.score("primary", t.second, option="enemy-destroyed")
    assert [(e.player, e.awarded) for e in t.state.vp] == [(t.first, 4), (t.second, 4)]


def test_any_time_window_from_round_2(make_table):
    t = make_table(mission="D")  # Scorched Earth: burning scores whenever it happens
    t.to_battle()
    t.refuse("score", t.second, error=WrongPhase, match="scores from battle round 2 onwards", source="primary",
             option="burn-nml")
    t.to_round(2)
    t.act("end_command_phase")
    t.score("primary", t.second, option="burn-enemy-zone", objective=t.home(t.first))
    t.score("primary", t.first, option="burn-nml", objective="nml-1")
    t.score("primary", t.first, option="burn-nml", objective="nml-2")  # 'each time': a second burn in the same turn
    assert [e.awarded for e in t.state.vp] == [10, 5, 5]


def _asymmetric(make_table, primary):
    seed = make_table.find_seed(
        lambda s: make_table(seed=s, size="asymmetric-war", mission=None).state.mission.primary == primary, primary)
    t = make_table(seed=seed, size="asymmetric-war", mission=None)
    t.to_battle()
    return t


def test_attacker_only_and_defender_only_options(make_table):
    t = _asymmetric(make_table, "syphoned-power")
    t.refuse("score", t.state.defender, error=WrongPhase, match="Only the Attacker scores this", source="primary",
             option="syphon-nml")
    t.score("primary", t.state.attacker, option="syphon-nml")
    d = _asymmetric(make_table, "denied-resources")
    d.to_round(2)
    d.refuse("score", d.state.attacker, error=WrongPhase, match="Only the Defender scores this", source="primary",
             option="deny-nml")
    d.score("primary", d.state.defender, option="deny-nml", objective=d.no_mans_land()[0])
    assert d.last_vp().awarded == 10


def test_syphoned_power_gives_the_defender_50vp_at_the_start(make_table):
    t = _asymmetric(make_table, "syphoned-power")
    (entry,) = t.state.vp
    assert (entry.player, entry.source, entry.option, entry.awarded) == (
        t.state.defender, Source.PRIMARY, "defender-start", 50)
    assert t.state.total_vp(t.state.attacker) == 0
    t.refuse("score", t.state.defender, error=WrongPhase, match="scored automatically at the start of the battle",
             source="primary", option="defender-start")


# ---- Alternatives, repeats, modes and counts ---------------------------------------------------

def test_or_alternatives_exclude_each_other_within_a_turn(table):
    _turn_end(table, second_hand=("secure-no-mans-land", "area-denial"))
    table.score("secondary", table.second, card="secure-no-mans-land", option="one-objective")
    table.refuse("score", table.second, match="You already scored “One No Man’s Land objective” this turn: it is one "
                 "or the other", source="secondary", card="secure-no-mans-land", option="two-or-more-objectives")


def test_cumulative_options_add_to_their_alternative(make_table):
    t = make_table(mission="C")  # Linchpin
    t.to_battle()
    t.to_round(2)
    t.score("primary", t.first, option="home")
    t.score("primary", t.first, option="home-others", count=2)
    t.refuse("score", t.first, match="it is one or the other", source="primary", option="without-home", count=1)
    assert [e.awarded for e in t.state.vp] == [3, 10]


def test_an_option_scores_once_per_turn(table):
    _turn_end(table, second_hand=("secure-no-mans-land", "area-denial"))
    table.score("secondary", table.second, card="secure-no-mans-land", option="one-objective")
    table.refuse("score", table.second, match="You already scored “One No Man’s Land objective” this turn",
                 source="secondary", card="secure-no-mans-land", option="one-objective")


def test_each_time_options_repeat_within_a_turn(make_table):
    t = make_table()
    t.to_battle(first="fixed", first_cards=("assassination", "cleanse"))
    t.score("secondary", t.first, card="assassination", option="character-w4-plus")
    t.score("secondary", t.first, card="assassination", option="character-w4-plus")
    t.score("secondary", t.first, card="assassination", option="character-under-w4")
    assert [e.awarded for e in t.state.vp] == [4, 4, 3]


def test_the_same_option_scores_again_next_turn(make_table):
    t = make_table()
    t.to_battle(first="fixed", first_cards=("assassination", "cleanse"))
    for _ in range(2):
        t.to_end_of_turn()
        t.score("secondary", t.first, card="cleanse", option="one-cleansed")
        t.end_turn()
        t.end_turn()
    assert [(e.round, e.awarded) for e in t.state.vp] == [(1, 2), (2, 2)]


@pytest.mark.parametrize("mode, option, vp", [("fixed", "two-or-more-cleansed-fixed", 4),
                                              ("tactical", "two-or-more-cleansed-tactical", 5)])
def test_cleanse_two_or_more_scores_by_mode(make_table, mode, option, vp):
    t = make_table()
    t.to_battle(first=mode, first_cards=("cleanse", "assassination"))
    if mode == "tactical":
        t.rig(t.first, hand=("cleanse", "assassination"))
    t.to_end_of_turn()
    other = "two-or-more-cleansed-tactical" if mode == "fixed" else "two-or-more-cleansed-fixed"
    t.refuse("score", t.first, error=InvalidValue, match=f"Cleanse has no scoring option '{other}' for you",
             source="secondary", card="cleanse", option=other)
    t.score("secondary", t.first, card="cleanse", option=option)
    assert t.last_vp().awarded == vp


def test_assassination_options_by_mode(make_table):
    t = make_table()
    t.to_battle(first="tactical")
    t.rig(t.first, hand=("assassination", "cleanse"))
    t.refuse("score", t.first, error=InvalidValue, match="has no scoring option 'character-w4-plus' for you",
             source="secondary", card="assassination", option="character-w4-plus")
    t.to_end_of_turn()
    t.score("secondary", t.first, card="assassination", option="characters-destroyed-this-turn")
    assert t.last_vp().awarded == 5


def test_per_item_options_need_a_count(table):
    table.to_battle()
    table.to_round(2)
    table.refuse("score", error=InvalidValue, match="Say how many (objective marker) you score for, from 0 to 20",
                 source="primary", option="control")
    table.refuse("score", error=InvalidValue, match="from 0 to 20", source="primary", option="control", count=21)
    table.refuse("score", error=InvalidValue, match="“5VP each objective (max 15)” is worth 10VP here, not 12VP",
                 source="primary", option="control", count=2, vp=12)
    table.score("primary", option="control", count=2, vp=10)
    assert table.last_vp().awarded == 10


def test_options_not_counted_per_item_refuse_a_count(make_table):
    t = make_table(mission="G")
    t.to_battle()
    t.end_turn()
    t.to_end_of_turn()
    t.refuse("score", t.first, error=InvalidValue, match="is not counted per item: leave the count out",
             source="primary", option="enemy-destroyed", count=2)


@pytest.mark.parametrize("round_, per_objective", [(2, 5), (3, 5), (4, 8), (5, 15)])
def test_supply_drop_vp_by_round(make_table, round_, per_objective):
    t = make_table(mission="B")
    t.to_battle()
    t.to_round(round_)
    t.score("primary", t.first, option="control-nml", count=2)
    assert t.last_vp().claimed == 2 * per_objective


def test_scoring_a_card_you_do_not_hold_is_refused(table):
    table.to_battle()
    missing = next(c for c in table.ALL_CARDS if c not in table.player(table.first).hand)
    name = table.catalog.secondary(missing).name
    table.refuse("score", error=InvalidValue, match=f"{name} is not one of your active Secondary Missions",
                 source="secondary", card=missing, vp=3)
    table.refuse("score", error=InvalidValue, match="Name the Secondary Mission card", source="secondary", vp=3)
    table.refuse("score", error=InvalidValue, match="has no scoring option 'nope'", source="primary", option="nope")


def test_scoring_is_refused_before_the_battle(table):
    table.choose_sides()
    table.refuse("score", table.P1, error=WrongPhase, match="The battle has not started", source="primary", vp=5)


def test_cumulative_option_belongs_to_its_own_alternative(make_table):
    """Linchpin: 'OR if ... controls the objective marker in their deployment zone, ... and 5VP for each other':
    the +5VP belongs to the 'home held' alternative, so it cannot be added to 'home not held'."""
    t = make_table(mission="C")
    t.to_battle()
    t.to_round(2)
    t.score("primary", t.first, option="without-home", count=2)
    t.refuse("score", t.first, match="it is one or the other", source="primary", option="home-others", count=1)


def test_card_wide_up_to_limit_covers_every_bullet(make_table):
    """Uneven Ground: 'scores VP as follows (up to 15VP per turn): • 2VP ... • 4VP ... • 6VP ...'."""
    t = _asymmetric(make_table, "uneven-ground")
    t.to_round(2)
    t.score("primary", t.first, option="nml", count=3)  # 12VP
    t.score("primary", t.first, option="enemy-zone", count=1)  # 6VP more: only 3VP fit under 15VP this turn
    assert t.last_vp().awarded == 3 and t.last_vp().lost == 3
    assert t.state.total_vp(t.first) == 15


def test_syphoned_power_the_defender_loses_what_the_attacker_syphons(make_table):
    """Syphoned Power: 'Each time you syphon an objective marker, the Defender loses VP (to a minimum of 0) and
    you score the same amount of VP'."""
    t = _asymmetric(make_table, "syphoned-power")
    t.to_round(2)
    t.score("primary", t.state.attacker, option="syphon-enemy-zone")
    assert t.state.total_vp(t.state.attacker) == 5
    assert t.state.total_vp(t.state.defender) == 45


def test_hand_entries_are_totals_of_the_cards_options(make_table):
    t = make_table()
    _turn_end(t, second_hand=("sabotage", "area-denial"))
    t.refuse("score", t.second, error=InvalidValue, match="Sabotage cannot give 25VP in one entry: its options are",
             source="secondary", card="sabotage", vp=25)
    assert t.state.total_vp(t.second) == 0  # nothing recorded
    t.score("secondary", t.second, card="sabotage", vp=6)  # one option
    t.score("secondary", t.second, card="area-denial", vp=t.catalog.secondary("area-denial").scoring[0].vp)
    assert t.state.total_vp(t.second) == 6 + t.catalog.secondary("area-denial").scoring[0].vp


def test_hand_totals_count_items_up_to_the_limit():
    no_prisoners = default_catalog().secondary("no-prisoners").scoring
    tactical = tuple(o for o in no_prisoners if o.mode in ("both", "tactical"))
    assert {2, 4} <= hand_totals(tactical) and 20 not in hand_totals(tactical)
