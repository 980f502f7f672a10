"""What a Mission Deck game (Chapter Approved 2025-26 and 2026-27) shows, in words: the mission's title, the
status sentence, each player's lines, the markers moved or removed, who is still to act. Only what both players may
see: a Fixed choice before its reveal, deck order and the seed never appear here."""

from __future__ import annotations

from collections import defaultdict

from bot.engine.chapter_approved import catalog as c
from bot.engine.chapter_approved.catalog import Catalog, ScoringOption
from bot.engine.chapter_approved.objectives import table_markers, table_objectives
from bot.engine.chapter_approved.state import GameState, Phase, PlayerState, PromptKind, Source, Status
from bot.engine.models import settled
from bot.engine.names import size_name, title_case
from bot.present.words import Strong, Struck, Text, words

PHASES = {
    Phase.COMMAND: "Command phase",
    Phase.BATTLE: "Movement → Fight",
    Phase.END_OF_TURN: "End of turn: score now",
    Phase.DISCARDS: "End of turn: discards",
}
SOURCES = {
    Source.PRIMARY: "Primary",
    Source.SECONDARY: "Secondary",
    Source.CHALLENGER: "Challenger",
    Source.BATTLE_READY: "Battle Ready",
}
PROMPTS = {
    PromptKind.OPTIONAL_RESHUFFLE: "may shuffle {card} back and draw again",
    PromptKind.DISCARD_IF: "decides whether to discard {card} (When Drawn)",
    PromptKind.ALPHA_TARGETS: "names the Alpha Targets for {owner}'s {card}",
    PromptKind.GAMMA_TARGET: "names the Gamma Target for {card}",
    PromptKind.TEMPTING_OBJECTIVE: "picks the Tempting Target objective for {owner}",
    PromptKind.ADAPT_KEEP: "keeps one of two cards (Adapt or Die)",
    PromptKind.BEACON_UNIT: "names the unit for {card}",
}
WINDOWS = {
    c.Window.END_OF_COMMAND_PHASE: "end of the Command phase",
    c.Window.END_OF_YOUR_TURN: "end of your turn",
    c.Window.END_OF_OPPONENT_TURN: "end of your opponent's turn",
    c.Window.END_OF_EITHER_TURN: "end of either player's turn",
    c.Window.END_OF_BATTLE_ROUND: "end of the battle round",
    c.Window.WHILE_ACTIVE: "each time it happens while the card is active",
    c.Window.ANY_TIME: "any time",
    c.Window.START_OF_BATTLE: "start of the battle",
    c.Window.END_OF_BATTLE: "end of the battle",
}


def mission_title(catalog: Catalog, state: GameState) -> str:
    where = catalog.battlefield_name(state.mission.deployment, state.mission.layout)
    return f"{size_name(state.setup.size)} — {mission_name(catalog, state)} on {where}"


def mission_name(catalog: Catalog, state: GameState) -> str:
    """The Primary Mission, with its Tournament Mission Pool letter: 'Mission A: Take and Hold'; each player's
    once the Force Dispositions are revealed (CA 2026-27): 'Immovable Object vs Unstoppable Force'."""
    mission = state.mission
    if not state.primaries:
        return "Force Dispositions"
    letter = f"Mission {mission.pool_letter}: " if mission.pool_letter else ""
    return letter + " vs ".join(title_case(catalog.primary(p).name) for p in state.primaries)


