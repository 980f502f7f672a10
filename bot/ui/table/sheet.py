"""The score sheets of the table games (Grand Tournament 2020, the 4th edition generator): as a picture (PNG)
readable on a phone, and as monospaced text for /game log.

The Grand Tournament sheet follows the pack's Tournament Scoring Sheet: battle size and mission at the top, a
section for the Attacker and one for the Defender (by name), battle rounds 1-5 and End Game against the
Primary Objective and the three Secondary Objectives the player selected, the objective totals out of their caps,
the Battle Ready score, the Victory Points total out of 100 and, at the bottom, who won. VP over a cap show as lost.
The 4th edition sheet gives the mission and level, and per player the VP of each battle round with a running total,
and the mission's result (at Alpha level: who achieved the mission's objective).

`table_sheet_content` gathers every string the picture shows from public information only: never a secondary
selection before both players have chosen, never the seed before the game ends (unless a player fixed it: a
replay). `render_table_sheet` only lays those strings out (drawn with bot/ui/sheet_drawing.py, as every pack's sheet).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import discord
from PIL import Image, ImageDraw

from bot.engine.fourth_edition.game import mission_roll
from bot.engine.rng import seed_hash
from bot.engine.table.state import END_GAME, Seat, Step, TableState, Tally
from bot.game_log import seed_is_public
from bot.ui.sheet_drawing import (
    HEADER, INK, MARGIN, MUTED, PAPER, PLAIN, RULE, STRIPE, WIDTH, draw_centred, draw_heading, fit_text,
    load_font, sheet_filename, side_colour,
)

GT_PACK = "gt-2020"
FOURTH_PACK = "4th-edition"
BATTLE_READY = "battle_ready"  # the Tally objective of the Battle Ready score (bot/engine/gt2020/game.py)
SIZES = {"incursion": "Incursion", "strike-force": "Strike Force"}
END_LABEL = "End Game"
HOW = {"concession": " (concession)", "time": " (on time)"}

# ---- what the sheet shows ------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    title: str  # "Primary Objective", "Secondary Objective 1", "Victory Points"
    name: str = ""  # what is scored in it: "Take and Hold", "Assassinate"; "" for nothing more to say


@dataclass(frozen=True)
class Row:
    label: str  # "1".."5", "End Game", "Objective totals"
    cells: tuple[str, ...]  # "" not played yet, "-" nothing scored, "5", "15 (+3 lost)", "38/45"
    kind: str = "round"  # "round" or "total"


@dataclass(frozen=True)
class Section:
    heading: str  # "Attacker: Alice", or the player's name before sides are known
    side: str | None  # "Attacker", "Defender" or None
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    summary: tuple[tuple[str, str], ...]  # (label, value) under the table; the last one is the grand total


@dataclass(frozen=True)
class TableSheet:
    title: str
    lines: tuple[str, ...]  # under the title: the pack, battle size, mission, level
    corner: str  # the round label column's heading
    sections: tuple[Section, ...]
    outcome: str  # who won, or how far the game is
    footer: tuple[str, ...]  # the seed (once public) or its hash

    def text(self) -> str:
        """Every string the picture shows."""
        parts = [self.title, *self.lines, self.corner]
        for section in self.sections:
            parts.append(section.heading)
            for column in section.columns:
                parts += [column.title, column.name]
            for row in section.rows:
                parts += [row.label, *row.cells]
            for label, value in section.summary:
                parts += [label, value]
        parts += [self.outcome, *self.footer]
        return "\n".join(parts)


@dataclass(frozen=True)
class _Cell:
    """VP in one cell of the grid: None when the round has not been played yet."""

    awarded: int
    lost: int


def table_sheet_content(rules: Any, state: TableState, game_id: int | None = None) -> TableSheet:
    """Every string of the sheet of a table game, from public information only."""
    if state.pack == GT_PACK:
        return _gt_sheet(rules, state, game_id)
    if state.pack == FOURTH_PACK:
        return _fourth_sheet(rules, state, game_id)
    raise ValueError(f"no table sheet for the {state.pack!r} pack")


def _title(name: str, game_id: int | None) -> str:
    return name if game_id is None else f"{name} — game {game_id}"


def _reached(state: TableState, round_: int) -> bool:
    """Has the battle got to this row (a battle round, or END_GAME)?"""
    if round_ == END_GAME:
        return state.status == Step.END_GAME or (state.result is not None and state.result.reason == "battle")
    return state.round >= round_


def _cell(state: TableState, tallies: list[Tally], round_: int) -> _Cell | None:
    mine = [t for t in tallies if t.round == round_]
    if not mine and not _reached(state, round_):
        return None
    return _Cell(sum(t.awarded for t in mine), sum(t.lost for t in mine))


def _vp(cell: _Cell | None) -> str:
    if cell is None:
        return ""
    if cell.awarded == 0 and cell.lost == 0:
        return "-"
    return str(cell.awarded) + _lost(cell.lost)


def _lost(lost: int) -> str:
    return f" (+{lost} lost)" if lost else ""


def _rounds(state: TableState) -> tuple[int, ...]:
    return (*range(1, state.battle_rounds + 1), END_GAME)


def _round_label(round_: int) -> str:
    return END_LABEL if round_ == END_GAME else str(round_)


def _score(state: TableState) -> str:
    vp = state.result.vp if state.result is not None else {p.id: state.total_vp(p.id) for p in state.players}
    return " – ".join(f"{p.name} {vp[p.id]}VP" for p in state.players)


def _progress(state: TableState, score: bool = True) -> str:
    if state.status in (Step.BATTLE, Step.ROUND_END):
        where = f"battle round {state.round}"
    elif state.status == Step.END_GAME:
        where = "End Game scoring"
    else:
        where = "before the battle"
    return f"In progress ({where})" + (f": {_score(state)}" if score else "")


def _footer(state: TableState) -> tuple[str, ...]:
    seed = state.setup.seed
    if not seed_is_public(state):
        return (f"Seed SHA-256: {seed_hash(seed)}", "The seed is revealed when the game ends.")
    fixed = " (fixed by a player: a replay)" if state.setup.seed_fixed_by else ""
    return (f"Seed: {seed}{fixed}", f"SHA-256: {seed_hash(seed)}",
            "Every roll of the game comes from this seed: /game log has the whole game.")


def _sections_order(state: TableState) -> list[tuple[Seat, str | None]]:
    if state.attacker is None:
        return [(state.player(pid), None) for pid in state.setup.players]
    return [(state.player(state.attacker), "Attacker"), (state.player(state.defender), "Defender")]


def _heading(seat: Seat, side: str | None) -> str:
    name = f"{seat.name} · {seat.army.label}" if seat.army else seat.name
    return f"{side}: {name}" if side else name


# ---- Grand Tournament 2020 ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Grid:
    """A player's VP by row (battle rounds, then End Game) and column, with each column's cap."""

    seat: Seat
    side: str | None
    columns: tuple[Column, ...]
    abbreviations: tuple[str, ...]  # the text table's column headings
    caps: tuple[int, ...]
    rounds: tuple[int, ...]
    cells: tuple[tuple[_Cell | None, ...], ...]  # [row][column]
    totals: tuple[_Cell, ...]


def _gt_grid(rules: Any, state: TableState, seat: Seat, side: str | None) -> _Grid:
    pack = rules.data.pack
    mission = rules.mission(state)
    mine = [t for t in state.vp if t.player == seat.id]
    columns = [Column("Primary Objective", " / ".join(p.name for p in mission.primaries))]
    groups: list[list[Tally]] = [[t for t in mine if t.objective.startswith("primary:")]]
    if seat.objectives:  # revealed: both players have selected
        for n, objective in enumerate(seat.objectives, 1):
            columns.append(Column(f"Secondary Objective {n}", rules.objective_name(state, seat.id, objective)))
            groups.append([t for t in mine if t.objective == objective])
    else:  # a selection made is secret until both have chosen
        hidden = "Selected, hidden until revealed" if seat.secret is not None else "Not selected yet"
        for n in range(1, pack.secondaries_selected + 1):
            columns.append(Column(f"Secondary Objective {n}", hidden))
            groups.append([])
    rounds = _rounds(state)
    cells = tuple(tuple(_cell(state, group, r) for group in groups) for r in rounds)
    totals = tuple(_Cell(sum(t.awarded for t in group), sum(t.lost for t in group)) for group in groups)
    caps = (pack.caps.primary, *(pack.caps.each_secondary for _ in groups[1:]))
    abbreviations = ("Pri", *(f"S{n}" for n in range(1, len(groups))))
    return _Grid(seat, side, tuple(columns), abbreviations, caps, rounds, cells, totals)


def _battle_ready(rules: Any, state: TableState, seat: Seat) -> tuple[int, str]:
    """The Battle Ready score and what the sheet says of it."""
    cap = rules.data.pack.caps.battle_ready
    scored = [t for t in state.vp if t.player == seat.id and t.objective == BATTLE_READY]
    if scored:
        awarded, lost = sum(t.awarded for t in scored), sum(t.lost for t in scored)
        return awarded, f"+{awarded}{_lost(lost)} (army was Battle Ready)"
    if not seat.battle_ready:
        return 0, f"+0 (army {'was' if state.over else 'is'} not Battle Ready)"
    if not state.over:
        return 0, f"+{cap} at the end of the game (army is Battle Ready)"
    return 0, "+0 (army was Battle Ready; the game was abandoned)"  # any other end awards it


def _gt_total(rules: Any, state: TableState, seat: Seat) -> str:
    cap = rules.data.pack.caps.total
    scored = state.total_vp(seat.id)
    if state.result is not None and state.result.vp.get(seat.id, scored) != scored:
        return f"{state.result.vp[seat.id]}/{cap} (conceded: {scored}VP scored)"
    return f"{scored}/{cap}"


def _gt_sheet(rules: Any, state: TableState, game_id: int | None) -> TableSheet:
    mission = rules.mission(state)
    how = f"D33 roll {state.d33[0]}{state.d33[1]}" if state.d33 else "agreed"
    sections = []
    for seat, side in _sections_order(state):
        grid = _gt_grid(rules, state, seat, side)
        rows = [Row(_round_label(r), tuple(_vp(c) for c in cells)) for r, cells in zip(grid.rounds, grid.cells)]
        rows.append(Row("Objective totals", tuple(f"{t.awarded}/{cap}{_lost(t.lost)}"
                                                  for t, cap in zip(grid.totals, grid.caps)), "total"))
        summary = (("Battle Ready score", _battle_ready(rules, state, seat)[1]),
                   ("Victory Points Total", _gt_total(rules, state, seat)))
        sections.append(Section(_heading(seat, side), side, grid.columns, tuple(rows), summary))
    return TableSheet(
        title=_title("Tournament Scoring Sheet", game_id),
        lines=(rules.title, f"Battle size: {SIZES.get(state.setup.size or '', state.setup.size)}",
               f"Mission: {mission.name} ({how})"),
        corner="Battle round", sections=tuple(sections), outcome=_gt_outcome(state), footer=_footer(state))


def _gt_outcome(state: TableState) -> str:
    result = state.result
    if result is None:
        return _progress(state)
    if result.reason == "abandoned":
        return f"Abandoned, no result: {_score(state)}"
    if result.winner is None:
        return f"Draw: {_score(state)}"
    name = state.player(result.winner).name
    if state.attacker is None:
        return f"{name} wins{HOW.get(result.reason, '')}: {_score(state)}"
    side = "Attacker" if result.winner == state.attacker else "Defender"
    return f"{side} wins{HOW.get(result.reason, '')}: {name} · {_score(state)}"


# ---- 4th edition -------------------------------------------------------------------------------------


def _scores_vp(rules: Any, state: TableState) -> bool:
    return "victory-points" in rules.data.level(state.level).special_rules


def _fourth_sheet(rules: Any, state: TableState, game_id: int | None) -> TableSheet:
    data = rules.data
    level = data.level(state.level)
    if state.mission is not None:
        mission = f"{mission_roll(state.mission_roll)}: {data.mission(state.mission).name}"
    elif state.strategy_roll is not None:
        mission = (f"{mission_roll(state.mission_roll)}: {state.player(state.strategy_roll.winner).name} chooses "
                   "(won the Strategy Roll)")
    else:
        mission = "Mission: not chosen yet"
    rounds = f"{state.battle_rounds} battle rounds"
    if state.length_rolls:
        rounds += f" (Random Game Length rolls: {', '.join(map(str, state.length_rolls))})"
    level_line = f"Level: {level.name} ({f'D3 roll {state.level_roll}' if state.level_roll else 'agreed'}), {rounds}"
    vp = _scores_vp(rules, state)
    sections = []
    for seat, side in _sections_order(state):
        per_round = _fourth_cells(state, seat)
        rows, running = [], 0
        for r, cell in per_round:
            running += cell.awarded if cell else 0
            rows.append(Row(_round_label(r), (_vp(cell), "" if cell is None else str(running))))
        columns = (Column("Victory Points", "" if vp else "not used at this level"), Column("Running total"))
        summary = (("Victory Points total", str(state.total_vp(seat.id))),) if vp else (
            ("Mission objective", _achieved(state, seat)),)
        sections.append(Section(_heading(seat, side), side, columns, tuple(rows), summary))
    return TableSheet(
        title=_title("Score sheet", game_id), lines=(rules.title, mission, level_line), corner="Battle round",
        sections=tuple(sections), outcome=_fourth_outcome(rules, state), footer=_footer(state))


def _fourth_cells(state: TableState, seat: Seat) -> list[tuple[int, _Cell | None]]:
    mine = [t for t in state.vp if t.player == seat.id]
    return [(r, _cell(state, mine, r)) for r in _rounds(state)]


def _achieved(state: TableState, seat: Seat) -> str:
    if not state.mission_decided:
        return "not recorded yet" if not state.over else "not recorded"
    return "achieved" if state.mission_winner == seat.id else "not achieved"


def _fourth_outcome(rules: Any, state: TableState) -> str:
    result, vp = state.result, _scores_vp(rules, state)
    if result is None:
        if not vp and state.mission_decided:
            who = state.player(state.mission_winner).name if state.mission_winner else "Nobody"
            return f"In progress (End Game scoring): {who} achieved the mission's objective"
        return _progress(state, score=vp)
    if result.reason == "abandoned":
        return "Abandoned, no result" + (f": {_score(state)}" if vp else "")
    detail = _score(state) if vp else None
    if result.winner is None:
        return f"Draw: {detail}" if vp else "Draw: nobody achieved the mission's objective"
    name = state.player(result.winner).name
    if result.reason == "battle" and not vp:
        return f"Winner: {name} (achieved the mission's objective)"
    return f"Winner: {name}{HOW.get(result.reason, '')}" + (f" · {detail}" if detail else "")


# ---- text for /game log ------------------------------------------------------------------------------


def table_sheet_text(rules: Any, state: TableState) -> dict[str, str]:
    """Section heading (the player, with their side once known) -> a monospaced table in a code block, at most
    32 characters wide so it fits a phone's Discord message."""
    if state.pack == GT_PACK:
        tables = [(_heading(seat, side), _gt_text(rules, state, _gt_grid(rules, state, seat, side)))
                  for seat, side in _sections_order(state)]
    elif state.pack == FOURTH_PACK:
        tables = [(_heading(seat, side), _fourth_text(rules, state, seat)) for seat, side in _sections_order(state)]
    else:
        raise ValueError(f"no table sheet for the {state.pack!r} pack")
    out: dict[str, str] = {}
    for heading, lines in tables:
        key = heading if heading not in out else f"{heading} (2)"  # two players of the same name
        out[key] = "```\n" + "\n".join(line.rstrip() for line in lines) + "\n```"
    return out


