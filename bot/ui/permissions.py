"""The permissions the bot needs in a channel, and what each one missing breaks."""

from __future__ import annotations

NEEDED: dict[str, tuple[str, str]] = {
    "manage_messages": ("Manage Messages", "the board cannot be pinned"),
    "create_public_threads": ("Create Public Threads", "games cannot open in their own thread"),
}


def missing_permission_text(attr: str) -> str:
    name, breaks = NEEDED[attr]
    return f"I need the {name} permission here, or {breaks}. A server admin can run /setup check."
