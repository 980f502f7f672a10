"""When Drawn sections of the Secondary Mission cards (Tactical Missions only, Designer's Notes)."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import PromptKind, Targets
from bot.engine.errors import InvalidValue, WrongPhase

KEEP = "extend-battle-lines"
NEXT = ("secure-no-mans-land", "area-denial")


def _second_draws(make_table, top, round_=1, mission="A"):
    """The player going first is Fixed; the one going second (Tactical) holds KEEP and draws one card, the top
    of `top`, at their Command phase in battle round `round_` (the rest of `top` comes next)."""
    t = make_table(mission=mission)
    t.to_battle(first="fixed")
    if round_ > 1:
        t.end_turn()
        t.to_round(round_)
    return t, t.draw_for(t.second, top=top, keep=(KEEP,))


@pytest.mark.parametrize("card", ["defend-stronghold", "display-of-might"])
def test_mandatory_first_round_cards_are_replaced_and_shuffled_back(make_table, card):
    t = make_table()
    t.to_battle(first="fixed")
    t.rig(t.second, hand=(KEEP,), top=(card,) + NEXT)
    rest = t.player(t.second).deck[2:]
    events = t.end_turn()
    p = t.player(t.second)
    assert p.hand == (KEEP, NEXT[0]) and t.state.prompts == ()
    assert sorted(p.deck) == sorted(rest + (card,)) and card not in p.discard
    assert p.deck not in (rest + (card,), (card,) + rest)  # shuffled in, not put on the bottom or the top
    assert "in the first battle round is replaced and shuffled back" in t.texts(events)


@pytest.mark.parametrize("card", ["defend-stronghold", "display-of-might"])
def test_mandatory_first_round_cards_are_kept_from_round_2(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT, round_=2)
    assert t.player(t.second).hand == (KEEP, card)
    assert t.state.prompts == ()


@pytest.mark.parametrize("card", ["behind-enemy-lines", "storm-hostile-objective"])
def test_optional_first_round_cards_ask_the_drawer(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.owner, prompt.card) == (
        PromptKind.OPTIONAL_RESHUFFLE, t.second, t.second, card)
    assert t.player(t.second).hand == (KEEP, card)


@pytest.mark.parametrize("card", ["behind-enemy-lines", "storm-hostile-objective"])
def test_optional_first_round_card_accepted_is_replaced_and_shuffled_back(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    t.act("answer", t.second, accept=True)
    p = t.player(t.second)
    assert p.hand == (KEEP, NEXT[0])
    assert card in p.deck and card not in p.discard and t.state.prompts == ()


@pytest.mark.parametrize("card", ["behind-enemy-lines", "storm-hostile-objective"])
def test_optional_first_round_card_declined_is_kept(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    t.act("answer", t.second, accept=False)
    assert t.player(t.second).hand == (KEEP, card) and t.state.prompts == ()


@pytest.mark.parametrize("card", ["behind-enemy-lines", "storm-hostile-objective"])
def test_optional_first_round_cards_ask_nothing_from_round_2(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT, round_=2)
    assert t.state.prompts == () and t.player(t.second).hand == (KEEP, card)


@pytest.mark.parametrize("card", ["cull-the-horde", "bring-it-down", "recover-assets"])
@pytest.mark.parametrize("round_", [1, 3])
def test_condition_cards_ask_the_drawer(make_table, card, round_):
    t, _ = _second_draws(make_table, (card,) + NEXT, round_=round_)
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.card) == (PromptKind.DISCARD_IF, t.second, card)
    t.refuse("answer", t.first, match="Nothing is waiting for your answer", accept=True)


@pytest.mark.parametrize("card", ["cull-the-horde", "bring-it-down", "recover-assets"])
def test_condition_card_confirmed_is_discarded_and_replaced(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    t.act("answer", t.second, accept=True)
    p = t.player(t.second)
    assert p.hand == (KEEP, NEXT[0]) and p.discard == (card,) and card not in p.deck


@pytest.mark.parametrize("card", ["cull-the-horde", "bring-it-down", "recover-assets"])
def test_condition_card_denied_is_kept(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    t.act("answer", t.second, accept=False)
    assert t.player(t.second).hand == (KEEP, card) and t.player(t.second).discard == ()


def test_yes_no_prompt_needs_an_answer(make_table):
    t, _ = _second_draws(make_table, ("cull-the-horde",) + NEXT)
    t.refuse("answer", t.second, error=InvalidValue, match="Answer yes or no")


# ---- Marked for Death --------------------------------------------------------------------------

def test_marked_for_death_asks_the_opponent_for_alpha_targets(make_table):
    t, _ = _second_draws(make_table, ("marked-for-death",) + NEXT)
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.owner) == (PromptKind.ALPHA_TARGETS, t.first, t.second)
    t.refuse("answer", t.second, match="Nothing is waiting for your answer", units=("Boyz",))


def test_marked_for_death_more_than_three_alpha_targets_refused(make_table):
    t, _ = _second_draws(make_table, ("marked-for-death",) + NEXT)
    t.refuse("answer", t.first, error=InvalidValue, match="Name at most 3 units", units=("A", "B", "C", "D"))


def test_marked_for_death_alpha_then_gamma(make_table):
    t, _ = _second_draws(make_table, ("marked-for-death",) + NEXT)
    t.act("answer", t.first, units=("Boyz", "Nobz", "Warboss"))
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.owner) == (PromptKind.GAMMA_TARGET, t.second, t.second)
    t.refuse("answer", t.second, error=InvalidValue, match="Name at most 1 unit", units=("Gretchin", "Deff Dread"))
    t.act("answer", t.second, units=("Gretchin",))
    p = t.player(t.second)
    assert p.targets["marked-for-death"] == Targets(alpha_units=("Boyz", "Nobz", "Warboss"), gamma_unit="Gretchin")
    assert p.hand == (KEEP, "marked-for-death") and t.state.prompts == ()


def test_marked_for_death_fewer_alpha_targets_when_fewer_units(make_table):
    t, _ = _second_draws(make_table, ("marked-for-death",) + NEXT)
    t.act("answer", t.first, units=("Warboss",))
    t.act("answer", t.second, units=())
    assert t.player(t.second).targets["marked-for-death"] == Targets(alpha_units=("Warboss",))


def test_marked_for_death_without_enemy_units_is_discarded_and_replaced(make_table):
    t, _ = _second_draws(make_table, ("marked-for-death",) + NEXT)
    t.act("answer", t.first, units=())
    p = t.player(t.second)
    assert p.hand == (KEEP, NEXT[0]) and p.discard == ("marked-for-death",)
    assert "marked-for-death" not in p.targets and t.state.prompts == ()


# ---- A Tempting Target -------------------------------------------------------------------------

def test_tempting_target_asks_the_opponent_for_a_no_mans_land_objective(make_table):
    t, _ = _second_draws(make_table, ("a-tempting-target",) + NEXT)
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.owner) == (PromptKind.TEMPTING_OBJECTIVE, t.first, t.second)
    for objective in ("attacker-home", "defender-home", "nowhere", None):
        t.refuse("answer", t.first, error=InvalidValue, match="Pick one of the objective markers in No Man's Land",
                 objective=objective)
    t.act("answer", t.first, objective="nml-2")
    assert t.player(t.second).targets["a-tempting-target"] == Targets(objective="nml-2")


def test_tempting_target_cannot_be_a_removed_supply_drop_objective(make_table):
    t, _ = _second_draws(make_table, ("a-tempting-target",) + NEXT, round_=4, mission="B")
    alpha = t.state.mission.alpha_objective
    t.refuse("answer", t.first, error=InvalidValue, match="Pick one of the objective markers", objective=alpha)
    t.act("answer", t.first, objective=t.state.mission.omega_objective)


# ---- Prompts hold up the phase -----------------------------------------------------------------

@pytest.mark.parametrize("card", ["marked-for-death", "behind-enemy-lines", "cull-the-horde", "a-tempting-target"])
def test_the_command_phase_waits_for_the_prompt(make_table, card):
    t, _ = _second_draws(make_table, (card,) + NEXT)
    asked = t.state.prompts[0].player
    t.refuse("end_command_phase", t.second, error=WrongPhase,
             match=f"Waiting for {t.name(asked)} to answer about {t.catalog.secondary(card).name} first")
    t.settle()
    t.act("end_command_phase", t.second)


def test_new_orders_draw_applies_when_drawn(make_table):
    t = make_table()
    t.to_battle(first="fixed")
    t.end_turn()
    t.end_turn()
    t.end_turn()  # battle round 2, the Tactical player's Command phase
    t.rig(t.second, top=("marked-for-death",))
    t.act("new_orders", card=t.player(t.second).hand[0])
    assert [q.kind for q in t.state.prompts] == [PromptKind.ALPHA_TARGETS]


def test_when_drawn_never_applies_to_fixed_players(make_table):
    t = make_table(mission=None)
    t.to_battle(first="fixed", second="fixed", first_cards=("behind-enemy-lines", "cull-the-horde"),
                second_cards=("storm-hostile-objective", "bring-it-down"))
    for _ in range(4):  # battle rounds 1 and 2
        assert t.state.prompts == ()
        t.end_turn()
    assert t.player(t.first).hand == ("behind-enemy-lines", "cull-the-horde")
    assert t.player(t.second).hand == ("storm-hostile-objective", "bring-it-down")


def test_first_draw_of_the_battle_applies_when_drawn(make_table):
    # The opening draw happens as the choices are revealed: a seed puts Defend Stronghold on top.
    seed = make_table.find_seed(
        lambda s: make_table.deck_order(s, make_table.P1)[:3] == ("defend-stronghold", "cleanse", "sabotage")
        and make_table(seed=s).first == make_table.P1, "opening")
    t = make_table(seed=seed)
    t.to_battle(second="fixed")
    p = t.player(t.P1)
    assert p.hand[0] == "cleanse" and "defend-stronghold" not in p.hand and "defend-stronghold" in p.deck
