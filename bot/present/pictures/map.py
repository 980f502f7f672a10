"""Draw a deployment map as a PNG: zones, edges, numbered objective markers, terrain and a scale bar.

`map_key` gathers what the map says (title, legend, scale), so a test can read it; `render_deployment` draws the
table and its scale, and stores the title and legend in the PNG's text chunks (the briefing shows them as text).
Text is set in the DejaVu Sans shipped in bot/present/pictures/fonts: a machine's default font may lack α, Ω or ’.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from bot.engine.chapter_approved.catalog import Catalog, Deployment, Shape, TerrainLayout
from bot.engine.chapter_approved.objectives import Marker, table_markers, table_objectives
from bot.engine.chapter_approved.state import GameState
from bot.engine.models import settled
from bot.engine.names import size_name, title_case
from bot.present.mission_deck_words import mission_name
from bot.present.pictures import Picture

FONTS = Path(__file__).with_name("fonts")  # bot/present/pictures/fonts
REGULAR_FONT = FONTS / "DejaVuSans.ttf"
BOLD_FONT = FONTS / "DejaVuSans-Bold.ttf"

TABLE_WIDTH, TABLE_HEIGHT = 60, 44  # inches: every card of the pack, Incursion too, uses this battlefield
SCALE = 10  # pixels per inch: 600 x 440 for the table
GRID = 6  # inches between grid lines
SCALE_BAR = 12  # inches
PAD = 14
EDGE = 30  # the band around the table for the edge labels
TABLE_LEFT, TABLE_TOP = PAD + EDGE, PAD + EDGE
TABLE_BOTTOM = TABLE_TOP + TABLE_HEIGHT * SCALE
# 688 x 562 pixels: Discord shows an embed's picture at most about 400 wide and 300 high, and the type is set large
# enough (18px and more) to read at that size without opening the picture. The title and the legend are the
# briefing's (its embed's title and numbered marker list), so the picture is the table alone.
WIDTH = 2 * TABLE_LEFT + TABLE_WIDTH * SCALE
SMALL = 18  # the scale's and edge labels' type
SCALE_ROW = 48
MARKER_RADIUS = 0.8  # inches: a 40mm objective marker

WHITE = (255, 255, 255, 255)
INK = (30, 30, 30, 255)
MUTED = (90, 90, 90, 255)
ATTACKER = (200, 60, 60, 150)
DEFENDER = (60, 110, 200, 150)
TABLE = (236, 230, 214, 255)
GRID_LINE = (210, 202, 184, 255)
REMOVED = (150, 150, 150, 255)
TALL = (110, 110, 110, 200)
LOW = (120, 170, 220, 160)
TERRAIN_OUTLINE = (60, 60, 60, 255)


@dataclass(frozen=True)
class LegendEntry:
    """A line of the map's key (the PNG's text; the briefing lists the markers the same way)."""

    group: str  # "zones", "objectives" or "terrain"
    # The map feature it names: "attacker", "defender", "no_mans_land", "centre", "marker", "removed", "unplaced",
    # "tall", "low", or "" for a note.
    symbol: str
    text: str


@dataclass(frozen=True)
class MapKey:
    title: str
    subtitle: str
    legend: tuple[LegendEntry, ...]
    scale: str


def marker_numbers(markers: Iterable[Marker]) -> dict[str, str]:
    """The markers numbered 1, 2… in map order: the briefing's list and the map use these numbers."""
    return {m.id: str(i) for i, m in enumerate(markers, start=1)}


