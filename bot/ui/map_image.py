"""Draw a deployment map (zones, objectives, edges, centre) as a PNG from the deck's geometry."""

from __future__ import annotations

import io
import math
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from bot.engine.catalog import Deployment, Shape, TerrainLayout
from bot.engine.objectives import Marker, table_markers

SCALE = 12  # pixels per inch: 60" x 44" -> 720 x 528
MARGIN_X, MARGIN_Y = 72, 28  # room for the edge labels
WIDTH, HEIGHT = 60 * SCALE + 2 * MARGIN_X, 44 * SCALE + 2 * MARGIN_Y

ATTACKER = (200, 60, 60, 150)
DEFENDER = (60, 110, 200, 150)
TABLE = (236, 230, 214, 255)
GRID = (210, 202, 184, 255)
OBJECTIVE = (30, 30, 30, 255)
REMOVED = (150, 150, 150, 255)
TALL = (110, 110, 110, 200)
LOW = (120, 170, 220, 160)


def _xy(x: float, y: float) -> tuple[float, float]:
    return MARGIN_X + x * SCALE, MARGIN_Y + y * SCALE


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape, fill) -> None:
    if shape.polygon is not None:
        draw.polygon([_xy(p.x, p.y) for p in shape.polygon], fill=fill)
    else:
        cx, cy = _xy(shape.circle_centre.x, shape.circle_centre.y)
        r = shape.radius * SCALE
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def render_deployment(deployment: Deployment, *, highlight: dict[str, str] | None = None,
                      removed: tuple[str, ...] = (), layout: TerrainLayout | None = None,
                      markers: Iterable[Marker] | None = None) -> bytes:
    """PNG bytes of the map; `highlight` labels objectives (e.g. {'nml-1': 'α'}), `removed` greys them.

    `markers`: the game's objective markers (the mission may move or add some) instead of the card's;
    those set up where the players chose (The Ritual) have no recorded position and are not drawn."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), (255, 255, 255, 255))
    font = ImageFont.load_default(size=13)
    board = ImageDraw.Draw(image)
    board.rectangle((*_xy(0, 0), *_xy(60, 44)), fill=TABLE, outline=(80, 80, 80, 255), width=2)
    for inch in range(6, 60, 6):
        board.line((*_xy(inch, 0), *_xy(inch, 44)), fill=GRID)
    for inch in range(6, 44, 6):
        board.line((*_xy(0, inch), *_xy(60, inch)), fill=GRID)

    for zone in deployment.zones:
        # Each zone on its own layer so a cut-out (Search and Destroy's circle) erases only that zone.
        layer = Image.new("RGBA", image.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        colour = ATTACKER if zone.side == "attacker" else DEFENDER
        for shape in zone.shapes:
            _draw_shape(draw, shape, colour)
        for shape in zone.minus:
            _draw_shape(draw, shape, (0, 0, 0, 0))
        image = Image.alpha_composite(image, layer)

    draw = ImageDraw.Draw(image)
    if layout is not None:
        _draw_terrain(image, layout)
        draw = ImageDraw.Draw(image)
    cx, cy = _xy(30, 22)
    draw.line((cx - 8, cy, cx + 8, cy), fill=OBJECTIVE, width=2)
    draw.line((cx, cy - 8, cx, cy + 8), fill=OBJECTIVE, width=2)

    if markers is None:
        markers = table_markers(deployment)
    for objective in markers:
        if objective.at is None:
            continue
        ox, oy = _xy(objective.at.x, objective.at.y)
        r = 0.8 * SCALE  # a 40mm marker
        colour = REMOVED if objective.id in removed else OBJECTIVE
        draw.ellipse((ox - r, oy - r, ox + r, oy + r), outline=colour, width=3, fill=(255, 255, 255, 255))
        label = (highlight or {}).get(objective.id)
        if label:
            draw.text((ox + r + 3, oy - r - 3), label, fill=colour, font=font)

    _edge_labels(draw, deployment, font)
    out = io.BytesIO()
    image.convert("RGB").save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_terrain(image: Image.Image, layout: TerrainLayout) -> None:
    draw = ImageDraw.Draw(image, "RGBA")
    for section in layout.sections:
        angle = math.radians(section.angle)
        dx, dy = math.cos(angle), math.sin(angle)
        hl, hw = section.length / 2, section.width / 2
        corners = [
            (section.centre.x + sx * hl * dx - sy * hw * dy, section.centre.y + sx * hl * dy + sy * hw * dx)
            for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
        ]
        draw.polygon([_xy(x, y) for x, y in corners], fill=TALL if section.height == "tall" else LOW,
                     outline=(60, 60, 60, 255))


def _edge_labels(draw: ImageDraw.ImageDraw, deployment: Deployment, font) -> None:
    for side, edge in (("Attacker", deployment.attacker_edge), ("Defender", deployment.defender_edge)):
        text = f"{side}'s edge"
        colour = ATTACKER[:3] if side == "Attacker" else DEFENDER[:3]
        width = draw.textlength(text, font=font)
        if edge == "top":
            draw.text(((WIDTH - width) / 2, 6), text, fill=colour, font=font)
        elif edge == "bottom":
            draw.text(((WIDTH - width) / 2, HEIGHT - 22), text, fill=colour, font=font)
        elif edge == "left":
            draw.text((6, HEIGHT / 2 - 10), text.replace(" ", "\n"), fill=colour, font=font)
        else:
            draw.text((WIDTH - MARGIN_X + 6, HEIGHT / 2 - 10), text.replace(" ", "\n"), fill=colour, font=font)
