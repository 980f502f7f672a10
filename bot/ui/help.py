"""`/help` as an embed per section, switched by a menu on the same private message.

Only commands the bot has registered are shown (see bot/ui/help_text.py), read from its live command tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import discord
from discord import app_commands

from bot.ui.dynamic import CustomId, Persistent
from bot.ui.help_text import ABOUT, SECTIONS, HelpEntry, HelpSection
from bot.ui.limits import EMBED_FIELD_VALUE

COLOUR = discord.Colour.dark_teal()
BY_KEY: dict[str, HelpSection] = {section.key: section for section in SECTIONS}


def registered(tree: app_commands.CommandTree) -> dict[str, app_commands.Command]:
    """Every slash command and subcommand the bot has, by full path ("/tournament round start")."""
    return {f"/{c.qualified_name}": c for c in tree.walk_commands() if isinstance(c, app_commands.Command)}


def available(entry: HelpEntry, commands: Mapping[str, app_commands.Command]) -> bool:
    """The entry's command exists, with the optional options the entry is about."""
    command = commands.get(entry.command)
    if command is None:
        return False
    optional = {p.display_name for p in command.parameters if not p.required}
    return set(entry.options) <= optional


def help_embed(section: HelpSection, shown: Callable[[HelpEntry], bool]) -> discord.Embed:
    """One section, with the entries `shown` keeps."""
    steps = [f"{n}. {step}" for n, step in enumerate(section.steps, 1)]
    embed = discord.Embed(title=f"Mission Deck help · {section.label}", colour=COLOUR,
                          description="\n".join([ABOUT, "", section.intro, *steps]))
    for group in section.groups:
        lines = [entry.shown for entry in group.entries if shown(entry)]
        for n, value in enumerate(_chunks(lines, EMBED_FIELD_VALUE)):
            embed.add_field(name=group.title if n == 0 else f"{group.title} (more)", value=value, inline=False)
    embed.set_footer(text="Pick another part of the help in the menu below. Only you see this message.")
    return embed


def _chunks(lines: Iterable[str], limit: int) -> list[str]:
    """Lines joined into as few texts of at most `limit` characters as they fit in, never cutting a line."""
    chunks: list[str] = []
    for line in lines:
        if chunks and len(chunks[-1]) + 1 + len(line) <= limit:
            chunks[-1] += "\n" + line
        else:
            chunks.append(line)
    return chunks


class HelpMenu(Persistent, discord.ui.DynamicItem[discord.ui.Select], custom_id=CustomId("mdh:menu")):
    """The section menu: a DynamicItem keeps no state, so it works on any /help message, even after a restart."""

    what = "The help menu"

    def __init__(self, current: str = SECTIONS[0].key) -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.custom_ids.format(), placeholder="Another part of the help…",
            options=[discord.SelectOption(label=s.label, value=s.key, description=s.summary, default=s.key == current)
                     for s in SECTIONS],
        ))

    async def act(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(**help_message(interaction.client, self.item.values[0]))


def help_message(client: discord.Client, key: str = SECTIONS[0].key) -> dict:
    """The embed and menu of one section, as keyword arguments for a send or an edit."""
    commands = registered(client.tree)  # type: ignore[attr-defined]
    view = discord.ui.View(timeout=None)
    view.add_item(HelpMenu(key))
    return {"embed": help_embed(BY_KEY[key], lambda entry: available(entry, commands)), "view": view}
