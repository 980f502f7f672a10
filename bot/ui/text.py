"""Text helpers for Discord's limits; names as printed come from the engine's one function."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.engine.names import title_case  # noqa: F401  (the views write names with it)
from bot.ui.limits import EMBED_FIELD_VALUE, MENTIONED_USERS


def clip(text: str, limit: int) -> str:
    """Cut to Discord's limit, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_value(text: str) -> str:
    return clip(text, EMBED_FIELD_VALUE) or "\u200b"


def pinging(users: Iterable[str | int], *, role: int | None = None) -> discord.AllowedMentions:
    """Mentions that notify exactly `users` (as many as Discord lets one message notify) and `role` if given: no
    other role, no everyone."""
    return discord.AllowedMentions(everyone=False, roles=[discord.Object(role)] if role else False,
                                   replied_user=False,
                                   users=[discord.Object(int(u)) for u in list(users)[:MENTIONED_USERS]])
