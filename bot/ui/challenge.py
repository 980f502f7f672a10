"""A game set up and offered to its two players: /game new and a tournament table both start one here."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.errors import GameError
from bot.engine.packs import is_mission_deck
from bot.service import ActResult
from bot.ui.briefing import briefing
from bot.ui.controls import GameButton, view_of
from bot.ui.table_board import briefing as table_briefing


async def open_thread(channel: discord.TextChannel, name: str, players: list[discord.abc.Snowflake],
                      reason: str) -> discord.Thread:
    """A public thread from `channel` with the players in it."""
    place = await channel.create_thread(name=name[:100], type=discord.ChannelType.public_thread, reason=reason)
    for player in players:
        await place.add_user(player)
    return place


async def offer_game(client: discord.Client, guild_id: int | None, place: discord.abc.Messageable,
                     setup: Any, content: str, pinged: list[discord.abc.Snowflake], *,
                     thread: bool) -> tuple[ActResult, dict[str, Any]]:
    """Start the game in `place` and build its challenge (the second player accepts), pinging exactly
    `pinged`: the message to post. A refused game leaves no thread behind."""
    try:
        result = await client.service.start_game(guild_id, place.id, setup)  # type: ignore[attr-defined]
    except GameError:
        if thread:
            await place.delete()  # type: ignore[attr-defined]
        raise
    client.desk.note(result.game_id, result.events)  # type: ignore[attr-defined]
    if is_mission_deck(result.state):
        catalog = client.desk.catalog_of(result.state)  # type: ignore[attr-defined]
        embeds, files = briefing(catalog, result.state, result.events)
    else:
        rules = client.service.packs.rules(result.state.pack)  # type: ignore[attr-defined]
        embeds, files = table_briefing(rules, result.state, result.events), []
    view = view_of(GameButton(result.game_id, result.version, "accept"),
                   GameButton(result.game_id, result.version, "decline"))
    return result, dict(content=content + "\nAccept?", embeds=embeds, files=files, view=view,
                        allowed_mentions=discord.AllowedMentions(users=pinged))
