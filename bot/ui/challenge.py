"""A game set up and offered to its two players: /game new and a tournament table both start one here."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.errors import GameError
from bot.services.games import ActResult
from bot.ui.controls import GameButton, view_of
from bot.ui.threads import new_thread

ACCEPT_QUESTION = "\nAccept?"  # the challenge's last line, until it is answered


async def open_thread(client: discord.Client, channel: discord.TextChannel, name: str,
                      players: list[discord.abc.Snowflake], reason: str) -> discord.Thread:
    """A public thread from `channel` with the players in it."""
    place = await new_thread(client, channel, name, reason)
    for player in players:
        await place.add_user(player)
    return place


async def start_game(client: discord.Client, guild_id: int | None, place: discord.abc.Messageable, setup: Any, *,
                     thread: bool) -> ActResult:
    """Start the game in `place`, its secret seed committed before anything is dealt. A refused game leaves no
    thread behind."""
    try:
        result = await client.service.start_game(guild_id, place.id, setup)  # type: ignore[attr-defined]
    except GameError:
        if thread:
            await place.delete()  # type: ignore[attr-defined]
        raise
    return result


async def offer_game(client: discord.Client, guild_id: int | None, place: discord.abc.Messageable,
                     setup: Any, content: str, pinged: list[discord.abc.Snowflake], *,
                     thread: bool, accept: str = "accept") -> tuple[ActResult, dict[str, Any]]:
    """Start the game in `place` and build its challenge, which the second player accepts (`accept`: the verb of
    the seat that accepts, "accept-first" for the challenger's), pinging exactly `pinged`: the message to post."""
    result = await start_game(client, guild_id, place, setup, thread=thread)
    return result, await challenge(client, result, content, pinged, accept=accept)


async def challenge(client: discord.Client, game: ActResult, content: str, pinged: list[discord.abc.Snowflake], *,
                    accept: str = "accept") -> dict[str, Any]:
    """A game's challenge, with its briefing and its Accept and Decline buttons."""
    view = view_of(GameButton(game.game_id, game.version, accept), GameButton(game.game_id, game.version, "decline"))
    briefing = await client.desk.briefing(game)  # type: ignore[attr-defined]
    return dict(content=content + ACCEPT_QUESTION, view=view, allowed_mentions=discord.AllowedMentions(users=pinged),
                **briefing)
