"""The Grand Tournament 2020 D33 mission roll and the pack's loader."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bot.decks import DeckError, grand_tournament, load_grand_tournament, pack_dir
from bot.engine.errors import InvalidValue
from bot.engine.gt2020.missions import roll_gt_mission
from bot.engine.gt2020.selection import check_selection, options
from bot.engine.rng import stream_of

PACK = grand_tournament()
D33 = [11, 12, 13, 21, 22, 23, 31, 32, 33]


def d33_of(seed: str) -> int:
    dice = stream_of(seed, "gt:d33")
    return dice.randint(1, 3) * 10 + dice.randint(1, 3)  # the first D3 the tens, the second the units


@pytest.mark.parametrize("size", ["incursion", "strike-force"])
@pytest.mark.parametrize("d33", D33)
def test_every_d33_result_gives_its_mission(size: str, d33: int) -> None:
    seed = next(s for s in (f"gt-{n}" for n in range(2000)) if d33_of(s) == d33)
    rolled = roll_gt_mission(PACK, seed, size)
    assert rolled.d33 == divmod(d33, 10)
    mission = PACK.mission(rolled.mission)
    assert (mission.size, mission.d33) == (size, d33)


def test_an_agreed_mission_is_not_rolled_and_must_fit_the_battle_size() -> None:
    assert roll_gt_mission(PACK, "s", "incursion", "crossfire").d33 is None
    with pytest.raises(InvalidValue, match="'battle-lines' is not one of the incursion missions"):
        roll_gt_mission(PACK, "s", "incursion", "battle-lines")


def test_the_same_seed_rolls_the_same_mission() -> None:
    assert roll_gt_mission(PACK, "club", "strike-force") == roll_gt_mission(PACK, "club", "strike-force")


def write_pack(tmp_path: Path, change) -> Path:
    for name in ("pack.yaml", "secondaries.yaml", "missions.yaml"):
        data = yaml.safe_load((pack_dir("gt-2020") / name).read_text(encoding="utf-8"))
        change(name, data)
        (tmp_path / name).write_text(yaml.safe_dump(data), encoding="utf-8")
    return tmp_path


def test_a_secondary_in_an_unknown_category_stops_the_load(tmp_path: Path) -> None:
    def change(name, data):
        if name == "secondaries.yaml":
            data["secondaries"][0]["category"] = "psychic-awakening"
    with pytest.raises(DeckError, match="secondary 'engage-on-all-fronts': unknown category 'psychic-awakening'"):
        load_grand_tournament(write_pack(tmp_path, change))


def test_a_hole_in_a_d33_table_stops_the_load(tmp_path: Path) -> None:
    def change(name, data):
        if name == "missions.yaml":
            data["missions"][0]["d33"] = 12
    with pytest.raises(DeckError, match=r"the incursion missions must fill the D33 table once each"):
        load_grand_tournament(write_pack(tmp_path, change))


def test_a_missing_field_is_named(tmp_path: Path) -> None:
    def change(name, data):
        if name == "missions.yaml":
            del data["missions"][3]["briefing"]
    with pytest.raises(DeckError, match=r"field missions\.3\.briefing: Field required"):
        load_grand_tournament(write_pack(tmp_path, change))


def test_a_selection_is_three_different_objectives_at_most_one_per_category() -> None:
    crossfire = PACK.mission("crossfire")
    assert check_selection(PACK, crossfire, ["linebreaker", "assassinate", "psychic-ritual"]) == (
        "linebreaker", "assassinate", "psychic-ritual")
    with pytest.raises(InvalidValue, match="Linebreaker and Domination are both Battlefield Supremacy"):
        check_selection(PACK, crossfire, ["linebreaker", "domination", "assassinate"])
    with pytest.raises(InvalidValue, match="Select 3 different secondary objectives"):
        check_selection(PACK, crossfire, ["linebreaker", "linebreaker", "assassinate"])
    with pytest.raises(InvalidValue, match="Select 3 different"):
        check_selection(PACK, crossfire, ["linebreaker", "assassinate"])
    with pytest.raises(InvalidValue, match="'raze' is not a secondary objective of this mission"):
        check_selection(PACK, crossfire, ["linebreaker", "assassinate", "raze"])  # Scorched Earth's own


def test_the_missions_own_objective_and_a_codex_one_can_be_selected_with_any() -> None:
    crossfire = PACK.mission("crossfire")
    assert check_selection(PACK, crossfire, ["outflank", "codex", "engage-on-all-fronts"])
    ids = [o[0] for o in options(PACK, crossfire)]
    assert len(ids) == 20 and ids[-2:] == ["outflank", "codex"]
