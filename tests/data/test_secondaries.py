"""The Secondary Mission deck data against the seed text and card-facts.md (Fixed symbol, When Drawn)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import SecondaryCard, Window, WhenDrawnKind
from tests.data.conftest import as_printed

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"

ORDER = [
    "behind-enemy-lines", "storm-hostile-objective", "engage-on-all-fronts", "establish-locus",
    "cleanse", "assassination", "no-prisoners", "cull-the-horde", "bring-it-down",
    "defend-stronghold", "marked-for-death", "secure-no-mans-land", "sabotage", "area-denial",
    "recover-assets", "a-tempting-target", "extend-battle-lines", "overwhelming-force",
    "display-of-might",
]

# card-facts.md §1.1 [CONFIRMED]: the nine cards with the Fixed Mission symbol.
FIXED = {
    "behind-enemy-lines", "storm-hostile-objective", "engage-on-all-fronts", "establish-locus",
    "cleanse", "assassination", "no-prisoners", "cull-the-horde", "bring-it-down",
}
# Tournament Companion card amendment: No Prisoners cannot be selected as a Fixed Mission.
TOURNAMENT_FIXED = FIXED - {"no-prisoners"}

# card-facts.md §4.1: (kind, mandatory) of each card's When Drawn section, None where it has none.
WHEN_DRAWN: dict[str, tuple[WhenDrawnKind, bool] | None] = {
    "behind-enemy-lines": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, False),
    "storm-hostile-objective": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, False),
    "engage-on-all-fronts": (WhenDrawnKind.DEFINITION, False),
    "establish-locus": None,
    "cleanse": None,
    "assassination": None,
    "no-prisoners": None,
    "cull-the-horde": (WhenDrawnKind.DISCARD_IF, False),
    "bring-it-down": (WhenDrawnKind.DISCARD_IF, False),
    "defend-stronghold": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, True),
    "marked-for-death": (WhenDrawnKind.MARK_TARGETS, True),
    "secure-no-mans-land": None,
    "sabotage": None,
    "area-denial": None,
    "recover-assets": (WhenDrawnKind.DISCARD_IF, False),
    "a-tempting-target": (WhenDrawnKind.OPPONENT_PICKS_OBJECTIVE, True),
    "extend-battle-lines": None,
    "overwhelming-force": None,
    "display-of-might": (WhenDrawnKind.RESHUFFLE_FIRST_ROUND, True),
}

# WHEN line as printed -> (window, or_end_of_battle).
WINDOWS = {
    "End of your turn.": (Window.END_OF_YOUR_TURN, False),
    "End of either player’s turn.": (Window.END_OF_EITHER_TURN, False),
    "End of either player’s turn (if you are using Tactical Missions).": (Window.END_OF_EITHER_TURN, False),
    "End of your opponent’s turn or the end of the battle (whichever comes first).": (
        Window.END_OF_OPPONENT_TURN, True,
    ),
    "End of your turn or the end of the battle (whichever comes first).": (Window.END_OF_YOUR_TURN, True),
    "While this card is active.": (Window.WHILE_ACTIVE, False),
    "While this card is active (if you are using Fixed Missions).": (Window.WHILE_ACTIVE, False),
    "While this card is active (if you are using Tactical Missions).": (Window.WHILE_ACTIVE, False),
}


@pytest.fixture(scope="module")
def seed() -> str:
    return SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def cards() -> dict[str, SecondaryCard]:
    return {c.id: c for c in default_catalog().secondaries}


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def kebab(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("’", "")).strip("-")


def seed_blocks(seed: str) -> dict[str, str]:
    """Each card of the seed's Secondary Mission deck, keyed by its printed name."""
    section = seed.split("\nSecondary Mission deck\n", 1)[1].split("\nChallenger deck\n", 1)[0]
    blocks = [b.strip("\n") for b in section.split("\nSecondary Mission\n")[1:]]
    return {b.split("\n", 1)[0]: b for b in blocks}


