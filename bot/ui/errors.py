"""The one way the bot tells a user that something they asked for was refused."""

from __future__ import annotations

import logging

import discord
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.engine.errors import GameError
from bot.ui.limits import MESSAGE_CHARS

_log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again."
STORE_FAULT = ("Nothing was recorded: the game's database could not take the change just now (it may be busy, "
               "full or read-only). Please try again in a moment.")


def store_fault(exc: BaseException) -> bool:
    """The database could not read or write (locked past the wait, read-only, full, unreachable): nothing was
    written, and the same request may work once the fault clears. Integrity errors are bugs, not faults."""
    return isinstance(exc, (DBAPIError, PoolTimeout)) and not isinstance(exc, IntegrityError)


async def answer_failure(interaction: discord.Interaction, exc: BaseException, what: str) -> None:
    """Tell the sender why their request did nothing: a refusal's own words, a database fault plainly, anything
    else with an apology (logged, with `what` failed)."""
    if isinstance(exc, GameError):
        await send_error(interaction, exc.message)
    elif store_fault(exc):
        _log.warning("%s: the database could not take it (%s)", what, exc)
        await send_error(interaction, STORE_FAULT)
    else:
        _log.error("%s failed", what, exc_info=exc)
        await send_error(interaction, APOLOGY)


async def reply_privately(interaction: discord.Interaction, content: str, **fields) -> None:
    """A private answer, whether the press was acknowledged already (a "thinking…" it replaces) or not."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **fields)
    else:
        await interaction.response.send_message(content, ephemeral=True, **fields)


async def send_error(interaction: discord.Interaction, message: str) -> None:
    """Reply to the sender only (ephemeral), whether or not the interaction was answered already.

    Called from error handlers, so a failure to deliver (an expired interaction, say) is logged
    instead of raised: there is nobody left to tell.
    """
    text = message if len(message) <= MESSAGE_CHARS else message[: MESSAGE_CHARS - 1] + "…"
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        _log.warning("Could not deliver an error reply for interaction %s", interaction.id, exc_info=True)
