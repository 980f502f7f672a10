"""An army of several detachments in the engine: the detachments it fields and the Force Dispositions they grant,
one of which its player chooses secretly in a 2026-27 game (or its list records); the Primary from the matrix of the
disposition chosen; after the reveal an army changes only within what keeps its disposition (refused in one line
otherwise, from setup version 5: games of version 4 replay as they were played); and armies stored before armies
had several detachments read exactly as before.

The data's Necrons (40kdc 1.4.5): Pantheon of Woe (Disruption), Skyshroud Spearhead (Reconnaissance), Hypercrypt
Legion (Reconnaissance), Awakened Dynasty (Take and Hold), Annihilation Legion (Purge the Foe)."""

from __future__ import annotations

import json

import pytest

from bot.armies.check import army_from
from bot.armies.data import army_data
from bot.decks import catalog_2026
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import apply, new_game, replay
from bot.engine.chapter_approved.state import GameSetup, Status
from bot.engine.errors import GameError
from bot.engine.models import Army

CATALOG = catalog_2026()
DATA = army_data()
ALICE, BOB = "1", "2"
TWO = army_from(DATA, "Necrons", "Pantheon of Woe and Skyshroud Spearhead")
WOLVES = army_from(DATA, "Space Wolves", "Saga of the Hunter")  # Disruption


def setup(**options) -> GameSetup:
    return GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed="several",
                     pack=CATALOG.pack, challenger_cards=False, **options)


def test_an_army_of_two_detachments_holds_both_and_the_dispositions_they_grant() -> None:
    assert (TWO.detachments, TWO.detachment_names) == (("pantheon-of-woe", "skyshroud-spearhead"),
                                                       ("Pantheon of Woe", "Skyshroud Spearhead"))
    assert (TWO.detachment, TWO.more_detachments) == ("pantheon-of-woe", ("skyshroud-spearhead",))
    assert (TWO.disposition, TWO.dispositions, TWO.to_choose) == (None, ("disruption", "reconnaissance"), True)
    assert TWO.label == "Necrons — Pantheon of Woe + Skyshroud Spearhead"
    for typed in ("pantheon-of-woe, skyshroud-spearhead", "Pantheon of Woe + Skyshroud Spearhead",
                  "pantheon of woe AND skyshroud spearhead", "Pantheon of Woe, Skyshroud Spearhead, Pantheon of Woe"):
        assert army_from(DATA, "necrons", typed) == TWO
    with pytest.raises(GameError, match="a detachment of Necrons"):
        army_from(DATA, "necrons", "Pantheon of Woe and Elves of the Woods")


def test_an_army_stored_before_armies_had_several_detachments_reads_the_same() -> None:
    stored = ('{"faction":"space-wolves","faction_name":"Space Wolves","detachment":"saga-of-the-hunter",'
              '"detachment_name":"Saga of the Hunter","disposition":"disruption","points":null,"list_id":null}')
    old = Army.model_validate_json(stored)
    assert old == WOLVES and old.label == "Space Wolves — Saga of the Hunter"
    assert (old.detachments, old.granted, old.to_choose) == (("saga-of-the-hunter",), ("disruption",), False)
    written = json.loads(WOLVES.model_dump_json())
    assert {k: v for k, v in written.items() if k in json.loads(stored)} == json.loads(stored)
    assert (written["more_detachments"], written["dispositions"]) == ([], [])  # the fields added, at their defaults
    bare = Army.model_validate_json('{"faction":"necrons","faction_name":"Necrons"}')
    assert (bare.label, bare.detachments, bare.granted) == ("Necrons", (), ())


def test_two_dispositions_to_choose_from_the_player_chooses_secretly_and_the_primary_follows() -> None:
    outcome = apply(CATALOG, new_game(CATALOG, setup()).state, a.SetArmy(actor=ALICE, army=TWO))
    state = outcome.state
    assert state.player(ALICE).disposition_choice is None  # nothing picked for her: there are two
    private = [e.text for e in outcome.events if e.private_to == ALICE]
    public = [e.text for e in outcome.events if e.private_to is None]
    assert private[-1].startswith("Your detachments grant Disruption and Reconnaissance: pick")
    assert public == ["Alice has set their army."]
    assert not any("Disruption" in t or "Reconnaissance" in t or "Necrons" in t for t in public)

    state = apply(CATALOG, state, a.SetArmy(actor=BOB, army=WOLVES)).state  # Bob's detachment picks for him
    assert state.status == Status.DISPOSITIONS
    outcome = apply(CATALOG, state, a.ChooseDisposition(actor=ALICE, disposition="reconnaissance"))
    state = outcome.state
    assert state.status == Status.SIDES
    assert (state.player(ALICE).disposition, state.player(BOB).disposition) == ("reconnaissance", "disruption")
    assert state.primary_of(ALICE) == CATALOG.primary_for("reconnaissance", "disruption").id
    assert state.primary_of(BOB) == CATALOG.primary_for("disruption", "reconnaissance").id
    reveal = next(e.text for e in outcome.events if e.text.startswith("Force Dispositions revealed"))
    assert "Alice Reconnaissance (Necrons — Pantheon of Woe + Skyshroud Spearhead)" in reveal


