"""What every pack's score sheet picture is drawn with: the page, its colours, the font and text fitting, and the
file's name (score-sheet-N.png)."""

from __future__ import annotations

from PIL import ImageDraw, ImageFont

WIDTH = 1100
MARGIN = 40
INK = (20, 20, 20)
MUTED = (95, 95, 95)
PAPER = (255, 255, 255)
STRIPE = (238, 238, 238)
RULE = (60, 60, 60)
ATTACKER = (170, 25, 25)
DEFENDER = (25, 70, 170)
HEADER = (28, 28, 28)


def sheet_filename(game_id: int) -> str:
    return f"score-sheet-{game_id}.png"


def load_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


# Pillow's built-in font has no dashes, curly quotes or ellipsis: draw their plain forms.
PLAIN = str.maketrans({"—": "-", "–": "-", "’": "'", "‘": "'", "“": '"', "”": '"', "…": "..."})


def fit_text(draw: ImageDraw.ImageDraw, text: str, font, width: float) -> str:
    """`text` in plain characters, cut with an ellipsis to fit `width` pixels."""
    text = text.translate(PLAIN)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "...", font=font) > width:
        text = text[:-1]
    return text + "..."


def draw_centred(draw: ImageDraw.ImageDraw, text: str, x: float, y: float, font, fill, *, bold: int = 0) -> None:
    draw.text((x - draw.textlength(text, font=font) / 2, y), text, fill=fill, font=font, stroke_width=bold,
              stroke_fill=fill)


def side_colour(side: str | None) -> tuple[int, int, int]:
    """A player's colour on the sheet: the Attacker red, the Defender blue, ink without a side."""
    return {"Attacker": ATTACKER, "Defender": DEFENDER}.get(side or "", INK)


def draw_heading(draw: ImageDraw.ImageDraw, text: str, side: str | None, y: int, font) -> int:
    """A player's heading in their side's colour, ruled off: the y below it."""
    colour = side_colour(side)
    draw.text((MARGIN, y), fit_text(draw, text, font, WIDTH - 2 * MARGIN), fill=colour, font=font, stroke_width=1,
              stroke_fill=colour)
    y += 48
    draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=colour, width=4)
    return y + 8
