"""The `/game log` export of a table game (Grand Tournament 2020, 4th edition), which `python -m bot verify`
re-derives as it does a Chapter Approved game's (bot/services/game_log.py, docs/verify.md).

The same top-level shape and format as the Chapter Approved export, plus `pack`: the setup, the start, every
action with the public facts it made (the rolls, each player's CP and VP after it, the step, battle round and
turn), the result and a score sheet by objective and battle round. It never carries what someone may not see
yet: the seed of a game still running (unless a player fixed it), a secret selection of secondary objectives
before both players have selected theirs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.packs import FOURTH_PACK, GT_PACK
from bot.engine.table.actions import SelectSecondaries, TableAction
from bot.engine.table.rules import TableRules
from bot.engine.table.state import END_GAME, Step, TableState
from bot.services.game_log import FORMAT, FORMAT_VERSION, armies, seed_is_public

SELECTING = {GT_PACK}  # the packs whose players secretly select secondary objectives (after a D33 mission)
GENERATED = {FOURTH_PACK}  # the packs whose mission, level and set-up come from the 4th edition generator
END = "end"  # the score sheet's name for the End Game scores (battle round END_GAME of the VP ledger)


def export_table_game(rules: TableRules, state: TableState, log: Sequence[tuple[int, str, str, TableAction]],
                      **record: Any) -> dict[str, Any]:
    """The JSON export of a table game whose current state is `state`; `log` holds (seq, actor, time, action).

    `record` adds the store's own fields (game id, channel, times, status, seed hash) at the top.
    """
    public = seed_is_public(state)
    replayed = rules.new_game(state.setup).state
    start = public_view(rules, replayed)
    actions = []
    for seq, actor, time, action in log:
        after = rules.apply(replayed, action).state
        actions.append({"seq": seq, "actor": actor, "time": time, "action": public_action(action, state),
                        "facts": action_facts(rules, replayed, after)})
        replayed = after
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "pack": state.setup.pack,
        **record,
        "seed": state.setup.seed if public else None,
        "setup": state.setup.model_dump(mode="json", exclude=None if public else {"seed"}),
        "mission": mission_view(rules, state),
        "armies": armies(state),
        "start": start,
        "actions": actions,
        "result": state.result.model_dump(mode="json") if state.result else None,
        "score_sheet": score_sheet(rules, state),
    }


def public_action(action: TableAction, state: TableState) -> dict[str, Any]:
    """The action as logged; a selection of secondary objectives without its picks while selections are secret."""
    dumped = action.model_dump(mode="json")
    if isinstance(action, SelectSecondaries) and state.status == Step.SECONDARIES:
        dumped |= {"picks": None, "codex": None}
    return dumped


def mission_view(rules: TableRules, state: TableState) -> dict[str, Any]:
    """The mission (and 4th edition level) and how many battle rounds the game has (Random Game Length may add)."""
    view: dict[str, Any] = {"id": state.mission,
                            "name": rules.data.mission(state.mission).name if state.mission else None}
    if state.level is not None:
        view |= {"level": state.level, "level_name": rules.data.level(state.level).name}
    view["battle_rounds"] = state.battle_rounds
    return view


def public_view(rules: TableRules, state: TableState) -> dict[str, Any]:
    """What both players may see of a table game, flattened to one level so two views compare key by key: what
    every table game has, then its pack's own rolls (the D33; the 4th edition generator's rolls and outcome)."""
    view: dict[str, Any] = {
        "status": state.status.value,
        "round": state.round,
        "turn": state.turn,
        "mission": state.mission,
        "battle_rounds": state.battle_rounds,
        "roll-off:sides": _dump(state.sides_rolloff),
        "attacker": state.attacker,
        "roll-off:first-turn": _dump(state.first_turn_rolloff),
        "first": state.first,
        "deployed": list(state.deployed),
        "scoring_done": list(state.scoring_done),
        "result": _dump(state.result),
    }
    if state.setup.pack in SELECTING:
        view["d33"] = _list(state.d33)
    if state.setup.pack in GENERATED:
        view |= {
            "level": state.level,
            "mission_roll": state.mission_roll,
            "roll-off:strategy": _dump(state.strategy_roll),
            "level_roll": state.level_roll,
            "roll-off:set-up": _dump(state.set_up_roll),
            "token_d3": state.token_d3,
            "first_token": state.first_token,
            "infiltrate_first": state.infiltrate_first,
            "dusk_and_dawn": state.dusk_and_dawn,
            "length_rolls": list(state.length_rolls),
            "mission_winner": state.mission_winner,
            "mission_decided": state.mission_decided,
        }
    for seat in state.players:
        if state.setup.pack in SELECTING:
            revealed = bool(seat.objectives)  # both selections are revealed together, the Codex name with them
            view |= {
                f"{seat.id}.selected": revealed or seat.secret is not None,
                f"{seat.id}.objectives": list(seat.objectives),
                f"{seat.id}.codex": seat.codex if revealed else None,
            }
        view[f"{seat.id}.battle_ready"] = seat.battle_ready
        view |= _totals(rules, state, seat.id)
    return view


def action_facts(rules: TableRules, before: TableState, after: TableState) -> dict[str, Any]:
    """The step, battle round and turn and each player's CP and VP after an action, and whatever else of the
    public view it changed (the rolls it made, a side, a deployment, a revealed selection, the result)."""
    old, new = public_view(rules, before), public_view(rules, after)
    always = {"status": new["status"], "round": new["round"], "turn": new["turn"]}
    for seat in after.players:
        always |= _totals(rules, after, seat.id)
    return always | {key: value for key, value in new.items() if old.get(key) != value}


def score_sheet(rules: TableRules, state: TableState) -> list[dict[str, Any]]:
    """Each player's VP by objective and battle round (`"end"`: at the end of the battle), awarded and lost to caps."""
    rounds = sorted({*range(1, state.battle_rounds + 1)} | {t.round for t in state.vp if t.round != END_GAME})
    sheet = []
    for seat in state.players:
        names = {o.id: o.name for o in rules.objectives(state, seat.id)}
        mine = [t for t in state.vp if t.player == seat.id]
        for tally in mine:  # scored but no longer listed (Battle Ready)
            names.setdefault(tally.objective, _objective_name(rules, state, seat.id, tally.objective))
        objectives = []
        for objective, name in names.items():
            scored = [t for t in mine if t.objective == objective]
            rows = [{"round": r, "awarded": sum(t.awarded for t in scored if t.round == r),
                     "lost": sum(t.lost for t in scored if t.round == r)} for r in rounds]
            rows.append({"round": END, "awarded": sum(t.awarded for t in scored if t.round == END_GAME),
                         "lost": sum(t.lost for t in scored if t.round == END_GAME)})
            objectives.append({"objective": objective, "name": name, "rounds": rows,
                               "awarded": sum(t.awarded for t in scored), "lost": sum(t.lost for t in scored)})
        sheet.append({"player": seat.id, "name": seat.name, "objectives": objectives,
                      "total": state.total_vp(seat.id), "lost": sum(t.lost for t in mine)})
    return sheet


def _totals(rules: TableRules, state: TableState, player: str) -> dict[str, Any]:
    totals: dict[str, Any] = {f"{player}.cp": state.player(player).cp} if rules.has_cp else {}
    return totals | {f"{player}.vp": state.total_vp(player)}


def _objective_name(rules: TableRules, state: TableState, player: str, objective: str) -> str:
    try:
        return rules.objective_name(state, player, objective)
    except (LookupError, StopIteration, ValueError):  # a ledger edited by hand names no known objective
        return objective


def _list(value: tuple | None) -> list | None:
    return list(value) if value is not None else None


def _dump(model) -> dict[str, Any] | None:
    return model.model_dump(mode="json") if model is not None else None
