"""The game log anyone may download with /game log, and the public facts `python -m bot verify` re-derives.

Besides the action log, the export carries what each action showed everyone: the cards drawn, the
shuffles and roll-offs made, the position after it (hands, discards, deck sizes, CP, VP), then the
result and the score sheet. It never carries what someone may not see yet: the seed of a game still
running (unless a player fixed it: a replay), the order of a deck, a Secondary Mission choice before
both players have chosen, a roll-off before it decided anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.engine.chapter_approved.actions import Action, ChooseDisposition, ChooseSecondaries, SetArmy
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import apply, new_game
from bot.engine.chapter_approved.state import GameState, PlayerState, Source, Status
from bot.engine.table.state import TableState

FORMAT = "mission-deck game log"
FORMAT_VERSION = 2  # 1: the export before it carried the facts of each action
SECRET_STATUSES = (Status.SIDES, Status.SECONDARIES)  # Secondary choices are still hidden
OVER = (Status.ENDED, Status.ABANDONED)


def seed_is_public(state: GameState | TableState) -> bool:
    """A bot-made seed is revealed when the game ends; a seed a player fixed was public from the start."""
    return state.setup.seed_fixed_by is not None or state.status in OVER


def export_game(catalog: Catalog, state: GameState, log: Sequence[tuple[int, str, str, Action]],
                **record: Any) -> dict[str, Any]:
    """The JSON export of a game whose current state is `state`; `log` holds (seq, actor, time, action).

    `record` adds the store's own fields (game id, channel, times, seed hash) at the top.
    """
    public = seed_is_public(state)
    hidden = ({"seed"} if not public else set()) | ({"armies"} if state.status == Status.DISPOSITIONS else set())
    setup = state.setup.model_dump(mode="json", exclude=hidden or None)
    replayed = new_game(catalog, state.setup).state
    start = public_view(replayed)
    actions = []
    for seq, actor, time, action in log:
        after = apply(catalog, replayed, action).state
        actions.append({"seq": seq, "actor": actor, "time": time, "action": public_action(action, state),
                        "facts": action_facts(replayed, after)})
        replayed = after
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        **record,
        "seed": state.setup.seed if public else None,
        "setup": setup,
        "mission": state.mission.model_dump(mode="json"),
        "armies": None if state.status == Status.DISPOSITIONS else armies(state),
        "start": start,
        "actions": actions,
        "result": state.result.model_dump(mode="json") if state.result else None,
        "score_sheet": score_sheet(state),
    }


def armies(state: Any) -> dict[str, Any]:
    """Each player's army (None: not set), by player id: any pack's game."""
    return {p.id: _dump(p.army) for p in state.players}


def public_action(action: Action, state: GameState) -> dict[str, Any]:
    if isinstance(action, ChooseSecondaries) and state.status in SECRET_STATUSES:
        return {"kind": action.kind, "actor": action.actor, "hidden": "until both players have chosen"}
    if isinstance(action, ChooseDisposition | SetArmy) and state.status == Status.DISPOSITIONS:
        return {"kind": action.kind, "actor": action.actor, "hidden": "until both players have picked"}
    return action.model_dump(mode="json")


def public_view(state: GameState) -> dict[str, Any]:
    """What both players may see of a game, flattened to one level so two views compare key by key."""
    view: dict[str, Any] = {
        "status": state.status.value,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase.value if state.phase else None,
        "attacker": state.attacker,
        "first": state.first,
        "mission": state.mission.model_dump(mode="json"),
        # CA 2026-27 rolls off for the sides once both Force Dispositions are known: the result is not shown before.
        "roll-off:sides": None if state.status == Status.DISPOSITIONS else _dump(state.sides_rolloff),
        "challenger": state.challenger,
        "challenger_deck": len(state.challenger_deck),
        "challenger_discard": list(state.challenger_discard),
        "removed_objectives": list(state.removed_objectives),
        "shuffles": state.shuffles,
        "result": _dump(state.result),
    }
    if state.first is not None:  # shown when it decides who goes first, never before
        view["roll-off:first-turn"] = _dump(state.first_turn_rolloff)
    for p in state.players:
        view |= {
            f"{p.id}.mode": p.mode,
            f"{p.id}.hand": list(p.hand),
            f"{p.id}.discard": list(p.discard),
            f"{p.id}.deck": len(p.deck),
            f"{p.id}.challenger_card": p.challenger_card,
            f"{p.id}.cp": p.cp,
            f"{p.id}.vp": state.total_vp(p.id),
        }
    return view


def action_facts(before: GameState, after: GameState) -> dict[str, Any]:
    """What an action changed in the public view, and the Secondary cards each player drew."""
    old, new = public_view(before), public_view(after)
    facts = {key: value for key, value in new.items() if old.get(key) != value}
    for b, a in zip(before.players, after.players):
        drawn = _drawn(b, a)
        if drawn:
            facts[f"{a.id}.drawn"] = drawn
    return facts


def _drawn(before: PlayerState, after: PlayerState) -> list[str]:
    """Cards out of a Tactical deck now that were in it before (a card shuffled straight back is not seen)."""
    if after.mode != "tactical":
        return []
    held = set(before.hand) | set(before.discard)
    return [card for card in after.hand + after.discard if card not in held]


def _dump(model) -> dict[str, Any] | None:
    return model.model_dump(mode="json") if model is not None else None


def score_sheet(state: GameState) -> list[dict[str, Any]]:
    """Each player's VP per battle round and source, from the VP ledger; VP lost to caps shown apart."""
    sources = (Source.PRIMARY, Source.SECONDARY, Source.CHALLENGER)
    in_rounds = [e for e in state.vp if e.source != Source.BATTLE_READY]
    rounds = sorted({1, 2, 3, 4, 5} | {e.round for e in in_rounds})
    sheet = []
    for p in state.players:
        rows = []
        for r in rounds:
            entries = [e for e in in_rounds if e.player == p.id and e.round == r]
            row: dict[str, Any] = {"round": r} | {s.value: sum(e.awarded for e in entries if e.source == s)
                                                   for s in sources}
            row["total"] = sum(e.awarded for e in entries)
            row["lost_to_caps"] = sum(e.lost for e in entries)
            rows.append(row)
        battle_ready = sum(e.awarded for e in state.vp if e.player == p.id and e.source == Source.BATTLE_READY)
        sheet.append({"player": p.id, "name": p.name, "rounds": rows, "battle_ready": battle_ready,
                      "total": state.total_vp(p.id)})
    return sheet
