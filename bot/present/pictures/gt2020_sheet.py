"""The Grand Tournament 2020 score sheet, after the pack's Tournament Scoring Sheet: battle size and mission at the
top, a section for the Attacker and one for the Defender (by name), battle rounds 1-5 and End Game against the
Primary Objective and the three Secondary Objectives the player selected, the objective totals out of their caps,
the Battle Ready score, the Victory Points total out of 100 and, at the bottom, who won. VP over a cap show as lost.
A selection stays hidden until both players have chosen."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.gt2020.game import BATTLE_READY, GrandTournamentRules
from bot.engine.table.state import END_GAME, Seat, TableState, Tally
from bot.engine.names import size_name
from bot.present.pictures.table_sheet_content import (
    HOW, Cell, Column, Row, Section, TableSheet, cell, footer, heading, lost, progress, round_label, rounds, score,
    sections_order, text_cell, title, vp,
)


@dataclass(frozen=True)
class Grid:
    """A player's VP by row (battle rounds, then End Game) and column, with each column's cap."""

    seat: Seat
    side: str | None
    columns: tuple[Column, ...]
    abbreviations: tuple[str, ...]  # the text table's column headings
    caps: tuple[int, ...]
    rounds: tuple[int, ...]
    cells: tuple[tuple[Cell | None, ...], ...]  # [row][column]
    totals: tuple[Cell, ...]


def grid(rules: GrandTournamentRules, state: TableState, seat: Seat, side: str | None) -> Grid:
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
    rows = rounds(state)
    cells = tuple(tuple(cell(state, group, r) for group in groups) for r in rows)
    totals = tuple(Cell(sum(t.awarded for t in group), sum(t.lost for t in group)) for group in groups)
    caps = (pack.caps.primary, *(pack.caps.each_secondary for _ in groups[1:]))
    abbreviations = ("Pri", *(f"S{n}" for n in range(1, len(groups))))
    return Grid(seat, side, tuple(columns), abbreviations, caps, rows, cells, totals)


def battle_ready(rules: GrandTournamentRules, state: TableState, seat: Seat) -> tuple[int, str]:
    """The Battle Ready score and what the sheet says of it."""
    cap = rules.data.pack.caps.battle_ready
    scored = [t for t in state.vp if t.player == seat.id and t.objective == BATTLE_READY]
    if scored:
        awarded = sum(t.awarded for t in scored)
        return awarded, f"+{awarded}{lost(sum(t.lost for t in scored))} (army was Battle Ready)"
    if not seat.battle_ready:
        return 0, f"+0 (army {'was' if state.over else 'is'} not Battle Ready)"
    if not state.over:
        return 0, f"+{cap} at the end of the game (army is Battle Ready)"
    return 0, "+0 (army was Battle Ready; the game was abandoned)"  # any other end awards it


def vp_total(rules: GrandTournamentRules, state: TableState, seat: Seat) -> str:
    cap = rules.data.pack.caps.total
    scored = state.total_vp(seat.id)
    if state.result is not None and state.result.vp.get(seat.id, scored) != scored:
        return f"{state.result.vp[seat.id]}/{cap} (conceded: {scored}VP scored)"
    return f"{scored}/{cap}"


def sheet(rules: GrandTournamentRules, state: TableState, game_id: int | None) -> TableSheet:
    """The Tournament Scoring Sheet."""
    mission = rules.mission(state)
    how = f"D33 roll {state.d33[0]}{state.d33[1]}" if state.d33 else "agreed"
    sections = []
    for seat, side in sections_order(state):
        player = grid(rules, state, seat, side)
        rows = [Row(round_label(r), tuple(vp(c) for c in cells)) for r, cells in zip(player.rounds, player.cells)]
        rows.append(Row("Objective totals", tuple(f"{t.awarded}/{cap}{lost(t.lost)}"
                                                  for t, cap in zip(player.totals, player.caps)), "total"))
        summary = (("Battle Ready score", battle_ready(rules, state, seat)[1]),
                   ("Victory Points Total", vp_total(rules, state, seat)))
        sections.append(Section(heading(seat, side), side, player.columns, tuple(rows), summary))
    return TableSheet(
        title=title("Tournament Scoring Sheet", game_id),
        lines=(rules.title, f"Battle size: {size_name(state.setup.size) if state.setup.size else None}",
               f"Mission: {mission.name} ({how})"),
        corner="Battle round", sections=tuple(sections), outcome=outcome(state), footer=footer(state))


def outcome(state: TableState) -> str:
    result = state.result
    if result is None:
        return progress(state)
    if result.reason == "abandoned":
        return f"Abandoned, no result: {score(state)}"
    if result.winner is None:
        return f"Draw: {score(state)}"
    name = state.player(result.winner).name
    if state.attacker is None:
        return f"{name} wins{HOW.get(result.reason, '')}: {score(state)}"
    side = "Attacker" if result.winner == state.attacker else "Defender"
    return f"{side} wins{HOW.get(result.reason, '')}: {name} · {score(state)}"


def text_lines(rules: GrandTournamentRules, state: TableState, seat: Seat, side: str | None) -> list[str]:
    """The /game log table of one player: Pri, S1-S3 by round, totals, Battle Ready, VP total, the names."""
    player = grid(rules, state, seat, side)
    lines = ["Rnd " + "".join(f"{a:>6}" for a in player.abbreviations)]
    for r, cells in zip(player.rounds, player.cells):
        lines.append(f"{'End' if r == END_GAME else r:<4}" + "".join(f"{text_cell(c):>6}" for c in cells))
    lines.append("Tot " + "".join(f"{f'{t.awarded}/{cap}':>6}" for t, cap in zip(player.totals, player.caps)))
    if any(t.lost for t in player.totals):
        lines.append("Lost" + "".join(f"{t.lost:>6}" for t in player.totals))
    ready = battle_ready(rules, state, seat)
    lines.append(f"{'Battle Ready':<20}{'+' + str(ready[0]):>8}")
    total = vp_total(rules, state, seat).split(" ")[0]
    lines.append(f"{'VP total':<20}{total:>8}")
    named = player.columns if seat.objectives else player.columns[:1]
    for abbreviation, column in zip(player.abbreviations, named):
        lines.append(f"{abbreviation:<4}{column.name}"[:32])
    if not seat.objectives:
        lines.append(f"S1-{len(player.columns) - 1} " + ("hidden until revealed" if seat.secret is not None
                                                        else "not selected yet"))
    return lines
