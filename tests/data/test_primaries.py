"""The Primary Mission decks: every card and scoring option checked against the seed's card text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import PrimaryMission, ScoringOption, Scorer, Window, cumulative_base

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"
SEED_LINES = SEED.read_text(encoding="utf-8").splitlines()
NOTE_PREFIX = "Designer’s Note: "

PRIMARY_NAMES = {
    "Linchpin", "Burden of Trust", "Take and Hold", "Terraform", "Purge the Foe",
    "Scorched Earth", "Unexploded Ordnance", "Hidden Supplies", "The Ritual", "Supply Drop",
}
ASYMMETRIC_NAMES = {"Syphoned Power", "Establish Control", "Uneven Ground", "Denied Resources", "Hold Out"}

# WHEN line as printed -> (window, also at the end of your turn in round 5 when going second).
WINDOWS = {
    "End of the Command phase (or the end of your turn if it is the fifth battle round and you are going second).":
        (Window.END_OF_COMMAND_PHASE, True),
    "End of each player’s turn.": (Window.END_OF_EITHER_TURN, False),
    "End of the turn.": (Window.END_OF_EITHER_TURN, False),
    "End of the battle round.": (Window.END_OF_BATTLE_ROUND, False),
    "Any time.": (Window.ANY_TIME, False),
    "Start of the Battle": (Window.START_OF_BATTLE, False),
}
HEADER = re.compile(r"^(ANY BATTLE ROUND|SECOND BATTLE ROUND ONWARDS|ANYTIME)( \((ATTACKER|DEFENDER)\))?$")
# The FAQ rules that the player going first scores Burden of Trust guarding at the end of their
# opponent's first turn, although the card's block says SECOND BATTLE ROUND ONWARDS.
FAQ_FROM_ROUND_1 = {("burden-of-trust", "guarding")}


@dataclass
class Block:
    """One scoring block of a card's text: header, WHEN line and the lines after them."""

    header: str | None
    when: str | None
    body: list[str] = field(default_factory=list)


def seed_cards() -> dict[str, tuple[list[str], bool]]:
    """Card name (as printed, upper case) -> (its lines after the name, in the Asymmetric War deck)."""
    start = SEED_LINES.index("Primary Mission deck")
    asymmetric_start = SEED_LINES.index("Asymmetry War Primary Mission deck")
    end = SEED_LINES.index("Strike Force Deployment deck")
    cards: dict[str, tuple[list[str], bool]] = {}
    heads = [i for i in range(start, end) if SEED_LINES[i] == "Primary Mission"]
    for i, head in enumerate(heads):
        stop = heads[i + 1] if i + 1 < len(heads) else end
        if head < asymmetric_start < stop:
            stop = asymmetric_start
        cards[SEED_LINES[head + 1]] = (SEED_LINES[head + 2:stop], head > asymmetric_start)
    return cards


SEED_CARDS = seed_cards()


def catalog_primaries() -> tuple[PrimaryMission, ...]:
    return default_catalog().primaries


def blocks(card: PrimaryMission) -> list[Block]:
    out = [Block(None, None)]
    for line in card.text.splitlines():
        if not line:
            continue
        if HEADER.match(line) or line.endswith("(ACTION)"):
            out.append(Block(line, None))
        elif line.startswith("WHEN: ") and out[-1].when is None and not out[-1].body:
            out[-1].when = line.removeprefix("WHEN: ")
        else:
            out[-1].body.append(line)
    return out


def block_index(card: PrimaryMission, option: ScoringOption) -> int:
    found = [i for i, b in enumerate(blocks(card)) if option.text in " ".join(b.body)]
    assert len(found) == 1, f"{card.id}/{option.id}: text found in {len(found)} blocks"
    return found[0]


def block_of(card: PrimaryMission, option: ScoringOption) -> Block:
    return blocks(card)[block_index(card, option)]


def context(block: Block, option: ScoringOption) -> tuple[str, str]:
    """(line introducing the bullets or "", the printed line holding the option's text)."""
    line = next(line for line in block.body if option.text in line)
    if not line.startswith("•"):
        return "", line
    intro = [b for b in block.body[: block.body.index(line)] if not b.startswith("•")]
    return intro[-1], line


def cap(text: str) -> int | None:
    found = re.search(r"\(up to (\d+)VP per turn\)", text)
    return int(found.group(1)) if found else None


def options() -> list[tuple[PrimaryMission, ScoringOption]]:
    return [(card, option) for card in catalog_primaries() for option in card.scoring]


def option_id(pair: tuple[PrimaryMission, ScoringOption]) -> str:
    return f"{pair[0].id}/{pair[1].id}"