def status_line(catalog: Catalog, state: GameState) -> Text:
    match state.status:
        case Status.DISPOSITIONS:
            marks = ", ".join(f"{p.name} {'✅ picked' if p.disposition_choice else '⏳ picking'}"
                              for p in state.players)
            pick = f"Secret Force Disposition pick: {marks}."
            if state.mission.mirror_picks:
                pick += " Mirrored World: " + ", ".join(
                    f"{state.player(p).name} would play {title_case(catalog.primary(m).name)}"
                    for p, m in state.mission.mirror_picks.items()) + " (the same pick by both is played)."
            if any(p.army for p in state.players):
                pick += (" An army's detachments give its disposition, or a choice among theirs; in a pick-up game "
                         "its player may pick another until both have picked.")
            return words(pick)
        case Status.SIDES:
            return words("Setting up: ", Strong(state.player(state.sides_rolloff.winner).name),
                         " won the roll-off and chooses Attacker or Defender.")
        case Status.SECONDARIES:
            marks = ", ".join(f"{p.name} {'✅ chosen' if p.choice else '⏳ choosing'}" for p in state.players)
            return words(f"Secret Secondary Mission choice: {marks}.")
        case Status.DEPLOYMENT:
            order = ("sets up their whole army first" if state.setup.size == "asymmetric-war"
                     else "sets up first, then the players alternate")
            marks = ", ".join(f"{p.name} {'✅ deployed' if p.id in state.deployed else '⏳ deploying'}"
                              for p in state.players)
            return words("Deploy armies: ", Strong(state.player(settled(state.deploys_first)).name),
                         f" {order}. {marks}. The first turn is determined once both have pressed Deployment done.")
        case Status.BATTLE:
            return words("Battle round ", Strong(f"{state.round}/5"), " · ",
                         Strong(state.player(settled(state.active)).name), f"'s turn · {PHASES[settled(state.phase)]}")
        case Status.ENDED:
            result = settled(state.result)
            if result.winner is None:
                return words("The battle ended in a ", Strong("draw"), ".")
            how = {"concession": " by concession", "time": " on time"}.get(result.reason, "")
            return words(Strong(state.player(result.winner).name), f" wins{how}.")
        case Status.ABANDONED:
            return words("This game was abandoned.")
    return ()


def primary_line(option: ScoringOption) -> str:
    """One scoring line of a Primary Mission: "• 2 objectives outside your zone: +5VP · from round 2"."""
    if option.by_round:
        vp = ", ".join(f"{v}VP in round {r}" for r, v in sorted(option.by_round.items()))
    else:
        vp = f"{'+' if option.cumulative else ''}{option.vp}VP"
    if option.per:
        vp = f"{vp} (per {option.per})" if option.by_round else f"{vp} per {option.per}"
    when = [WINDOWS[option.window]] + ([f"from round {option.from_round}"] if option.from_round > 1 else [])
    if option.to_round is not None:
        when.append(f"to round {option.to_round}")
    if option.fifth_round_end_of_turn:
        when.append("in round 5 at the end of your turn")
    if option.max_per_turn:
        when.append(f"up to {option.max_per_turn}VP")
    what = option.label if "VP" in option.label else f"{option.label}: {vp}"  # a label may say its VP already
    return f"• {what} · {', '.join(when)}"


def layout_letter(layout_id: str) -> str:
    """'take-and-hold--purge-the-foe-b' -> 'B': the pairing's layout, as the Event Companion names it."""
    return layout_id.rsplit("-", 1)[1].upper()


def supply_drop_text(catalog: Catalog, state: GameState) -> str:
    mission = state.mission
    names = {o.id: o.name for o in catalog.deployment(mission.deployment).objectives}
    return (f"Alpha objective: {names[settled(mission.alpha_objective)]} (removed at the start of round 4); "
            f"Omega objective: {names[settled(mission.omega_objective)]} (round 5).")


def army_line(state: GameState, player: PlayerState) -> str | None:
    """The player's army, once both may see it (a 2026-27 army is hidden until the Force Dispositions are)."""
    if not player.armies:
        return None
    if state.status == Status.DISPOSITIONS:
        return "Army set (shown with the Force Dispositions)"
    return "🛡️ " + " & ".join(a.label + (f" · {a.points} pts" if a.points is not None else "") for a in player.armies)


def role(state: GameState, player: PlayerState) -> str | None:
    if not state.attacker:
        return None
    return "Attacker" if player.id == state.attacker else "Defender"


def player_heading(state: GameState, player: PlayerState) -> str:
    side = f" ({role(state, player)})" if state.attacker else ""
    return f"{player.name}{side} — {state.total_vp(player.id)}VP"


