"""Text helpers for Discord's limits; names as printed come from the engine's one function."""

from __future__ import annotations

from bot.engine.names import title_case  # noqa: F401  (the views write names with it)
from bot.ui.limits import EMBED_FIELD_VALUE


def clip(text: str, limit: int) -> str:
    """Cut to Discord's limit, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_value(text: str) -> str:
    return clip(text, EMBED_FIELD_VALUE) or "\u200b"
