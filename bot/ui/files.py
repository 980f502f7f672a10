"""A picture (bot/present/pictures) as Discord attaches it."""

from __future__ import annotations

import io

import discord

from bot.present.pictures import Picture


def attached(picture: Picture) -> discord.File:
    return discord.File(io.BytesIO(picture.png), filename=picture.name)
