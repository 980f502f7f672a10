"""Armies at the table in Discord: the form a player sets their army with (what it asks: bot/present/offers.py; the
move it makes: bot/services/armies.py), the list shown as one short embed (its full text a press away), and the
autocomplete of factions and detachments.

Everything a player typed is shown escaped (markdown and mentions), and list messages mention nobody."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.armies.check import TYPED_SEPARATOR, CheckedList, typed_detachments
from bot.armies.data import ArmyData, Detachment, army_data, choices
from bot.armies.lists import MAX_FILE_BYTES, ListError
from bot.engine.errors import GameError
from bot.engine.names import normalised
from bot.ui.dynamic import CustomId, Persistent
from bot.ui.errors import reply_privately
from bot.present.offers import ARMY_FORM, army_values
from bot.services.armies import army_move
from bot.ui.forms import Form
from bot.ui.text import clip, field_value
from bot.ui.limits import AUTOCOMPLETE_CHOICES, EMBED_FOOTER, EMBED_TITLE

if TYPE_CHECKING:
    from bot.ui.desk_api import Desk

FULL_TEXT_CHUNK = 1900  # a code block's text per message, under the 2,000-character limit
NO_PINGS = discord.AllowedMentions.none()


def escaped(text: str) -> str:
    """A player's text, shown as written: no markdown, no mention."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


async def read_attachment(attachment: discord.Attachment) -> tuple[str, bytes]:
    """An attached list's name and bytes, refused before download when too large."""
    if attachment.size > MAX_FILE_BYTES:
        raise ListError(f"That file is {attachment.size // 1000:,} KB: a list file is at most "
                        f"{MAX_FILE_BYTES // 1000:,} KB.")
    return attachment.filename, await attachment.read()


def list_embed(checked: CheckedList, owner: str) -> discord.Embed:
    """A list at a glance: army, size and points, the units on a few lines, then its flags."""
    names = checked.detachment_names or ((checked.detachment_name,) if checked.detachment_name else ())
    title = checked.faction_name + (f" — {' + '.join(names)}" if names else "")
    size = checked.battle_size.replace("-", " ").title() if checked.battle_size else "Battle size not stated"
    stated = f" (the list says {checked.points_stated})" if checked.points_stated not in (None, checked.points) else ""
    description = f"{escaped(owner)}'s list" + (f" **{escaped(checked.name)}**" if checked.name else "") + \
        f"\n{size} · **{checked.points} pts**{stated} · {len(checked.units)} units"
    embed = discord.Embed(title=clip(title, EMBED_TITLE), description=description, colour=discord.Colour.dark_teal())
    units = " · ".join(
        (("👑 " if u.warlord else "") + escaped(u.name) + (f" ×{u.models}" if u.models > 1 else "")
         + (f" ({', '.join(escaped(e) for e in u.enhancements)})" if u.enhancements else "")
         + f" {u.data_points if u.data_points is not None else u.points or '?'}") for u in checked.units)
    embed.add_field(name="Units", value=field_value(units), inline=False)
    if checked.flags:
        embed.add_field(name=f"⚠️ {len(checked.flags)} to check",
                        value=field_value("\n".join(f"• {escaped(flag)}" for flag in checked.flags)), inline=False)
    embed.set_footer(text=clip(f"{army_data().credit}. Points are recomputed from that data, which may lag an "
                               "update.", EMBED_FOOTER))
    return embed


def full_text(text: str, checked: CheckedList) -> list[str]:
    """The list in full, as messages of code blocks: the text as given, or for a file its checked units."""
    if not text or text.startswith("(from "):
        text = "\n".join(f"{u.name} ×{u.models} {u.data_points or u.points or '?'} pts"
                         + (f" ({', '.join(u.enhancements)})" if u.enhancements else "") for u in checked.units)
    text = text.replace("```", "'''")  # nothing typed closes the block early
    return [f"```\n{text[i:i + FULL_TEXT_CHUNK]}\n```" for i in range(0, len(text), FULL_TEXT_CHUNK)] or ["```\n```"]


