"""The Grand Tournament 2020 data against the pack's text (../shared/seeds/000_e0a0e7dd45b18688.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.decks import grand_tournament
from bot.engine.gt2020.catalog import GrandTournament

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_e0a0e7dd45b18688.txt"


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("**", "")).strip()


@pytest.fixture(scope="module")
def raw() -> str:
    return SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seed(raw: str) -> str:
    return flat(raw)


@pytest.fixture(scope="module")
def pack() -> GrandTournament:
    return grand_tournament()


@pytest.mark.parametrize("size, heading", [("incursion", "D33\tMISSION"), ("strike-force", "STRIKE FORCE MISSIONS")])
def test_the_d33_tables_are_the_packs(raw: str, pack: GrandTournament, size: str, heading: str) -> None:
    table = raw.split(heading, 1)[1]
    rows = re.findall(r"^\s*(\d\d)\t(.+?) \(pg \d+\)$", table, flags=re.M)[:9]
    assert [(int(n), name) for n, name in rows] == [(m.d33, m.name) for m in sorted(
        (m for m in pack.missions if m.size == size), key=lambda m: m.d33)]


def test_every_mission_text_is_the_packs(seed: str, pack: GrandTournament) -> None:
    for mission in pack.missions:
        texts = [*mission.briefing, *mission.rules, mission.primary_intro, mission.secondary_intro, *mission.notes]
        for objective in (*mission.primaries, mission.secondary):
            texts += [objective.flavour, *objective.text]
        for text in texts:
            assert flat(text) in seed, (mission.id, text[:60])
        assert f"choose for one of them to be {mission.secondary.name}".casefold() in seed.casefold(), mission.id


def test_the_secondary_objectives_sit_under_their_category(raw: str, pack: GrandTournament) -> None:
    section = raw.split("you cannot choose more than one from each category.", 1)[1]
    section = section.split("TOURNAMENT SCORING SHEET")[0]
    headings = [c.name.upper() for c in pack.categories]
    parts = re.split("^(" + "|".join(map(re.escape, headings)) + ")$", section, flags=re.M)
    listed = {parts[i]: re.findall(r"^([A-Z][A-Z ,'-]+)\n\n(?:Progressive|End Game)", parts[i + 1], flags=re.M)
              for i in range(1, len(parts), 2)}
    for category in pack.categories:
        names = [s.name.upper() for s in pack.secondaries if s.category == category.id]
        assert names == listed[category.name.upper()], category.id
    assert len(pack.secondaries) == 18


def test_every_secondary_objective_text_is_the_packs(seed: str, pack: GrandTournament) -> None:
    for secondary in pack.secondaries:
        for text in (secondary.flavour, *secondary.text):
            assert flat(text) in seed, secondary.id
    for line in pack.selection:
        assert flat(line) in seed


def test_the_caps_are_the_packs(seed: str, pack: GrandTournament) -> None:
    caps = pack.pack.caps
    assert (f"a maximum of {caps.primary} victory points from primary objectives and a maximum of "
            f"{caps.secondaries} victory points from secondary objectives (from a maximum of {caps.each_secondary} "
            f"victory points from each of the {pack.pack.secondaries_selected} secondary objectives") in seed
    assert f"awarded a bonus {caps.battle_ready} victory points" in seed
    assert f"maximum total score out of {caps.total} victory points" in seed


def test_the_mission_sequence_texts_are_the_packs(seed: str, pack: GrandTournament) -> None:
    for text in (pack.pack.determine_mission, pack.pack.select_secondaries, pack.pack.attacker_and_defender,
                 pack.pack.first_turn):
        assert flat(text) in seed
    assert f"BATTLEFIELD SIZE (Minimum) {pack.pack.battlefields['incursion']} " \
           f"{pack.pack.battlefields['strike-force']}" in seed
