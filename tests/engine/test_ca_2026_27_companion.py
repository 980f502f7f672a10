"""Chapter Approved 2026-27 as the Event Companion plays it: one deployment per game (a Deployment card or the
pairing's layout, never both; games of setup version 3 replay as they were), VP typed by hand at the end of the
battle outside the round caps like the Score menu's, Mirrored World's mission agreed instead of rolled, the cards'
own "fifth battle round", and the reminders of what missions ask of the table. Each test fails on the behaviour
before it."""

from __future__ import annotations

import pytest

from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.chapter_approved.state import Phase, Source, Status
from bot.engine.errors import GameError
from bot.ui.chapter_approved.cards import card_embed
from tests.engine.test_ca_2026_27_game import (
    ALICE, BOB, CATALOG, PTF, TH, _battle_in_round, act, answered, at_end_of_battle, refused, revealed, setup,
    to_battle,
)

DISRUPTION, ASSETS = "disruption", "priority-assets"


def test_a_pick_up_game_plays_a_deployment_card_and_no_layout() -> None:
    outcome = new_game(CATALOG, setup())
    assert outcome.events[0].text.startswith("Deployment: ")
    state = act(act(outcome.state, a.ChooseDisposition(actor=ALICE, disposition=TH)),
                a.ChooseDisposition(actor=BOB, disposition=PTF))
    assert state.mission.deployment and state.mission.layout is None


def test_a_layout_game_plays_the_pairings_layout_and_no_deployment_card() -> None:
    outcome = new_game(CATALOG, setup(battlefield="layout"))
    assert outcome.events[0].text == "The pairing's layout, drawn once both Force Dispositions are revealed."
    assert outcome.state.mission.deployment == ""
    state = revealed(battlefield="layout")
    assert state.mission.layout in {f"{TH}--{PTF}-{x}" for x in "abc"} and state.mission.deployment == ""
    chosen = new_game(CATALOG, setup(layout="B"))
    assert chosen.events[0].text == "Layout B of the pairing." and chosen.state.mission.deployment == ""
    assert CATALOG.battlefield_name("", f"{TH}--{PTF}-b") == "Layout B"
    with pytest.raises(GameError, match="not both"):
        new_game(CATALOG, setup(layout="A", deployment="dawn-of-war"))


def test_an_event_table_plays_its_layout_and_no_deployment_card() -> None:
    outcome = new_game(CATALOG, setup(dispositions=(TH, PTF), layout="A"))
    texts = [e.text for e in outcome.events]
    assert texts[0] == "Layout A of the pairing." and not any("Deployment:" in t for t in texts)
    assert outcome.state.mission.layout == f"{TH}--{PTF}-a" and outcome.state.mission.deployment == ""


def test_games_of_setup_version_3_replay_as_they_were_played_with_both() -> None:
    state = revealed(version=3)
    assert state.mission.deployment and state.mission.layout in {f"{TH}--{PTF}-{x}" for x in "abc"}


def test_end_of_battle_vp_typed_by_hand_are_outside_the_round_cap_as_the_menus_are() -> None:
    state = to_battle(revealed())
    early = _battle_in_round(2, state)
    refused(early, a.Score(actor=early.active, source=Source.PRIMARY, vp=5, end_of_battle=True),
            "end of the battle")
    state = at_end_of_battle(state)
    assert state.round == 5 and state.phase == Phase.END_OF_TURN
    state = act(state, a.Score(actor=BOB, source=Source.PRIMARY, vp=15))  # the round's 15, by hand
    state = act(state, a.Score(actor=BOB, source=Source.PRIMARY, vp=8, end_of_battle=True))
    entry = state.vp[-1]
    assert (entry.claimed, entry.awarded, entry.capped_by, entry.end_of_battle) == (8, 8, None, True)
    state = act(state, a.Score(actor=BOB, source=Source.PRIMARY, vp=3))  # the round cap still holds the rest
    assert state.vp[-1].awarded == 0 and "in a battle round" in state.vp[-1].capped_by
    refused(state, a.Score(actor=BOB, source=Source.PRIMARY, option="central-at-end", end_of_battle=True),
            "leave out")


def _mirrored(**options):
    return next(s for n in range(200) if (s := new_game(CATALOG, setup(f"mirror-{n}", twist=True, **options))
                                          .state).mission.twist == "mirrored-world")


