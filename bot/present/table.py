"""The public model of a table game of an older pack (Grand Tournament 2020, 4th edition): its board's sections,
in the words of table_words.py, and the facts a page reads."""

from __future__ import annotations

import bot.present.table_words as w
from bot.engine.table.rules import TableRules
from bot.engine.table.state import Seat, Step, TableState
from bot.present.asks import Wait, ask, table_waits
from bot.present.common import Links, clock, clock_lines, replay_line, result, seat, status
from bot.present.model import GameModel, Section
from bot.present.words import words


def model(rules: TableRules, state: TableState, *, game_id: int, version: int, recent: list[str],
          links: Links) -> GameModel:
    waits = {Wait.of(flat) for flat in table_waits(rules, state)}
    scores = rules.scores_vp(state)
    sections = [Section(words(w.player_heading(state, p)), w.player_lines(rules, state, p), True)
                for p in state.players]
    if state.clock is not None:
        sections.append(Section(words("Clock"), clock_lines(state)))
    if recent:
        sections.append(Section(words("Latest"), tuple(words(line) for line in recent)))
    return GameModel(
        game=game_id, version=version, family="table", title=w.mission_title(rules, state),
        status=status(state, (Step.BATTLE, Step.ROUND_END, Step.END_GAME)), status_text=w.status_line(rules, state),
        replay=replay_line(state), tone="table",
        mission={"primary": rules.data.mission(state.mission).name if state.mission else None,
                 "deployment": None, "twist": None, "details": [], "map": None},
        round=state.round, rounds=state.battle_rounds, turn=state.turn,
        phase="Command phase" if state.command_phase else None,
        active=seat(state, state.active),
        players=tuple(_player(rules, state, p, scores, any(x.player == p.id for x in waits)) for p in state.players),
        waiting_on=tuple(words(f"{state.player(x.player).name}, {ask(lambda _: None, state, x.player, x)}")
                         for x in sorted(waits)),
        clock=clock(state), recent=tuple(recent), result=result(state, vp=scores),
        sheet=links.sheet if state.result is not None and scores and state.status == "ended" else None,
        sections=tuple(sections),
        footer=f"Game {game_id} · move {version}",  # the seed's commitment is in the briefing, once
    )


def _player(rules: TableRules, state: TableState, player: Seat, scores: bool, waiting: bool) -> dict:
    cards = [{"name": objective.name, "scoring": f"{w.scored(state, player, objective.id)}VP scored"}
             for objective in rules.objectives(state, player.id)]
    return {
        "name": player.name, "army": player.army.label if player.army else None,
        "points": player.army.points if player.army else None,
        "vp": state.total_vp(player.id) if scores else None, "cp": player.cp if rules.has_cp else None,
        "role": w.role(state, player), "primary": None, "mode": None, "deck": None, "cards": cards,
        "waiting": waiting,
    }
