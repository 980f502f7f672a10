"""Objective markers that exist on the table, and the guards against scoring slips.

Hidden Supplies moves the centre marker and adds one; The Ritual sets markers up; Supply Drop, Scorched
Earth and Denied Resources take them away. A card asking for an objective offers exactly the markers on
the table. A cumulative add-on never scores without its base in the same window.
"""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.objectives import HIDDEN_SUPPLIES_ID, table_objectives
from bot.engine.chapter_approved.state import PromptKind, Targets
from bot.engine.errors import InvalidValue, NotYourTurn, WrongPhase

TEMPTING = ("a-tempting-target", "secure-no-mans-land", "area-denial")
KEEP = "cleanse"


def _names(t) -> dict[str, str]:
    return {m.id: m.name for m in table_objectives(t.catalog, t.state, removed=True)}


def _tempting_prompt(t) -> None:
    """The player going second (Tactical) draws A Tempting Target: the player going first picks its objective."""
    t.draw_for(t.second, top=TEMPTING, keep=(KEEP,))
    (prompt,) = t.state.prompts
    assert prompt.kind == PromptKind.TEMPTING_OBJECTIVE and prompt.player == t.first


def _legacy(t) -> None:
    """Make the game a version-1 game, as stored before these checks existed."""
    t.state = t.state.model_copy(update={"setup": t.state.setup.model_copy(update={"version": 1})})


def _ritual_table(make_table):
    seed = make_table.find_seed(
        lambda s: make_table(seed=s, mission=None).state.mission.primary == "the-ritual", "ritual")
    return make_table(seed=seed, mission=None)


# ---- Hidden Supplies -----------------------------------------------------------------------------

def test_hidden_supplies_markers_are_objectives_of_the_game(make_table):
    """'players must set up one additional objective marker in No Man's Land ... first move the objective marker
    in the centre of the battlefield 6" directly towards one of the corners'."""
    t = make_table(mission="I")  # Hidden Supplies on Search and Destroy: No Man's Land touches two corners
    names = _names(t)
    assert "Centre" not in names.values()
    assert HIDDEN_SUPPLIES_ID in t.no_mans_land() and "centre" in t.no_mans_land()
    events = t.act("hidden_supplies_corner", t.P2, corner="top left")
    assert 'moves the centre marker 6" towards the top left corner' in t.texts(events)
    markers = {m.id: m for m in table_objectives(t.catalog, t.state)}
    centre, extra = markers["centre"], markers[HIDDEN_SUPPLIES_ID]
    assert centre.name == 'Centre marker, moved 6" towards the top left corner'
    assert (centre.at.x, centre.at.y) == (25.2, 18.5)  # 6" along the diagonal from (30, 22) to (0, 0)
    assert extra.name == 'Hidden Supplies marker, 6" from the centre towards the bottom right corner'
    assert (extra.at.x, extra.at.y) == (34.8, 25.5)
    assert centre.area == extra.area == "no_mans_land"


def test_a_tempting_target_can_be_the_hidden_supplies_marker(make_table):
    t = make_table(mission="I")
    t.to_battle(first="fixed")
    _tempting_prompt(t)
    t.act("answer", t.first, objective=HIDDEN_SUPPLIES_ID)
    assert t.player(t.second).targets["a-tempting-target"] == Targets(objective=HIDDEN_SUPPLIES_ID)


def test_the_hidden_supplies_corner_follows_the_card(make_table):
    t = make_table(mission="I")
    t.refuse("hidden_supplies_corner", t.P1, error=InvalidValue,
             match="The centre marker moves towards one of these corners", corner="top right")
    t.act("hidden_supplies_corner", t.P1, corner="bottom right")
    t.refuse("hidden_supplies_corner", t.P2, match="already moved towards the bottom right corner", corner="top left")
    other = make_table(mission="A")  # Take and Hold moves nothing
    other.refuse("hidden_supplies_corner", other.P1, match="Only the Hidden Supplies Primary Mission",
                 corner="top left")


