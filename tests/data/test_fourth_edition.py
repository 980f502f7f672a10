"""The 4th edition mission generator's data against the SRD's text (../shared/seeds/003_17e7c947317de234.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.decks import fourth_edition
from bot.engine.fourth_edition.catalog import MissionGenerator

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "003_17e7c947317de234.txt"


def flat(text: str) -> str:
    """The SRD dump's markup and line breaks taken out: superscripts, escaped asterisks, spacing."""
    text = re.sub(r"<sup>(.*?)</sup>", r"\1", text).replace("\\*", "*")
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def seed() -> str:
    return flat(SEED.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def generator() -> MissionGenerator:
    return fourth_edition()


def test_the_d6_mission_table_is_the_srds(seed: str, generator: MissionGenerator) -> None:
    table = re.search(r"D6 Mission (1 .*?) Additionally", seed)[1]
    rows = re.findall(r"(\d) (.+?)(?= \d |$)", table)
    names = [generator.mission(e.mission).name if e.mission else e.text for e in generator.mission_table]
    assert [(int(n), name) for n, name in rows] == list(zip(range(1, 7), names))
    assert names[-1] == "Chosen by Strategy Roll Winner"


def test_the_d3_level_chart_is_the_srds(seed: str, generator: MissionGenerator) -> None:
    chart = re.search(r"D3 Mission Level (1 .*?) ### Scoring", seed)[1]
    assert re.findall(r"(\d) (\w+)", chart) == [
        (str(e.roll), generator.level(e.level).name) for e in generator.level_table]


def test_each_level_has_the_srds_special_rules(seed: str, generator: MissionGenerator) -> None:
    for level in generator.levels:
        listed = re.search(rf"### {level.name} (.*?) ###", seed)[1]
        names = [] if listed == "None." else [n.strip() for n in listed.split(",")]
        assert [generator.rule(r).name for r in level.special_rules] == names, level.id


def test_game_length_and_the_random_extension(seed: str, generator: MissionGenerator) -> None:
    assert generator.game_length in seed
    assert all(level.battle_rounds == 6 for level in generator.levels)
    assert "up to 3 times, or until a 1-3 is rolled" in generator.rule("random-game-length").text


@pytest.mark.parametrize("mission_id", ["cleanse", "secure-and-control", "seek-and-destroy", "recon",
                                        "take-and-hold"])
def test_each_mission_is_the_srds_text(seed: str, generator: MissionGenerator, mission_id: str) -> None:
    mission = generator.mission(mission_id)
    assert flat(mission.objective) in seed
    for step, text in enumerate(mission.set_up, start=1):
        assert f"{step}) {flat(text)}" in seed, (mission_id, step)
    for line in mission.victory_points:
        assert f"## {mission.name} - {flat(line)}" in seed or f"- {flat(line)}" in seed, line
    # Who deploys first follows the set-up text: Cleanse's lowest roller, the others' roll winner.
    expected = "loser" if "Beginning with the player with the lowest result" in mission.set_up[1] else "winner"
    assert mission.deploys_first == expected


def test_secure_and_control_places_d3_plus_2_tokens(generator: MissionGenerator) -> None:
    assert [m.id for m in generator.missions if m.tokens] == ["secure-and-control"]
    assert "Place D3+2 tokens on the table" in generator.mission("secure-and-control").objective


def test_every_special_rule_is_the_srds_text(seed: str, generator: MissionGenerator) -> None:
    for rule in generator.special_rules:
        if rule.id == "reserves":  # the SRD gives the arrival rolls as a table, the data as a sentence
            assert flat(rule.text).split(" Arrives on:")[0] in seed
            assert re.search(r"BR1 BR2 BR3 BR4\+ Arrives on\.\.\. n/a 4\+ 3\+ 2\+", seed)
            continue
        assert flat(rule.text) in seed, rule.id


def test_the_strategy_ratings_are_the_srds(seed: str, generator: MissionGenerator) -> None:
    for rating in generator.strategy_ratings:
        assert f"{rating.rating} {', '.join(rating.armies)}" in seed
    assert generator.strategy_roll in seed
