"""The Challenger and Twist decks against the seed text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import ChallengerCard, Twist, Window
from tests.data.conftest import as_printed

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"

CHALLENGERS = [
    "burst-of-speed", "opportunistic-strike", "force-a-breach", "great-haste", "pivotal-moment",
    "renewed-focus", "harboured-power", "all-in", "strategic-retreat",
]
TWISTS = [
    "martial-pride", "ruinscape", "night-fighting", "high-octane", "rapid-escalation",
    "bloodlust", "adapt-or-die", "lords-of-war", "point-blank",
]
# Missions scored per counted item: card id -> (per, vp, up to).
COUNTED = {"harboured-power": ("objective marker", 1, 3), "strategic-retreat": ("area", 1, 3)}


@pytest.fixture(scope="module")
def seed() -> str:
    return SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def challengers() -> dict[str, ChallengerCard]:
    return {c.id: c for c in default_catalog().challengers}


@pytest.fixture(scope="module")
def twists() -> dict[str, Twist]:
    return {t.id: t for t in default_catalog().twists}


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def kebab(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("’", "")).strip("-")


def seed_section(seed: str, start: str, end: str, separator: str) -> dict[str, str]:
    section = seed.split(f"\n{start}\n", 1)[1].split(f"\n{end}\n", 1)[0]
    blocks = [b.strip("\n") for b in section.split(f"\n{separator}\n")[1:]]
    return {b.split("\n", 1)[0]: b for b in blocks}


def test_nine_challengers_in_seed_order(challengers):
    assert list(challengers) == CHALLENGERS
    assert len(default_catalog().challengers) == 9


def test_challenger_ids_and_names(challengers):
    for card in challengers.values():
        assert card.id == kebab(card.name)
        assert card.name == card.stratagem.name
        assert card.stratagem.cp == 0
        assert card.stratagem.category.startswith("Challenger – ")
        assert card.stratagem.category.endswith(" Stratagem")


@pytest.mark.parametrize("card_id", CHALLENGERS)
def test_challenger_matches_the_seed(seed, challengers, card_id):
    card = challengers[card_id]
    s, m = card.stratagem, card.mission
    blocks = seed_section(seed, "Challenger deck", "Twist deck", "Challenger")
    name, mission = as_printed(card.name, seed), m.name.upper()
    assert f"\n{name}\n" in seed and s.flavour in seed and s.category in seed
    printed = (
        f"{as_printed(s.name, seed)} 0CP {s.category} {s.flavour} WHEN: {s.when} TARGET: {s.target} EFFECT: {s.effect}"
        f" CHALLENGER STRATAGEM OR CHALLENGER MISSION {mission} {m.text}"
    )
    # Only whitespace may differ: the seed glues "VICTORY POINTS" onto the mission name.
    assert squash(printed) == squash(blocks[name])
    # ... and no words were split or joined.
    for part in (s.when, s.target, s.effect, mission, *m.text.splitlines()):
        assert part.strip() in seed, part


@pytest.mark.parametrize("card_id", CHALLENGERS)
def test_challenger_mission_scoring(challengers, card_id):
    mission = challengers[card_id].mission
    assert len(mission.scoring) == 1
    option = mission.scoring[0]
    assert 0 < len(option.label) <= 40
    assert squash(option.text) in squash(mission.text)
    assert f"{option.vp}VP" in mission.text
    assert option.mode == "both" and option.group is None and not option.cumulative
    if card_id in COUNTED:
        assert (option.per, option.vp, option.max_per_turn) == COUNTED[card_id]
        assert f"(UP TO {option.max_per_turn}VP)" in mission.text
    else:
        assert (option.per, option.vp, option.max_per_turn) == (None, 3, None)
    if "COMPLETES: Immediately." in mission.text:
        assert mission.name.endswith("(Action)")
        assert option.window == Window.ANY_TIME
    else:
        assert option.window == Window.END_OF_YOUR_TURN
        assert "WHEN: End of your turn." in mission.text or "COMPLETES: End of your turn" in mission.text


def test_action_missions(challengers):
    actions = {c.id for c in challengers.values() if c.mission.name.endswith("(Action)")}
    assert actions == {"force-a-breach", "renewed-focus", "all-in"}
    others = [c for c in challengers.values() if c.id not in actions]
    assert all(c.mission.name.endswith("(Any Battle Round)") for c in others)


def test_nine_twists_in_seed_order(twists):
    assert list(twists) == TWISTS
    assert len(default_catalog().twists) == 9
    for twist in twists.values():
        assert twist.id == kebab(twist.name)


@pytest.mark.parametrize("twist_id", TWISTS)
def test_twist_matches_the_seed(seed, twists, twist_id):
    twist = twists[twist_id]
    blocks = seed_section(seed, "Twist deck", "Attached Units", "Twist")
    name = as_printed(twist.name, seed)
    assert f"\n{name}\n" in seed and twist.flavour in seed
    printed = name + twist.flavour + twist.text
    if twist.designer_note:
        printed += "Designer’s Note: " + twist.designer_note
    assert squash(printed) == squash(blocks[name])
    for paragraph in twist.text.split("\n\n"):
        assert paragraph.strip() in seed


def test_only_adapt_or_die_changes_the_secondary_flow(twists):
    assert [t.id for t in twists.values() if t.adapt_or_die] == ["adapt-or-die"]
    assert "Fixed Mission symbol" in twists["adapt-or-die"].text


def test_designer_note_only_on_night_fighting(twists):
    assert [t.id for t in twists.values() if t.designer_note] == ["night-fighting"]