def test_after_a_hidden_supplies_roll_off_only_its_winner_selects_the_corner(make_table):
    """'Otherwise, the players roll off, and the winner selects which corner the objective marker is moved towards.'"""
    t = make_table(mission="F")  # Hammer and Anvil: No Man's Land touches no corner
    winner = t.state.mission.hidden_supplies_rolloff.winner
    t.refuse("hidden_supplies_corner", t.other(winner), error=NotYourTurn, match="won the Hidden Supplies roll-off",
             corner="top left")
    t.act("hidden_supplies_corner", winner, corner="bottom left")
    assert t.state.mission.hidden_supplies_corner == "bottom left"


# ---- The Ritual ----------------------------------------------------------------------------------

def test_a_completed_ritual_sets_up_a_no_mans_land_objective(make_table):
    """'IF COMPLETED: Set up one objective marker anywhere on the battlefield wholly within No Man's Land'."""
    t = _ritual_table(make_table)
    t.to_battle(first="fixed")
    t.refuse("complete_ritual", t.first, error=WrongPhase, match="it completes at the end of your turn")
    t.to_end_of_turn()
    t.refuse("complete_ritual", t.second, error=NotYourTurn, match="only they can complete The Ritual")
    events = t.act("complete_ritual", t.first)
    assert "sets up Ritual marker 1 (" in t.texts(events)
    assert "ritual-1" in t.no_mans_land()
    t.refuse("complete_ritual", t.first, match="sets up one marker per turn")
    _tempting_prompt(t)
    t.act("answer", t.first, objective="ritual-1")
    assert t.player(t.second).targets["a-tempting-target"].objective == "ritual-1"


def test_only_the_ritual_sets_up_markers(table):
    table.to_battle()
    table.to_end_of_turn()
    table.refuse("complete_ritual", table.first, match="Only The Ritual Primary Mission")


# ---- Removed, burned and denied objectives -------------------------------------------------------

def test_a_burn_names_the_objective_and_removes_it(make_table):
    """Scorched Earth: 'IF COMPLETED: That objective marker is burned and removed from the battlefield.'"""
    t = make_table(mission="D")
    t.to_battle(first="fixed")
    t.to_round(2)
    t.refuse("score", t.first, error=InvalidValue, match="name the objective marker in No Man's Land it removes",
             source="primary", option="burn-nml")
    t.refuse("score", t.first, error=InvalidValue, match="name the objective marker in No Man's Land",
             source="primary", option="burn-nml", objective=t.home(t.second))
    t.refuse("score", t.first, error=InvalidValue, match="only when you score burning or denying",
             source="primary", option="control", count=1, objective="nml-1")
    events = t.score("primary", t.first, option="burn-nml", objective="nml-1")
    assert "No Man’s Land, top left is removed from the battlefield" in t.texts(events)
    assert t.state.removed_objectives == ("nml-1",)
    assert "nml-1" not in t.no_mans_land()
    t.refuse("score", t.second, error=InvalidValue, match="name the objective marker", source="primary",
             option="burn-nml", objective="nml-1")
    _tempting_prompt(t)
    t.refuse("answer", t.first, error=InvalidValue, match="Pick one of the objective markers", objective="nml-1")


def test_burning_in_the_enemy_zone_names_their_home_marker(make_table):
    t = make_table(mission="D")
    t.to_battle()
    t.to_round(2)
    t.refuse("score", t.first, error=InvalidValue, match="in your opponent's deployment zone", source="primary",
             option="burn-enemy-zone", objective=t.home(t.first))
    t.score("primary", t.first, option="burn-enemy-zone", objective=t.home(t.second))
    assert t.state.removed_objectives == (t.home(t.second),)


def test_a_denied_objective_is_removed(make_table):
    """Denied Resources: 'if you control that objective marker, it is denied and removed from the battlefield'."""
    seed = make_table.find_seed(lambda s: make_table(seed=s, size="asymmetric-war", mission=None)
                                .state.mission.primary == "denied-resources", "denied")
    t = make_table(seed=seed, size="asymmetric-war", mission=None)
    t.to_battle()
    t.to_round(2)
    defender = t.state.defender
    t.refuse("score", defender, error=InvalidValue, match="in your deployment zone", source="primary",
             option="deny-own-zone", objective=t.no_mans_land()[0])
    home = t.home(defender)
    t.score("primary", defender, option="deny-own-zone", objective=home)
    assert home in t.state.removed_objectives
    t.refuse("score", defender, error=InvalidValue, match="name the objective marker in your deployment zone",
             source="primary",
             option="deny-own-zone", objective=home)


