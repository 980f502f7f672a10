"""Challenger cards: who is the Challenger, the shared deck, and Stratagem-or-Mission, never both."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved.state import Source
from bot.engine.errors import GameError, InvalidValue, WrongPhase


def _trailing(table, gap, round_=2):
    """The player going first leads by `gap` VP at the start of battle round `round_`."""
    table.to_battle()
    table.score("primary", table.first, vp=gap)
    table.to_round(round_)


def test_six_behind_makes_the_challenger_for_that_round(table):
    deck = table.state.challenger_deck
    _trailing(table, 6)
    assert table.state.challenger == table.second
    assert f"{table.name(table.second)} trails by 6VP and is the Challenger this battle round" in table.texts(
        table.events)
    # The Challenger draws at the start of their own Command phase, not before.
    assert table.player(table.second).challenger_card is None and table.state.challenger_deck == deck
    table.end_turn()
    assert table.player(table.second).challenger_card == deck[0]
    assert table.state.challenger_deck == deck[1:]


def test_five_behind_is_not_enough(table):
    deck = table.state.challenger_deck
    _trailing(table, 5)
    assert table.state.challenger is None
    table.end_turn()
    assert table.player(table.second).challenger_card is None and table.state.challenger_deck == deck


def test_the_challenger_stays_for_the_round_and_only_that_round(table):
    _trailing(table, 6)
    table.score("primary", table.second, vp=10)  # now leading, still the Challenger until the round ends
    table.end_turn()
    assert table.state.challenger == table.second and table.player(table.second).challenger_card is not None
    table.to_round(3)
    assert table.state.challenger is None  # 10-6: the player going first trails by only 4


def test_challenger_going_first_draws_at_the_start_of_the_round(table):
    deck = table.state.challenger_deck
    table.to_battle()
    table.score("primary", table.second, vp=7)
    table.to_round(2)
    assert table.state.challenger == table.first
    assert table.player(table.first).challenger_card == deck[0]


def test_used_as_stratagem_it_is_discarded_and_its_mission_cannot_be_scored(table):
    _trailing(table, 6)
    table.end_turn()
    card = table.player(table.second).challenger_card
    table.act("use_challenger", use="stratagem")
    assert table.player(table.second).challenger_card is None
    assert table.state.challenger_discard == (card,)
    table.to_end_of_turn()
    table.refuse("score", error=InvalidValue, match="You hold no Challenger card", source="challenger",
                 option=table.catalog.challenger(card).mission.scoring[0].id)
    table.refuse("use_challenger", match="You hold no Challenger card", use="mission")


def test_mission_scored_it_is_discarded(table):
    _trailing(table, 6)
    table.end_turn()
    card = table.catalog.challenger(table.player(table.second).challenger_card)
    table.act("use_challenger", use="mission")
    table.refuse("use_challenger", match=f"{card.name} is already being used for its mission", use="stratagem")
    option = card.mission.scoring[0]
    table.to_end_of_turn()
    table.score("challenger", option=option.id, count=3 if option.per else None)
    assert (table.last_vp().source, table.last_vp().card, table.last_vp().awarded) == (Source.CHALLENGER, card.id, 3)
    assert table.player(table.second).challenger_card is None
    assert table.state.challenger_discard == (card.id,)
    table.refuse("use_challenger", match="You hold no Challenger card", use="stratagem")


def test_challenger_mission_keeps_its_scoring_window(make_table):
    t = make_table()
    t.to_battle()
    t.score("primary", t.first, vp=6)
    card = next(c for c in t.catalog.challengers if c.mission.scoring[0].window == "end_of_your_turn")
    seed_deck = t.state.challenger_deck
    t.state = t.state.model_copy(update={"challenger_deck": (card.id,) + tuple(c for c in seed_deck if c != card.id)})
    t.to_turn(2, 2)
    option = card.mission.scoring[0]
    t.refuse("score", error=WrongPhase, match="This scores at the end of your turn", source="challenger",
             option=option.id, count=3 if option.per else None)


def test_naming_another_challenger_card_is_refused(table):
    _trailing(table, 6)
    table.end_turn()
    held = table.catalog.challenger(table.player(table.second).challenger_card)
    other = next(c for c in table.catalog.challengers if c.id != held.id)
    table.refuse("score", error=InvalidValue, match=f"Your Challenger card is {held.name}", source="challenger",
                 card=other.id, vp=3)


def test_unused_card_is_discarded_at_the_end_of_the_challengers_turn(table):
    _trailing(table, 6)
    table.end_turn()
    card = table.player(table.second).challenger_card
    events = table.end_turn()
    assert table.player(table.second).challenger_card is None
    assert table.state.challenger_discard == (card,)
    assert "Challenger card is discarded at the end of their turn" in table.texts(events)


def test_both_players_draw_from_the_same_shrinking_deck(table):
    deck = table.state.challenger_deck
    _trailing(table, 6)
    table.end_turn()
    assert table.player(table.second).challenger_card == deck[0]
    table.score("primary", table.second, vp=20)  # the player going first now trails by 14
    table.to_round(3)
    assert table.state.challenger == table.first
    assert table.player(table.first).challenger_card == deck[1]
    assert table.state.challenger_deck == deck[2:]
    assert table.state.challenger_discard == (deck[0],)


def test_an_empty_challenger_deck_draws_nothing(table):
    _trailing(table, 6)
    table.state = table.state.model_copy(update={"challenger_deck": ()})
    events = table.end_turn()
    assert table.player(table.second).challenger_card is None
    assert "The Challenger deck is empty" in table.texts(events)


def test_without_a_card_the_challenger_stratagem_is_refused(table):
    table.to_battle()
    table.refuse("use_challenger", error=GameError, match="You hold no Challenger card", use="stratagem")


def test_syphoned_power_makes_the_attacker_the_challenger_in_round_1(make_table):
    seed = make_table.find_seed(lambda s: make_table(seed=s, size="asymmetric-war", mission=None)
                                .state.mission.primary == "syphoned-power", "syphon")
    t = make_table(seed=seed, size="asymmetric-war", mission=None)
    t.to_battle()
    # The Defender's 50VP come at the start of the battle, before the first battle round starts.
    assert t.state.round == 1 and t.state.challenger == t.state.attacker == t.active
    assert t.player(t.state.attacker).challenger_card is not None


@pytest.mark.parametrize("gap, challenger", [(6, True), (12, True), (5, False), (0, False)])
def test_the_gap_decides(table, gap, challenger):
    table.to_battle()
    if gap:
        table.score("primary", table.second, vp=gap)
    table.to_round(2)
    assert table.state.challenger == (table.first if challenger else None)


def test_the_challenger_stratagem_costs_0cp_and_gains_none(table):
    _trailing(table, 6)
    table.end_turn()
    cp = table.player(table.second).cp
    events = table.act("use_challenger", use="stratagem")
    assert table.player(table.second).cp == cp
    assert "(Challenger Stratagem, 0CP)" in table.texts(events)
