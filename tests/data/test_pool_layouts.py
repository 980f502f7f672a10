"""The Tournament Mission Pool (checked row by row against the seed's table) and the terrain layouts."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import TerrainLayout, TerrainSection

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"
SEED_LINES = SEED.read_text(encoding="utf-8").splitlines()
LETTERS = "ABCDEFGHIJKLMNOPQRST"
# Outline sections of the Tournament Companion kit (12x6, 10x5 and 6x4 outlines, split by height).
NOMINAL_SECTIONS = {(12, 6), (8, 6), (6, 5), (6, 4), (5, 4), (6, 2)}


def seed_pool_rows() -> list[str]:
    """The rows of the seed's mission pool table, e.g. 'ETake and HoldHammer and AnvilLayout 1, Layout 7, Layout 8'."""
    start = SEED_LINES.index("PRIMARY MISSIONDEPLOYMENTTERRAIN LAYOUTS") + 1
    rows = []
    for line in SEED_LINES[start:]:
        if not line:
            break
        rows.append(line)
    return rows


def layouts() -> tuple[TerrainLayout, ...]:
    return default_catalog().layouts


# --- pool ---------------------------------------------------------------------------------------------


def test_pool_has_missions_a_to_t_in_order():
    assert "".join(m.letter for m in default_catalog().pool) == LETTERS


def test_pool_is_the_seeds_table_row_by_row():
    catalog = default_catalog()
    rows = [
        m.letter
        + catalog.primary(m.primary).name
        + catalog.deployment(m.deployment).name
        + ", ".join(catalog.layout(layout).name for layout in m.layouts)
        for m in catalog.pool
    ]
    assert rows == seed_pool_rows()


def test_pool_names_existing_strike_force_cards_and_layouts():
    catalog = default_catalog()
    for mission in catalog.pool:
        assert not catalog.primary(mission.primary).asymmetric
        assert catalog.deployment(mission.deployment).size == "strike-force"
        assert len(set(mission.layouts)) == len(mission.layouts)
        for layout in mission.layouts:
            catalog.layout(layout)


def test_pool_uses_seven_primaries_every_layout_and_no_asymmetric_war_deployment():
    catalog = default_catalog()
    assert len({m.primary for m in catalog.pool}) == 7  # "we have used a mix of 7 of these Primary Missions"
    assert {layout for m in catalog.pool for layout in m.layouts} == {layout.id for layout in layouts()}
    assert {m.deployment for m in catalog.pool} == {d.id for d in catalog.deployments_for("strike-force")}


def test_pool_mission_lookup_is_case_insensitive():
    assert default_catalog().pool_mission("e").primary == "take-and-hold"


# --- layouts ------------------------------------------------------------------------------------------


def test_eight_layouts_named_as_the_pool_table():
    assert [(layout.id, layout.name) for layout in layouts()] == [
        (f"layout-{n}", f"Layout {n}") for n in range(1, 9)
    ]


@pytest.mark.parametrize("layout", layouts(), ids=lambda layout: layout.id)
def test_sections_are_kit_pieces_on_the_battlefield(layout: TerrainLayout):
    assert len(layout.sections) == (20 if layout.id == "layout-7" else 16)
    for section in layout.sections:
        assert (section.length, section.width) in NOMINAL_SECTIONS
        assert section.confidence == "likely"  # measured from an image, never printed as text
        for x, y in corners(section):
            assert -0.5 <= x <= 60.5 and -0.5 <= y <= 44.5, (section, x, y)


@pytest.mark.parametrize("layout", layouts(), ids=lambda layout: layout.id)
def test_layouts_are_symmetric_under_a_half_turn(layout: TerrainLayout):
    for section in layout.sections:
        partners = [
            other
            for other in layout.sections
            if math.dist((other.centre.x, other.centre.y), (60 - section.centre.x, 44 - section.centre.y)) <= 0.2
        ]
        assert len(partners) == 1, section
        (partner,) = partners
        assert (partner.height, partner.length, partner.width) == (section.height, section.length, section.width)
        assert _axis_difference(partner.angle, section.angle) <= 3


@pytest.mark.parametrize("layout", layouts(), ids=lambda layout: layout.id)
def test_every_layout_mixes_tall_and_low_sections(layout: TerrainLayout):
    heights = [s.height for s in layout.sections]
    assert heights.count("tall") >= 6 and heights.count("low") >= 6


def corners(section: TerrainSection) -> list[tuple[float, float]]:
    angle = math.radians(section.angle)
    ux, uy = math.cos(angle), math.sin(angle)  # long axis (clockwise on screen: y points down)
    vx, vy = -uy, ux
    half_l, half_w = section.length / 2, section.width / 2
    return [
        (section.centre.x + a * half_l * ux + b * half_w * vx, section.centre.y + a * half_l * uy + b * half_w * vy)
        for a in (-1, 1)
        for b in (-1, 1)
    ]


def _axis_difference(a: float, b: float) -> float:
    """Difference between two undirected axes, in degrees (0-90)."""
    d = abs(a - b) % 180
    return min(d, 180 - d)
