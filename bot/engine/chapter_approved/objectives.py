"""The objective markers on the table: the deployment's, as the Primary Mission changes them.

Hidden Supplies moves the centre marker 6" towards a corner and adds a marker 6" from the centre towards
the opposite corner; each completed The Ritual Action sets up a marker in No Man's Land; Supply Drop,
Scorched Earth and Denied Resources remove markers. Every card that asks for an objective picks from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.chapter_approved.catalog import Catalog, Deployment, Point
from bot.engine.chapter_approved.geometry import OPPOSITE_CORNER, Area, area_of, towards_corner
from bot.engine.chapter_approved.state import GameState
from bot.engine.models import settled

HIDDEN_SUPPLIES_ID = "hidden-supplies"
CENTRE = Point(x=30, y=22)
HIDDEN_SUPPLIES_MOVE = 6  # inches


@dataclass(frozen=True)
class Marker:
    id: str
    name: str
    area: Area
    at: Point | None  # None: set up by the players where the card allows, position not recorded


def table_markers(deployment: Deployment) -> tuple[Marker, ...]:
    """The deployment card's own markers, as printed."""
    return tuple(Marker(o.id, o.name, o.area, o.at) for o in deployment.objectives)


def table_objectives(catalog: Catalog, state: GameState, *, removed: bool = False) -> tuple[Marker, ...]:
    """Every objective marker of the game, in map order; removed ones only when `removed` is set. None for a
    Deployment card known by name alone (CA 2026-27): the players place and name its markers."""
    mission = state.mission
    if not catalog.has_map(mission.deployment):
        return ()
    deployment = catalog.deployment(mission.deployment)
    hidden_supplies = any(catalog.primary(p).random_setup == "hidden_supplies" for p in state.primaries)
    corner = mission.hidden_supplies_corner
    markers = list(table_markers(deployment))
    if hidden_supplies:
        centres = {o.id for o in deployment.objectives if o.centre}
        markers = [_moved_centre(deployment, m.id, settled(m.at), corner) if m.id in centres else m for m in markers]
        markers.append(_hidden_supplies(corner))
    for number, ritual in enumerate(state.ritual_markers, start=1):
        markers.append(Marker(ritual.id, f"Ritual marker {number} ({state.player(ritual.player).name}, "
                                         f"battle round {ritual.round})", "no_mans_land", None))
    return tuple(m for m in markers if removed or m.id not in state.removed_objectives)


def removable_objectives(catalog: Catalog, state: GameState, scorer: str, area: str) -> tuple[Marker, ...]:
    """The markers on the table a burn or deny may remove: in `area` ('own_zone', 'no_mans_land' or
    'opponent_zone') as seen from the scorer."""
    if area == "no_mans_land":
        wanted = "no_mans_land"
    else:
        side = scorer if area == "own_zone" else state.opponent(scorer).id
        wanted = "attacker" if side == state.attacker else "defender"
    return tuple(m for m in table_objectives(catalog, state) if m.area == wanted)


def objective_name(catalog: Catalog, state: GameState, objective_id: str) -> str:
    return next(m.name for m in table_objectives(catalog, state, removed=True) if m.id == objective_id)


def _moved_centre(deployment: Deployment, objective_id: str, at: Point, corner: str | None) -> Marker:
    if corner is None:  # still where the deployment map puts it until the players record the corner
        return Marker(objective_id, 'Centre marker, to move 6" towards a corner (not recorded yet)',
                      area_of(deployment, at), at)
    moved = towards_corner(at, corner, HIDDEN_SUPPLIES_MOVE)
    return Marker(objective_id, f'Centre marker, moved 6" towards the {corner} corner', area_of(deployment, moved),
                  moved)


def _hidden_supplies(corner: str | None) -> Marker:
    # The card sets it up in No Man's Land whichever corner the centre marker moved towards.
    if corner is None:
        return Marker(HIDDEN_SUPPLIES_ID, 'Hidden Supplies marker, 6" from the centre (corner not recorded yet)',
                      "no_mans_land", None)
    opposite = OPPOSITE_CORNER[corner]
    return Marker(HIDDEN_SUPPLIES_ID, f'Hidden Supplies marker, 6" from the centre towards the {opposite} corner',
                  "no_mans_land", towards_corner(CENTRE, opposite, HIDDEN_SUPPLIES_MOVE))
