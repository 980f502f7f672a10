"""The options of `/game new` as Discord shows them: an open challenge's terms, one line each, and the packs offered
as one types (the options themselves: bot/services/game_options.py)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.armies.check import army_from
from bot.armies.data import army_data
from bot.engine.packs import ChapterApprovedRules, Packs
from bot.services.game_options import GameOptions, pack_choices
from bot.ui.limits import AUTOCOMPLETE_CHOICES


def option_lines(options: GameOptions, packs: Packs) -> list[str]:
    """What a player taking an open challenge's seat agrees to, one line each."""
    rules = packs.rules(options.pack)
    found = [f"**Pack:** {rules.title}"]
    if options.size:
        found.append(f"**Size:** {options.size.replace('-', ' ').title()}")
    found.append(f"**Mission:** {_mission_text(rules, options.mission)}")
    if options.level:
        found.append(f"**Level:** {rules.data.level(options.level).name}")
    if options.twist:
        found.append("**Twist:** a Twist card is drawn")
    if options.deployment:
        found.append(f"**Deployment:** {options.deployment}")
    if options.layout:
        found.append("**Layout:** " + ("drawn for the pairing" if options.layout == "drawn" else options.layout)
                     + ", instead of a Deployment card")
    if options.faction and not (isinstance(rules, ChapterApprovedRules) and rules.catalog.force_dispositions):
        found.append(f"**Challenger's army:** {army_from(army_data(), options.faction, options.detachment).label}")
    if isinstance(rules, ChapterApprovedRules) and rules.catalog.rules.challenger_deck and not options.challenger:
        found.append("**Challenger cards:** off")
    if options.clock:
        then = "the opponent may claim the game" if options.clock_expiry == "claim" else "play on"
        found.append(f"**Chess clock:** {options.clock} minutes each; when a player's time runs out, {then}")
    if options.doubles:
        found.append("**Doubles:** two a side, each side playing as one")
    if options.thread:
        found.append("**Thread:** the game opens in its own thread")
    if options.seed:
        found.append(f"**Replay:** the seed `` {options.seed} `` is fixed, so every shuffle and roll can be known "
                     "in advance. Take it only for a replay or practice game.")
    return found


async def packs_typed(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: the installed packs whose title or id holds what was typed."""
    typed = current.casefold()
    installed = pack_choices(interaction.client.service.packs)  # type: ignore[attr-defined]
    return [app_commands.Choice(name=title, value=pack) for pack, title in installed
            if typed in title.casefold() or typed in pack][:AUTOCOMPLETE_CHOICES]


def _mission_text(rules: Any, mission: str | None) -> str:
    if isinstance(rules, ChapterApprovedRules) and rules.catalog.force_dispositions:
        return "each player's own, from both Force Dispositions"
    if mission is None:
        return "drawn at random" if isinstance(rules, ChapterApprovedRules) else "rolled"
    if isinstance(rules, ChapterApprovedRules):
        return "a random pool mission" if mission == "random" else f"Mission {mission}"
    return next((m.name for m in rules.data.missions if m.id == mission), mission)