def test_version_1_games_still_score_burns_without_naming_the_marker(make_table):
    t = make_table(mission="D")
    _legacy(t)
    t.to_battle()
    t.to_round(2)
    t.score("primary", t.first, option="burn-nml")
    assert t.state.removed_objectives == () and t.last_vp().awarded == 5


# ---- Cumulative add-ons need their base --------------------------------------------------------

@pytest.mark.parametrize("mission, addon, base", [
    ("I", "two-outside", "one-outside"),  # Hidden Supplies: "two objectives" after "one objective"
    ("G", "control-more", "control-one"),  # Purge the Foe: "and an additional 4VP"
    ("C", "home-others", "home"),  # Linchpin: "and 5VP for each other objective marker"
])
def test_a_primary_add_on_needs_its_base_in_the_same_window(make_table, mission, addon, base):
    t = make_table(mission=mission)
    t.to_battle()
    t.to_round(2)
    option = {o.id: o for o in t.catalog.primary(t.state.mission.primary).scoring}[addon]
    count = {"count": 1} if option.per else {}
    t.refuse("score", t.first, match="score that first, in the same window", source="primary", option=addon, **count)
    base_count = {"count": 1} if {o.id: o for o in t.catalog.primary(t.state.mission.primary).scoring}[base].per \
        else {}
    t.score("primary", t.first, option=base, **base_count)
    t.score("primary", t.first, option=addon, **count)
    t.end_turn()  # the next window: the base scored last turn does not carry an add-on now
    t.refuse("score", t.active, match="score that first", source="primary", option=addon, **count)


def test_hidden_supplies_more_objectives_than_the_opponent_needs_no_other_bullet(make_table):
    """'(these are cumulative)': they add up, but controlling more markers does not need one outside your zone."""
    t = make_table(mission="I")
    t.to_battle()
    t.to_round(2)
    t.score("primary", t.first, option="more-than-opponent")
    assert t.last_vp().awarded == 5


def test_bring_it_down_add_ons_count_against_each_destroyed_unit(make_table):
    """Fixed Bring It Down: 2VP each time a MONSTER or VEHICLE is destroyed, +2VP if 15+ Wounds, +2VP if 20+."""
    t = make_table()
    t.to_battle(first="fixed", first_cards=("bring-it-down", "cleanse"))
    card = {"source": "secondary", "card": "bring-it-down"}
    t.refuse("score", t.first, match="adds to “MONSTER/VEHICLE unit destroyed”", option="wounds-15-plus", **card)
    t.score(actor=t.first, option="monster-vehicle-destroyed", **card)
    t.refuse("score", t.first, match="adds to “+ its total Wounds were 15+”", option="wounds-20-plus", **card)
    t.score(actor=t.first, option="wounds-15-plus", **card)
    t.score(actor=t.first, option="wounds-20-plus", **card)
    # A second unit destroyed: its add-ons need a second base.
    t.refuse("score", t.first, match="score that first", option="wounds-15-plus", **card)
    t.score(actor=t.first, option="monster-vehicle-destroyed", **card)
    t.score(actor=t.first, option="wounds-15-plus", **card)
    assert [e.awarded for e in t.state.vp] == [2, 2, 2, 2, 2]


def test_version_1_games_keep_their_add_ons_as_played(make_table):
    t = make_table(mission="I")
    _legacy(t)
    t.to_battle()
    t.to_round(2)
    t.score("primary", t.first, option="two-outside")
    assert t.last_vp().awarded == 5
    linchpin = make_table(mission="C")  # an add-on within an OR group was checked in version 1 already
    _legacy(linchpin)
    linchpin.to_battle()
    linchpin.to_round(2)
    linchpin.refuse("score", linchpin.first, match="score that first", source="primary", option="home-others",
                    count=1)