def test_a_list_that_records_its_choice_has_it_picked() -> None:
    chosen = TWO.model_copy(update={"disposition": "disruption"})
    outcome = apply(CATALOG, new_game(CATALOG, setup()).state, a.SetArmy(actor=ALICE, army=chosen))
    assert outcome.state.player(ALICE).disposition_choice == "disruption"
    assert "You picked Disruption (your list's choice)." in outcome.events[-2].text


def test_an_event_starts_with_the_disposition_the_list_chose() -> None:
    chosen = TWO.model_copy(update={"disposition": "reconnaissance"})
    state = new_game(CATALOG, setup(armies=(chosen, WOLVES), dispositions=("reconnaissance", "disruption"))).state
    assert state.status == Status.SIDES and state.player(ALICE).army == chosen
    assert state.primary_of(ALICE) == CATALOG.primary_for("reconnaissance", "disruption").id


def revealed(**options) -> tuple:
    """A pick-up game past the reveal: Alice plays Reconnaissance with her two detachments, Bob Disruption."""
    state = new_game(CATALOG, setup(**options)).state
    log = [a.SetArmy(actor=ALICE, army=TWO), a.SetArmy(actor=BOB, army=WOLVES),
           a.ChooseDisposition(actor=ALICE, disposition="reconnaissance")]
    for action in log:
        state = apply(CATALOG, state, action).state
    assert state.status == Status.SIDES
    return state, log


def test_after_the_reveal_an_army_that_would_change_its_disposition_is_refused_in_one_line() -> None:
    state, _ = revealed()
    for typed, says in (("Pantheon of Woe", "Pantheon of Woe grants Disruption"),
                        ("Awakened Dynasty", "Awakened Dynasty grants Take and Hold")):
        with pytest.raises(GameError) as refused:
            apply(CATALOG, state, a.SetArmy(actor=ALICE, army=army_from(DATA, "Necrons", typed)))
        assert str(refused.value) == ("The Force Dispositions are revealed, so your army keeps Reconnaissance: "
                                      f"{says}.")
    with pytest.raises(GameError, match="keeps Reconnaissance: name a detachment that grants it"):
        apply(CATALOG, state, a.SetArmy(actor=ALICE, army=army_from(DATA, "Orks", None)))


def test_after_the_reveal_an_army_may_change_within_what_keeps_its_disposition() -> None:
    state, _ = revealed()
    for kept in (TWO.model_copy(update={"points": 1995, "list_id": 7}),  # its list given
                 army_from(DATA, "Necrons", "Skyshroud Spearhead"),  # one detachment of the two
                 army_from(DATA, "Necrons", "Hypercrypt Legion")):  # another that grants Reconnaissance
        outcome = apply(CATALOG, state, a.SetArmy(actor=ALICE, army=kept))
        assert outcome.state.player(ALICE).army == kept and outcome.state.player(ALICE).disposition == "reconnaissance"
        assert [e.text for e in outcome.events] == [f"Alice's army: {kept.label}."]


def test_a_pick_up_player_who_picked_another_disposition_may_still_give_the_same_armys_list() -> None:
    state = new_game(CATALOG, setup()).state
    for action in (a.SetArmy(actor=BOB, army=WOLVES), a.ChooseDisposition(actor=BOB, disposition="purge-the-foe"),
                   a.ChooseDisposition(actor=ALICE, disposition="take-and-hold")):
        state = apply(CATALOG, state, action).state
    assert state.player(BOB).disposition == "purge-the-foe"
    listed = WOLVES.model_copy(update={"points": 2000})
    assert apply(CATALOG, state, a.SetArmy(actor=BOB, army=listed)).state.player(BOB).army == listed
    with pytest.raises(GameError, match="keeps Purge the Foe"):
        apply(CATALOG, state, a.SetArmy(actor=BOB, army=army_from(DATA, "Space Wolves", "Champions of Fenris")))


def test_a_game_of_setup_version_4_replays_an_army_changed_after_the_reveal_as_it_was_played() -> None:
    state, log = revealed(version=4)
    changed = army_from(DATA, "Necrons", "Awakened Dynasty")  # Take and Hold: taken, as version 4 took it
    after = apply(CATALOG, state, a.SetArmy(actor=ALICE, army=changed)).state
    assert after.player(ALICE).army == changed and after.player(ALICE).disposition == "reconnaissance"
    assert replay(CATALOG, setup(version=4), [*log, a.SetArmy(actor=ALICE, army=changed)]) == after