def test_nineteen_cards_in_seed_order(cards):
    assert list(cards) == ORDER
    assert len(default_catalog().secondaries) == 19


def test_ids_are_unique_kebab_case_of_the_name(cards):
    ids = [c.id for c in default_catalog().secondaries]
    assert len(set(ids)) == len(ids)
    for card in cards.values():
        assert card.id == kebab(card.name)


def test_exactly_the_nine_fixed_cards(cards):
    assert {c.id for c in cards.values() if c.fixed} == FIXED


def test_tournament_fixed_excludes_no_prisoners(cards):
    assert {c.id for c in cards.values() if c.tournament_fixed} == TOURNAMENT_FIXED
    assert cards["no-prisoners"].fixed and not cards["no-prisoners"].tournament_fixed


def test_when_drawn_table_covers_every_card(cards):
    assert set(WHEN_DRAWN) == set(cards)


@pytest.mark.parametrize("card_id", ORDER)
def test_when_drawn_kind_and_mandatory(cards, card_id):
    card = cards[card_id]
    expected = WHEN_DRAWN[card_id]
    if expected is None:
        assert card.when_drawn is None
        assert "When Drawn:" not in card.text
        return
    assert card.when_drawn is not None
    assert (card.when_drawn.kind, card.when_drawn.mandatory) == expected
    assert f"When Drawn: {card.when_drawn.text}\n" in card.text


def test_discard_if_conditions_are_questions(cards):
    for card in cards.values():
        wd = card.when_drawn
        if wd is not None and wd.kind == WhenDrawnKind.DISCARD_IF:
            assert wd.condition and wd.condition.endswith("?")
        elif wd is not None:
            assert wd.condition is None
    assert "INFANTRY" in cards["cull-the-horde"].when_drawn.condition
    assert "13+" in cards["cull-the-horde"].when_drawn.condition
    assert "MONSTER or VEHICLE" in cards["bring-it-down"].when_drawn.condition
    assert "fewer than three units" in cards["recover-assets"].when_drawn.condition


def test_when_drawn_extras(cards):
    assert cards["recover-assets"].when_drawn.holds_in_sizes == ("incursion",)
    assert cards["marked-for-death"].when_drawn.alpha_count == 3
    others = [c for c in cards.values() if c.when_drawn and c.id not in {"recover-assets", "marked-for-death"}]
    assert all(c.when_drawn.holds_in_sizes == () and c.when_drawn.alpha_count is None for c in others)


@pytest.mark.parametrize("card_id", ORDER)
def test_name_flavour_and_text_match_the_seed(seed, cards, card_id):
    card = cards[card_id]
    blocks = seed_blocks(seed)
    name = as_printed(card.name, seed)
    assert f"\n{name}\n" in seed
    assert card.flavour in seed
    assert name in blocks
    printed = name + card.flavour + card.text
    if card.designer_note:
        printed += "Designer’s Note: " + card.designer_note
    # Only whitespace may differ: the seed glues "VICTORY POINTS" and FIXED/TACTICAL onto lines.
    assert squash(printed) == squash(blocks[name])
    # ... and no words were split or joined: every line is printed as such.
    for line in (card.text + "\n" + (card.action or "")).splitlines():
        assert line.strip() in seed, line


def test_designer_note_only_on_overwhelming_force(cards):
    assert [c.id for c in cards.values() if c.designer_note] == ["overwhelming-force"]


@pytest.mark.parametrize("card_id", ORDER)
def test_action_block(cards, card_id):
    card = cards[card_id]
    if "(ACTION)" not in card.text:
        assert card.action is None
        return
    assert card.action is not None
    assert card.action.strip() in card.text
    assert card.action.splitlines()[0].endswith("(ACTION)")
    assert "IF COMPLETED:" in card.action


