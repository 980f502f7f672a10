"""The game board: one embed per game, edited in place, showing everything players need at a glance.

Only what both players may see is rendered: a Fixed choice before reveal, deck order and the seed
never appear (a bot-made seed only once the game has ended; a seed a player fixed marks a replay).
"""

from __future__ import annotations

from collections import defaultdict

import discord

from bot.engine.chapter_approved.catalog import Catalog, ScoringOption
from bot.engine.chapter_approved.objectives import table_markers, table_objectives
from bot.engine.chapter_approved.state import GameState, Phase, PlayerState, PromptKind, Source, Status
from bot.ui.board_lines import clock_text, replay_mark
from bot.ui.chapter_approved.cards import WINDOWS
from bot.ui.text import clip, field_value, size_name, title_case

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


def status_line(catalog: Catalog, state: GameState) -> str:
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
            return pick
        case Status.SIDES:
            return f"Setting up: **{state.player(state.sides_rolloff.winner).name}** won the roll-off and " \
                   "chooses Attacker or Defender."
        case Status.SECONDARIES:
            marks = ", ".join(f"{p.name} {'✅ chosen' if p.choice else '⏳ choosing'}" for p in state.players)
            return f"Secret Secondary Mission choice: {marks}."
        case Status.DEPLOYMENT:
            first = state.player(state.deploys_first).name
            order = ("sets up their whole army first" if state.setup.size == "asymmetric-war"
                     else "sets up first, then the players alternate")
            marks = ", ".join(f"{p.name} {'✅ deployed' if p.id in state.deployed else '⏳ deploying'}"
                              for p in state.players)
            return (f"Deploy armies: **{first}** {order}. {marks}. "
                    "The first turn is determined once both have pressed Deployment done.")
        case Status.BATTLE:
            active = state.player(state.active).name
            return f"Battle round **{state.round}/5** · **{active}**'s turn · {PHASES[state.phase]}"
        case Status.ENDED:
            result = state.result
            if result.winner is None:
                return "The battle ended in a **draw**."
            how = {"concession": " by concession", "time": " on time"}.get(result.reason, "")
            return f"**{state.player(result.winner).name}** wins{how}."
        case Status.ABANDONED:
            return "This game was abandoned."
    return ""


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
    return (f"Alpha objective: {names[mission.alpha_objective]} (removed at the start of round 4); "
            f"Omega objective: {names[mission.omega_objective]} (round 5).")


def army_line(state: GameState, player: PlayerState) -> str | None:
    """The player's army, once both may see it (a 2026-27 army is hidden until the Force Dispositions are)."""
    if player.army is None:
        return None
    if state.status == Status.DISPOSITIONS:
        return "Army set (shown with the Force Dispositions)"
    points = f" · {player.army.points} pts" if player.army.points is not None else ""
    return f"🛡️ {player.army.label}{points}"


def player_field(catalog: Catalog, state: GameState, player: PlayerState) -> tuple[str, str]:
    by_source: dict[Source, int] = defaultdict(int)
    lost = 0
    for entry in state.vp:
        if entry.player == player.id:
            by_source[entry.source] += entry.awarded
            lost += entry.lost
    role = ""
    if state.attacker:
        role = " (Attacker)" if player.id == state.attacker else " (Defender)"
    total = state.total_vp(player.id)
    name = f"{player.name}{role} — {total}VP"
    lines = [" · ".join(f"{SOURCES[s]} {by_source[s]}" for s in SOURCES if by_source[s]) or "No VP yet"]
    if lost:
        lines.append(f"⚠️ {lost}VP lost to caps")
    army = army_line(state, player)
    if army:
        lines.append(army)
    lines.append(f"CP **{player.cp}**" + (" · Battle Ready" if player.battle_ready else ""))
    if state.mission.primaries:  # each player's own Primary Mission (CA 2026-27)
        disposition = catalog.disposition(player.disposition).name if player.disposition else "?"
        lines.append(f"Primary **{title_case(catalog.primary(state.primary_of(player.id)).name)}** · {disposition}")
    if state.challenger == player.id:
        lines.append("🎯 **Challenger** this battle round")
    if player.challenger_card:
        card = catalog.challenger(player.challenger_card)
        use = " (going for the Mission)" if player.challenger_use == "mission" else ""
        lines.append(f"Challenger card: **{title_case(card.name)}**{use}")
    if player.mode:
        mode = "Fixed Missions" if player.mode == "fixed" else f"Tactical Missions · {len(player.deck)} in the deck"
        if catalog.rules.swap is not None and player.mode == "tactical":
            mode += " · swap used" if player.swaps_used >= catalog.rules.swap.per_battle else " · swap left"
        lines.append(mode)
        objectives = {m.id: m.name for m in table_objectives(catalog, state, removed=True)}
        for card_id in player.hand:
            lines.append(_card_line(catalog, player, card_id, objectives))
        if not player.hand:
            lines.append("No active Secondary Missions")
    return clip(name, 256), field_value("\n".join(lines))


