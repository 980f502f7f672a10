"""An export (bot/present/exports.py) as a Discord attachment."""

from __future__ import annotations

import io

import discord


def csv_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)
