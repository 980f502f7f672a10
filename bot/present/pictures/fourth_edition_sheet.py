"""The 4th edition score sheet: the mission and level, and per player the VP of each battle round with a running
total and the mission's result (at Alpha level, where no VP are scored: who achieved the mission's objective)."""

from __future__ import annotations

from bot.engine.fourth_edition.game import FourthEditionRules, mission_roll
from bot.engine.table.state import END_GAME, Seat, TableState
from bot.present.pictures.table_sheet_content import (
    HOW, Cell, Column, Row, Section, TableSheet, cell, footer, heading, progress, round_label, rounds, score,
    sections_order, text_cell, title, vp,
)


def sheet(rules: FourthEditionRules, state: TableState, game_id: int | None) -> TableSheet:
    """The mission, the level and each player's VP by battle round."""
    data = rules.data
    level = data.level(state.level)
    if state.mission is not None:
        mission = f"{mission_roll(state.mission_roll)}: {data.mission(state.mission).name}"
    elif state.strategy_roll is not None:
        mission = (f"{mission_roll(state.mission_roll)}: {state.player(state.strategy_roll.winner).name} chooses "
                   "(won the Strategy Roll)")
    else:
        mission = "Mission: not chosen yet"
    length = f"{state.battle_rounds} battle rounds"
    if state.length_rolls:
        length += f" (Random Game Length rolls: {', '.join(map(str, state.length_rolls))})"
    level_line = f"Level: {level.name} ({f'D3 roll {state.level_roll}' if state.level_roll else 'agreed'}), {length}"
    scores_vp = rules.scores_vp(state)
    sections = []
    for seat, side in sections_order(state):
        rows, running = [], 0
        for r, this in round_cells(state, seat):
            running += this.awarded if this else 0
            rows.append(Row(round_label(r), (vp(this), "" if this is None else str(running))))
        columns = (Column("Victory Points", "" if scores_vp else "not used at this level"), Column("Running total"))
        summary = (("Victory Points total", str(state.total_vp(seat.id))),) if scores_vp else (
            ("Mission objective", achieved(state, seat)),)
        sections.append(Section(heading(seat, side), side, columns, tuple(rows), summary))
    return TableSheet(
        title=title("Score sheet", game_id), lines=(rules.title, mission, level_line), corner="Battle round",
        sections=tuple(sections), outcome=outcome(rules, state), footer=footer(state))


def round_cells(state: TableState, seat: Seat) -> list[tuple[int, Cell | None]]:
    mine = [t for t in state.vp if t.player == seat.id]
    return [(r, cell(state, mine, r)) for r in rounds(state)]


def achieved(state: TableState, seat: Seat) -> str:
    if not state.mission_decided:
        return "not recorded yet" if not state.over else "not recorded"
    return "achieved" if state.mission_winner == seat.id else "not achieved"


def outcome(rules: FourthEditionRules, state: TableState) -> str:
    result, scores_vp = state.result, rules.scores_vp(state)
    if result is None:
        if not scores_vp and state.mission_decided:
            who = state.player(state.mission_winner).name if state.mission_winner else "Nobody"
            return f"In progress (End Game scoring): {who} achieved the mission's objective"
        return progress(state, with_score=scores_vp)
    if result.reason == "abandoned":
        return "Abandoned, no result" + (f": {score(state)}" if scores_vp else "")
    detail = score(state) if scores_vp else None
    if result.winner is None:
        return f"Draw: {detail}" if scores_vp else "Draw: nobody achieved the mission's objective"
    name = state.player(result.winner).name
    if result.reason == "battle" and not scores_vp:
        return f"Winner: {name} (achieved the mission's objective)"
    return f"Winner: {name}{HOW.get(result.reason, '')}" + (f" · {detail}" if detail else "")


def text_lines(rules: FourthEditionRules, state: TableState, seat: Seat, side: str | None) -> list[str]:
    """The /game log table of one player: VP and running total by round, then the VP total or the objective."""
    lines = [f"{'Rnd':<4}{'VP':>6}{'Total':>8}"]
    running = 0
    for r, this in round_cells(state, seat):
        running += this.awarded if this else 0
        lines.append(f"{'End' if r == END_GAME else r:<4}{text_cell(this):>6}{'' if this is None else running:>8}")
    if rules.scores_vp(state):
        lines.append(f"{'VP total':<10}{state.total_vp(seat.id):>8}")
    else:
        lines.append(f"Objective: {achieved(state, seat)}")
    return lines
