"""The public model of a table game of an older pack (Grand Tournament 2020, 4th edition), in the board's words."""

from __future__ import annotations

from bot.engine.table.rules import TableRules
from bot.engine.table.state import Seat, Step, TableState
from bot.present.common import Links, clock, plain, result, seat, status
from bot.ui.calls import Wait, ask
from bot.ui.table import board, controls


def model(rules: TableRules, state: TableState, *, game_id: int, version: int, recent: list[str],
          links: Links) -> dict:
    waits = {Wait.of(flat) for flat in controls.waits(rules, state)}
    scores = rules.scores_vp(state)
    return {
        "kind": "game", "game": game_id, "version": version, "family": "table",
        "title": board.mission_title(rules, state),
        "mission": {"primary": rules.data.mission(state.mission).name if state.mission else None,
                    "deployment": None, "twist": None, "details": [], "map": None},
        "status": status(state, (Step.BATTLE, Step.ROUND_END, Step.END_GAME)),
        "status_text": plain(board.status_line(rules, state)),
        "round": state.round, "rounds": state.battle_rounds, "turn": state.turn,
        "phase": "Command phase" if state.command_phase else None,
        "active": seat(state, state.active),
        "players": [_player(rules, state, p, scores, any(w.player == p.id for w in waits)) for p in state.players],
        "waiting_on": [f"{state.player(w.player).name}, {ask(lambda _: None, state, w.player, w)}"
                       for w in sorted(waits)],
        "clock": clock(state),
        "recent": recent,
        "result": result(state, vp=scores),
        "sheet": links.sheet if state.result is not None and scores and state.status == "ended" else None,
    }


def _player(rules: TableRules, state: TableState, player: Seat, scores: bool, waiting: bool) -> dict:
    role = None
    if state.attacker is not None:
        role = "Attacker" if player.id == state.attacker else "Defender"
    cards = [{"name": objective.name, "scoring": f"{_scored(state, player, objective.id)}VP scored"}
             for objective in rules.objectives(state, player.id)]
    return {
        "name": player.name, "army": player.army.label if player.army else None,
        "points": player.army.points if player.army else None,
        "vp": state.total_vp(player.id) if scores else None, "cp": player.cp if rules.has_cp else None,
        "role": role, "primary": None, "mode": None, "deck": None, "cards": cards, "waiting": waiting,
    }


def _scored(state: TableState, player: Seat, objective: str) -> int:
    return sum(t.awarded for t in state.vp if t.player == player.id and t.objective == objective)
