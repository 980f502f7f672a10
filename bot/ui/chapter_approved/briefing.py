"""The mission briefing posted when a game is created, to read at a glance: the mission and deployment, the map,
each Primary scoring line as one line. The full card texts are one `/card` away."""

from __future__ import annotations


import discord

from bot.engine.chapter_approved.catalog import Catalog
from bot.engine.chapter_approved.game import Event
from bot.engine.chapter_approved.objectives import table_objectives
from bot.engine.chapter_approved.state import GameState
from bot.present import GameModel
from bot.present.mission_deck_words import primary_line, supply_drop_text
from bot.present.pictures.map import MAP_FILE, marker_numbers, table_map
from bot.ui.files import attached
from bot.ui.text import clip, field_value, title_case



def briefing(model: GameModel, catalog: Catalog, state: GameState, events: tuple[Event, ...]
             ) -> tuple[list[discord.Embed], list[discord.File]]:
    if not catalog.has_map(state.mission.deployment):
        return [disposition_briefing(model, catalog, state, events)], []
    mission = state.mission
    deployment = catalog.deployment(mission.deployment)
    markers = table_objectives(catalog, state, removed=True)
    numbers = marker_numbers(markers)

    summary = discord.Embed(title=clip(model.title, 256), colour=discord.Colour.gold())
    summary.description = field_value("\n".join(e.text for e in events if e.private_to is None))
    summary.add_field(name=f"Deployment: {deployment.name}", value=field_value("\n".join(
        f"{numbers[m.id]}. {m.name}" for m in markers)), inline=False)
    random_choices = _random_choices(catalog, state)
    if random_choices:
        summary.add_field(name="Random choices", value=field_value(random_choices), inline=False)
    if mission.layouts:
        summary.add_field(name="Terrain layouts (pick one)", value=", ".join(
            catalog.layout(layout).name for layout in mission.layouts), inline=False)
    primary = catalog.primary(mission.primary)
    summary.add_field(name=clip(f"Primary: {title_case(primary.name)}", 256), value=field_value(
        "\n".join(primary_line(o) for o in primary.scoring) or "Scored as its card says."), inline=False)
    cards = [title_case(deployment.name), title_case(primary.name)]
    if mission.twist:
        twist = catalog.twist(mission.twist)
        summary.add_field(name=clip(f"Twist: {title_case(twist.name)}", 256), value=field_value(twist.text),
                          inline=False)
        cards.append(title_case(twist.name))
    summary.set_image(url=f"attachment://{MAP_FILE}")
    summary.set_footer(text=clip("Full card texts and rulings: " + ", ".join(f"/card {name}" for name in cards),
                                 2048))
    return [summary], [attached(table_map(catalog, state))]


def disposition_briefing(model: GameModel, catalog: Catalog, state: GameState, events: tuple[Event, ...]
                         ) -> discord.Embed:
    """CA 2026-27: the Deployment card (known by name: the players set it up from their card), the Twist, and how
    each player's Primary Mission comes; the board shows both side by side once the dispositions are revealed."""
    mission = state.mission
    summary = discord.Embed(title=clip(model.title, 256), colour=discord.Colour.gold())
    summary.description = field_value("\n".join(e.text for e in events if e.private_to is None))
    if mission.deployment:
        deployment = catalog.deployment_card(mission.deployment)
        summary.add_field(name=f"Deployment: {deployment.name}", value=field_value(deployment.text), inline=False)
    else:
        letter = state.setup.layout
        summary.add_field(name=f"Layout {letter}" if letter else "Layout", value=(
            "The pairing's layout card shows the deployment and the terrain"
            + ("." if letter else ": its letter (A, B or C) is drawn once both Force Dispositions are revealed.")),
            inline=False)
    if mission.twist:
        twist = catalog.twist(mission.twist)
        summary.add_field(name=clip(f"Twist: {title_case(twist.name)}", 256), value=field_value(twist.text),
                          inline=False)
    how = ("Set before the game: the board shows each player's Primary Mission and its scoring." if state.primaries
           else "Each player secretly picks a Force Disposition on the board; both are revealed together, and each "
                "player's Primary Mission follows from the two (a Twist may change them).")
    summary.add_field(name="Primary Missions", value=how, inline=False)
    summary.set_footer(text=f"{catalog.title}: the cards' facts in our own words. Powered by 40kdc-data "
                            "(github.com/wn-mitch/40kdc-data).")
    return summary


def _random_choices(catalog: Catalog, state: GameState) -> str:
    mission = state.mission
    lines = []
    if mission.alpha_objective:  # a version-1 game drew them when it was created
        lines.append(f"Supply Drop, drawn at random: {supply_drop_text(catalog, state)}")
    elif catalog.primary(mission.primary).random_setup == "supply_drop":
        lines.append("Supply Drop: the Alpha and Omega objectives are drawn at random at the start of the battle, "
                     "once both armies are deployed.")
    if mission.hidden_supplies_corners:
        corners = ", ".join(mission.hidden_supplies_corners)
        if mission.hidden_supplies_rolloff:
            rolls = ", then ".join(f"{x}–{y}" for x, y in mission.hidden_supplies_rolloff.rolls)
            winner = state.player(mission.hidden_supplies_rolloff.winner).name
            lines.append(f"Hidden Supplies: roll-off {rolls}; {winner} picks the corner the centre marker "
                         f"moves 6\" towards ({corners}).")
        else:
            lines.append(f"Hidden Supplies: No Man's Land touches the {corners} corner(s): move the centre "
                         "marker 6\" towards one of them.")
    return "\n".join(lines)