# --- the deck ---------------------------------------------------------------------------------------


def test_deck_has_the_ten_primaries_and_five_asymmetric_war_primaries():
    primaries = catalog_primaries()
    assert {p.name for p in primaries if not p.asymmetric} == PRIMARY_NAMES
    assert {p.name for p in primaries if p.asymmetric} == ASYMMETRIC_NAMES
    assert len(primaries) == 15
    assert len(default_catalog().primaries_for("strike-force")) == 10
    assert len(default_catalog().primaries_for("asymmetric-war")) == 5


def test_ids_are_unique_kebab_case_names():
    ids = [p.id for p in catalog_primaries()]
    assert len(set(ids)) == len(ids)
    for p in catalog_primaries():
        assert p.id == p.name.lower().replace(" ", "-")


def test_the_seed_prints_exactly_these_cards():
    assert set(SEED_CARDS) == {p.name.upper() for p in catalog_primaries()}


@pytest.mark.parametrize("card", catalog_primaries(), ids=lambda c: c.id)
def test_name_and_flavour_are_printed_on_the_card(card: PrimaryMission):
    lines, in_asymmetric_deck = SEED_CARDS[card.name.upper()]
    assert lines[0] == ""
    assert lines[1] == card.flavour
    assert card.asymmetric == in_asymmetric_deck


@pytest.mark.parametrize("card", catalog_primaries(), ids=lambda c: c.id)
def test_text_is_the_card_text_after_the_flavour(card: PrimaryMission):
    lines, _ = SEED_CARDS[card.name.upper()]
    printed = [line.strip() for line in lines[2:] if line.strip() and not line.startswith(NOTE_PREFIX)]
    assert [line for line in card.text.splitlines() if line] == printed
    notes = [line.removeprefix(NOTE_PREFIX) for line in lines if line.startswith(NOTE_PREFIX)]
    assert card.designer_note == (notes[0] if notes else None)


@pytest.mark.parametrize("card", catalog_primaries(), ids=lambda c: c.id)
def test_action_is_the_action_block_of_the_text(card: PrimaryMission):
    lines = card.text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.endswith("(ACTION)")]
    if not starts:
        assert card.action is None
        return
    assert len(starts) == 1 and card.action is not None
    end = next(i for i in range(starts[0], len(lines)) if lines[i].startswith("IF COMPLETED: "))
    assert card.action == "\n".join(lines[starts[0]: end + 1]) + "\n"


def test_random_setup_only_on_supply_drop_and_hidden_supplies():
    setups = {p.id: p.random_setup for p in catalog_primaries() if p.random_setup}
    assert setups == {"supply-drop": "supply_drop", "hidden-supplies": "hidden_supplies"}


# --- scoring options ----------------------------------------------------------------------------------


@pytest.mark.parametrize("card", catalog_primaries(), ids=lambda c: c.id)
def test_every_scoring_block_of_the_card_has_an_option(card: PrimaryMission):
    assert card.scoring
    scored = {block_index(card, o) for o in card.scoring}
    for index, block in enumerate(blocks(card)):
        if block.when is not None:  # blocks without a WHEN line are rules, not scoring
            assert index in scored, f"{card.id}: no option for {block.header}"


@pytest.mark.parametrize("pair", options(), ids=option_id)
def test_window_follows_the_when_line(pair):
    card, option = pair
    block = block_of(card, option)
    window, fifth_round_going_second = WINDOWS[option.when]
    assert option.window == window
    assert option.fifth_round_going_second == fifth_round_going_second
    if block.when is None:  # "Start of the Battle: ..." rules line before the first block
        assert context(block, option)[1].startswith(f"{option.when}: ")
    else:
        assert option.when == block.when


@pytest.mark.parametrize("pair", options(), ids=option_id)
def test_from_round_follows_the_block_header(pair):
    card, option = pair
    header = block_of(card, option).header or ""
    expected = 2 if header.startswith("SECOND BATTLE ROUND ONWARDS") else 1
    if (card.id, option.id) in FAQ_FROM_ROUND_1:
        expected = 1
    assert option.from_round == expected


@pytest.mark.parametrize("pair", options(), ids=option_id)
def test_scorer_follows_the_printed_subject(pair):
    card, option = pair
    block = block_of(card, option)
    sentence = " ".join(context(block, option)).strip()
    side = re.search(r"\((ATTACKER|DEFENDER)\)", block.header or "")
    if side:
        expected = Scorer(side.group(1).lower())
    elif "The Defender scores" in sentence:
        expected = Scorer.DEFENDER
    elif "The opponent of the player whose turn it is" in sentence:
        expected = Scorer.OPPONENT_OF_ACTIVE
    elif "the player whose turn it is" in sentence.lower():
        expected = Scorer.ACTIVE
    elif sentence.startswith(("Each player", "Each time a player")):
        expected = Scorer.EACH
    else:
        pytest.fail(f"no scorer printed for {card.id}/{option.id}")
    assert option.scorer == expected