class FullList(Persistent, discord.ui.DynamicItem[discord.ui.Button], custom_id=CustomId("mdl:{list_id}")):
    """Shows a list's full text to whoever presses it: it is only ever on a message that showed them the list."""

    what = "Full list {list_id}"

    def __init__(self, list_id: int, label: str = "Full list") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.secondary,
                                           custom_id=self.custom_ids.format(list_id=list_id)))
        self.list_id = list_id

    async def act(self, interaction: discord.Interaction) -> None:
        found = await interaction.client.service.lists.get(self.list_id)  # type: ignore[attr-defined]
        if found is None:
            raise GameError("That list is no longer kept.")
        row, checked = found
        pages = full_text(row.text, checked)
        await reply_privately(interaction, pages[0], allowed_mentions=NO_PINGS)
        for page in pages[1:]:
            await interaction.followup.send(page, ephemeral=True, allowed_mentions=NO_PINGS)


def list_message(checked: CheckedList, owner: str, list_id: int) -> dict:
    view = discord.ui.View(timeout=None)
    view.add_item(FullList(list_id))
    return dict(embed=list_embed(checked, owner), view=view, allowed_mentions=NO_PINGS)


async def set_army(desk: Desk, interaction: discord.Interaction, game_id: int, *, faction: str | None,
                   detachment: str | None, text: str | None = None, file: tuple[str, bytes] | None = None) -> None:
    """The player's army from Discord (a form, /army set): its list's flags are told to them alone."""
    move, checked = await army_move(desk.service, str(interaction.user.id), interaction.guild_id, game_id,
                                    faction=faction, detachment=detachment, text=text, file=file)
    result = await desk.perform(interaction, move, game_id=game_id)
    if result is not None and checked is not None and checked.flags:
        await interaction.followup.send(**list_message(checked, interaction.user.display_name, move.army.list_id),
                                        ephemeral=True)


class ArmyForm(Form):
    """Your army in a game: faction and detachment typed, and optionally the list pasted."""

    def __init__(self, desk: Desk, game_id: int) -> None:
        super().__init__(ARMY_FORM)
        self.desk, self.game_id = desk, game_id

    async def submit(self, interaction: discord.Interaction, values: dict[str, str]) -> None:
        await set_army(self.desk, interaction, self.game_id, **army_values(values))


async def factions_typed(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    data = army_data()
    return [app_commands.Choice(name=name, value=fid)
            for fid, name in choices(current, {f.id: f.name for f in data.factions.values()}, AUTOCOMPLETE_CHOICES)]


async def detachments_typed(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The typed faction's detachments, each with its Force Disposition (marked where the data is provisional). Several
    may be typed, parted by commas or "and": the last one typed is completed, after those before it."""
    data = army_data()
    try:
        faction = data.faction(interaction.namespace.faction or "")
    except GameError:
        return []
    detachments = {d.id: d for d in data.detachments_of(faction.id)}
    before, last = typed_before(data, faction.id, current)

    def choice(*chosen: Detachment) -> app_commands.Choice[str]:
        d = chosen[-1]
        disposition = (d.disposition or "").replace("-", " ").title()
        name = " + ".join(c.name for c in chosen) + f" · {disposition}" + (" (provisional)" if d.provisional else "")
        return app_commands.Choice(name=clip(name, 100), value=", ".join(c.id for c in chosen))

    found = [choice(*before, detachments[did]) for did, _ in
             choices(last, {d.id: d.name for d in detachments.values() if d not in before}, AUTOCOMPLETE_CHOICES)]
    if before:  # what was typed may yet be one name holding "and" ("Legends of Saga and So")
        key = normalised(current)
        whole = [choice(d) for d in detachments.values() if key in normalised(d.name) and normalised(d.name) != key]
        found = (whole + found)[:AUTOCOMPLETE_CHOICES]
    return found


def typed_before(data: ArmyData, faction: str, current: str) -> tuple[list[Detachment], str]:
    """What is typed in a detachment option: the detachments named before the last part (those that name one),
    and the last part, still being typed."""
    parts = TYPED_SEPARATOR.split(current)
    if len(parts) < 2 or parts[-1].strip() and data.owners_of_detachment(current):  # one name holding "and"
        return [], current
    before: list[Detachment] = []
    for part in parts[:-1]:
        try:
            found = typed_detachments(data, faction, part)
        except GameError:
            continue
        before += [d for d in found if d not in before]
    return before, parts[-1]
