"""A table game's score sheet as a picture (PNG) readable on a phone: `render_table_sheet` only lays out the
strings of a `TableSheet` (sheet_content.py), drawn with bot/present/pictures/drawing.py as every pack's sheet."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.present.pictures.drawing import (
    HEADER, INK, MARGIN, MUTED, PAPER, PLAIN, RULE, STRIPE, WIDTH, draw_centred, draw_heading, fit_text, load_font,
    side_colour,
)
from bot.present.pictures.table_sheet_content import Row, Section, TableSheet

LABEL_COLUMN = 240
ROW = 50
TALL_ROW = 74  # a row with VP lost to a cap: the lost VP under the VP
NAME_SIZE = 26
NAME_LINE = 30
LINE = 36  # the header's lines
LOST_ON_DARK = (235, 215, 215)


def _header_height(content: TableSheet) -> int:
    return 84 + LINE * len(content.lines) + 10


def _row_height(row: Row) -> int:
    return TALL_ROW if any("lost)" in cell for cell in row.cells) else ROW


def _column_names(section: Section) -> list[list[str]]:
    """Each column's name on up to three lines of its width."""
    draw, font = ImageDraw.Draw(Image.new("RGB", (1, 1))), load_font(NAME_SIZE)
    width = _column_width(section) - 16
    return [_wrap(draw, column.name, font, width, lines=3) if column.name else [] for column in section.columns]


def _column_width(section: Section) -> float:
    return (WIDTH - 2 * MARGIN - LABEL_COLUMN) / len(section.columns)


def _head_height(names: list[list[str]]) -> int:
    return 44 + NAME_LINE * max(len(lines) for lines in names) + 10


def _section_height(section: Section) -> int:
    return (56 + _head_height(_column_names(section)) + sum(_row_height(r) for r in section.rows) + 12
            + ROW * len(section.summary) + 40)


def _height(content: TableSheet) -> int:
    return (_header_height(content) + 24 + sum(_section_height(s) for s in content.sections) + 110
            + 36 * len(content.footer) + MARGIN)


def render_table_sheet(content: TableSheet) -> bytes:
    """PNG bytes of the sheet, WIDTH pixels wide (the Chapter Approved sheet's width)."""
    image = Image.new("RGB", (WIDTH, _height(content)), PAPER)
    draw = ImageDraw.Draw(image)
    fonts = {"big": load_font(44), "body": load_font(30), "name": load_font(NAME_SIZE), "small": load_font(24)}
    inner = WIDTH - 2 * MARGIN

    top = _header_height(content)
    draw.rectangle((0, 0, WIDTH, top), fill=HEADER)
    draw.text((MARGIN, 22), fit_text(draw, content.title, fonts["big"], inner), fill=PAPER, font=fonts["big"],
              stroke_width=1, stroke_fill=PAPER)
    for n, line in enumerate(content.lines):
        draw.text((MARGIN, 84 + LINE * n), fit_text(draw, line, fonts["small"], inner), fill=(225, 225, 225),
                  font=fonts["small"])
    y = top + 24
    for section in content.sections:
        y = _draw_section(draw, content, section, y, fonts)

    draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + 70), outline=RULE, width=3)
    draw.text((MARGIN + 20, y + 17), fit_text(draw, content.outcome, fonts["body"], inner - 40), fill=INK,
              font=fonts["body"], stroke_width=1, stroke_fill=INK)
    y += 110
    for text in content.footer:  # a seed's hash is long: a smaller size rather than cut
        fits = (f for f in map(load_font, (24, 22, 20)) if draw.textlength(text.translate(PLAIN), font=f) <= inner)
        font = next(fits, load_font(20))
        draw.text((MARGIN, y), fit_text(draw, text, font, inner), fill=MUTED, font=font)
        y += 36
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_section(draw: ImageDraw.ImageDraw, content: TableSheet, section: Section, y: int, fonts) -> int:
    body, name_font, small = fonts["body"], fonts["name"], fonts["small"]
    inner = WIDTH - 2 * MARGIN
    colour = side_colour(section.side)
    y = draw_heading(draw, section.heading, section.side, y, body)

    column = _column_width(section)
    names = _column_names(section)
    head = _head_height(names)
    draw.text((MARGIN + 10, y + 10), fit_text(draw, content.corner, small, LABEL_COLUMN - 20), fill=MUTED, font=small)
    for i, (col, lines) in enumerate(zip(section.columns, names)):
        left = MARGIN + LABEL_COLUMN + column * i
        if i:
            draw.line((left, y + 6, left, y + head - 6), fill=STRIPE, width=2)
        centre = left + column / 2
        draw_centred(draw, _short(draw, col.title, small, column - 12), centre, y + 8, small, MUTED)
        for n, text in enumerate(lines):
            draw_centred(draw, text, centre, y + 42 + NAME_LINE * n, name_font, INK, bold=1)
    y += head

    for n, row in enumerate(section.rows):
        height = _row_height(row)
        if row.kind == "total":
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + height), fill=colour)
            ink, lost_ink, bold = PAPER, LOST_ON_DARK, 1
        else:
            if n % 2 == 0:
                draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + height), fill=STRIPE)
            ink, lost_ink, bold = INK, MUTED, 0
        draw.text((MARGIN + 10, y + 9), fit_text(draw, row.label, body, LABEL_COLUMN - 20), fill=ink, font=body,
                  stroke_width=bold, stroke_fill=ink)
        for i, cell in enumerate(row.cells):
            centre = MARGIN + LABEL_COLUMN + column * (i + 0.5)
            vp, _, lost = cell.partition(" (")
            draw_centred(draw, fit_text(draw, vp, body, column - 12), centre, y + 9, body, ink, bold=bold)
            if lost:
                draw_centred(draw, fit_text(draw, "(" + lost, small, column - 12), centre, y + 44, small, lost_ink)
        y += height
    y += 12

    for n, (label, value) in enumerate(section.summary):
        last = n == len(section.summary) - 1
        if last:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), fill=colour)
            ink, bold = PAPER, 1
        else:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW), outline=STRIPE, width=2)
            ink, bold = INK, 0
        draw.text((MARGIN + 10, y + 9), label, fill=ink, font=body, stroke_width=1 if last else 0, stroke_fill=ink)
        room = inner - 30 - draw.textlength(label.translate(PLAIN), font=body) - 30
        text = fit_text(draw, value, body, room)
        draw.text((WIDTH - MARGIN - 14 - draw.textlength(text, font=body), y + 9), text, fill=ink, font=body,
                  stroke_width=bold, stroke_fill=ink)
        y += ROW
    return y + 40


def _short(draw: ImageDraw.ImageDraw, title: str, font, width: float) -> str:
    """A column title to fit `width`: 'Secondary Objective 1' becomes 'Secondary 1' on a narrow column."""
    if draw.textlength(title.translate(PLAIN), font=font) > width:
        title = title.replace(" Objective", "")
    return fit_text(draw, title, font, width)


def _wrap(draw: ImageDraw.ImageDraw, text: str, font, width: float, lines: int = 2) -> list[str]:
    """`text` in plain characters on at most `lines` lines of `width` pixels, the last cut with an ellipsis."""
    words = text.translate(PLAIN).split()
    out: list[str] = []
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and draw.textlength(f"{line} {words[0]}", font=font) <= width:
            line += " " + words.pop(0)
        if draw.textlength(line, font=font) > width:  # one word too long for a line: cut it on the last line
            words.insert(0, line)
            break
        out.append(line)
    if words:
        out.append(fit_text(draw, " ".join(words), font, width))
    return out
