"""Armies in the engine: each player's army, set before the battle (again to change it), shown to both once it
may be; in a Chapter Approved 2026-27 game hidden until the reveal, its detachment giving the Force Disposition
(which a pick-up player may still change until both have picked). Each test fails if its rule breaks."""

from __future__ import annotations

import pytest

from bot.armies.data import army_data
from bot.decks import catalog_2026, default_catalog, installed_packs
from bot.engine.chapter_approved import actions as a
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.chapter_approved.state import GameSetup, Status
from bot.engine.errors import GameError
from bot.engine.models import Army
from bot.engine.table.state import Step, TableSetup
from bot.services.game_log import export_game

CATALOG = catalog_2026()
ALICE, BOB = "1", "2"
DATA = army_data()


def army(faction: str, detachment: str) -> Army:
    """An army as the cogs make it, from the real army data."""
    f = DATA.faction(faction)
    d = DATA.detachment(f.id, detachment)
    return Army(faction=f.id, faction_name=f.name, detachment=d.id, detachment_name=d.name, disposition=d.disposition)


WOLVES = army("Space Wolves", "Saga of the Hunter")  # Disruption
NECRONS = army("Necrons", "Awakened Dynasty")


def setup(**options) -> GameSetup:
    return GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"), seed="armies",
                     pack=CATALOG.pack, challenger_cards=False, **options)


def test_the_data_gives_the_dispositions_these_tests_rely_on() -> None:
    assert WOLVES.disposition == "disruption"
    assert NECRONS.disposition is not None and NECRONS.disposition != WOLVES.disposition


def test_a_2026_army_is_hidden_until_the_reveal_and_its_detachment_picks_the_disposition() -> None:
    state = new_game(CATALOG, setup()).state
    outcome = apply(CATALOG, state, a.SetArmy(actor=ALICE, army=WOLVES))
    public = [e.text for e in outcome.events if e.private_to is None]
    private = [e.text for e in outcome.events if e.private_to == ALICE]
    assert public == ["Alice has set their army.", "Alice has picked their Force Disposition."]
    assert private == ["Your army: Space Wolves — Saga of the Hunter. Hidden until both Force Dispositions are "
                       "revealed.", "You picked Disruption (your detachment's). Hidden until both players have picked."]
    state = outcome.state
    assert state.player(ALICE).disposition_choice == "disruption" and state.status == Status.DISPOSITIONS
    outcome = apply(CATALOG, state, a.SetArmy(actor=BOB, army=NECRONS))
    state = outcome.state
    assert state.status == Status.SIDES
    assert (state.player(ALICE).disposition, state.player(BOB).disposition) == ("disruption", NECRONS.disposition)
    assert state.primary_of(ALICE) == CATALOG.primary_for("disruption", NECRONS.disposition).id
    assert state.primary_of(BOB) == CATALOG.primary_for(NECRONS.disposition, "disruption").id
    reveal = next(e.text for e in outcome.events if e.text.startswith("Force Dispositions revealed"))
    assert "Alice Disruption (Space Wolves — Saga of the Hunter)" in reveal and "Necrons — Awakened Dynasty" in reveal


def test_a_pick_up_player_may_pick_another_disposition_than_their_detachments_until_both_have_picked() -> None:
    state = new_game(CATALOG, setup()).state
    state = apply(CATALOG, state, a.SetArmy(actor=ALICE, army=WOLVES)).state
    state = apply(CATALOG, state, a.ChooseDisposition(actor=ALICE, disposition="take-and-hold")).state
    state = apply(CATALOG, state, a.ChooseDisposition(actor=BOB, disposition="purge-the-foe")).state
    assert state.player(ALICE).disposition == "take-and-hold" and state.player(ALICE).army == WOLVES


def test_an_army_set_after_a_pick_keeps_the_pick() -> None:
    state = new_game(CATALOG, setup()).state
    state = apply(CATALOG, state, a.ChooseDisposition(actor=ALICE, disposition="reconnaissance")).state
    state = apply(CATALOG, state, a.SetArmy(actor=ALICE, army=WOLVES)).state
    assert state.player(ALICE).disposition_choice == "reconnaissance"


def test_an_event_sets_armies_and_dispositions_beforehand() -> None:
    state = new_game(CATALOG, setup(armies=(WOLVES, NECRONS), dispositions=("disruption", "take-and-hold"))).state
    assert state.status == Status.SIDES
    assert (state.player(ALICE).army, state.player(BOB).army) == (WOLVES, NECRONS)
    assert state.player(BOB).disposition == "take-and-hold"


def test_the_challengers_army_from_the_setup_is_hidden_like_one_set_in_game() -> None:
    outcome = new_game(CATALOG, setup(armies=(WOLVES, None)))
    assert outcome.state.player(ALICE).disposition_choice == "disruption"
    assert all("Wolves" not in e.text for e in outcome.events if e.private_to is None)


def test_the_game_log_hides_armies_until_the_reveal() -> None:
    state = new_game(CATALOG, setup(armies=(WOLVES, None))).state
    action = a.SetArmy(actor=BOB, army=army("Orks", "War Horde"))
    log = [(1, BOB, "", action)]
    hidden = export_game(CATALOG, state, log, seed_hash="x")
    assert "Wolves" not in str(hidden) and "Orks" not in str(hidden) and hidden["armies"] is None
    after = apply(CATALOG, state, action).state
    shown = export_game(CATALOG, after, log, seed_hash="x")
    assert shown["armies"][ALICE]["faction_name"] == "Space Wolves" and shown["actions"][0]["action"]["army"]


def test_armies_are_set_before_the_battle_only() -> None:
    catalog = default_catalog()
    state = new_game(catalog, GameSetup(size="strike-force", players=(ALICE, BOB), names=("Alice", "Bob"),
                                        seed="armies-25")).state
    outcome = apply(catalog, state, a.SetArmy(actor=ALICE, army=WOLVES))
    assert [e.text for e in outcome.events] == ["Alice's army: Space Wolves — Saga of the Hunter."]
    state = outcome.state.model_copy(update={"status": Status.BATTLE})
    with pytest.raises(GameError, match="before the battle"):
        apply(catalog, state, a.SetArmy(actor=ALICE, army=NECRONS))


@pytest.mark.parametrize("pack", ["gt-2020", "4th-edition"])
def test_a_table_game_records_armies_before_the_battle(pack: str) -> None:
    packs = installed_packs()
    size = "strike-force" if pack == "gt-2020" else None
    game = TableSetup(pack=pack, players=(ALICE, BOB), names=("Alice", "Bob"), seed="t", size=size,
                      armies=(None, NECRONS))
    state = packs.new_game(game).state
    assert state.player(BOB).army == NECRONS and state.player(ALICE).army is None
    outcome = packs.apply(state, a.SetArmy(actor=ALICE, army=WOLVES))
    assert outcome.state.player(ALICE).army == WOLVES
    assert [e.text for e in outcome.events] == ["Alice's army: Space Wolves — Saga of the Hunter."]
    with pytest.raises(GameError, match="before the battle"):
        packs.apply(outcome.state.model_copy(update={"status": Step.BATTLE}), a.SetArmy(actor=ALICE, army=WOLVES))
