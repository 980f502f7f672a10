"""Deployment maps: names from the seed, geometry from card-facts.md §3, and the geometry helpers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.decks import default_catalog
from bot.engine.chapter_approved.catalog import Deployment, Point, Shape, Zone
from bot.engine.chapter_approved.geometry import area_of, shape_contains, zone_contains

SEED = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "002_353b4d3c445720da.txt"
SEED_LINES = SEED.read_text(encoding="utf-8").splitlines()
SIZES = {"strike-force": "Strike Force", "incursion": "Incursion", "asymmetric-war": "Asymmetric War"}
OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}
CENTRE = Point(x=30, y=22)


def deployments() -> tuple[Deployment, ...]:
    return default_catalog().deployments


def seed_deployments(size: str) -> dict[str, str | None]:
    """Card name as printed (upper case) -> its Designer's Note, for one deck."""
    cards: dict[str, str | None] = {}
    for i, line in enumerate(SEED_LINES):
        if line == f"Deployment - {SIZES[size]}":
            note = SEED_LINES[i + 2] if i + 2 < len(SEED_LINES) else ""
            cards[SEED_LINES[i + 1]] = note.removeprefix("Designer’s Note: ") if note.startswith("Designer’s") else None
    return cards


def p(x: float, y: float) -> Point:
    return Point(x=x, y=y)


def polygon(*points: tuple[float, float]) -> Shape:
    return Shape(polygon=tuple(p(x, y) for x, y in points))


# --- geometry helpers ---------------------------------------------------------------------------------

L_SHAPE = polygon((0, 0), (12, 0), (12, 22), (20, 22), (20, 44), (0, 44))  # Tipping Point, Defender


def test_polygon_contains_inside_and_edges_but_not_outside():
    assert shape_contains(L_SHAPE, p(6, 10))
    assert shape_contains(L_SHAPE, p(16, 30))
    assert not shape_contains(L_SHAPE, p(16, 10))  # the notch of the concave zone
    assert not shape_contains(L_SHAPE, p(25, 30))
    assert shape_contains(L_SHAPE, p(12, 5))  # on an edge
    assert shape_contains(L_SHAPE, p(20, 22))  # on a vertex
    assert not shape_contains(L_SHAPE, p(12, 5), strict=True)


def test_polygon_contains_on_a_slanted_edge():
    triangle = polygon((0, 0), (0, 44), (30, 44))  # Crucible of Battle, Defender
    assert shape_contains(triangle, p(15, 22))
    assert not shape_contains(triangle, p(15.1, 22))
    assert shape_contains(triangle, p(14.9, 22))


def test_circle_contains_rim_unless_strict():
    circle = Shape(circle_centre=CENTRE, radius=9)
    assert shape_contains(circle, p(30, 22))
    assert shape_contains(circle, p(39, 22))
    assert not shape_contains(circle, p(39, 22), strict=True)
    assert not shape_contains(circle, p(37, 28))  # 9.2" away


def test_zone_minus_cuts_out_only_the_inside_of_the_circle():
    zone = Zone(
        side="attacker",
        shapes=(polygon((30, 0), (60, 0), (60, 22), (30, 22)),),
        minus=(Shape(circle_centre=CENTRE, radius=9),),
    )
    assert zone_contains(zone, p(50, 10))
    assert not zone_contains(zone, p(35, 20))
    assert zone_contains(zone, p(39, 22))  # on the rim
    assert zone_contains(zone, p(30, 13))  # top of the rim, on the quarter's edge
    assert not zone_contains(zone, p(20, 10))


def test_area_of_names_the_zone_or_no_mans_land():
    deployment = default_catalog().deployment("search-and-destroy-strike-force")
    assert area_of(deployment, p(46, 10)) == "attacker"
    assert area_of(deployment, p(14, 34)) == "defender"
    assert area_of(deployment, p(14, 10)) == "no_mans_land"
    assert area_of(deployment, CENTRE) == "no_mans_land"


@settings(max_examples=100, deadline=None)
@given(st.floats(0, 60), st.floats(0, 44))
def test_rectangle_and_circle_agree_with_plain_arithmetic(x: float, y: float):
    rectangle = polygon((10, 5), (40, 5), (40, 30), (10, 30))
    assert shape_contains(rectangle, p(x, y)) == (10 <= x <= 40 and 5 <= y <= 30)
    circle = Shape(circle_centre=CENTRE, radius=14)
    distance = math.dist((x, y), (30, 22))
    if abs(distance - 14) > 1e-3:
        assert shape_contains(circle, p(x, y)) == (distance < 14)


