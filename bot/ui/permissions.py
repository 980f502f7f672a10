"""The channel permissions the bot needs, and what each one's absence breaks: read by `/setup check`, and by any
code that must explain a refused post or thread (`missing_permission_text`). Nothing is pinned: the live board
moves to the bottom of the channel instead, so Manage Messages is not needed."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Needed:
    name: str  # as Discord's settings show it
    attr: str  # the discord.Permissions attribute
    breaks: str  # what goes wrong without it, for /setup check
    action: str  # what the bot could not do, for a failure message: "I could not {action}"
    also: tuple[str, ...] = ()  # other attributes that grant the same thing

    def held(self, permissions: discord.Permissions) -> bool:
        return any(getattr(permissions, attr) for attr in (self.attr, *self.also))


NEEDED: tuple[Needed, ...] = (
    Needed("View Channel", "view_channel", "the bot cannot see this channel: nothing works here",
           "see this channel"),
    Needed("Send Messages", "send_messages", "no challenge, board, ping or result can be posted here",
           "post here"),
    Needed("Embed Links", "embed_links", "the board and the briefing are posted without their content",
           "show the board"),
    Needed("Attach Files", "attach_files", "no deployment map, score sheet picture or game log",
           "attach the file"),
    Needed("Read Message History", "read_message_history", "the bot cannot look back at its boards here",
           "find the board"),
    Needed("Create Public Threads", "create_public_threads",
           "`/game new thread:True` and tournament table threads cannot be opened", "open a thread for the game"),
    Needed("Send Messages in Threads", "send_messages_in_threads",
           "games in threads and forum posts get no board or pings", "post in this thread"),
)

BY_ATTR: dict[str, Needed] = {attr: needed for needed in NEEDED for attr in (needed.attr, *needed.also)}


def missing(permissions: discord.Permissions) -> list[Needed]:
    """The needed permissions that `permissions` (e.g. `interaction.app_permissions`) lacks, in table order."""
    return [needed for needed in NEEDED if not needed.held(permissions)]


def missing_permission_text(attr: str) -> str:
    """What to tell a user when Discord refused the bot for lack of `attr` (a discord.Permissions attribute of
    NEEDED), e.g. after a Forbidden on a thread:
    I could not open a thread for the game: I need **Create Public Threads** here. Run `/setup check`."""
    needed = BY_ATTR[attr]
    return f"I could not {needed.action}: I need **{needed.name}** here. Run `/setup check`."


def check_text(permissions: discord.Permissions, where: str) -> str:
    """The answer of `/setup check` for the bot's `permissions` in the channel `where` (a mention)."""
    lacking = missing(permissions)
    if not lacking:
        return f"✅ All set: I have every permission I need in {where}."
    lines = [f"I lack {len(lacking)} permission{'s' if len(lacking) > 1 else ''} in {where}:"]
    lines += [f"- **{needed.name}** — {needed.breaks}" for needed in lacking]
    lines.append("Give them to my role (Server Settings → Roles), or allow them in this channel's permissions, "
                 "then run `/setup check` again.")
    return "\n".join(lines)