def test_mirrored_world_plays_the_mission_both_agreed_on_instead_of_the_roll() -> None:
    state = _mirrored()
    table = CATALOG.twist("mirrored-world").primary_roll
    agreed = table[3]
    state = act(state, a.AgreeMirrorMission(actor=ALICE, mission=agreed))
    state = act(state, a.AgreeMirrorMission(actor=BOB, mission=agreed))
    state = act(act(state, a.ChooseDisposition(actor=ALICE, disposition=TH)),
                a.ChooseDisposition(actor=BOB, disposition=PTF))
    assert state.primary_of(ALICE) == state.primary_of(BOB) == agreed and state.mission.mirror_rolls == ()


def test_mirrored_world_rolls_unless_both_pick_the_same() -> None:
    state = _mirrored()
    table = CATALOG.twist("mirrored-world").primary_roll
    state = act(state, a.AgreeMirrorMission(actor=ALICE, mission=table[1]))
    state = act(state, a.AgreeMirrorMission(actor=BOB, mission=table[2]))
    state = act(state, a.AgreeMirrorMission(actor=BOB, mission=None))  # Bob would rather roll
    assert state.mission.mirror_picks == {ALICE: table[1]}
    refused(state, a.AgreeMirrorMission(actor=ALICE, mission="immovable-object"), "Mirrored World's missions are")
    state = act(act(state, a.ChooseDisposition(actor=ALICE, disposition=TH)),
                a.ChooseDisposition(actor=BOB, disposition=PTF))
    assert state.mission.mirror_rolls and state.primary_of(ALICE) == table[state.mission.mirror_rolls[-1]]
    refused(state, a.AgreeMirrorMission(actor=ALICE, mission=table[1]), "settled")
    refused(new_game(CATALOG, setup()).state, a.AgreeMirrorMission(actor=ALICE, mission=table[1]),
            "Only Mirrored World")


def test_the_cards_say_the_fifth_battle_round_not_the_end_of_the_battle() -> None:
    for card_id in ("defend-stronghold", "burden-of-trust", "beacon"):
        card = CATALOG.secondary(card_id)
        assert "fifth battle round" in card.text and "the battle ends" not in card.text
        shown = str(card_embed(card, CATALOG).to_dict())
        assert "or the end of the fifth battle round" in shown and "or the end of the battle\"" not in shown


def _to_battle_collecting(state):
    """Sides, secret choices and deployment: the state at the first turn, and every line the steps said."""
    lines: list[str] = []
    state = act(state, a.ChooseSide(actor=state.sides_rolloff.winner, side="attacker"))
    for player in (ALICE, BOB):
        state = act(state, a.ChooseSecondaries(actor=player, mode="tactical"))
    first = state.deploys_first
    for player in (first, state.opponent(first).id):
        outcome = apply(CATALOG, state, a.DeploymentDone(actor=player))
        state, lines = outcome.state, lines + [e.text for e in outcome.events]
    return state, lines


def _until_turn_of(state, player: str, lines: list[str]):
    """Turns ended plainly until `player`'s, with every line said on the way."""
    while state.active != player or state.prompts:
        if state.prompts:
            state = answered(state)
            continue
        active = state.active
        steps = [a.EndCommandPhase(actor=active), a.EndTurn(actor=active), a.DoneScoring(actor=active),
                 a.DoneScoring(actor=state.opponent(active).id)]
        for step in steps:
            outcome = apply(CATALOG, state, step)
            state, lines = outcome.state, lines + [e.text for e in outcome.events]
        if state.discard_queue:
            outcome = apply(CATALOG, state, a.Discard(actor=state.discard_queue[0]))
            state, lines = outcome.state, lines + [e.text for e in outcome.events]
    return state, lines


def test_the_board_reminds_what_missions_ask_at_their_moments() -> None:
    state = revealed(mine=PTF, theirs=DISRUPTION)  # Alice plays Punishment
    assert state.primary_of(ALICE) == "punishment"
    state, lines = _to_battle_collecting(state)
    state, lines = _until_turn_of(state, ALICE, lines)
    assert any(t.startswith("Punishment: Alice condemns one to three enemy units") for t in lines)

    state = revealed(mine=ASSETS, theirs=DISRUPTION)  # Bob plays Locate and Deny
    assert state.primary_of(BOB) == "locate-and-deny"
    state, lines = _to_battle_collecting(state)
    assert any(t.startswith("Locate and Deny: Bob puts one of their operation markers in each of five")
               for t in lines)
    state, _ = _until_turn_of(state, BOB, [])
    state = act(state, a.EndCommandPhase(actor=BOB))
    ended = apply(CATALOG, state, a.EndTurn(actor=BOB))
    assert any(e.text.startswith("Locate and Deny: Bob removes one operation marker") for e in ended.events)
    assert ended.state.status == Status.BATTLE