# --- the decks ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "count"), [("strike-force", 6), ("incursion", 6), ("asymmetric-war", 5)])
def test_each_deck_has_the_seeds_cards(size: str, count: int):
    deck = default_catalog().deployments_for(size)
    assert len(deck) == count
    assert {d.name.upper() for d in deck} == set(seed_deployments(size))


def test_ids_are_unique_name_and_size():
    ids = [d.id for d in deployments()]
    assert len(set(ids)) == len(ids)
    for d in deployments():
        assert d.id == f"{d.name.lower().replace(' ', '-')}-{d.size}"


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_designer_note_is_the_seeds(deployment: Deployment):
    assert deployment.designer_note == seed_deployments(deployment.size)[deployment.name.upper()]


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_every_objective_lies_in_its_declared_area(deployment: Deployment):
    for objective in deployment.objectives:
        assert area_of(deployment, objective.at) == objective.area, objective.id


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_five_objectives_with_unique_ids_and_names(deployment: Deployment):
    assert len(deployment.objectives) == 5
    assert len({o.id for o in deployment.objectives}) == 5
    assert len({o.name for o in deployment.objectives}) == 5
    assert len({(o.at.x, o.at.y) for o in deployment.objectives}) == 5
    for objective in deployment.objectives:
        assert objective.confidence == "confirmed"  # every marker position is printed on the card


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_centre_objective_on_symmetric_maps_only(deployment: Deployment):
    centres = [o for o in deployment.objectives if o.centre]
    at_centre = [o for o in deployment.objectives if o.at == CENTRE]
    if deployment.size == "asymmetric-war":
        assert centres == at_centre == []
    else:
        assert len(centres) == 1 and centres == at_centre
        assert centres[0].area == "no_mans_land"


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_battlefield_edges_are_opposite(deployment: Deployment):
    assert OPPOSITE[deployment.attacker_edge] == deployment.defender_edge


@pytest.mark.parametrize("deployment", default_catalog().deployments_for("strike-force"), ids=lambda d: d.id)
def test_each_zone_reaches_its_own_battlefield_edge(deployment: Deployment):
    for zone in deployment.zones:
        edge = deployment.attacker_edge if zone.side == "attacker" else deployment.defender_edge
        points = [pt for shape in zone.shapes for pt in shape.polygon or ()]
        coordinate = {"left": lambda q: q.x == 0, "right": lambda q: q.x == 60,
                      "top": lambda q: q.y == 0, "bottom": lambda q: q.y == 44}[edge]
        assert sum(coordinate(q) for q in points) >= 2, f"{zone.side} zone does not reach the {edge} edge"


@pytest.mark.parametrize("deployment", deployments(), ids=lambda d: d.id)
def test_zones_never_overlap(deployment: Deployment):
    attacker, defender = sorted(deployment.zones, key=lambda z: z.side)
    for x in range(61):
        for y in range(45):
            assert not (zone_contains(attacker, p(x, y)) and zone_contains(defender, p(x, y))), (x, y)


def test_incursion_maps_use_the_strike_force_zones_with_their_own_objectives():
    catalog = default_catalog()
    for incursion in catalog.deployments_for("incursion"):
        strike_force = catalog.deployment(incursion.id.replace("-incursion", "-strike-force"))
        assert incursion.name == strike_force.name
        assert incursion.zones == strike_force.zones
        assert (incursion.attacker_edge, incursion.defender_edge) == (
            strike_force.attacker_edge, strike_force.defender_edge
        )
        assert {o.at for o in incursion.objectives} != {o.at for o in strike_force.objectives}
        assert sorted(o.area for o in incursion.objectives) == sorted(o.area for o in strike_force.objectives)


def test_search_and_destroy_zones_exclude_the_9_inch_circle():
    for size in ("strike-force", "incursion"):
        deployment = default_catalog().deployment(f"search-and-destroy-{size}")
        for zone in deployment.zones:
            assert zone.minus == (Shape(circle_centre=CENTRE, radius=9),)
