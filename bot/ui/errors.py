"""The one way the bot tells a user that something they asked for was refused."""

from __future__ import annotations

import logging

import discord

_log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again."


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """Reply to the sender only (ephemeral), whether or not the interaction was answered already.

    Called from error handlers, so a failure to deliver (an expired interaction, say) is logged
    instead of raised: there is nobody left to tell.
    """
    text = message if len(message) <= MESSAGE_LIMIT else message[: MESSAGE_LIMIT - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        _log.warning("Could not deliver an error reply for interaction %s", interaction.id, exc_info=True)
