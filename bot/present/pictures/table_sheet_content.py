"""What a table game's score sheet shows (bot/present/pictures/table_sheet.py), as strings, and the pieces every pack's sheet
shares: a battle round's VP, the progress line, the seed, the sections' order and headings.

A pack's own sheet (gt2020_sheet.py, fourth_edition_sheet.py) fills a `TableSheet` from public information only;
sheet_image.py lays it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.models import settled
from bot.engine.rng import seed_hash
from bot.engine.table.state import END_GAME, Seat, Step, TableState, Tally
from bot.services.game_log import seed_is_public

END_LABEL = "End Game"
HOW = {"concession": " (concession)", "time": " (on time)"}


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
class Cell:
    """VP in one cell of the grid (a cell not played yet is None instead)."""

    awarded: int
    lost: int


def title(name: str, game_id: int | None) -> str:
    return name if game_id is None else f"{name} — game {game_id}"


def reached(state: TableState, round_: int) -> bool:
    """Has the battle got to this row (a battle round, or END_GAME)?"""
    if round_ == END_GAME:
        return state.status == Step.END_GAME or (state.result is not None and state.result.reason == "battle")
    return state.round >= round_


def cell(state: TableState, tallies: list[Tally], round_: int) -> Cell | None:
    mine = [t for t in tallies if t.round == round_]
    if not mine and not reached(state, round_):
        return None
    return Cell(sum(t.awarded for t in mine), sum(t.lost for t in mine))


def vp(cell_: Cell | None) -> str:
    """A cell of the picture: VP with those lost to a cap."""
    if cell_ is None:
        return ""
    if cell_.awarded == 0 and cell_.lost == 0:
        return "-"
    return str(cell_.awarded) + lost(cell_.lost)


def text_cell(cell_: Cell | None) -> str:
    """A cell of the /game log table: VP only."""
    return "" if cell_ is None else "-" if cell_.awarded == cell_.lost == 0 else str(cell_.awarded)


def lost(points: int) -> str:
    return f" (+{points} lost)" if points else ""


def rounds(state: TableState) -> tuple[int, ...]:
    return (*range(1, state.battle_rounds + 1), END_GAME)


def round_label(round_: int) -> str:
    return END_LABEL if round_ == END_GAME else str(round_)


def score(state: TableState) -> str:
    points = state.result.vp if state.result is not None else {p.id: state.total_vp(p.id) for p in state.players}
    return " – ".join(f"{p.name} {points[p.id]}VP" for p in state.players)


def progress(state: TableState, with_score: bool = True) -> str:
    if state.status in (Step.BATTLE, Step.ROUND_END):
        where = f"battle round {state.round}"
    elif state.status == Step.END_GAME:
        where = "End Game scoring"
    else:
        where = "before the battle"
    return f"In progress ({where})" + (f": {score(state)}" if with_score else "")


def footer(state: TableState) -> tuple[str, ...]:
    seed = state.setup.seed
    if not seed_is_public(state):
        return (f"Seed SHA-256: {seed_hash(seed)}", "The seed is revealed when the game ends.")
    fixed = " (fixed by a player: a replay)" if state.setup.seed_fixed_by else ""
    return (f"Seed: {seed}{fixed}", f"SHA-256: {seed_hash(seed)}",
            "Every roll of the game comes from this seed: /game log has the whole game.")


def sections_order(state: TableState) -> list[tuple[Seat, str | None]]:
    """Attacker then Defender once sides are chosen, else the players in their order."""
    if state.attacker is None:
        return [(state.player(pid), None) for pid in state.setup.players]
    return [(state.player(state.attacker), "Attacker"), (state.player(settled(state.defender)), "Defender")]


def heading(seat: Seat, side: str | None) -> str:
    name = f"{seat.name} · {seat.army.label}" if seat.army else seat.name
    return f"{side}: {name}" if side else name