def _card_line(catalog: Catalog, player: PlayerState, card_id: str, objectives: dict[str, str]) -> str:
    card = catalog.secondary(card_id)
    options = [o for o in card.scoring if o.mode in ("both", player.mode)]
    scoring = " / ".join(o.label if "VP" in o.label else f"{o.vp}VP {o.label}" for o in options)
    line = f"• **{title_case(card.name)}** — {scoring}"
    targets = player.targets.get(card_id)
    if targets is not None:
        picked = [*targets.alpha_units, *(f"γ {targets.gamma_unit}" for _ in [0] if targets.gamma_unit)]
        if targets.unit:
            picked.append(targets.unit)
        if targets.objective:  # a marker of the map, or one the players named (no map: CA 2026-27)
            picked.append(f"objective: {objectives.get(targets.objective, targets.objective)}")
        if picked:
            line += f" [{', '.join(picked)}]"
    return line


def objectives_line(catalog: Catalog, state: GameState) -> str | None:
    """The markers the mission set up, moved or removed: the deployment card shows the others."""
    if not catalog.has_map(state.mission.deployment):
        return None
    printed = {m.id: m.name for m in table_markers(catalog.deployment(state.mission.deployment))}
    lines = []
    for marker in table_objectives(catalog, state, removed=True):
        if marker.id in state.removed_objectives:
            lines.append(f"• ~~{marker.name}~~ removed")
        elif printed.get(marker.id) != marker.name:
            lines.append(f"• {marker.name}")
    return "\n".join(lines) or None


def waiting_for(catalog: Catalog, state: GameState) -> str | None:
    lines = []
    for prompt in state.prompts:
        text = PROMPTS[prompt.kind].format(card=title_case(catalog.secondary(prompt.card).name),
                                           owner=state.player(prompt.owner).name)
        lines.append(f"**{state.player(prompt.player).name}** {text}")
    if state.phase == Phase.END_OF_TURN:
        closing = [state.active] if state.setup.legacy else \
            [p.id for p in state.players if p.id not in state.scoring_done]
        for pid in closing:
            lines.append(f"**{state.player(pid).name}** is still scoring (then presses Done scoring)")
    if state.phase == Phase.DISCARDS and state.discard_queue:
        player = state.player(state.discard_queue[0])
        may = "may swap a Fixed Mission (Adapt or Die)" if player.mode == "fixed" \
            else "may discard active Secondary Missions"
        lines.append(f"**{player.name}** {may}")
    return "\n".join(lines) or None


def board_embed(catalog: Catalog, state: GameState, *, game_id: int, version: int,
                recent: list[str] | None = None) -> discord.Embed:
    embed = discord.Embed(title=clip(mission_title(catalog, state), 256),
                          description=status_line(catalog, state) + replay_mark(state), colour=_colour(state))
    if state.mission.twist:
        embed.add_field(name="Twist", value=title_case(catalog.twist(state.mission.twist).name), inline=True)
    if state.mission.layouts:
        embed.add_field(name="Terrain layouts", value=", ".join(
            catalog.layout(layout).name for layout in state.mission.layouts), inline=True)
    if state.mission.layout:
        embed.add_field(name="Layout", value=layout_letter(state.mission.layout), inline=True)
    if state.mission.primaries and state.status in (Status.SIDES, Status.SECONDARIES, Status.DEPLOYMENT):
        for player in state.players:  # side by side with their scoring, read before the battle
            primary = catalog.primary(state.primary_of(player.id))
            embed.add_field(name=clip(f"{player.name}: {title_case(primary.name)}", 256), value=field_value(
                "\n".join(primary_line(o) for o in primary.scoring) or "Scored as its card says."), inline=True)
    objectives = objectives_line(catalog, state)
    if objectives:
        embed.add_field(name="Objective markers", value=field_value(objectives), inline=False)
    if state.mission.alpha_objective:
        embed.add_field(name="Supply Drop", value=supply_drop_text(catalog, state), inline=False)
    for player in state.players:
        name, value = player_field(catalog, state, player)
        embed.add_field(name=name, value=value, inline=False)
    if state.clock is not None:
        embed.add_field(name="Clock", value=clock_text(state), inline=False)
    waiting = waiting_for(catalog, state)
    if waiting:
        embed.add_field(name="Waiting for", value=field_value(waiting), inline=False)
    if recent:
        embed.add_field(name="Latest", value=field_value("\n".join(recent[-6:])), inline=False)
    footer = f"Game {game_id} · move {version}"  # the seed's commitment is in the briefing, once
    if state.status in (Status.ENDED, Status.ABANDONED):
        footer += f" · seed {state.setup.seed}"
    embed.set_footer(text=footer)
    return embed


def _colour(state: GameState) -> discord.Colour:
    if state.status in (Status.ENDED, Status.ABANDONED):
        return discord.Colour.dark_grey()
    if state.status != Status.BATTLE:
        return discord.Colour.gold()
    return discord.Colour.red() if state.active == state.attacker else discord.Colour.blue()
