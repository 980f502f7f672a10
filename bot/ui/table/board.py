"""The briefing, board and result card of a table game (Grand Tournament 2020, 4th edition): the same board
message and buttons as a Chapter Approved game, drawn from the pack's state.

Only what both players may see is rendered: a secret selection shows as "selected" until both are revealed, and
the seed only once the game is over (or from the start, when a player fixed it: a replay).
"""

from __future__ import annotations

import discord

from bot.engine.events import Event
from bot.engine.gt2020.game import BATTLE_READY, GrandTournamentRules
from bot.engine.rng import seed_hash
from bot.engine.table.rules import TableRules
from bot.engine.table.state import END_GAME, Seat, Step, TableState
from bot.ui.board_lines import clock_text, replay_mark
from bot.ui.table.fourth_edition import level_card, mission_card as fourth_mission_card
from bot.ui.table.gt2020 import KINDS, gt_mission_card
from bot.ui.text import clip, field_value

COLOUR = discord.Colour.dark_red()


def mission_title(rules: TableRules, state: TableState) -> str:
    if isinstance(rules, GrandTournamentRules):
        size = (state.setup.size or "").replace("-", " ").title()
        return f"{rules.title}: {rules.mission(state).name} ({size})"
    level = rules.data.level(state.level).name
    mission = rules.data.mission(state.mission).name if state.mission else "mission to choose"
    return f"{rules.title}: {mission} · {level}"


def briefing(rules: TableRules, state: TableState, events: tuple[Event, ...]) -> list[discord.Embed]:
    """What the players read before they accept: the rolls and the caps, then the pack's own cards of the mission
    (and the level), as /card shows them."""
    lines = [e.text for e in events if e.private_to is None]
    summary = discord.Embed(title=clip(mission_title(rules, state), 256), colour=COLOUR)
    if isinstance(rules, GrandTournamentRules):
        caps = rules.data.pack.caps
        lines.append(f"Caps: {caps.primary}VP primary, {caps.each_secondary}VP each secondary, {caps.secondaries}VP "
                     f"secondaries, {caps.battle_ready}VP Battle Ready, {caps.total}VP in all.")
        lines.append("Deployment map: the pack draws it in a picture that its text lost, so the bot cannot: set up the "
                     "deployment zones and objective markers from the mission's page in your copy of the pack.")
        cards = [gt_mission_card(rules.data, rules.mission(state))]
    else:
        if state.strategy_roll is not None:
            lines.append(f"Strategy Roll {state.strategy_roll.text}: "
                         f"**{state.player(state.strategy_roll.winner).name}** chooses the mission.")
        if state.mission is not None:
            lines.append(_deploys_first(rules, state))
        cards = [fourth_mission_card(rules.data, rules.data.mission(state.mission))] if state.mission else []
        cards.append(level_card(rules.data, rules.data.level(state.level)))
    summary.description = field_value("\n".join(lines) + replay_mark(state))
    return [summary, *cards]


def status_line(rules: TableRules, state: TableState) -> str:
    name = lambda player: state.player(player).name  # noqa: E731
    match state.status:
        case Step.MISSION:
            return f"**{name(state.strategy_roll.winner)}** won the Strategy Roll and chooses the mission."
        case Step.SECONDARIES:
            marks = ", ".join(f"{p.name} {'✅ selected' if p.secret else '⏳ selecting'}" for p in state.players)
            return f"Secret selection of secondary objectives: {marks}."
        case Step.SIDES:
            return f"**{name(state.sides_rolloff.winner)}** won the roll-off and decides who is the Attacker."
        case Step.DEPLOYMENT:
            return (f"Deployment: {_deploys_first(rules, state)} Press Deployment done when set up "
                    f"({_marks(state, state.deployed)}).")
        case Step.FIRST_TURN:
            roll = state.first_turn_rolloff
            return f"First turn roll-off {roll.text}: **{name(roll.winner)}** chooses to go first or second."
        case Step.BATTLE:
            phase = " · Command phase" if state.command_phase and state.setup.version >= 3 else ""
            return f"Battle round {state.round} of {state.battle_rounds} · **{name(state.active)}**'s turn{phase}."
        case Step.ROUND_END:
            scorers = [p for p in state.players if p.id in rules.round_scorers(state)]
            marks = ", ".join(f"{p.name} {'✅' if p.id in state.scoring_done else '⏳'}" for p in scorers)
            return (f"Battle round {state.round} is over: score what scores at the end of the battle round, then "
                    f"Done scoring ({marks}).")
        case Step.END_GAME:
            return (f"The battle is over: score End Game objectives, then Done scoring "
                    f"({_marks(state, state.scoring_done)}).")
    return rules.result_line(state)


def _marks(state: TableState, confirmed: tuple[str, ...]) -> str:
    """Each player's name, marked as having confirmed the step or not yet."""
    return ", ".join(f"{p.name} {'✅' if p.id in confirmed else '⏳'}" for p in state.players)


