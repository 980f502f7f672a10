"""The Grand Tournament 2020 muster CP (decks/gt-2020/pack.yaml `command_points`) against the pack's "2. MUSTER
ARMIES" table (../shared/seeds/000_e0a0e7dd45b18688.txt)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.decks import grand_tournament

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_e0a0e7dd45b18688.txt"
SIZES = {"Incursion": "incursion", "Strike Force": "strike-force"}


def muster_table() -> dict[str, int]:
    """Battle size -> COMMAND POINTS, from the table under "2. MUSTER ARMIES" (tab-separated rows)."""
    section = SEED.read_text(encoding="utf-8").split("2. MUSTER ARMIES", 1)[1].split("3. DETERMINE MISSION", 1)[0]
    table = section.split("BATTLE SIZE\tPOINTS LIMIT\tCOMMAND POINTS", 1)[1]
    rows = re.findall(r"^(Incursion|Strike Force)\t(\d+)\t(\d+)\s*$", table, flags=re.MULTILINE)
    return {SIZES[size]: int(cp) for size, _points, cp in rows}


def test_the_muster_cp_are_the_packs() -> None:
    """Incursion 6CP, Strike Force 12CP, as the pack's table gives them."""
    assert muster_table() == {"incursion": 6, "strike-force": 12}
    assert grand_tournament().pack.command_points == muster_table()
