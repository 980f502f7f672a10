"""The public model of a Mission Deck game (Chapter Approved 2025-26 and 2026-27), in the board's own words."""

from __future__ import annotations

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, PlayerState, Status
from bot.engine.names import title_case
from bot.present.common import Links, clock, plain, result, seat, status
from bot.ui.calls import Wait, ask
from bot.ui.chapter_approved import board, controls

ROUNDS = 5


def model(catalog: Catalog, state: GameState, *, game_id: int, version: int, recent: list[str],
          links: Links) -> dict:
    mission = state.mission
    waits = {Wait.of(flat) for flat in controls.waits(state)}
    details = [plain(line) for line in (board.objectives_line(catalog, state) or "").splitlines()]
    if mission.alpha_objective:
        details.append(board.supply_drop_text(catalog, state))
    if mission.layout:
        details.append(f"Layout {board.layout_letter(mission.layout)}")
    waiting = [plain(line) for line in (board.waiting_for(catalog, state) or "").splitlines()]
    waiting += [f"{state.player(w.player).name}, {ask(lambda _: catalog, state, w.player, w)}" for w in sorted(waits)]
    return {
        "kind": "game", "game": game_id, "version": version, "family": "mission-deck",
        "title": board.mission_title(catalog, state),
        "mission": {
            "primary": board.mission_name(catalog, state),
            "deployment": catalog.battlefield_name(mission.deployment, mission.layout),
            "twist": title_case(catalog.twist(mission.twist).name) if mission.twist else None,
            "details": details,
            "map": links.map if catalog.has_map(mission.deployment) else None,
        },
        "status": status(state),
        "status_text": plain(board.status_line(catalog, state)),
        "round": state.round, "rounds": ROUNDS, "turn": state.turn,
        "phase": board.PHASES[state.phase] if state.status == Status.BATTLE and state.phase else None,
        "active": seat(state, state.active),
        "players": [_player(catalog, state, p, any(w.player == p.id for w in waits)) for p in state.players],
        "waiting_on": waiting,
        "clock": clock(state),
        "recent": recent,
        "result": result(state),
        "sheet": links.sheet if state.status == Status.ENDED else None,
    }


def _player(catalog: Catalog, state: GameState, player: PlayerState, waiting: bool) -> dict:
    army = player.army if player.army is not None and state.status != Status.DISPOSITIONS else None
    role = None
    if state.attacker:
        role = "Attacker" if player.id == state.attacker else "Defender"
    primary = None
    if state.mission.primaries:
        primary = title_case(catalog.primary(state.primary_of(player.id)).name)
    cards = []
    if player.mode:  # revealed: a Fixed choice is secret until then, a Tactical hand is dealt after
        for card_id in player.hand:
            card = catalog.secondary(card_id)
            options = [o for o in card.scoring if o.mode in ("both", player.mode)]
            cards.append({"name": title_case(card.name), "scoring": " / ".join(
                o.label if "VP" in o.label else f"{o.vp}VP {o.label}" for o in options)})
    return {
        "name": player.name, "army": army.label if army else None, "points": army.points if army else None,
        "vp": state.total_vp(player.id), "cp": player.cp, "role": role, "primary": primary,
        "mode": player.mode.title() if player.mode else None,
        "deck": len(player.deck) if player.mode == "tactical" else None,
        "cards": cards, "waiting": waiting,
    }
