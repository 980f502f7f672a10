"""The words of the public model (bot/present/words.py) in Discord's markdown: marks become markdown, a moment a
timestamp that counts down on every reader's screen, and what players typed (names, units) is escaped, so a name
with an asterisk stays a name."""

from __future__ import annotations

import discord

from bot.present.words import Code, Moment, Span, Strong, Struck, Text


def description(status: Text, replay: Text) -> str:
    """The status sentence and, under it, a replayed seed's mark: how a board and a result card begin."""
    return markdown(status) + ("\n" + markdown(replay) if replay else "")


def markdown(text: Text) -> str:
    return "".join(_markdown(span) for span in text)


def _markdown(span: Span) -> str:
    if isinstance(span, str):
        return discord.utils.escape_markdown(span)
    if isinstance(span, Strong):
        return f"**{discord.utils.escape_markdown(span.text)}**"
    if isinstance(span, Struck):
        return f"~~{discord.utils.escape_markdown(span.text)}~~"
    if isinstance(span, Code):
        return f"`` {span.text} ``"
    if isinstance(span, Moment):
        return f"<t:{span.epoch_s}:R>"
    raise TypeError(span)