def map_key(deployment: Deployment, *, highlight: Mapping[str, str] | None = None, removed: tuple[str, ...] = (),
            layout: TerrainLayout | None = None, markers: Iterable[Marker] | None = None,
            mission: str | None = None, layouts: tuple[TerrainLayout, ...] = ()) -> MapKey:
    """What `render_deployment` writes with the same arguments."""
    markers, labels = _labelled(deployment, markers, highlight)
    subtitle = " · ".join(part for part in (mission, layout and layout.name) if part) or "Deployment map"
    legend = (*_zone_entries(), *(_marker_entry(m, labels[m.id], removed) for m in markers),
              *_terrain_entries(layout, layouts))
    return MapKey(title=f"{title_case(deployment.name)} — {size_name(deployment.size)}", subtitle=subtitle,
                  legend=legend, scale=f'Scale: 0–{SCALE_BAR}" · grid squares {GRID}" · '
                                       f'table {TABLE_WIDTH}" × {TABLE_HEIGHT}"')


def render_deployment(deployment: Deployment, *, highlight: Mapping[str, str] | None = None,
                      removed: tuple[str, ...] = (), layout: TerrainLayout | None = None,
                      markers: Iterable[Marker] | None = None, mission: str | None = None,
                      layouts: tuple[TerrainLayout, ...] = ()) -> bytes:
    """PNG bytes of the map. Markers are numbered in map order; `highlight` relabels some (e.g. '2 α'),
    `removed` greys them out. `markers`: the game's objective markers (the mission may move or add some)
    instead of the card's; those set up where the players chose (The Ritual) have no recorded position and
    are only listed. `mission` names the mission in the title; `layout` is drawn, else `layouts` are the
    mission's choices the legend names. The same map is drawn once and then reused: games of one deployment
    and mission share it, as forty tables of an event round do."""
    markers, labels = _labelled(deployment, markers, highlight)
    return _render(deployment, tuple(sorted(labels.items())), tuple(removed), layout, markers, mission,
                   tuple(layouts))


@lru_cache(maxsize=128)  # a few hundred kB at most: 128 maps of about 40 kB
def _render(deployment: Deployment, labels: tuple[tuple[str, str], ...], removed: tuple[str, ...],
            layout: TerrainLayout | None, markers: tuple[Marker, ...], mission: str | None,
            layouts: tuple[TerrainLayout, ...]) -> bytes:
    key = map_key(deployment, highlight=dict(labels), removed=removed, layout=layout, markers=markers,
                  mission=mission, layouts=layouts)
    image = Image.new("RGBA", (WIDTH, TABLE_BOTTOM + EDGE + SCALE_ROW), WHITE)
    image = _draw_table(image, deployment, layout)
    draw = ImageDraw.Draw(image, "RGBA")
    _draw_markers(draw, markers, dict(labels), removed)
    _draw_edge_labels(image, deployment)
    _draw_scale(draw, key)
    return _png(image, key)


def _labelled(deployment: Deployment, markers: Iterable[Marker] | None, highlight: Mapping[str, str] | None
              ) -> tuple[tuple[Marker, ...], dict[str, str]]:
    markers = tuple(table_markers(deployment) if markers is None else markers)
    return markers, {**marker_numbers(markers), **(highlight or {})}


def _zone_entries() -> tuple[LegendEntry, ...]:
    return (LegendEntry("zones", "attacker", "Attacker’s deployment zone"),
            LegendEntry("zones", "defender", "Defender’s deployment zone"),
            LegendEntry("zones", "no_mans_land", "No Man’s Land"),
            LegendEntry("zones", "centre", "Centre of the battlefield"))


def _marker_entry(marker: Marker, label: str, removed: tuple[str, ...]) -> LegendEntry:
    if marker.id in removed:
        return LegendEntry("objectives", "removed", f"{label} — {marker.name} (removed)")
    if marker.at is None:
        return LegendEntry("objectives", "unplaced", f"{label} — {marker.name} (not drawn: no recorded position)")
    return LegendEntry("objectives", "marker", f"{label} — {marker.name}")


