"""The live board as Discord shows it: a game's public model (bot/present/model.py) laid out as one embed. Only
Discord's part is here: markdown, colours and the embed's limits."""

from __future__ import annotations

import discord

from bot.present.model import GameModel
from bot.present.words import plain
from bot.ui.markup import description, markdown
from bot.ui.text import clip, field_value

TONES = {
    "setup": discord.Colour.gold(),
    "attacker": discord.Colour.red(),
    "defender": discord.Colour.blue(),
    "over": discord.Colour.dark_grey(),
    "table": discord.Colour.dark_red(),
}


def board_embed(model: GameModel) -> discord.Embed:
    embed = discord.Embed(title=clip(model.title, 256), description=description(model.status_text, model.replay),
                          colour=TONES[model.tone])
    for section in model.sections:
        embed.add_field(name=clip(plain(section.title), 256),
                        value=field_value("\n".join(markdown(line) for line in section.lines)),
                        inline=section.side_by_side)
    embed.set_footer(text=model.footer)
    return embed