def _text_cell(cell: _Cell | None) -> str:
    return "" if cell is None else "-" if cell.awarded == cell.lost == 0 else str(cell.awarded)


def _gt_text(rules: Any, state: TableState, grid: _Grid) -> list[str]:
    lines = ["Rnd " + "".join(f"{a:>6}" for a in grid.abbreviations)]
    for r, cells in zip(grid.rounds, grid.cells):
        lines.append(f"{'End' if r == END_GAME else r:<4}" + "".join(f"{_text_cell(c):>6}" for c in cells))
    lines.append("Tot " + "".join(f"{f'{t.awarded}/{cap}':>6}" for t, cap in zip(grid.totals, grid.caps)))
    if any(t.lost for t in grid.totals):
        lines.append("Lost" + "".join(f"{t.lost:>6}" for t in grid.totals))
    ready = _battle_ready(rules, state, grid.seat)
    lines.append(f"{'Battle Ready':<20}{'+' + str(ready[0]):>8}")
    total = _gt_total(rules, state, grid.seat).split(" ")[0]
    lines.append(f"{'VP total':<20}{total:>8}")
    named = grid.columns if grid.seat.objectives else grid.columns[:1]
    for abbreviation, column in zip(grid.abbreviations, named):
        lines.append(f"{abbreviation:<4}{column.name}"[:32])
    if not grid.seat.objectives:
        lines.append(f"S1-{len(grid.columns) - 1} " + ("hidden until revealed" if grid.seat.secret is not None
                                                      else "not selected yet"))
    return lines


def _fourth_text(rules: Any, state: TableState, seat: Seat) -> list[str]:
    lines = [f"{'Rnd':<4}{'VP':>6}{'Total':>8}"]
    running = 0
    for r, cell in _fourth_cells(state, seat):
        running += cell.awarded if cell else 0
        lines.append(f"{'End' if r == END_GAME else r:<4}{_text_cell(cell):>6}{'' if cell is None else running:>8}")
    if _scores_vp(rules, state):
        lines.append(f"{'VP total':<10}{state.total_vp(seat.id):>8}")
    else:
        lines.append(f"Objective: {_achieved(state, seat)}")
    return lines


# ---- the picture -------------------------------------------------------------------------------------

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
    words, out = text.translate(PLAIN).split(), []
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


def table_sheet_file(rules: Any, state: TableState, game_id: int) -> discord.File:
    """The sheet picture: public information only, so it may be posted at any time."""
    png = render_table_sheet(table_sheet_content(rules, state, game_id))
    return discord.File(io.BytesIO(png), filename=sheet_filename(game_id))  # one name for every pack's sheet
