"""The briefing and result card of a table game (Grand Tournament 2020, 4th edition), and the reveal of the
secret selections; its board is the game's public model (bot/present/table.py), as every pack's is.

Only what both players may see is rendered: a secret selection is named only once both are revealed, and the seed
only once the game is over (or from the start, when a player fixed it: a replay).
"""

from __future__ import annotations

import discord

from bot.engine.events import Event
from bot.engine.gt2020.game import BATTLE_READY, GrandTournamentRules
from bot.engine.rng import seed_hash
from bot.engine.table.rules import TableRules
from bot.engine.table.state import END_GAME, Step, TableState
from bot.present import GameModel
from bot.present.table_words import deploys_first
from bot.ui.markup import description, markdown
from bot.ui.table.fourth_edition import level_card, mission_card as fourth_mission_card
from bot.ui.table.gt2020 import gt_mission_card
from bot.ui.text import clip, field_value

COLOUR = discord.Colour.dark_red()


def briefing(model: GameModel, rules: TableRules, state: TableState, events: tuple[Event, ...]
             ) -> list[discord.Embed]:
    """What the players read before they accept: the rolls and the caps, then the pack's own cards of the mission
    (and the level), as /card shows them."""
    lines = [e.text for e in events if e.private_to is None]
    summary = discord.Embed(title=clip(model.title, 256), colour=COLOUR)
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
            lines.append(deploys_first(rules, state))
        cards = [fourth_mission_card(rules.data, rules.data.mission(state.mission))] if state.mission else []
        cards.append(level_card(rules.data, rules.data.level(state.level)))
    summary.description = field_value("\n".join([*lines, *([markdown(model.replay)] if model.replay else [])]))
    return [summary, *cards]


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


def result_embed(model: GameModel, rules: TableRules, state: TableState, sheet_name: str | None) -> discord.Embed:
    """The result card; a game VP do not decide (4th edition Alpha) has no VP table and no score sheet."""
    game_id = model.game
    embed = discord.Embed(title=clip(f"Result — {model.title}", 256), description=description(model.status_text,
                                                                                              model.replay),
                          colour=discord.Colour.dark_gold())
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
