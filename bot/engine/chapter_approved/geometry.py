"""Where a point lies on a deployment map (60" x 44", x right, y down).

Deployment zones are closed: a point on a zone's edge is within it, as a model touching the
line is within the zone. A `minus` shape (the 9" circle of Search and Destroy) removes only its
inside, so its rim still belongs to the zone.
"""

from __future__ import annotations

import math
from typing import Literal

from bot.engine.chapter_approved.catalog import Deployment, Point, Shape, Zone

Area = Literal["attacker", "defender", "no_mans_land"]

# Marker positions are given to 0.1"; this only absorbs float rounding on edges.
EPSILON = 1e-6


def shape_contains(shape: Shape, point: Point, *, strict: bool = False) -> bool:
    """Whether the point is inside the shape; on its edge counts unless `strict`."""
    if shape.polygon is not None:
        return _polygon_contains(shape.polygon, point, strict=strict)
    assert shape.circle_centre is not None and shape.radius is not None  # guaranteed by Shape
    distance = math.dist((shape.circle_centre.x, shape.circle_centre.y), (point.x, point.y))
    return distance < shape.radius - EPSILON if strict else distance <= shape.radius + EPSILON


def zone_contains(zone: Zone, point: Point) -> bool:
    """Whether the point is within the zone: in one of its shapes and not inside a cut-out."""
    return any(shape_contains(s, point) for s in zone.shapes) and not any(
        shape_contains(m, point, strict=True) for m in zone.minus
    )


def area_of(deployment: Deployment, point: Point) -> Area:
    """The area a point lies in: a deployment zone, or No Man's Land (neither zone)."""
    for zone in deployment.zones:
        if zone_contains(zone, point):
            return zone.side
    return "no_mans_land"


def _polygon_contains(polygon: tuple[Point, ...], point: Point, *, strict: bool) -> bool:
    edges = list(zip(polygon, polygon[1:] + polygon[:1]))
    if any(_on_segment(a, b, point) for a, b in edges):
        return not strict
    # Even-odd ray cast towards +x.
    inside = False
    for a, b in edges:
        if (a.y > point.y) != (b.y > point.y):
            crossing_x = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
            if crossing_x > point.x:
                inside = not inside
    return inside


def _on_segment(a: Point, b: Point, p: Point) -> bool:
    cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
    if abs(cross) > EPSILON * max(1.0, math.dist((a.x, a.y), (b.x, b.y))):
        return False
    return (
        min(a.x, b.x) - EPSILON <= p.x <= max(a.x, b.x) + EPSILON
        and min(a.y, b.y) - EPSILON <= p.y <= max(a.y, b.y) + EPSILON
    )


# A point half an inch in from each corner: the corner itself sits on the edges of the zones.
CORNERS: dict[str, Point] = {
    "top left": Point(x=0.5, y=0.5),
    "top right": Point(x=59.5, y=0.5),
    "bottom left": Point(x=0.5, y=43.5),
    "bottom right": Point(x=59.5, y=43.5),
}


def corner_areas(deployment: Deployment) -> dict[str, Area]:
    """Which area touches each corner of the battlefield (Hidden Supplies moves the centre marker to one)."""
    return {name: area_of(deployment, point) for name, point in CORNERS.items()}


# The battlefield's corners themselves: Hidden Supplies moves markers "directly towards" one.
CORNER_POINTS: dict[str, Point] = {
    "top left": Point(x=0, y=0),
    "top right": Point(x=60, y=0),
    "bottom left": Point(x=0, y=44),
    "bottom right": Point(x=60, y=44),
}
OPPOSITE_CORNER = {
    "top left": "bottom right", "bottom right": "top left", "top right": "bottom left", "bottom left": "top right",
}


def towards_corner(start: Point, corner: str, inches: float) -> Point:
    """The point `inches` from `start` in a straight line towards a corner of the battlefield."""
    end = CORNER_POINTS[corner]
    length = math.dist((start.x, start.y), (end.x, end.y))
    step = inches / length
    return Point(x=round(start.x + (end.x - start.x) * step, 1), y=round(start.y + (end.y - start.y) * step, 1))
