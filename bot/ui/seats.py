"""The seat a Discord user acts for: their own, or in doubles their side's, whichever partner presses."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.errors import GameError
from bot.engine.sides import only_players, seat_of


def acting_seat(interaction: discord.Interaction, setup: Any, what: str = "use its buttons") -> str:
    """The seat the presser plays; anyone else is refused, saying they cannot `what`."""
    seat = seat_of(setup, str(interaction.user.id))
    if seat is None:
        raise GameError(f"{only_players(setup)} can {what}.")
    return seat
