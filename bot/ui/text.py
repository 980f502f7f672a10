"""Text helpers for Discord's limits and the seed's upper-case card names."""

from __future__ import annotations

FIELD_LIMIT = 1024
SMALL_WORDS = {"a", "an", "and", "the", "of", "or", "for", "to", "at", "by", "on", "in"}


def clip(text: str, limit: int) -> str:
    """Cut to Discord's limit, marking the cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def field_value(text: str) -> str:
    return clip(text, FIELD_LIMIT) or "\u200b"


def size_name(size: str) -> str:
    """'strike-force' -> 'Strike Force', as the pack prints a game size."""
    return size.replace("-", " ").title()


def title_case(name: str) -> str:
    """'NO MAN’S LAND' -> 'No Man’s Land'; names already in mixed case are kept."""
    if name != name.upper():
        return name
    words = name.lower().split(" ")
    return " ".join(
        w if i and w in SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words)
    )