def _terrain_entries(layout: TerrainLayout | None, layouts: tuple[TerrainLayout, ...]) -> tuple[LegendEntry, ...]:
    if layout is None:
        names = [choice.name for choice in layouts]
        use = f"set up {_or_list(names)} (Tournament Mission Pool)" if names else "use your event’s layout"
        return (LegendEntry("terrain", "", f"Terrain: not drawn — {use}"),)
    heights = {section.height for section in layout.sections}
    entries = [LegendEntry("terrain", height, text) for height, text in
               (("tall", 'Tall terrain (more than 4")'), ("low", 'Low terrain (2" or less)')) if height in heights]
    if any(section.confidence != "confirmed" for section in layout.sections):
        entries.append(LegendEntry("terrain", "", f"{layout.name}: positions measured from the layout image"))
    return tuple(entries)


def _or_list(names: list[str]) -> str:
    """'Layout 1, Layout 2 or Layout 4'."""
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]


# ---- drawing -----------------------------------------------------------------------------------

@cache
def _font(path: Path, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), size)


def _xy(x: float, y: float) -> tuple[float, float]:
    return TABLE_LEFT + x * SCALE, TABLE_TOP + y * SCALE


def _draw_table(image: Image.Image, deployment: Deployment, layout: TerrainLayout | None) -> Image.Image:
    board = ImageDraw.Draw(image)
    board.rectangle((*_xy(0, 0), *_xy(TABLE_WIDTH, TABLE_HEIGHT)), fill=TABLE, outline=(80, 80, 80, 255), width=2)
    for inch in range(GRID, TABLE_WIDTH, GRID):
        board.line((*_xy(inch, 0), *_xy(inch, TABLE_HEIGHT)), fill=GRID_LINE)
    for inch in range(GRID, TABLE_HEIGHT, GRID):
        board.line((*_xy(0, inch), *_xy(TABLE_WIDTH, inch)), fill=GRID_LINE)
    for zone in deployment.zones:
        # Each zone on its own layer so a cut-out (Search and Destroy's circle) erases only that zone.
        layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        for shape in zone.shapes:
            _draw_shape(draw, shape, ATTACKER if zone.side == "attacker" else DEFENDER)
        for shape in zone.minus:
            _draw_shape(draw, shape, (0, 0, 0, 0))
        image = Image.alpha_composite(image, layer)
    image = image.convert("RGB")  # from here on an "RGBA" draw blends its translucent colours into the picture
    draw = ImageDraw.Draw(image, "RGBA")
    if layout is not None:
        _draw_terrain(draw, layout)
    _draw_centre(draw, *_xy(TABLE_WIDTH / 2, TABLE_HEIGHT / 2), 8)
    return image


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape, fill) -> None:
    if shape.polygon is not None:
        draw.polygon([_xy(p.x, p.y) for p in shape.polygon], fill=fill)
    else:  # validated: a shape that is not a polygon is a circle, with its centre and radius
        centre = settled(shape.circle_centre)
        cx, cy = _xy(centre.x, centre.y)
        r = settled(shape.radius) * SCALE
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _draw_terrain(draw: ImageDraw.ImageDraw, layout: TerrainLayout) -> None:
    for section in layout.sections:
        angle = math.radians(section.angle)
        dx, dy = math.cos(angle), math.sin(angle)
        hl, hw = section.length / 2, section.width / 2
        corners = [
            (section.centre.x + sx * hl * dx - sy * hw * dy, section.centre.y + sx * hl * dy + sy * hw * dx)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        draw.polygon([_xy(x, y) for x, y in corners], fill=TALL if section.height == "tall" else LOW,
                     outline=TERRAIN_OUTLINE)


def _draw_centre(draw: ImageDraw.ImageDraw, x: float, y: float, half: float) -> None:
    draw.line((x - half, y, x + half, y), fill=INK, width=2)
    draw.line((x, y - half, x, y + half), fill=INK, width=2)


def _draw_marker(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, symbol: str) -> None:
    colour = INK if symbol == "marker" else REMOVED
    if symbol == "unplaced":  # no position: an outline only
        draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=2)
        return
    draw.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=3, fill=WHITE)
    if symbol == "removed":
        d = r * 0.7
        draw.line((x - d, y - d, x + d, y + d), fill=colour, width=3)
        draw.line((x - d, y + d, x + d, y - d), fill=colour, width=3)


