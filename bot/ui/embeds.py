"""Embeds that always fit Discord's limits: the content cut on paragraph, line or word bounds into further fields,
and a note when something had to be dropped. Every pack's cards are built with it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.ui.text import clip
from bot.ui.limits import EMBED_CHARS, EMBED_DESCRIPTION, EMBED_FIELDS, EMBED_FIELD_NAME, EMBED_FIELD_VALUE, EMBED_FOOTER, EMBED_TITLE

TRUNCATED_NOTE = "The card is too long for one message: see the printed Mission Deck for the rest."


@dataclass(frozen=True)
class Section:
    name: str
    value: str
    inline: bool = False


def build_embed(
    *, title: str, description: str, sections: Iterable[Section], colour: discord.Colour, footer: str
) -> discord.Embed:
    """An embed holding as much of the content as Discord accepts, cut on paragraph or word bounds.

    Description overflow and long section values continue in further fields; whatever cannot fit
    in 25 fields or 6000 characters is dropped and a note says so.
    """
    title = clip(title, EMBED_TITLE)
    footer = clip(footer, EMBED_FOOTER)
    note_cost = len("Truncated") + len(TRUNCATED_NOTE)
    parts = split_text(description, min(EMBED_DESCRIPTION, EMBED_CHARS - len(title) - len(footer) - note_cost))
    overflow = split_text("\n\n".join(parts[1:]), EMBED_FIELD_VALUE)
    fields: list[tuple[str, str, bool]] = [("(continued)", part, False) for part in overflow]
    for section in sections:
        for index, part in enumerate(split_text(section.value, EMBED_FIELD_VALUE)):
            name = section.name if index == 0 else f"{section.name} (continued)"
            fields.append((clip(name, EMBED_FIELD_NAME), part, section.inline))

    embed = discord.Embed(title=title, description=parts[0] if parts else None, colour=colour)
    budget = EMBED_CHARS - len(title) - len(footer) - len(embed.description or "")
    for position, (name, value, inline) in enumerate(fields):
        last = position == len(fields) - 1
        room_needed = len(name) + len(value) + (0 if last else note_cost)
        if len(embed.fields) >= EMBED_FIELDS - (0 if last else 1) or room_needed > budget:
            embed.add_field(name="Truncated", value=TRUNCATED_NOTE, inline=False)
            break
        embed.add_field(name=name, value=value, inline=inline)
        budget -= len(name) + len(value)
    embed.set_footer(text=footer)
    return embed




def split_text(text: str, limit: int) -> list[str]:
    """Pieces of at most `limit` characters, cut between paragraphs, then lines, then words."""
    text = text.strip()
    pieces: list[str] = []
    while len(text) > limit:
        cut = _cut_point(text, limit)
        pieces.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    if text:
        pieces.append(text)
    return pieces


def _cut_point(text: str, limit: int) -> int:
    window = text[: limit + 1]
    for separator in ("\n\n", "\n", " "):
        at = window.rfind(separator, 0, limit)
        if at > limit // 2:
            return at
    return limit
