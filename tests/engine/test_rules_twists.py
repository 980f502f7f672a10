"""The Adapt or Die Twist: Tactical players twice per battle, Fixed players once per battle."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import PromptKind
from bot.engine.errors import GameError, InvalidValue, NotYourTurn, WrongPhase

_SEEDS: dict[bool, str] = {}


def _twist_table(make_table, adapt_or_die=True):
    """A game with Adapt or Die (or another Twist) whose opening Tactical draws open no prompt."""
    def good(seed: str) -> bool:
        if not all(set(make_table.deck_order(seed, p)[:4]) <= make_table.QUIET_CARDS
                   for p in (make_table.P1, make_table.P2)):
            return False
        twist = make_table(seed=seed, mission=None, twist=True).state.mission.twist
        return (twist == "adapt-or-die") == adapt_or_die

    if adapt_or_die not in _SEEDS:
        _SEEDS[adapt_or_die] = make_table.find_seed(good, "twist")
    t = make_table(seed=_SEEDS[adapt_or_die], mission=None, twist=True)
    assert (t.state.mission.twist == "adapt-or-die") == adapt_or_die
    return t


# ---- Tactical: twice per battle, after drawing a card --------------------------------------------

def test_tactical_draws_another_and_shuffles_one_back(make_table):
    t = _twist_table(make_table)
    t.to_battle()
    c1, c2 = t.player(t.first).hand
    other = t.player(t.first).deck[0]
    t.act("adapt_draw", card=c1)
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.card, prompt.other_card) == (PromptKind.ADAPT_KEEP, t.first, c1, other)
    t.refuse("end_command_phase", error=WrongPhase, match="Waiting for")
    t.refuse("adapt_draw", error=WrongPhase, match="Waiting for", card=c2)
    t.refuse("answer", error=InvalidValue, match="Keep either", keep="not-a-drawn-card")
    for card in (c1, other):  # neither card is active until the choice is made
        t.refuse("score", error=WrongPhase, match="decide which of the two cards", source="secondary",
                 card=card, vp=2)
    t.act("answer", keep=other)
    p = t.player(t.first)
    assert p.hand == (c2, other) and c1 in p.deck and len(p.deck) == 17 and p.adapt_or_die_uses == 1


def test_tactical_twice_per_battle_third_refused(make_table):
    t = _twist_table(make_table)
    t.to_battle()
    c1, c2 = t.player(t.first).hand
    for card in (c1, c2):
        t.act("adapt_draw", card=card)
        t.act("answer", keep=card)
    assert t.player(t.first).hand == (c1, c2) and t.player(t.first).adapt_or_die_uses == 2
    t.refuse("adapt_draw", match="used twice per battle at most", card=c1)
    t.end_turn()
    t.act("adapt_draw", card=t.player(t.second).hand[0])  # the other player has their own two
    assert t.player(t.second).adapt_or_die_uses == 1


def test_tactical_only_right_after_drawing(make_table):
    t = _twist_table(make_table)
    t.to_battle()
    card = t.player(t.first).hand[0]
    t.act("end_command_phase")
    t.refuse("adapt_draw", error=InvalidValue, match="follows a card you have just drawn this phase", card=card)


def test_keeping_the_new_card_applies_its_when_drawn(make_table):
    t = _twist_table(make_table)
    t.to_battle()
    c1 = t.player(t.first).hand[0]
    t.rig(t.first, top=("marked-for-death",))
    t.act("adapt_draw", card=c1)
    t.act("answer", keep="marked-for-death")
    (prompt,) = t.state.prompts
    assert (prompt.kind, prompt.player, prompt.owner) == (PromptKind.ALPHA_TARGETS, t.second, t.first)


def test_fixed_player_cannot_use_the_tactical_part(make_table):
    t = _twist_table(make_table)
    t.to_battle(first="fixed")
    t.refuse("adapt_draw", match="for Tactical Missions", card="cleanse")


# ---- Fixed: once per battle, end of own turn, after scoring ----------------------------------------

def _to_swap(t):
    """The end of the turn once both players have finished scoring: the swap is the first decision."""
    t.to_end_of_turn()
    t.done_scoring()
    assert t.state.discard_queue[0] == t.active


def test_fixed_swaps_once_at_the_end_of_its_turn(make_table):
    t = _twist_table(make_table)
    t.to_battle(first="fixed", first_cards=("cleanse", "assassination"))
    _to_swap(t)
    t.act("adapt_swap", card="cleanse", replacement="cull-the-horde")
    p = t.player(t.first)
    assert p.hand == ("cull-the-horde", "assassination") and p.discard == ("cleanse",)
    assert "cull-the-horde" not in p.set_aside and len(p.set_aside) == 16
    assert t.state.prompts == ()  # When Drawn does not apply to Fixed Missions
    assert t.active == t.second  # the swap was the last decision of the turn (Bob has drawn no card yet)
    t.end_turn()
    t.to_end_of_turn()
    t.done_scoring()
    assert t.first not in t.state.discard_queue  # nothing left to decide
    t.refuse("adapt_swap", match="once per battle", card="assassination", replacement="behind-enemy-lines")


@pytest.mark.parametrize("replacement", ["secure-no-mans-land", "marked-for-death", "assassination", "cleanse"])
def test_fixed_replacement_must_be_another_fixed_symbol_card(make_table, replacement):
    t = _twist_table(make_table)
    t.to_battle(first="fixed", first_cards=("cleanse", "assassination"))
    _to_swap(t)
    t.refuse("adapt_swap", error=InvalidValue, match="must be one of your other cards with the Fixed Mission symbol",
             card="cleanse", replacement=replacement)


def test_fixed_swap_only_at_the_end_of_your_own_turn(make_table):
    t = _twist_table(make_table)
    t.to_battle(first="fixed", second="fixed", first_cards=("cleanse", "assassination"))
    t.refuse("adapt_swap", error=WrongPhase, match="only in the end-of-turn discards", card="cleanse",
             replacement="behind-enemy-lines")
    _to_swap(t)
    t.refuse("adapt_swap", t.second, error=NotYourTurn, match="only they can use Adapt or Die", card="cleanse",
             replacement="behind-enemy-lines")
    t.refuse("adapt_swap", error=InvalidValue, match="is not one of your active Secondary Missions",
             card="bring-it-down", replacement="behind-enemy-lines")


def test_a_fixed_player_may_keep_their_cards_instead(make_table):
    t = _twist_table(make_table)
    t.to_battle(first="fixed", second="fixed", first_cards=("cleanse", "assassination"))
    _to_swap(t)
    t.refuse("discard", error=InvalidValue, match="Fixed Missions cannot be discarded", cards=("cleanse",))
    t.act("discard", cards=())
    assert t.player(t.first).hand == ("cleanse", "assassination") and t.active == t.second


def test_tactical_player_cannot_use_the_fixed_part(make_table):
    t = _twist_table(make_table)
    t.to_battle()
    t.to_end_of_turn()
    t.refuse("adapt_swap", match="for Fixed Missions", card=t.player(t.first).hand[0], replacement="cleanse")


# ---- Without the Twist ---------------------------------------------------------------------------

@pytest.mark.parametrize("other_twist", [False, True])
def test_without_adapt_or_die_both_are_refused(make_table, other_twist):
    t = _twist_table(make_table, adapt_or_die=False) if other_twist else make_table()
    t.to_battle(second="fixed")
    t.refuse("adapt_draw", error=GameError, match="Only the Adapt or Die Twist allows this",
             card=t.player(t.first).hand[0])
    t.end_turn()
    t.to_end_of_turn()
    t.refuse("adapt_swap", error=GameError, match="Only the Adapt or Die Twist allows this", card="cleanse",
             replacement="behind-enemy-lines")