def _deploys_first(rules: TableRules, state: TableState) -> str:
    if state.attacker is not None:
        return f"the Defender, {state.player(state.defender).name}, selects a zone and sets up first."
    roll = state.set_up_roll
    if roll is None or state.mission is None:
        return ""
    loser = state.opponent(roll.winner).id
    first = roll.winner if rules.data.mission(state.mission).deploys_first == "winner" else loser
    return f"{state.player(roll.winner).name} won the set-up roll-off ({roll.text}) and chooses; " \
           f"{state.player(first).name} deploys first."


def player_field(rules: TableRules, state: TableState, seat: Seat) -> tuple[str, str]:
    side = ""
    if state.attacker is not None:
        side = " (Attacker)" if seat.id == state.attacker else " (Defender)"
    vp = f"**{state.total_vp(seat.id)}VP**" if rules.scores_vp(state) else "The mission's objective decides"
    lines = [vp + (f" · {seat.cp}CP" if rules.has_cp else "") + (" · Battle Ready" if seat.battle_ready else "")]
    if seat.army is not None:
        lines.append(f"🛡️ {seat.army.label}" + (f" · {seat.army.points} pts" if seat.army.points is not None else ""))
    for objective in rules.objectives(state, seat.id):
        scored = sum(t.awarded for t in state.vp if t.player == seat.id and t.objective == objective.id)
        lines.append(f"{objective.name}: {scored}VP ({KINDS[objective.kind]})")
    lost = sum(t.lost for t in state.vp if t.player == seat.id)
    if lost:
        lines.append(f"Lost to caps: {lost}VP")
    return f"{seat.name}{side}", "\n".join(lines)


def board_embed(rules: TableRules, state: TableState, *, game_id: int, version: int,
                recent: list[str]) -> discord.Embed:
    embed = discord.Embed(title=clip(mission_title(rules, state), 256),
                          description=status_line(rules, state) + replay_mark(state), colour=COLOUR)
    for seat in state.players:
        name, value = player_field(rules, state, seat)
        embed.add_field(name=clip(name, 256), value=field_value(value), inline=True)
    if state.clock is not None:
        embed.add_field(name="Clock", value=clock_text(state), inline=False)
    if recent:
        embed.add_field(name="Latest", value=field_value("\n".join(recent)), inline=False)
    # The same words as every pack's board (bot/ui/chapter_approved/board.py).
    embed.set_footer(text=f"Game {game_id} · move {version}")  # the seed's commitment is in the briefing, once
    return embed


def rounds_text(rules: TableRules, state: TableState) -> str:
    """Each player's VP by battle round (for the result card), the Battle Ready bonus apart from End Game scores."""
    lines = []
    for seat in state.players:
        cells = []
        for rnd in [*range(1, state.battle_rounds + 1), END_GAME]:
            vp = sum(t.awarded for t in state.vp if t.player == seat.id and t.round == rnd
                     and t.objective != BATTLE_READY)
            cells.append(f"{'End' if rnd == END_GAME else rnd}: {vp}")
        ready = [t for t in state.vp if t.player == seat.id and t.objective == BATTLE_READY]
        if ready:
            cells.append(f"Battle Ready: {sum(t.awarded for t in ready)}")
        lines.append(f"**{seat.name}**: " + " · ".join(cells) + f" → {state.total_vp(seat.id)}VP")
    return "\n".join(lines)


def result_embed(rules: TableRules, state: TableState, game_id: int, sheet_name: str | None) -> discord.Embed:
    """The result card; a game VP do not decide (4th edition Alpha) has no VP table and no score sheet."""
    embed = discord.Embed(title=clip(f"Result — {mission_title(rules, state)}", 256),
                          description=status_line(rules, state) + replay_mark(state), colour=discord.Colour.dark_gold())
    if rules.scores_vp(state):
        embed.add_field(name="VP by battle round", value=field_value(rounds_text(rules, state)), inline=False)
    seed = state.setup.seed
    embed.add_field(name="Verify the game", value=field_value(
        f"Seed `` {seed} `` — SHA-256 `{seed_hash(seed)}` (the hash shown since the start). `/game log`, then "
        f"`python -m bot verify game-{game_id}.json` re-derives every roll ('Verify a game' in the docs)."),
        inline=False)
    if sheet_name is None:
        embed.set_footer(text=f"Game {game_id} · /game log for the full log")
        return embed
    embed.set_image(url=f"attachment://{sheet_name}")
    embed.set_footer(text=f"Game {game_id} · /game log for the full log · /game sheet for this picture")
    return embed


def reveal_text(rules: TableRules, before: TableState | None, after: TableState) -> str | None:
    """The secret selections, revealed together to both players (None: not revealed now)."""
    if before is None or before.status != Step.SECONDARIES or after.status == Step.SECONDARIES:
        return None
    if any(not seat.objectives for seat in after.players):
        return None
    lines = [f"<@{seat.id}>: " + ", ".join(rules.objective_name(after, seat.id, o) for o in seat.objectives)
             for seat in after.players]
    return "🎯 Secondary objectives revealed:\n" + "\n".join(lines)
