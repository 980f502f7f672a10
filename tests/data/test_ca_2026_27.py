"""The Chapter Approved 2026-27 pack (decks/ca-2026-27) against shared/reference/eleventh-edition.md ("ref"):
the Force Disposition matrix (§1.2), the Secondary deck (§1.4), the caps and deck handling (§2), the Twists (§2)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bot.decks import DeckError, default_catalog, load_catalog, pack_dir
from bot.engine.chapter_approved.catalog import Catalog, WhenDrawnKind, Window

PACK = "ca-2026-27"
DISPOSITIONS = ["Take and Hold", "Purge the Foe", "Disruption", "Reconnaissance", "Priority Assets"]
# ref §1.2 [CONFIRMED]: rows = your disposition, columns = the opponent's, in DISPOSITIONS' order.
MATRIX = {
    "Take and Hold": ["Battlefield Dominance", "Immovable Object", "Determined Acquisition", "Purge and Secure",
                      "Inescapable Dominion"],
    "Purge the Foe": ["Unstoppable Force", "Meatgrinder", "Punishment", "Consecrate", "Destroyer's Wrath"],
    "Disruption": ["Death Trap", "Delaying Action", "Outmanoeuvre", "Smoke and Mirrors", "Locate and Deny"],
    "Reconnaissance": ["Reconnaissance Sweep", "Triangulation", "Surveil the Foe", "Gather Intel",
                       "Search and Scour"],
    "Priority Assets": ["Secure Asset", "Vital Link", "Extract Relic", "Vanguard Operation", "Sabotage"],
}
# ref §1.3: the cards with an action or a marker mechanic.
WITH_ACTIONS = {
    "Death Trap", "Secure Asset", "Triangulation", "Vital Link", "Smoke and Mirrors", "Surveil the Foe",
    "Extract Relic", "Locate and Deny", "Gather Intel", "Vanguard Operation", "Sabotage", "Punishment", "Consecrate",
}
FIXED = {"Assassination", "A Grievous Blow", "Bring It Down", "Engage on All Fronts"}
TACTICAL_ONLY = {
    "Behind Enemy Lines", "No Prisoners", "Cleanse", "Defend Stronghold", "Overwhelming Force", "Forward Position",
    "Burden of Trust", "Centre Ground", "A Tempting Target", "Secure No Man's Land", "Beacon", "Display of Might",
    "Outflank", "Plunder",
}
EITHER, MINE, THEIRS = Window.END_OF_EITHER_TURN, Window.END_OF_YOUR_TURN, Window.END_OF_OPPONENT_TURN
# ref §1.4 scoring table: card -> (mode, window, VP, counted per item, "up to" limit) of every row, in any order.
SCORING = {
    "Assassination": [("fixed", EITHER, 1, True, None), ("fixed", EITHER, 3, True, None),
                      ("tactical", EITHER, 5, False, None), ("tactical", EITHER, 5, False, None)],
    "A Grievous Blow": [("fixed", EITHER, 4, True, None), ("tactical", EITHER, 5, False, None)],
    "Bring It Down": [("fixed", EITHER, 4, True, None), ("tactical", EITHER, 5, False, None)],
    "Engage on All Fronts": [("fixed", MINE, 2, False, None), ("fixed", MINE, 4, False, None),
                             ("tactical", MINE, 3, False, None), ("tactical", MINE, 5, False, None)],
    "Behind Enemy Lines": [("both", MINE, 3, True, 5)],
    "No Prisoners": [("both", EITHER, 2, True, 5)],
    "Overwhelming Force": [("both", EITHER, 3, True, 5)],
    "Cleanse": [("both", MINE, 2, False, None), ("both", MINE, 5, False, None)],
    "Plunder": [("both", MINE, 5, False, None)],
    "Defend Stronghold": [("both", THEIRS, 2, False, None), ("both", THEIRS, 3, False, None)],
    "Burden of Trust": [("both", THEIRS, 2, True, 5)],
    "Beacon": [("both", THEIRS, 3, False, None), ("both", THEIRS, 5, False, None)],
    "Forward Position": [("both", MINE, 5, False, None), ("both", MINE, 5, False, None)],
    "Centre Ground": [("both", MINE, 3, False, None), ("both", MINE, 5, False, None)],
    "Outflank": [("both", MINE, 3, False, None), ("both", MINE, 5, False, None)],
    "Secure No Man's Land": [("both", MINE, 5, False, None)],
    "A Tempting Target": [("both", MINE, 5, False, None)],
    "Display of Might": [("both", MINE, 2, False, None), ("both", THEIRS, 5, False, None)],
}
# ref §1.4 When Drawn table: card -> (kind, mandatory); the set-up steps always happen.
WHEN_DRAWN = {
    "Behind Enemy Lines": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, False),
    "Forward Position": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, False),
    "Defend Stronghold": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, True),
    "A Grievous Blow": (WhenDrawnKind.DISCARD_IF, False),
    "Bring It Down": (WhenDrawnKind.DISCARD_IF, False),
    "Cleanse": (WhenDrawnKind.RESHUFFLE_IF_ACTIVE, False),
    "Plunder": (WhenDrawnKind.RESHUFFLE_IF_ACTIVE, False),
    "A Tempting Target": (WhenDrawnKind.OPPONENT_PICKS_OBJECTIVE, True),
    "Beacon": (WhenDrawnKind.DRAWER_PICKS_UNIT, True),
    "Burden of Trust": (WhenDrawnKind.ASSIGN_GUARDS, True),
}
TWISTS = ["Martial Pride", "Mirrored World", "Night Fighting", "Nowhere to Hide", "Ruinscape",
          "Scrambled Communications"]
MIRROR_ROLL = {1: "Battlefield Dominance", 2: "Meatgrinder", 3: "Outmanoeuvre", 4: "Gather Intel", 5: "Sabotage",
               6: None}
DEPLOYMENTS = ["Tipping Point", "Hammer and Anvil", "Sweeping Engagement", "Dawn of War", "Search and Destroy",
               "Crucible of Battle"]


@pytest.fixture(scope="module")
def pack() -> Catalog:
    return load_catalog(pack_dir(PACK))


def by_name(pack: Catalog) -> dict[str, str]:
    """Disposition name -> id."""
    return {d.name: d.id for d in pack.dispositions}


def test_the_pack_is_named(pack: Catalog) -> None:
    assert (pack.pack, pack.title) == (PACK, "Chapter Approved 2026-27")


def test_five_force_dispositions(pack: Catalog) -> None:
    assert [d.name for d in pack.dispositions] == DISPOSITIONS


def test_the_matrix_is_the_reference_table(pack: Catalog) -> None:
    ids = by_name(pack)
    table = {mine: [pack.primary_for(ids[mine], ids[theirs]).name for theirs in DISPOSITIONS]
             for mine in DISPOSITIONS}
    assert table == MATRIX


def test_25_cells_give_25_different_primaries(pack: Catalog) -> None:
    cells = [(d.id, theirs) for d in pack.dispositions for theirs in d.missions]
    missions = {pack.primary_for(*cell).id for cell in cells}
    assert len(cells) == 25 and len(missions) == 25
    assert missions == {p.id for p in pack.primaries}


def test_a_mirror_gives_both_players_one_card_and_other_pairings_differ(pack: Catalog) -> None:
    ids = [d.id for d in pack.dispositions]
    for a in ids:
        for b in ids:
            same = pack.primary_for(a, b) == pack.primary_for(b, a)
            assert same == (a == b), (a, b)


def test_each_primary_names_its_pairing(pack: Catalog) -> None:
    for p in pack.primaries:
        assert p.pairing is not None and pack.primary_for(*p.pairing) == p


def test_a_matrix_that_contradicts_a_pairing_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / PACK
    shutil.copytree(pack_dir(PACK), copy)
    path = copy / "dispositions.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("purge-the-foe: immovable-object", "purge-the-foe: determined-acquisition")
                    .replace("disruption: determined-acquisition", "disruption: immovable-object"), encoding="utf-8")
    with pytest.raises(DeckError, match="pairing"):
        load_catalog(copy)


def test_primaries_with_actions_are_the_reference_list(pack: Catalog) -> None:
    assert {p.name for p in pack.primaries if p.action} == WITH_ACTIONS


def test_primary_rows_follow_the_2026_27_windows(pack: Catalog) -> None:
    for p in pack.primaries:
        for o in p.scoring:
            assert not o.fifth_round_going_second, (p.id, o.id)  # the 2025-26 "going second" switch
            if o.window == Window.END_OF_COMMAND_PHASE and o.to_round is None:
                # From round 2, and the round-5 switch to the end of your turn is for both players (ref §1.3).
                assert o.from_round == 2 and o.fifth_round_end_of_turn, (p.id, o.id)
    switching = [p.id for p in pack.primaries if any(o.fifth_round_end_of_turn for o in p.scoring)]
    assert len(switching) >= 20  # "most cards" (ref §1.3)


def test_primaries_carry_the_reference_marks(pack: Catalog) -> None:
    for item in (*pack.primaries, *pack.secondaries, *pack.twists, *pack.dispositions, *pack.deployment_cards,
                 *pack.event_layouts):
        assert item.confidence in ("confirmed", "likely", "uncertain"), item.id
        assert item.sources and all(re.fullmatch(r"S\d+", s) for s in item.sources), item.id
    assert {d.confidence for d in pack.dispositions} == {"confirmed"}  # the matrix is [CONFIRMED]
    assert {p.confidence for p in pack.primaries} == {"likely"}  # the values are [LIKELY, strong]


def test_18_secondaries_4_of_them_fixed(pack: Catalog) -> None:
    assert {s.name for s in pack.secondaries} == FIXED | TACTICAL_ONLY and len(pack.secondaries) == 18
    assert {s.name for s in pack.secondaries if s.fixed} == FIXED
    assert {s.name for s in pack.secondaries if s.tournament_fixed} == FIXED  # no event restriction (S1)
    for s in pack.secondaries:
        modes = {o.mode for o in s.scoring}
        assert modes == ({"fixed", "tactical"} if s.fixed else {"both"}), s.name


def test_secondary_scoring_is_the_reference_table(pack: Catalog) -> None:
    rows = {s.name: sorted((o.mode, o.window, o.vp, o.per is not None, o.max_per_turn) for o in s.scoring)
            for s in pack.secondaries}
    assert rows == {name: sorted(expected) for name, expected in SCORING.items()}


def test_secondary_late_windows(pack: Catalog) -> None:
    for name in ("Defend Stronghold", "Burden of Trust", "Beacon"):  # "... or the end of the fifth battle round"
        assert all(o.or_end_of_battle for o in next(s for s in pack.secondaries if s.name == name).scoring), name
    stronghold = next(s for s in pack.secondaries if s.name == "Defend Stronghold")
    assert [(o.from_round, o.cumulative) for o in stronghold.scoring] == [(2, False), (2, True)]


def test_ten_when_drawn_clauses(pack: Catalog) -> None:
    clauses = {s.name: (s.when_drawn.kind, s.when_drawn.mandatory) for s in pack.secondaries if s.when_drawn}
    assert clauses == WHEN_DRAWN
    cards = {s.name: s for s in pack.secondaries}
    cleanse, plunder = cards["Cleanse"].when_drawn, cards["Plunder"].when_drawn
    assert cleanse and plunder and (cleanse.if_active, plunder.if_active) == ("plunder", "cleanse")
    guards = cards["Burden of Trust"].when_drawn
    assert guards and guards.again_at_start_of_your_turn
    for name in ("A Grievous Blow", "Bring It Down"):  # the battlefield, not the army list (ref §4 item 4)
        when = cards[name].when_drawn
        assert when and when.condition and "battlefield" in when.condition


def test_caps_and_deck_handling(pack: Catalog) -> None:
    rules, caps = pack.rules, pack.rules.caps
    assert (caps.primary, caps.primary_per_round, caps.secondary, caps.secondary_per_round) == (45, 15, 45, 15)
    assert (caps.fixed_card, caps.battle_ready, caps.total) == (20, 10, 100)
    assert caps.end_of_battle_outside_round_caps
    assert (rules.tactical_draws_per_command_phase, rules.fixed_cards, rules.battle_rounds) == (2, 2, 5)
    assert rules.swap is not None
    assert (rules.swap.cp, rules.swap.per_battle, rules.swap.window) == (1, 1, Window.END_OF_COMMAND_PHASE)
    assert rules.discard_cp == 1  # in your own turn only: the 2026-27 season's rules (season_2026.py)
    assert (rules.command_phase_cp, rules.extra_cp_per_round) == (1, 1)


def test_no_challenger_cards(pack: Catalog) -> None:
    assert pack.challengers == () and not pack.rules.challenger_deck and pack.rules.caps.challenger == 0


def test_six_twists_two_of_them_change_primaries(pack: Catalog) -> None:
    assert [t.name for t in pack.twists] == TWISTS
    assert {t.name: t.primary_effect for t in pack.twists if t.primary_effect} == {
        "Mirrored World": "mirror_roll", "Scrambled Communications": "swap"}
    assert not any(t.adapt_or_die for t in pack.twists)


def test_the_mirrored_world_table(pack: Catalog) -> None:
    mirrored = next(t for t in pack.twists if t.name == "Mirrored World")
    assert mirrored.primary_roll is not None
    names = {roll: pack.primary(mission).name if mission else None for roll, mission in mirrored.primary_roll.items()}
    assert names == MIRROR_ROLL
    mirrors = {pack.primary_for(d.id, d.id).name for d in pack.dispositions}
    assert {n for n in names.values() if n} == mirrors  # the five mirror-match missions


def test_six_deployment_cards_without_maps(pack: Catalog) -> None:
    assert [d.name for d in pack.deployment_cards] == DEPLOYMENTS
    assert pack.deployments == () and pack.layouts == () and pack.pool == ()


def test_event_layouts_a_b_c_for_each_pairing(pack: Catalog) -> None:
    pairs = [frozenset(e.dispositions) for e in pack.event_layouts]
    ids = [d.id for d in pack.dispositions]
    assert sorted(map(sorted, pairs)) == sorted(sorted({a, b}) for i, a in enumerate(ids) for b in ids[i:])
    assert all(e.layouts == ("A", "B", "C") for e in pack.event_layouts)
    layout_ids = [i for e in pack.event_layouts for i in e.layout_ids()]
    assert len(layout_ids) == len(set(layout_ids)) == 45


def test_faq_rulings_name_cards_of_the_pack(pack: Catalog) -> None:
    ids = {c.id for c in (*pack.primaries, *pack.secondaries)}
    assert pack.faq and all(set(entry.cards) <= ids for entry in pack.faq)


def test_the_2025_26_pack_has_none_of_it() -> None:
    old = default_catalog()
    assert (old.dispositions, old.deployment_cards, old.event_layouts) == ((), (), ())
    assert old.rules.swap is None and old.rules.tactical_draws_per_command_phase is None
    assert old.rules.challenger_deck
    assert old.rules.caps.primary_per_round is None and old.rules.caps.secondary_per_round is None
