"""The army data shipped with the bot (bot/armies/data/40kdc.json) against the package version it is extracted
from: the pin, the package's own integrity hash, and a regeneration that must give the same bytes.

The regeneration needs Node, npm and the npm registry. Where they cannot be had it is skipped with one line,
unless REQUIRE_ARMY_DATA=1 (set by .ci/run): there it must run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from bot.armies.data import EXTRACT, army_data
from bot.decks import catalog_2026

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "armies"
PACKAGE = "@alpaca-software/40kdc-data"


def test_the_extract_is_the_pinned_version_of_the_package() -> None:
    pinned = json.loads((SCRIPTS / "package.json").read_text())["dependencies"][PACKAGE]
    locked = json.loads((SCRIPTS / "package-lock.json").read_text())["packages"][f"node_modules/{PACKAGE}"]
    source = army_data().source
    assert source["package"] == PACKAGE and source["version"] == pinned == locked["version"]
    assert source["integrity"] == locked["integrity"] and source["licence"] == "CC BY 4.0"


def test_the_extract_holds_every_faction_detachment_and_unit_of_matched_play() -> None:
    data = army_data()
    assert len(data.factions) == 35
    assert len(data.detachments) == 461  # 484 in the package, less Combat Patrol's 23
    assert len(data.units) == 998  # 1,096 less Combat Patrol's 98
    assert {"space-wolves", "necrons", "tau-empire", "orks"} <= set(data.factions)
    assert all(d.faction in data.factions for d in data.detachments.values())
    assert all(u.faction in data.factions for u in data.units.values())
    assert sum(bool(u.brackets) for u in data.units.values()) >= 990
    assert all(b.models <= b.models_max and b.cost >= 0 for u in data.units.values() for b in u.brackets)


def test_every_detachment_names_a_force_disposition_of_the_2026_27_deck() -> None:
    dispositions = {d.id for d in catalog_2026().dispositions}
    assert {d.disposition for d in army_data().detachments.values()} == dispositions


def test_each_detachment_costs_detachment_points_and_carries_its_type_tags() -> None:
    data = army_data()
    # 162, 232 and 90 of the package's 484 detachments; Combat Patrol's 23, left out, all cost 1
    assert Counter(d.detachment_points for d in data.detachments.values()) == {1: 139, 2: 232, 3: 90}
    tagged = [d for d in data.detachments.values() if d.tags]
    assert len(tagged) == 47 and all(len(d.tags) == 1 for d in tagged)
    by_tag = Counter(d.tags[0] for d in tagged)
    assert len(by_tag) == 22 and min(by_tag.values()) == 2 and {"dynasty", "kabal", "hypercrypt"} <= set(by_tag)
    necrons = {d.name: (d.detachment_points, d.tags, d.disposition) for d in data.detachments_of("necrons")}
    assert necrons["Pantheon of Woe"] == (2, (), "disruption")
    assert necrons["Skyshroud Spearhead"] == (1, (), "reconnaissance")
    assert necrons["Hypercrypt Legion"] == (2, ("hypercrypt",), "reconnaissance")


def test_the_battle_sizes_budgets_are_the_datas() -> None:
    data = army_data()
    assert {b.id: (b.points, b.detachment_points) for b in data.battle_sizes.values()} == {
        "incursion": (1000, 2), "strike-force": (2000, 3)}
    assert (data.detachment_budget("strike-force"), data.detachment_budget("incursion")) == (3, 2)
    assert data.detachment_budget("onslaught") is None and data.detachment_budget(None) is None  # not in the data


def test_a_chapter_takes_its_parents_detachments_and_datasheets() -> None:
    data = army_data()
    wolves = {d.name for d in data.detachments_of("space-wolves")}
    assert {"Saga of the Hunter", "Gladius Task Force"} <= wolves
    assert "Intercessor Squad" in {u.name for u in data.units_of("space-wolves")}
    assert "Saga of the Hunter" not in {d.name for d in data.detachments_of("ultramarines")}


def test_names_are_read_as_people_type_them() -> None:
    data = army_data()
    assert data.faction("space wolfs").id == "space-wolves"  # a typo close to one name only
    assert data.faction("Tau Empire").id == "tau-empire"  # no apostrophe
    assert data.faction("Space Marines").id == "adeptus-astartes"  # as the app names it, not Chaos Space Marines
    assert data.faction("Chaos Space Marines").id == "chaos-space-marines"
    assert data.detachment("space-wolves", "saga of the hunter").id == "saga-of-the-hunter"
    with pytest.raises(Exception, match="is not a faction"):
        data.faction("Elves of the Woods")


def test_a_regeneration_from_the_pinned_package_gives_the_same_bytes(tmp_path: Path) -> None:
    required = os.environ.get("REQUIRE_ARMY_DATA") == "1"
    if shutil.which("node") is None or shutil.which("npm") is None:
        if required:
            pytest.fail("REQUIRE_ARMY_DATA=1 but Node or npm is missing")
        pytest.skip("Node and npm are not installed: the army data's regeneration is checked where they are (CI)")
    work = tmp_path / "armies"
    shutil.copytree(SCRIPTS, work, ignore=shutil.ignore_patterns("node_modules"))
    out = tmp_path / "40kdc.json"
    done = subprocess.run(["bash", str(work / "regenerate.sh"), str(out)], capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0:
        if required:
            pytest.fail(f"the regeneration failed: {done.stderr[-2000:]}")
        pytest.skip("the npm registry could not be reached: the army data's regeneration is checked in CI")
    assert out.read_bytes() == EXTRACT.read_bytes(), "the extract differs from its pinned package: regenerate it"
