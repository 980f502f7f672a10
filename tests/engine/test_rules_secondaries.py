"""Select Secondary Missions (battle sequence step 8): secret choice, Fixed cards, reveal, decks."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Status
from bot.engine.errors import InvalidValue, WrongPhase

NON_FIXED = ["defend-stronghold", "marked-for-death", "secure-no-mans-land", "sabotage", "area-denial",
             "recover-assets", "a-tempting-target", "extend-battle-lines", "overwhelming-force", "display-of-might"]


def _chosen_sides(make_table, **kwargs):
    t = make_table(**kwargs)
    t.choose_sides()
    return t


def test_choice_stays_hidden_until_both_have_chosen(make_table):
    t = _chosen_sides(make_table)
    events = t.act("choose_secondaries", t.first, mode="fixed", cards=("cleanse", "behind-enemy-lines"))
    # Stored in the state, told privately to the chooser, never in the channel.
    assert t.player(t.first).choice.fixed_cards == ("cleanse", "behind-enemy-lines")
    assert t.player(t.first).mode is None and t.state.status == Status.SECONDARIES
    private = [e for e in events if e.private_to == t.first]
    assert private and "Cleanse" in private[0].text
    for text in t.public(events):
        assert not any(word in text.lower() for word in ("cleanse", "behind enemy lines", "fixed", "tactical"))
    assert any("has chosen their Secondary Missions" in text for text in t.public(events))


def test_tactical_choice_is_hidden_too(make_table):
    t = _chosen_sides(make_table)
    events = t.act("choose_secondaries", t.first, mode="tactical")
    assert t.player(t.first).mode is None and t.player(t.first).deck == ()
    assert t.public(events) and all("tactical" not in text.lower() for text in t.public(events))


def test_both_choices_are_revealed_at_once(make_table):
    t = _chosen_sides(make_table)
    t.act("choose_secondaries", t.first, mode="fixed", cards=("cleanse", "behind-enemy-lines"))
    events = t.act("choose_secondaries", t.second, mode="tactical")
    assert t.state.status == Status.DEPLOYMENT
    assert (t.player(t.first).mode, t.player(t.second).mode) == ("fixed", "tactical")
    reveal = "\n".join(t.public(events))
    assert "reveals Fixed Missions: Cleanse and Behind Enemy Lines" in reveal
    assert "reveals Tactical Missions" in reveal


@pytest.mark.parametrize("cards", [("cleanse",), ("cleanse", "assassination", "no-prisoners"), ("cleanse", "cleanse"),
                                   ()])
def test_fixed_needs_exactly_two_different_cards(make_table, cards):
    t = _chosen_sides(make_table)
    t.refuse("choose_secondaries", t.first, error=InvalidValue, match="Fixed Missions need 2 different cards",
             mode="fixed", cards=cards)


@pytest.mark.parametrize("card", NON_FIXED)
def test_a_card_without_the_fixed_symbol_is_refused(make_table, card):
    t = _chosen_sides(make_table)
    name = t.catalog.secondary(card).name
    t.refuse("choose_secondaries", t.first, error=InvalidValue,
             match=f"{name} has no Fixed Mission symbol", mode="fixed", cards=("cleanse", card))


def test_an_unknown_card_is_refused(make_table):
    t = _chosen_sides(make_table)
    t.refuse("choose_secondaries", t.first, error=InvalidValue, match="There is no Secondary Mission 'kill-them-all'",
             mode="fixed", cards=("cleanse", "kill-them-all"))


def test_tactical_with_cards_is_refused(make_table):
    t = _chosen_sides(make_table)
    t.refuse("choose_secondaries", t.first, error=InvalidValue, match="choose no cards", mode="tactical",
             cards=("cleanse",))


def test_no_prisoners_cannot_be_fixed_in_a_pool_mission(make_table):
    t = _chosen_sides(make_table, mission="A")
    t.refuse("choose_secondaries", t.first, error=InvalidValue,
             match="No Prisoners cannot be selected as a Fixed Mission in tournament play",
             mode="fixed", cards=("no-prisoners", "cleanse"))


def test_no_prisoners_can_be_fixed_outside_the_pool(make_table):
    t = _chosen_sides(make_table, mission=None)
    t.act("choose_secondaries", t.first, mode="fixed", cards=("no-prisoners", "cleanse"))
    assert t.player(t.first).choice.fixed_cards == ("no-prisoners", "cleanse")


def test_secondaries_before_the_sides_are_chosen_are_refused(table):
    table.refuse("choose_secondaries", table.P1, error=WrongPhase, match="Choose the Attacker and Defender first",
                 mode="tactical")


def test_secondaries_after_the_reveal_are_refused(table):
    table.to_battle()
    table.refuse("choose_secondaries", table.P1, error=WrongPhase, match="already revealed", mode="tactical")


def test_fixed_player_sets_the_other_17_cards_aside(make_table):
    t = make_table()
    t.to_battle(first="fixed", first_cards=("bring-it-down", "establish-locus"))
    p = t.player(t.first)
    assert p.hand == ("bring-it-down", "establish-locus")
    assert len(p.set_aside) == 17 and not set(p.set_aside) & set(p.hand)
    assert sorted(p.set_aside + p.hand) == sorted(t.ALL_CARDS)
    assert p.deck == () and p.discard == ()


def test_tactical_deck_is_all_19_cards_shuffled_per_player(make_table):
    t = make_table()
    t.to_battle()
    first, second = t.player(t.first), t.player(t.second)
    assert len(first.hand) == 2 and len(first.deck) == 17  # the first Command phase has drawn two
    assert sorted(first.hand + first.deck) == sorted(t.ALL_CARDS)
    assert sorted(second.deck) == sorted(t.ALL_CARDS) and second.hand == ()
    assert second.deck != t.ALL_CARDS
    assert first.hand + first.deck != second.deck