@pytest.mark.parametrize("card_id", ORDER)
def test_scoring_options_come_from_the_text(seed, cards, card_id):
    card = cards[card_id]
    assert card.scoring
    for option in card.scoring:
        assert 0 < len(option.label) <= 40
        assert option.text in card.text and option.text in seed
        assert f"WHEN: {option.when}\n" in card.text
        assert f"{'+' if option.cumulative else ''}{option.vp}VP" in card.text
        if option.max_per_turn is not None:
            assert f"(UP TO {option.max_per_turn}VP)" in card.text
        assert option.per is None and option.by_round is None
        assert not option.fifth_round_going_second


@pytest.mark.parametrize("card_id", ORDER)
def test_windows_follow_the_when_line(cards, card_id):
    for option in cards[card_id].scoring:
        assert (option.window, option.or_end_of_battle) == WINDOWS[option.when], option.id


def test_second_round_onwards_options(cards):
    late = {(c.id, o.id) for c in cards.values() for o in c.scoring if o.from_round == 2}
    assert late == {("storm-hostile-objective", "took-objective-enemy-held-none"), ("defend-stronghold", "hold-home-objective")}
    assert all(o.from_round in (1, 2) for c in cards.values() for o in c.scoring)


def test_modes_follow_the_markers(cards):
    for card in cards.values():
        for option in card.scoring:
            if "(if you are using Fixed Missions)" in option.when:
                assert option.mode == "fixed", (card.id, option.id)
            elif "(if you are using Tactical Missions)" in option.when:
                assert option.mode == "tactical", (card.id, option.id)
            if option.mode != "both":
                assert option.mode.upper() in card.text, (card.id, option.id)
        if "\nFIXED\n" not in card.text and "\nTACTICAL\n" not in card.text:
            assert all(o.mode == "both" for o in card.scoring), card.id
        if not card.fixed:
            assert "FIXED" not in card.text and "TACTICAL" not in card.text


def test_cleanse_fixed_four_tactical_five(cards):
    modes = {(o.mode, o.vp) for o in cards["cleanse"].scoring}
    assert modes == {("both", 2), ("fixed", 4), ("tactical", 5)}
    assert len({o.group for o in cards["cleanse"].scoring}) == 1


def test_assassination_fixed_while_active_tactical_either_turn(cards):
    options = cards["assassination"].scoring
    fixed = [o for o in options if o.mode == "fixed"]
    tactical = [o for o in options if o.mode == "tactical"]
    assert sorted(o.vp for o in fixed) == [3, 4] and sorted(o.vp for o in tactical) == [5, 5]
    assert all(o.window == Window.WHILE_ACTIVE and o.group is None for o in fixed)
    assert all(o.window == Window.END_OF_EITHER_TURN for o in tactical)
    assert len({o.group for o in tactical}) == 1 and tactical[0].group


def test_caps_up_to_five(cards):
    capped = {(c.id, o.id, o.max_per_turn) for c in cards.values() for o in c.scoring if o.max_per_turn}
    assert capped == {
        ("no-prisoners", "unit-destroyed-fixed", 5),
        ("no-prisoners", "unit-destroyed-tactical", 5),
        ("overwhelming-force", "unit-on-objective-destroyed", 5),
    }


def test_bring_it_down_cumulative_rows(cards):
    options = cards["bring-it-down"].scoring
    cumulative = [o for o in options if o.cumulative]
    assert [o.vp for o in cumulative] == [2, 2]
    assert all(o.mode == "fixed" and o.window == Window.WHILE_ACTIVE for o in cumulative)
    assert cards["bring-it-down"].text.count("+2VP\n(CUMULATIVE)") == 2
    assert not any(o.cumulative for c in cards.values() if c.id != "bring-it-down" for o in c.scoring)


@pytest.mark.parametrize("card_id", ORDER)
def test_or_alternatives_share_a_group(cards, card_id):
    card = cards[card_id]
    groups: dict[str, int] = {}
    for option in card.scoring:
        if option.group:
            groups[option.group] = groups.get(option.group, 0) + 1
    assert all(n >= 2 for n in groups.values()), groups
    # Each printed OR joins two alternatives of one group.
    ors = card.text.count("\nOR\n")
    assert (ors > 0) == bool(groups)
    assert sum(n - 1 for n in groups.values()) >= ors
