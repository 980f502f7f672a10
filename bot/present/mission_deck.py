"""The public model of a Mission Deck game (Chapter Approved 2025-26 and 2026-27): its board's sections, in the
words of mission_deck_words.py, and the facts a page reads."""

from __future__ import annotations

import bot.present.mission_deck_words as w
from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.state import GameState, PlayerState, Status
from bot.engine.names import title_case
from bot.present.asks import Wait, ask, mission_deck_waits
from bot.present.common import Links, clock, clock_lines, replay_line, result, seat, status
from bot.present.model import GameModel, Section
from bot.present.words import Text, plain, words

ROUNDS = 5
RECENT_SHOWN = 6  # the board's Latest: the newest lines (a page shows all it has)


def model(catalog: Catalog, state: GameState, *, game_id: int, version: int, recent: list[str],
          links: Links) -> GameModel:
    mission = state.mission
    waits = {Wait.of(flat) for flat in mission_deck_waits(state)}
    objectives, waiting = w.objective_lines(catalog, state), w.waiting_lines(catalog, state)
    details = [plain(line) for line in objectives]
    if mission.alpha_objective:
        details.append(w.supply_drop_text(catalog, state))
    if mission.layout:
        details.append(f"Layout {w.layout_letter(mission.layout)}")
    asked = tuple(words(f"{state.player(x.player).name}, {ask(lambda _: catalog, state, x.player, x)}")
                  for x in sorted(waits))
    return GameModel(
        game=game_id, version=version, family="mission-deck", title=w.mission_title(catalog, state),
        status=status(state), status_text=w.status_line(catalog, state), replay=replay_line(state),
        tone=_tone(state),
        mission={
            "primary": w.mission_name(catalog, state),
            "deployment": catalog.battlefield_name(mission.deployment, mission.layout),
            "twist": title_case(catalog.twist(mission.twist).name) if mission.twist else None,
            "details": details,
            "map": links.map if catalog.has_map(mission.deployment) else None,
        },
        round=state.round, rounds=ROUNDS, turn=state.turn,
        phase=w.PHASES[state.phase] if state.status == Status.BATTLE and state.phase else None,
        active=seat(state, state.active),
        players=tuple(_player(catalog, state, p, any(x.player == p.id for x in waits)) for p in state.players),
        waiting_on=waiting + asked,
        clock=clock(state), recent=tuple(recent), result=result(state),
        sheet=links.sheet if state.status == Status.ENDED else None,
        sections=_sections(catalog, state, recent, objectives, waiting),
        footer=f"Game {game_id} · move {version}" + (  # the seed's commitment is in the briefing, once
            f" · seed {state.setup.seed}" if state.status in (Status.ENDED, Status.ABANDONED) else ""),
    )


def _sections(catalog: Catalog, state: GameState, recent: list[str], objectives: tuple[Text, ...],
              waiting: tuple[Text, ...]) -> tuple[Section, ...]:
    mission = state.mission
    found: list[Section] = []

    def add(title: str | Text, lines: tuple[Text, ...], side_by_side: bool = False) -> None:
        found.append(Section(words(title) if isinstance(title, str) else title, lines, side_by_side))

    if mission.twist:
        add("Twist", (words(title_case(catalog.twist(mission.twist).name)),), True)
    if mission.layouts:
        add("Terrain layouts", (words(", ".join(catalog.layout(layout).name for layout in mission.layouts)),), True)
    if mission.layout:
        add("Layout", (words(w.layout_letter(mission.layout)),), True)
    if mission.primaries and state.status in (Status.SIDES, Status.SECONDARIES, Status.DEPLOYMENT):
        for player in state.players:  # side by side with their scoring, read before the battle
            primary = catalog.primary(state.primary_of(player.id))
            add(f"{player.name}: {title_case(primary.name)}",
                tuple(words(w.primary_line(o)) for o in primary.scoring) or (words("Scored as its card says."),),
                True)
    if objectives:
        add("Objective markers", objectives)
    if mission.alpha_objective:
        add("Supply Drop", (words(w.supply_drop_text(catalog, state)),))
    for player in state.players:
        add(w.player_heading(state, player), w.player_lines(catalog, state, player))
    if state.clock is not None:
        add("Clock", clock_lines(state))
    if waiting:
        add("Waiting for", waiting)
    if recent:
        add("Latest", tuple(words(line) for line in recent[-RECENT_SHOWN:]))
    return tuple(found)


def _tone(state: GameState) -> str:
    if state.status in (Status.ENDED, Status.ABANDONED):
        return "over"
    if state.status != Status.BATTLE:
        return "setup"
    return "attacker" if state.active == state.attacker else "defender"


def _player(catalog: Catalog, state: GameState, player: PlayerState, waiting: bool) -> dict:
    armies = player.armies if state.status != Status.DISPOSITIONS else ()  # doubles: both of the side's
    primary = None
    if state.mission.primaries:
        primary = title_case(catalog.primary(state.primary_of(player.id)).name)
    cards = []
    if player.mode:  # revealed: a Fixed choice is secret until then, a Tactical hand is dealt after
        cards = [{"name": title_case(catalog.secondary(card_id).name),
                  "scoring": w.card_scoring(catalog, player, card_id)} for card_id in player.hand]
    return {
        "name": player.name, "army": " & ".join(a.label for a in armies) or None,
        "points": sum(a.points for a in armies) if armies and all(a.points is not None for a in armies) else None,
        "vp": state.total_vp(player.id), "cp": player.cp, "role": w.role(state, player), "primary": primary,
        "mode": player.mode.title() if player.mode else None,
        "deck": len(player.deck) if player.mode == "tactical" else None,
        "cards": cards, "waiting": waiting,
    }