@pytest.mark.parametrize("pair", options(), ids=option_id)
def test_vp_per_and_cap_follow_the_printed_condition(pair):
    card, option = pair
    block = block_of(card, option)
    assert option.text in card.text
    if option.by_round is None:
        assert option.vp == int(re.search(r"(\d+)VP", option.text).group(1))
    assert (option.per is not None) == ("for each" in option.text)
    intro, _ = context(block, option)
    # A cap printed in the option's own sentence, or before bullets for all of them.
    assert option.max_per_turn == (cap(option.text) or cap(intro))
    assert len(option.label) <= 40


@pytest.mark.parametrize("card", catalog_primaries(), ids=lambda c: c.id)
def test_alternatives_share_a_group_and_additions_are_cumulative(card: PrimaryMission):
    for index, block in enumerate(blocks(card)):
        in_block = [o for o in card.scoring if block_index(card, o) == index]
        if "OR" in block.body:
            groups = {o.group for o in in_block}
            assert len(groups) == 1 and None not in groups
        else:
            assert all(o.group is None for o in in_block)
        cumulative_bullets = any("(these are cumulative)" in line for line in block.body)
        for index, option in enumerate(in_block):
            # An add-on: "and ..." continuing the sentence before, or a cumulative bullet raising the count of
            # the bullet before ("two objective markers" after "one objective marker"); other bullets add up
            # without needing one another.
            raises_count = cumulative_bullets and index > 0 and option.text == in_block[index - 1].text.replace(
                "one objective marker", "two objective markers")
            assert option.cumulative == (option.text.startswith("and ") or raises_count), f"{card.id}/{option.id}"


def test_every_cumulative_add_on_and_its_base():
    """The audit of every cumulative option of the pack: the option it adds to (printed just before it)."""
    catalog = default_catalog()
    cards = [*catalog.primaries, *catalog.secondaries]
    found = {
        (card.id, option.id): cumulative_base(card.scoring, option).id
        for card in cards for option in card.scoring if option.cumulative
    }
    assert found == {
        ("linchpin", "home-others"): "home",
        ("purge-the-foe", "control-more"): "control-one",
        ("hidden-supplies", "two-outside"): "one-outside",
        ("establish-control", "zone-others"): "zone",
        ("bring-it-down", "wounds-15-plus"): "monster-vehicle-destroyed",
        ("bring-it-down", "wounds-20-plus"): "wounds-15-plus",
    }
    assert not any(o.cumulative for c in catalog.challengers for o in c.mission.scoring)


def test_supply_drop_vp_by_round_is_the_printed_table():
    card = default_catalog().primary("supply-drop")
    (option,) = card.scoring
    ordinals = {"second": 2, "third": 3, "fourth": 4, "fifth": 5}
    printed: dict[int, int] = {}
    for line in card.text.splitlines():
        if line.startswith("•"):
            vp = int(re.search(r"(\d+)VP", line).group(1))
            for word, battle_round in ordinals.items():
                if word in line:
                    printed[battle_round] = vp
    assert option.by_round == printed == {2: 5, 3: 5, 4: 8, 5: 15}
    assert option.vp == printed[option.from_round]


def test_syphoned_power_gives_the_defender_50vp_at_the_start():
    (start,) = [o for o in default_catalog().primary("syphoned-power").scoring if o.window == Window.START_OF_BATTLE]
    assert (start.vp, start.scorer) == (50, Scorer.DEFENDER)


def test_burn_and_deny_options_name_the_area_of_the_marker_they_remove():
    """Scorched Earth burns and Denied Resources denies a marker: scoring names it, and it leaves the table."""
    catalog = default_catalog()
    removing = {(p.id, o.id): o.removes_objective for p in catalog.primaries for o in p.scoring if o.removes_objective}
    assert removing == {
        ("scorched-earth", "burn-nml"): "no_mans_land",
        ("scorched-earth", "burn-enemy-zone"): "opponent_zone",
        ("denied-resources", "deny-own-zone"): "own_zone",
        ("denied-resources", "deny-nml"): "no_mans_land",
        ("denied-resources", "deny-enemy-zone"): "opponent_zone",
    }
    assert [p.id for p in catalog.primaries if p.sets_up_objectives] == ["the-ritual"]