def _draw_markers(draw: ImageDraw.ImageDraw, markers: tuple[Marker, ...], labels: dict[str, str],
                  removed: tuple[str, ...]) -> None:
    font, r = _font(BOLD_FONT, 22), MARKER_RADIUS * SCALE
    for marker in markers:
        if marker.at is None:
            continue
        x, y = _xy(marker.at.x, marker.at.y)
        gone = marker.id in removed
        _draw_marker(draw, x, y, r, "removed" if gone else "marker")
        draw.text((x + r + 2, y - r - 16), labels[marker.id], font=font, fill=REMOVED if gone else INK,
                  stroke_width=2, stroke_fill=WHITE)


def _draw_edge_labels(image: Image.Image, deployment: Deployment) -> None:
    font = _font(BOLD_FONT, SMALL)
    middle_x, middle_y = _xy(TABLE_WIDTH / 2, TABLE_HEIGHT / 2)
    places = {"top": (middle_x, TABLE_TOP - EDGE / 2, 0), "bottom": (middle_x, TABLE_BOTTOM + EDGE / 2, 0),
              "left": (TABLE_LEFT - EDGE / 2, middle_y, 90), "right": (WIDTH - TABLE_LEFT + EDGE / 2, middle_y, 270)}
    for side, edge, colour in (("Attacker", deployment.attacker_edge, ATTACKER),
                               ("Defender", deployment.defender_edge, DEFENDER)):
        text = f"{side}’s edge"
        label = Image.new("RGBA", (math.ceil(font.getlength(text)), EDGE - 6), (0, 0, 0, 0))
        ImageDraw.Draw(label).text((0, 0), text, font=font, fill=colour[:3])
        x, y, angle = places[edge]
        label = label.rotate(angle, expand=True)  # the side edges read along the edge
        image.paste(label, (round(x - label.width / 2), round(y - label.height / 2)), label)


def _draw_scale(draw: ImageDraw.ImageDraw, key: MapKey) -> None:
    font, y = _font(REGULAR_FONT, SMALL), TABLE_BOTTOM + EDGE + 8
    for start in range(0, SCALE_BAR, 3):  # alternate 3" blocks, as on a ruler
        x = TABLE_LEFT + start * SCALE
        draw.rectangle((x, y, x + 3 * SCALE, y + 8), fill=INK if start % 6 == 0 else WHITE, outline=INK)
    for inch in (0, SCALE_BAR // 2, SCALE_BAR):
        text = f'{inch}"' if inch == SCALE_BAR else str(inch)
        draw.text((TABLE_LEFT + inch * SCALE - font.getlength(text) / 2, y + 12), text, font=font, fill=INK)
    draw.text((TABLE_LEFT + SCALE_BAR * SCALE + 24, y - 2), key.scale, font=font, fill=MUTED)


def _png(image: Image.Image, key: MapKey) -> bytes:
    info = PngInfo()  # iTXt: the names carry ’, α and Ω
    info.add_itxt("Title", f"{key.title}\n{key.subtitle}")
    info.add_itxt("Description", "\n".join(entry.text for entry in key.legend))
    info.add_itxt("Scale", key.scale)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True, pnginfo=info)
    return out.getvalue()


MAP_FILE = "deployment.png"


def table_map(catalog: Catalog, state: GameState) -> Picture:
    """The deployment map with the objective markers of this game, numbered as the briefing lists them."""
    mission = state.mission
    markers = table_objectives(catalog, state, removed=True)
    highlight = marker_numbers(markers)
    if mission.alpha_objective:
        highlight[mission.alpha_objective] += " α"
        highlight[settled(mission.omega_objective)] += " Ω"  # drawn with the Alpha
    picture = render_deployment(catalog.deployment(mission.deployment), highlight=highlight,
                                removed=state.removed_objectives, markers=markers,
                                mission=mission_name(catalog, state),
                                layouts=tuple(catalog.layout(layout) for layout in mission.layouts))
    return Picture(MAP_FILE, picture)
