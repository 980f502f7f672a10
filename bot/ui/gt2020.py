"""A Grand Tournament 2020 mission as players read it: the roll, the briefing, the objectives and what comes next."""

from __future__ import annotations

import discord

from bot.engine.gt2020.catalog import GrandTournament, Objective
from bot.engine.gt2020.missions import RolledGtMission
from bot.ui.text import clip, field_value

COLOUR = discord.Colour.dark_red()
KINDS = {"progressive": "Progressive", "end-game": "End Game", "progressive-and-end-game": "Progressive and End Game"}


def objective_text(objective: Objective) -> str:
    return "\n".join((f"*{KINDS[objective.kind]} Objective.* {objective.flavour}", *objective.text))


def gt_mission_embed(pack: GrandTournament, rolled: RolledGtMission) -> discord.Embed:
    mission = pack.mission(rolled.mission)
    size = rolled.size.replace("-", " ").title()
    if rolled.d33 is None:
        how = f"**{mission.name}** (chosen)"
    else:
        tens, units = rolled.d33
        how = f"D33: {tens} then {units} = **{tens}{units}** → **{mission.name}**"
    embed = discord.Embed(title=f"Grand Tournament 2020: {mission.name} ({size})", colour=COLOUR,
                          description=f"{how}. Battlefield at least {pack.pack.battlefields[rolled.size]}.")
    embed.add_field(name="Mission briefing", value=field_value("\n".join(mission.briefing)), inline=False)
    if mission.rules:
        embed.add_field(name="Mission rules", value=field_value("\n".join(mission.rules)), inline=False)
    for primary in mission.primaries:
        embed.add_field(name=f"Primary objective: {primary.name}", value=field_value(objective_text(primary)),
                        inline=False)
    secondary = mission.secondary
    category = pack.category(secondary.category).name if secondary.category else "category not given in the pack"
    embed.add_field(name=f"Mission secondary: {secondary.name} ({category})", value=field_value(
        "\n".join((mission.secondary_intro, objective_text(secondary)))), inline=False)
    caps = pack.pack.caps
    embed.add_field(name="Next", value=field_value("\n".join((
        f"• Each player secretly selects {pack.pack.secondaries_selected} secondary objectives, at most one per "
        f"category ({', '.join(c.name for c in pack.categories)}); then both reveal them.",
        f"• {pack.pack.attacker_and_defender} (`/rolloff`)",
        f"• After deployment: {pack.pack.first_turn} (`/rolloff`)",
        f"• Caps: {caps.primary}VP primary, {caps.each_secondary}VP each secondary, "
        f"{caps.secondaries}VP secondaries, {caps.battle_ready}VP Battle Ready, {caps.total}VP in all.",
    ))), inline=False)
    for note in mission.notes:
        embed.add_field(name="Designer's note", value=field_value(note.split(":", 1)[-1].strip()), inline=False)
    embed.set_footer(text=clip(f"Seed {rolled.seed}: the D33 is the stream labelled gt:d33 (README, Verify a game).",
                               2048))
    return embed