def player_lines(catalog: Catalog, state: GameState, player: PlayerState) -> tuple[Text, ...]:
    by_source: dict[Source, int] = defaultdict(int)
    lost = 0
    for entry in state.vp:
        if entry.player == player.id:
            by_source[entry.source] += entry.awarded
            lost += entry.lost
    lines = [words(" · ".join(f"{SOURCES[s]} {by_source[s]}" for s in SOURCES if by_source[s]) or "No VP yet")]
    if lost:
        lines.append(words(f"⚠️ {lost}VP lost to caps"))
    army = army_line(state, player)
    if army:
        lines.append(words(army))
    lines.append(words("CP ", Strong(str(player.cp)), " · Battle Ready" if player.battle_ready else ""))
    if state.mission.primaries:  # each player's own Primary Mission (CA 2026-27)
        disposition = catalog.disposition(player.disposition).name if player.disposition else "?"
        lines.append(words("Primary ", Strong(title_case(catalog.primary(state.primary_of(player.id)).name)),
                           f" · {disposition}"))
    if state.challenger == player.id:
        lines.append(words("🎯 ", Strong("Challenger"), " this battle round"))
    if player.challenger_card:
        card = catalog.challenger(player.challenger_card)
        use = " (going for the Mission)" if player.challenger_use == "mission" else ""
        lines.append(words("Challenger card: ", Strong(title_case(card.name)), use))
    if player.mode:
        mode = "Fixed Missions" if player.mode == "fixed" else f"Tactical Missions · {len(player.deck)} in the deck"
        if catalog.rules.swap is not None and player.mode == "tactical":
            mode += " · swap used" if player.swaps_used >= catalog.rules.swap.per_battle else " · swap left"
        lines.append(words(mode))
        objectives = {m.id: m.name for m in table_objectives(catalog, state, removed=True)}
        lines += [card_line(catalog, player, card_id, objectives) for card_id in player.hand]
        if not player.hand:
            lines.append(words("No active Secondary Missions"))
    return tuple(lines)


def card_scoring(catalog: Catalog, player: PlayerState, card_id: str) -> str:
    """How an active Secondary Mission scores in the player's mode: "5VP Overrun / 2VP Hold"."""
    options = [o for o in catalog.secondary(card_id).scoring if o.mode in ("both", player.mode)]
    return " / ".join(o.label if "VP" in o.label else f"{o.vp}VP {o.label}" for o in options)


def card_line(catalog: Catalog, player: PlayerState, card_id: str, objectives: dict[str, str]) -> Text:
    line = words("• ", Strong(title_case(catalog.secondary(card_id).name)),
                 f" — {card_scoring(catalog, player, card_id)}")
    targets = player.targets.get(card_id)
    if targets is not None:
        picked = [*targets.alpha_units, *(f"γ {targets.gamma_unit}" for _ in [0] if targets.gamma_unit)]
        if targets.unit:
            picked.append(targets.unit)
        if targets.objective:  # a marker of the map, or one the players named (no map: CA 2026-27)
            picked.append(f"objective: {objectives.get(targets.objective, targets.objective)}")
        if picked:
            line = words(line, f" [{', '.join(picked)}]")
    return line


def objective_lines(catalog: Catalog, state: GameState) -> tuple[Text, ...]:
    """The markers the mission set up, moved or removed: the deployment card shows the others."""
    if not catalog.has_map(state.mission.deployment):
        return ()
    printed = {m.id: m.name for m in table_markers(catalog.deployment(state.mission.deployment))}
    lines = []
    for marker in table_objectives(catalog, state, removed=True):
        if marker.id in state.removed_objectives:
            lines.append(words("• ", Struck(marker.name), " removed"))
        elif printed.get(marker.id) != marker.name:
            lines.append(words(f"• {marker.name}"))
    return tuple(lines)


def waiting_lines(catalog: Catalog, state: GameState) -> tuple[Text, ...]:
    """Who the game waits on besides the turn: When Drawn questions, scoring still open, the discards."""
    lines = []
    for prompt in state.prompts:
        text = PROMPTS[prompt.kind].format(card=title_case(catalog.secondary(prompt.card).name),
                                           owner=state.player(prompt.owner).name)
        lines.append(words(Strong(state.player(prompt.player).name), f" {text}"))
    if state.phase == Phase.END_OF_TURN:
        closing = [settled(state.active)] if state.setup.legacy else \
            [p.id for p in state.players if p.id not in state.scoring_done]
        lines += [words(Strong(state.player(pid).name), " is still scoring (then presses Done scoring)")
                  for pid in closing]
    if state.phase == Phase.DISCARDS and state.discard_queue:
        player = state.player(state.discard_queue[0])
        may = "may swap a Fixed Mission (Adapt or Die)" if player.mode == "fixed" \
            else "may discard active Secondary Missions"
        lines.append(words(Strong(player.name), f" {may}"))
    return tuple(lines)
